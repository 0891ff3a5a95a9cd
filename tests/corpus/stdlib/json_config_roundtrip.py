# json for configs and metrics files: dumps with indent and sort_keys, loads,
# a nested config round-tripped through a file in a temp dir, separators for
# compact output, and how tuples, None, bools and floats come back.
import json
import os
import tempfile

config = {
    "model": {"n_layer": 12, "n_head": 12, "dropout": 0.1, "bias": False},
    "optimizer": {"name": "adamw", "betas": (0.9, 0.95), "lr": 6e-4, "weight_decay": 1e-1},
    "data": {"dataset": "shakespeare_char", "splits": ["train", "val"], "cache": None},
    "seed": 1337,
}
s = json.dumps(config)
print(s)
print(json.dumps(config, indent=2, sort_keys=True))
print(json.dumps(config["model"], separators=(",", ":")))
back = json.loads(s)
print(back == config, back["optimizer"]["betas"], type(back["optimizer"]["betas"]).__name__)
config["optimizer"]["betas"] = list(config["optimizer"]["betas"])
print(json.loads(s) == config)
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "config.json")
    with open(path, "w") as f:
        json.dump(config, f, indent=4)
    with open(path) as f:
        loaded = json.load(f)
    print(loaded == config, os.path.getsize(path))
    metrics = os.path.join(tmp, "metrics.jsonl")
    with open(metrics, "w") as f:
        for step in range(3):
            f.write(json.dumps({"step": step, "loss": round(1 / (step + 1), 4)}) + "\n")
    with open(metrics) as f:
        rows = [json.loads(line) for line in f]
    print(rows, max(rows, key=lambda r: r["step"]))
print(json.dumps([1.0, 1e-7, 1e16, 3.14159, -0.0, 10**20, True, None, "tab\t", "é"]))
print(json.dumps("é ✓", ensure_ascii=False), json.dumps({1: "int key", 2.5: "float"}))
print(json.loads('{"a": [1, 2.5, "x", true, false, null], "b": {"c": -1e3}}'))
print(json.loads("3"), json.loads('"s"'), json.loads("NaN"), json.dumps(float("inf")))
