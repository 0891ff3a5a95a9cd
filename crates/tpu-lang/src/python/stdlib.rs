//! The Rust parts of the standard-library modules written in Python, which
//! live with the rest of the Python library at `crates/tpu-lang/prelude/`
//! (`contextlib.py`, `functools.py`, `os.py`; a new one is a new file there,
//! loaded by `python::library` when a program first imports it). `os.environ`
//! is the run's variables (a rank's torchrun ones); `functools.update_wrapper`
//! is Rust (a function's name is fixed when it is made, so the wrapper is
//! remade under the wrapped one's name).

use crate::python::interp::Interpreter;
use crate::python::value::{Dict, HashKey, Value};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

impl Interpreter<'_> {
    /// The Rust attributes a standard-library module starts from, before its
    /// Python body runs and joins them.
    pub(crate) fn stdlib_attributes(&self, name: &str) -> HashMap<String, Value> {
        match name {
            "os" => {
                let mut environ = Dict::default();
                for (k, v) in &self.environ {
                    environ.insert(
                        HashKey::Str(Rc::from(k.as_str())),
                        Value::str(k),
                        Value::str(v),
                    );
                }
                let environ = Value::Dict(Rc::new(RefCell::new(environ)));
                HashMap::from([("environ".to_string(), environ)])
            }
            "functools" => HashMap::from([(
                "update_wrapper".to_string(),
                Value::Builtin("functools.update_wrapper"),
            )]),
            _ => HashMap::new(),
        }
    }
}
