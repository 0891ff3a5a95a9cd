# Puts the in-memory files (memfs.rs, through posix.rs and posix.py) under
# `os`, `open` and `import`, before anything imports `os`.
import sys, _tpu_posix, _frozen_importlib
from _frozen_importlib import ModuleSpec

for _name in ("os", "os.path", "posixpath", "_pyio"):
    assert _name not in sys.modules, _name
sys.modules["posix"] = _tpu_posix
if "posix" not in sys.builtin_module_names:
    sys.builtin_module_names = tuple(sorted(sys.builtin_module_names + ("posix",)))

# `open` is CPython's own, from `_pyio`: its raw files are `_pyio.FileIO`,
# over `os.open` and so these files (RustPython's `FileIO` reads the host's
# descriptors, and is absent on wasm32), buffered and decoded by the native
# `_io` classes as `_io.open` does, so they behave and fail as CPython's do.
import _pyio, io, _io, builtins
_host_open_code = getattr(_io, "open_code", None)
for _name in ("BufferedReader", "BufferedWriter", "BufferedRandom", "TextIOWrapper"):
    setattr(_pyio, _name, getattr(_io, _name))
builtins.open = io.open = _io.open = _pyio.open
io.FileIO = _pyio.FileIO
# What importlib's file loaders read sources with (`spec_from_file_location`):
# these files, else (natively) the host's, where `Lib/` is. They write no
# bytecode caches here.


def _open_code(path):
    try:
        return _pyio.open(path, "rb")
    except FileNotFoundError:
        if _host_open_code is None:
            raise
        return _host_open_code(path)


_io.open_code = io.open_code = _open_code
sys.dont_write_bytecode = True


class _FilesFinder:
    """Modules and packages in these files, on `sys.path` (a folder the
    program put there) or a package's path: the path finder's part, which
    reads the host's folders. Last on `sys.meta_path`."""

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        import os
        tail = name.rpartition(".")[2]
        for entry in sys.path if path is None else path:
            if not isinstance(entry, str):
                continue
            base = os.path.join(entry or ".", tail)
            for file, package in ((os.path.join(base, "__init__.py"), True), (base + ".py", False)):
                if os.path.isfile(file):
                    spec = ModuleSpec(name, cls, origin=os.path.abspath(file), is_package=package)
                    spec.has_location = _frozen_importlib._bootstrap_external is not None
                    if package:
                        spec.submodule_search_locations = [os.path.abspath(base)]
                    return spec
        return None

    @classmethod
    def create_module(cls, spec):
        return None

    @classmethod
    def exec_module(cls, module):
        source = cls.get_source(module.__name__, module.__spec__.origin)
        module.__file__ = module.__spec__.origin
        exec(compile(source, module.__file__, "exec"), module.__dict__)

    @classmethod
    def get_source(cls, name, origin=None):
        if origin is None:
            origin = cls.find_spec(name).origin
        with open(origin, encoding="utf-8") as f:
            return f.read()


sys.meta_path.append(_FilesFinder)

# Without the host's files (wasm32) importlib never installs its path
# machinery, whose module-level helpers (`spec_from_file_location`, the file
# loaders) still need their bootstrap module; now `posix` is this one, they
# can have it.
import _frozen_importlib_external
if _frozen_importlib_external._bootstrap is None:
    _frozen_importlib_external._set_bootstrap_module(_frozen_importlib)
    _frozen_importlib._bootstrap_external = _frozen_importlib_external

# No sockets here: `select` (which `selectors`, `socketserver` and so
# `logging.config` import) is a stand-in whose calls fail as an unsupported
# platform's would.
try:
    import select as _select
except ImportError:
    import types as _types
    _select = _types.ModuleType("select", "No sockets or pipes to wait on in the browser.")
    _select.error = OSError

    def _no_select(*args, **kwargs):
        raise OSError(38, "Function not implemented: there is nothing to wait on here")

    _select.select = _no_select
    sys.modules["select"] = _select
