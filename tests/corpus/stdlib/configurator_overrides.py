# nanoGPT's configurator pattern: module-level defaults, a config "file" run
# with exec() over globals(), and --key=value overrides parsed with
# ast.literal_eval and type-checked against the default; the result collected
# from globals() into a config dict.
from ast import literal_eval

batch_size = 12
block_size = 1024
learning_rate = 6e-4
compile = True
dataset = "openwebtext"
betas = (0.9, 0.95)
config_keys = [k for k, v in globals().items() if not k.startswith("_") and isinstance(v, (int, float, bool, str, tuple))]

config_file = """
# train a miniature character-level shakespeare model
dataset = 'shakespeare_char'
batch_size = 64
block_size = 256
"""
argv = ["--batch_size=32", "--compile=False", "--learning_rate=1e-3", "--betas=(0.8, 0.99)", "--bogus=1", "--dataset=tiny"]
print(f"Overriding config with config file:\n{config_file.strip()}")
exec(config_file)
for arg in argv:
    assert arg.startswith("--")
    key, val = arg.split("=")
    key = key[2:]
    if key in globals():
        try:
            attempt = literal_eval(val)
        except (SyntaxError, ValueError):
            attempt = val
        if type(attempt) != type(globals()[key]):
            print(f"type mismatch for {key}: {type(attempt).__name__} vs {type(globals()[key]).__name__}")
            continue
        print(f"Overriding: {key} = {attempt}")
        globals()[key] = attempt
    else:
        print(f"Unknown config key: {key}")
config = {k: globals()[k] for k in config_keys}
print(config)
print(sorted(config_keys))
for text in ["3", "3.5", "'s'", "[1, {'a': (2, None)}]", "True", "-1e-3", "__import__('os')", "1 +"]:
    try:
        print(repr(text), "->", repr(literal_eval(text)))
    except (ValueError, SyntaxError) as e:
        print(repr(text), "->", type(e).__name__)
