//! The modules written in Python (`crates/tpu-lang/prelude/`: torch, JAX as
//! Pallas uses it, and the standard library's Python modules), found by the
//! table `build.rs` generates from that tree, and how one is loaded: made with
//! its Rust attributes, registered (so bodies may import each other), attached
//! to its parent package, then its files run as its body in one namespace.
//!
//! Module by module, what is special is Rust kept small and explicit: the
//! attributes a module starts from (`torch`'s Rust part, `torch.random`'s
//! `fork_rng`, `os.environ`, `functools.update_wrapper`) and what importing one
//! does after its body (`import torch` imports the submodules PyTorch's
//! `__init__` imports); see `torch::prelude` and `python::stdlib`.

use crate::python::env::{Env, ScopeKind};
use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::modules::module;
use crate::python::source::SourceFile;
use crate::python::value::Value;
use std::rc::Rc;

/// A module written in Python: its dotted name and its files, in the order
/// they run, each as (path under `prelude/`, source).
pub(crate) struct LibraryModule {
    pub name: &'static str,
    pub files: &'static [(&'static str, &'static str)],
}

include!(concat!(env!("OUT_DIR"), "/library.rs"));

/// What tracebacks and `__file__`-like names put before a library file's path.
const FILE_PREFIX: &str = "<tpu-playground>/";

/// The module named `name` (`"torch.nn"`), if the tree has it.
pub(crate) fn library_module(name: &str) -> Option<&'static LibraryModule> {
    LIBRARY
        .binary_search_by(|m| m.name.cmp(name))
        .ok()
        .map(|i| &LIBRARY[i])
}

/// The files of the module named `name`, in the order they run as its body
/// (each as its path under `prelude/` and its source), if the tree has it.
pub fn library_files(name: &str) -> Option<&'static [(&'static str, &'static str)]> {
    library_module(name).map(|m| m.files)
}

/// The module whose body a library file (by the name its `SourceFile` has) is
/// part of: `torch.nn` for `<tpu-playground>/torch/nn/_loss.py`.
pub(crate) fn module_of_file(file: &str) -> Option<&'static str> {
    let path = file.strip_prefix(FILE_PREFIX)?;
    LIBRARY
        .iter()
        .find(|m| m.files.iter().any(|(f, _)| *f == path))
        .map(|m| m.name)
}

/// Python's built-ins that the prelude shadows with torch functions of the same
/// name (`sum`, `max`, `float`, ...), bound as `_py_sum`, `_py_max`, ... in every
/// library module so that its code can still reach them.
pub const SHADOWED_BUILTINS: &[&str] = &[
    "sum",
    "max",
    "min",
    "abs",
    "all",
    "any",
    "round",
    "len",
    "isinstance",
    "float",
    "int",
    "bool",
    "range",
    "list",
    "tuple",
    "sorted",
    "enumerate",
    "zip",
    "str",
    "repr",
    "type",
    "iter",
    "getattr",
    "setattr",
    "hasattr",
];

impl Interpreter<'_> {
    /// `import name` for a module of the tree, which the caller has not built
    /// yet in this run; a name the tree lacks is an error saying so.
    pub async fn import_library(&mut self, name: &str) -> PyResult<Value> {
        let Some(library) = library_module(name) else {
            return Err(crate::torch::prelude::missing_module(name));
        };
        let mut attrs = crate::torch::prelude::rust_attributes(name);
        attrs.extend(self.stdlib_attributes(name));
        let value = module(name, attrs);
        self.modules.insert(name.to_string(), value.clone());
        if let Some((parent, child)) = name.rsplit_once('.') {
            let parent = self.import(parent).await?;
            self.set_attribute(&parent, child, value.clone()).await?;
        }
        self.exec_library(&value, library.files).await?;
        self.prelude_imported(name, &value).await?;
        Ok(value)
    }

    /// Runs library files, in order, as the body of `module`, whose attributes
    /// they start from and end as, so the Python definitions can call the Rust
    /// ones. The files share one namespace, as if they were one file.
    pub(crate) async fn exec_library(
        &mut self,
        module: &Value,
        files: &[(&str, &str)],
    ) -> PyResult<()> {
        let Value::Module(m) = module else {
            return Ok(());
        };
        let env = Env::new(ScopeKind::Module, None);
        for &builtin in SHADOWED_BUILTINS {
            env.set(&format!("_py_{builtin}"), Value::Builtin(builtin));
        }
        for (k, v) in m.attrs.borrow().iter() {
            env.set(k, v.clone());
        }
        self.library_envs.push(env.clone());
        for &(path, source) in files {
            let parsed = ruff_python_parser::parse_module(source).map_err(|e| {
                PyErr::new(
                    "SystemError",
                    format!("the runtime's {path} does not parse: {}", e.error),
                )
            })?;
            let mut file = SourceFile::new(&format!("{FILE_PREFIX}{path}"), source);
            file.is_library = true;
            let outer_env = std::mem::replace(&mut self.env, env.clone());
            let outer_file = std::mem::replace(&mut self.file, Rc::new(file));
            let result = self.exec_block(&parsed.syntax().body).await;
            self.env = outer_env;
            self.file = outer_file;
            result?;
        }
        let mut attrs = m.attrs.borrow_mut();
        for (k, v) in env.vars.borrow().iter() {
            attrs.insert(k.clone(), v.clone());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{LIBRARY, library_module, module_of_file};

    #[test]
    fn the_table_is_sorted_so_that_lookups_can_bisect() {
        let names: Vec<&str> = LIBRARY.iter().map(|m| m.name).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(names, sorted);
    }

    #[test]
    fn a_module_is_found_at_the_path_of_its_name() {
        for m in LIBRARY {
            let (first, _) = m.files.first().expect("a module has a file");
            let path = m.name.replace('.', "/");
            assert!(
                *first == format!("{path}.py") || *first == format!("{path}/__init__.py"),
                "{} starts with {first}",
                m.name
            );
            assert_eq!(library_module(m.name).map(|l| l.name), Some(m.name));
            for (file, _) in m.files {
                let shown = format!("<tpu-playground>/{file}");
                assert_eq!(module_of_file(&shown), Some(m.name));
            }
        }
        assert!(library_module("torch.nonexistent").is_none());
        assert_eq!(module_of_file("main.py"), None);
    }
}
