# difflib and pprint for comparing configs and printing nested structures:
# unified_diff of two small lists of lines, ndiff, SequenceMatcher ratio and
# opcodes, get_close_matches for "did you mean", and pprint/pformat with width,
# sort_dicts and depth.
import difflib
import pprint

old = ["lr: 0.1", "epochs: 10", "batch: 32", "optimizer: sgd"]
new = ["lr: 0.01", "epochs: 10", "batch: 32", "optimizer: adamw", "warmup: 100"]
for line in difflib.unified_diff(old, new, fromfile="a/config.yaml", tofile="b/config.yaml", lineterm=""):
    print(line)
print(list(difflib.ndiff(["one", "two"], ["one", "tw0"])))
sm = difflib.SequenceMatcher(None, "kitten", "sitting")
print(round(sm.ratio(), 6), sm.get_opcodes())
print(difflib.get_close_matches("lerning_rate", ["learning_rate", "warmup_steps", "lr_decay", "learn_rate"]))
print(difflib.get_close_matches("epoch", ["epochs", "eval"], n=1, cutoff=0.8), difflib.get_close_matches("zzz", ["a"]))
print(list(difflib.context_diff(["a\n", "b\n"], ["a\n", "c\n"], "x", "y")))

config = {
    "model": {"name": "gpt", "n_layer": 12, "n_head": 12, "n_embd": 768, "vocab": list(range(12))},
    "optimizer": {"betas": (0.9, 0.95), "lr": 6e-4, "weight_decay": 0.1},
    "data": ["train.bin", "val.bin"],
    "aaa_first_key": None,
}
pprint.pprint(config)
print(pprint.pformat(config, width=40))
print(pprint.pformat(config, sort_dicts=False, width=100))
print(pprint.pformat(config, depth=1), pprint.pformat(config, depth=2, compact=True, width=60), sep="\n")
print(pprint.pformat(list(range(30)), compact=True, width=50))
print(pprint.pformat("a long string " * 8, width=40))
pp = pprint.PrettyPrinter(indent=4, width=30)
pp.pprint({"k": [1, 2, 3], "nested": {"x": "y" * 10, "z": 1}})
print(pprint.isreadable(config), pprint.saferepr({"r": [1]}))
