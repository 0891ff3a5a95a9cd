# configparser for INI-style experiment configs: read_string with sections and
# DEFAULT, typed getters (getint/getfloat/getboolean), fallbacks, interpolation,
# writing back to a StringIO, and the errors for missing sections/options.
import configparser
import io

ini = """
[DEFAULT]
base_dir = /data
seed = 0

[data]
path = %(base_dir)s/train
batch_size = 64
shuffle = yes

[model]
name = resnet18
dropout = 0.25
layers = 64, 128, 256
pretrained = off

[optim]
lr = 3e-4
"""
cfg = configparser.ConfigParser()
cfg.read_string(ini)
print(cfg.sections(), cfg.has_section("data"), "model" in cfg, cfg.defaults())
print(cfg["data"]["path"], cfg.get("data", "path", raw=True), cfg.getint("data", "batch_size"), cfg.getboolean("data", "shuffle"))
print(cfg.getfloat("model", "dropout"), cfg.getboolean("model", "pretrained"), [int(x) for x in cfg["model"]["layers"].split(",")])
print(cfg.getfloat("optim", "lr"), cfg.getint("optim", "seed"), cfg.get("optim", "momentum", fallback="0.9"))
print(cfg["optim"].getfloat("momentum", 0.8), list(cfg["optim"].keys()), dict(cfg["optim"]))
cfg.set("optim", "momentum", "0.95")
cfg["scheduler"] = {"name": "cosine", "warmup": "500"}
cfg.remove_option("model", "layers")
out = io.StringIO()
cfg.write(out)
print(out.getvalue())
for bad in [lambda: cfg.get("missing", "x"), lambda: cfg.get("data", "missing"), lambda: cfg.getint("model", "name")]:
    try:
        bad()
    except (configparser.Error, ValueError) as e:
        print(type(e).__name__, e)
try:
    configparser.ConfigParser().read_string("[a]\nx=1\n[a]\n")
except configparser.DuplicateSectionError as e:
    print(type(e).__name__, e)
raw = configparser.RawConfigParser()
raw.read_string("[s]\nfmt = %(name)s\nKey = Value\n")
print(raw.get("s", "fmt"), raw.get("s", "key"), raw.options("s"))
print(cfg.read(["/no/such/file.ini"]), cfg.BOOLEAN_STATES["on"])
