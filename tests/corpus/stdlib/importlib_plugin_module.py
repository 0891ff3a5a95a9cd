# Loading user code at run time as experiment launchers do: writing a module
# into a temp dir, putting that dir on sys.path and importing it, reloading it
# after an edit, importing by dotted name with importlib.import_module, loading
# from a file path with spec_from_file_location, and sys.modules bookkeeping.
import importlib
import importlib.util
import os
import sys
import tempfile

with tempfile.TemporaryDirectory() as tmp:
    with open(os.path.join(tmp, "my_plugin.py"), "w") as f:
        f.write("NAME = 'v1'\ndef build(dim):\n    return {'dim': dim, 'name': NAME}\n")
    os.makedirs(os.path.join(tmp, "models"))
    with open(os.path.join(tmp, "models", "__init__.py"), "w") as f:
        f.write("REGISTRY = {}\n")
    with open(os.path.join(tmp, "models", "mlp.py"), "w") as f:
        f.write("from . import REGISTRY\nREGISTRY['mlp'] = lambda: 'MLP()'\nprint('  models.mlp imported as', __name__)\n")
    sys.path.insert(0, tmp)
    try:
        import my_plugin
        print(my_plugin.build(8), "my_plugin" in sys.modules, os.path.basename(my_plugin.__file__))
        with open(os.path.join(tmp, "my_plugin.py"), "w") as f:
            f.write("NAME = 'v2-edited'\ndef build(dim):\n    return {'dim': dim * 2, 'name': NAME}\n")
        importlib.invalidate_caches()
        my_plugin = importlib.reload(my_plugin)
        print(my_plugin.build(8))
        mlp = importlib.import_module("models.mlp")
        models = sys.modules["models"]
        print(sorted(models.REGISTRY), models.REGISTRY["mlp"](), mlp.__name__, mlp.__package__)
        importlib.import_module("models.mlp")
        print("second import is cached:", importlib.import_module("models.mlp") is mlp)
        path = os.path.join(tmp, "config_file.py")
        with open(path, "w") as f:
            f.write("batch_size = 64\nlr = 3e-4\n")
        spec = importlib.util.spec_from_file_location("run_config", path)
        cfg = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(cfg)
        print(cfg.__name__, cfg.batch_size, cfg.lr, "run_config" in sys.modules)
        try:
            importlib.import_module("models.missing")
        except ModuleNotFoundError as e:
            print(type(e).__name__, e, e.name)
        try:
            import no_such_top_level_module_xyz  # noqa: F401
        except ImportError as e:
            print(type(e).__name__, e)
    finally:
        sys.path.remove(tmp)
        for name in ["my_plugin", "models", "models.mlp"]:
            sys.modules.pop(name, None)
print(tmp not in sys.path, "my_plugin" in sys.modules, importlib.util.find_spec("json").name, importlib.util.find_spec("nope_xyz"))
