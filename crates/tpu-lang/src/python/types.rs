//! `type(value)` and `isinstance(value, classes)`: which class a value is
//! an instance of, for the built-in values (whose types are built-in names),
//! class instances, and tensors (the prelude's `Tensor` and `Parameter`
//! classes), kept apart from the other built-ins because tensors need the
//! interpreter's classes.

use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::value::Value;
use std::rc::Rc;

impl Interpreter<'_> {
    /// What `type(value)` returns: a tensor's type is the prelude's `Tensor`
    /// class, or `Parameter` for a parameter.
    pub fn type_of(&self, value: &Value) -> Value {
        let class = match value {
            Value::Tensor(t) if t.is_parameter() => self.parameter_class.clone(),
            Value::Tensor(_) => self.tensor_class.clone(),
            _ => None,
        };
        if let Some(c) = class {
            return Value::Class(c);
        }
        match value {
            Value::Instance(i) => Value::Class(i.class()),
            Value::Random(_) => Value::Builtin("random.Random"),
            Value::Size(_) => Value::Builtin("torch.Size"),
            other => Value::Builtin(
                crate::python::builtins::type_name_of_builtin(other.builtin_type_name())
                    .unwrap_or("type"),
            ),
        }
    }

    /// `isinstance(value, class_or_tuple)`.
    pub fn isinstance(&self, value: &Value, class: &Value) -> PyResult<bool> {
        Ok(match class {
            Value::Class(c) => match value {
                // A Python tensor subclass's instance (DTensor) is a
                // `Parameter` when it was made one (`_is_param`), as
                // PyTorch's `Parameter.__instancecheck__` decides.
                Value::Instance(i) => {
                    i.class().is_subclass_of(c)
                        || (self
                            .parameter_class
                            .as_ref()
                            .is_some_and(|k| Rc::ptr_eq(k, c))
                            && matches!(i.get("_is_param"), Some(Value::Bool(true))))
                }
                Value::Tensor(t) => {
                    let is = |slot: &Option<Rc<crate::python::value::Class>>| {
                        slot.as_ref().is_some_and(|k| Rc::ptr_eq(k, c))
                    };
                    is(&self.tensor_class) || (is(&self.parameter_class) && t.is_parameter())
                }
                _ => false,
            },
            Value::Builtin(t) => match (*t, value) {
                ("object", _) => true,
                ("int", Value::Int(_) | Value::Bool(_)) => true,
                ("float", Value::Float(_)) => true,
                ("random.Random", Value::Random(_)) => true,
                // `torch.Size` is a subclass of `tuple`.
                ("torch.Size" | "tuple", Value::Size(_)) => true,
                (t, v) => v.builtin_type_name() == t,
            },
            Value::Tuple(items) => {
                for item in items.iter() {
                    if self.isinstance(value, item)? {
                        return Ok(true);
                    }
                }
                false
            }
            _ => {
                return Err(PyErr::type_error(
                    "isinstance() arg 2 must be a type, a tuple of types, or a union",
                ));
            }
        })
    }
}
