//! What an embedder adds to the interpreter: native modules (Rust, through
//! RustPython's `#[pymodule]`) and Python modules whose sources it holds in
//! memory, found by a finder placed first on `sys.meta_path`, so that they
//! win over `Lib/` and the program's folder. The torch surface arrives this
//! way; this crate itself knows nothing of it.

use rustpython_vm::builtins::PyModuleDef;
use rustpython_vm::{Context, PyObjectRef, PyResult, VirtualMachine};
use std::cell::RefCell;
use std::rc::Rc;

/// A native module's definition, as `#[pymodule]` generates it
/// (`my_module::module_def`).
pub type NativeModule = fn(&Context) -> &'static PyModuleDef;

/// A Python module the embedder serves from memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleSource {
    /// The file name its tracebacks show.
    pub filename: String,
    /// Whether it is a package (its submodules are looked up here too).
    pub is_package: bool,
    pub source: String,
}

/// Looks up a module by its full dotted name.
pub type FindModule = Rc<dyn Fn(&str) -> Option<ModuleSource>>;

/// Called once the program's code has ended (normally or not), before the
/// interpreter tears down, with the `__main__` module's globals.
pub type AtEnd = Rc<dyn Fn(&VirtualMachine, &rustpython_vm::builtins::PyDictRef)>;

/// What the embedder adds to every interpreter [`crate::run`] builds.
#[derive(Clone, Default)]
pub struct Extensions {
    pub native: Vec<NativeModule>,
    pub find_module: Option<FindModule>,
    pub at_end: Option<AtEnd>,
    /// File-name prefixes whose frames an uncaught exception's traceback
    /// leaves out: the embedder's glue, standing for what is native code in
    /// the library it mirrors (whose frames CPython never shows).
    pub hidden_frames: Vec<String>,
}

/// The standard library's modules from `read`, which gives the text of a
/// file of `Lib/` by its path there (`json/__init__.py`), or `None`: what an
/// embedder serves where the interpreter has no path finder of its own (the
/// browser). Tracebacks name the files under `shown` (`/lib/python3.14`).
pub fn library(shown: &str, read: impl Fn(&str) -> Option<String> + 'static) -> FindModule {
    let shown = shown.trim_end_matches('/').to_owned();
    Rc::new(move |name: &str| {
        let base = name.replace('.', "/");
        let package = format!("{base}/__init__.py");
        let (path, is_package, source) = match read(&package) {
            Some(source) => (package, true, source),
            None => {
                let module = format!("{base}.py");
                let source = read(&module)?;
                (module, false, source)
            }
        };
        Some(ModuleSource {
            filename: format!("{shown}/{path}"),
            is_package,
            source,
        })
    })
}

thread_local! {
    /// The running program's module lookup (one interpreter per thread):
    /// the embedder's modules, then the standard library's where it is
    /// served rather than read from a folder.
    static FIND: RefCell<[Option<FindModule>; 2]> = const { RefCell::new([None, None]) };
}

pub(crate) fn begin(find: Option<FindModule>, stdlib: Option<FindModule>) {
    FIND.with(|f| *f.borrow_mut() = [find, stdlib]);
}

pub(crate) fn end() {
    FIND.with(|f| *f.borrow_mut() = [None, None]);
}

/// The run's lookup, taken off the thread while the run is parked
/// (`park.rs`).
pub(crate) fn take() -> [Option<FindModule>; 2] {
    FIND.with(|f| std::mem::take(&mut *f.borrow_mut()))
}

pub(crate) fn put(find: [Option<FindModule>; 2]) {
    FIND.with(|f| *f.borrow_mut() = find);
}

/// `_tpu_host.find_module(name)`: `(filename, is_package, source)`, or None.
pub(crate) fn find(name: &str, vm: &VirtualMachine) -> PyResult<PyObjectRef> {
    let found = FIND.with(|f| f.borrow().iter().flatten().find_map(|find| find(name)));
    Ok(match found {
        None => vm.ctx.none(),
        Some(m) => vm
            .ctx
            .new_tuple(vec![
                vm.ctx.new_str(m.filename).into(),
                vm.ctx.new_bool(m.is_package).into(),
                vm.ctx.new_str(m.source).into(),
            ])
            .into(),
    })
}

/// The finder and loader, in Python: `importlib`'s own protocol, so
/// `importlib.util.find_spec`, `__spec__` and relative imports behave as
/// they do for files.
pub(crate) const FINDER: &str = r#"
import sys, _tpu_host
# importlib's own class, from its frozen bootstrap: `importlib` itself is in
# `Lib/`, which this finder may be what serves.
import _frozen_importlib
from _frozen_importlib import ModuleSpec

# Whether importlib has its path machinery (natively): a spec "has a
# location" only then, since asking its `cached` needs it. `__file__` is set
# below either way.
_LOCATED = _frozen_importlib._bootstrap_external is not None

class _HostModules:
    @classmethod
    def find_spec(cls, name, path=None, target=None):
        found = _tpu_host.find_module(name)
        if found is None:
            return None
        filename, is_package, source = found
        spec = ModuleSpec(name, cls, origin=filename, is_package=is_package)
        spec.has_location = _LOCATED
        spec.loader_state = source
        if is_package:
            spec.submodule_search_locations = []
        return spec

    @classmethod
    def create_module(cls, spec):
        return None

    @classmethod
    def exec_module(cls, module):
        spec = module.__spec__
        module.__file__ = spec.origin
        code = compile(spec.loader_state, spec.origin, "exec")
        exec(code, module.__dict__)

    @classmethod
    def get_source(cls, name):
        found = _tpu_host.find_module(name)
        return None if found is None else found[2]

sys.meta_path.insert(0, _HostModules)
"#;
