//! The standard-library modules written in Python that programs wrap torch code
//! with: `contextlib` (`nullcontext`, `suppress`, `ContextDecorator`, `closing`)
//! and `functools` (`partial`, `wraps`, `reduce`, `cache`), each run from
//! `stdlib/<name>.py` as a library file when a program first imports it.
//! `os` is `environ` (the run's variables, a rank's torchrun ones) and
//! `getenv`. `functools.update_wrapper` is Rust (a function's name is fixed when it is
//! made, so the wrapper is remade under the wrapped one's name).

use crate::python::interp::{Interpreter, PyResult};
use crate::python::modules::module;
use crate::python::value::Value;
use std::collections::HashMap;

const CONTEXTLIB: &str = include_str!("stdlib/contextlib.py");
const FUNCTOOLS: &str = include_str!("stdlib/functools.py");
const OS: &str = include_str!("stdlib/os.py");

impl Interpreter<'_> {
    /// `import contextlib`, `functools` or `os`, built once per run.
    pub async fn import_stdlib(&mut self, name: &str) -> PyResult<Value> {
        let (file, source, mut attrs) = match name {
            "contextlib" => ("contextlib.py", CONTEXTLIB, HashMap::new()),
            "os" => {
                let mut environ = crate::python::value::Dict::default();
                for (k, v) in &self.environ {
                    environ.insert(
                        crate::python::value::HashKey::Str(std::rc::Rc::from(k.as_str())),
                        Value::str(k),
                        Value::str(v),
                    );
                }
                let environ = Value::Dict(std::rc::Rc::new(std::cell::RefCell::new(environ)));
                (
                    "os.py",
                    OS,
                    HashMap::from([("environ".to_string(), environ)]),
                )
            }
            _ => ("functools.py", FUNCTOOLS, HashMap::new()),
        };
        if name == "functools" {
            attrs.insert(
                "update_wrapper".to_string(),
                Value::Builtin("functools.update_wrapper"),
            );
        }
        let value = module(name, attrs);
        self.modules.insert(name.to_string(), value.clone());
        self.exec_library(&value, &[(file, source)]).await?;
        Ok(value)
    }
}
