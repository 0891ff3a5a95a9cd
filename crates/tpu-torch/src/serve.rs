//! The prelude as importable modules: each module of the tree
//! (`crates/tpu-torch/prelude/`, `prelude.rs`) is served as a small generated body that
//! starts from the module's Rust attributes, binds the built-ins the prelude
//! shadows (`_py_sum`, ...), runs the module's files in order in its one
//! namespace (each under its own file name, its lines in `linecache` for
//! tracebacks), then imports what the package imports with it. The standard
//! library is not served here: CPython's own comes from `Lib/`.

use crate::prelude::{SHADOWED_BUILTINS, imported_with, is_missing_submodule, library_files};
use tpu_python::ModuleSource;

/// What tracebacks show before a prelude file's path.
pub(crate) const FILE_PREFIX: &str = "<tpu-playground>/";

/// The file names of this crate's glue (`python/`), under `FILE_PREFIX`.
pub(crate) const GLUE_PREFIX: &str = "<tpu-playground>/tpu-torch/";

/// The file names of the generated module bodies.
pub(crate) const MODULE_PREFIX: &str = "<tpu-modules>/";

/// PyTorch's keywords for what this project never has: results are always
/// new dense tensors (`out`, `layout`, `memory_format`), there is no pinned
/// host memory (`pin_memory`), and named tensors are a PyTorch prototype
/// (`names`). A prelude function that lacks one is called with it as PyTorch
/// allows: a `NotImplementedError` naming it, not a `TypeError` that reads
/// like the program's mistake.
const EXEMPT_KEYWORDS: &[&str] = &["out", "layout", "memory_format", "pin_memory", "names"];

/// The interpreter's `UnexpectedKeywordHook`: `EXEMPT_KEYWORDS` passed to a
/// prelude function.
pub(crate) fn exempt_keyword(filename: &str, function: &str, keyword: &str) -> Option<String> {
    (filename.starts_with(FILE_PREFIX) && EXEMPT_KEYWORDS.contains(&keyword)).then(|| {
        format!("{function}(): the {keyword}= argument is not supported in this playground")
    })
}

/// The served packages: the prelude's own, not the standard library's.
fn served(name: &str) -> bool {
    let top = name.split('.').next().unwrap_or(name);
    matches!(top, "torch" | "jax" | "torch_tpu" | "numpy")
}

pub(crate) fn find_module(name: &str) -> Option<ModuleSource> {
    if !served(name) {
        return None;
    }
    if name == "torch_tpu" {
        return Some(ModuleSource {
            filename: format!("{FILE_PREFIX}torch_tpu/__init__.py"),
            is_package: true,
            source: crate::torch_tpu::BODY.to_owned(),
        });
    }
    if is_missing_submodule(name) {
        return Some(ModuleSource {
            filename: format!("{FILE_PREFIX}{}.py", name.replace('.', "/")),
            is_package: false,
            source: format!(
                "raise NotImplementedError({:?})\n",
                format!(
                    "{name} is not supported yet (it is part of PyTorch 2.15, but not of this playground)"
                )
            ),
        });
    }
    let files = library_files(name)?;
    let is_package = files
        .first()
        .is_some_and(|(path, _)| path.ends_with("__init__.py"));
    Some(ModuleSource {
        // The generated body, not a file of the tree: its files run under
        // their own names.
        filename: format!("{MODULE_PREFIX}{name}"),
        is_package,
        source: body(name, files.iter().map(|(path, _)| *path)),
    })
}

/// The generated body of module `name`.
fn body<'a>(name: &str, files: impl Iterator<Item = &'a str>) -> String {
    let mut out = String::from("import builtins as _tpu_builtins, _tpu_torch\n");
    out += &format!("globals().update(_tpu_torch.rust_attributes({name:?}))\n");
    for builtin in SHADOWED_BUILTINS {
        out += &format!("_py_{builtin} = _tpu_builtins.{builtin}\n");
    }
    out += RUN_FILE;
    for path in files {
        out += &format!("_tpu_run({path:?}, _tpu_torch.prelude_source({path:?}))\n");
    }
    match name {
        "torch" => out += "_tpu_run(\"tpu-torch/glue.py\", _tpu_torch.GLUE)\n",
        "torch.nn" => out += "_tpu_run(\"tpu-torch/glue_nn.py\", _tpu_torch.GLUE_NN)\n",
        "torch.random" => {
            out += "_tpu_run(\"tpu-torch/glue_random.py\", _tpu_torch.GLUE_RANDOM)\n";
        }
        _ => {}
    }
    if MIRRORED.contains(&name) {
        out += LACKING;
    }
    out += "del _tpu_builtins, _tpu_run\n";
    for module in imported_with(name) {
        out += &format!("import {module}\n");
    }
    out
}

/// The namespaces whose PyTorch names are listed (`is_pytorch_name`): a
/// name PyTorch has there and this project lacks is a `NotImplementedError`
/// naming it, not an `AttributeError` that reads like a typo (`Tensor`'s are
/// in the glue).
const MIRRORED: &[&str] = &[
    "torch",
    "torch.nn",
    "torch.nn.functional",
    "torch.nn.init",
    "torch.optim",
    "torch.optim.lr_scheduler",
];

/// The module `__getattr__` of a mirrored namespace.
const LACKING: &str = r#"
def __getattr__(name):
    if _tpu_torch._lacks(__name__, name):
        raise NotImplementedError(__name__ + "." + name + " is not supported yet (it is part of PyTorch 2.15, but not of this playground)")
    raise AttributeError("module '" + __name__ + "' has no attribute '" + name + "'")
"#;

/// Runs one file of a module's body in the module's namespace, under its own
/// file name, with its lines in `linecache`.
const RUN_FILE: &str = r#"
def _tpu_run(path, source, _compile=compile, _exec=exec, _globals=globals):
    # The built-ins are bound here: the prelude shadows `compile` (torch.compile).
    import linecache, marshal
    filename = "<tpu-playground>/" + path
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    code = None
    cached = _tpu_torch._code_get(filename, source)
    if cached is not None:
        try:
            code = marshal.loads(cached)
        except Exception:
            code = None
    if code is None:
        code = _compile(source, filename, "exec")
        _tpu_torch._code_put(filename, source, marshal.dumps(code))
    _exec(code, _globals())
"#;
