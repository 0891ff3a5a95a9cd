//! Classes: creation with C3 method resolution order, and the built-in exception
//! hierarchy, which are ordinary classes so that user code can subclass, raise and
//! catch them.

use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::value::{Class, Value};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

pub fn new_class(
    name: &str,
    bases: Vec<Rc<Class>>,
    attrs: HashMap<String, Value>,
) -> PyResult<Rc<Class>> {
    let class = Rc::new(Class {
        name: name.to_string(),
        bases: bases.clone(),
        mro: RefCell::new(Vec::new()),
        attrs: RefCell::new(attrs),
    });
    let mro = c3(&class, &bases).ok_or_else(|| {
        PyErr::type_error("Cannot create a consistent method resolution order (MRO)")
    })?;
    *class.mro.borrow_mut() = mro;
    Ok(class)
}

/// `issubclass(class, classinfo)`, where `classinfo` may be a tuple of classes.
pub fn issubclass(class: &Value, classinfo: &Value) -> bool {
    match (class, classinfo) {
        (_, Value::Tuple(options)) => options.iter().any(|c| issubclass(class, c)),
        (Value::Class(a), Value::Class(b)) => a.is_subclass_of(b),
        (Value::Class(_), Value::Builtin("object")) => true,
        _ => false,
    }
}

/// C3 linearisation: the class, then a merge of its bases' MROs and the bases.
fn c3(class: &Rc<Class>, bases: &[Rc<Class>]) -> Option<Vec<Rc<Class>>> {
    let mut sequences: Vec<Vec<Rc<Class>>> = bases.iter().map(|b| b.mro.borrow().clone()).collect();
    sequences.push(bases.to_vec());
    let mut out = vec![class.clone()];
    loop {
        sequences.retain(|s| !s.is_empty());
        if sequences.is_empty() {
            return Some(out);
        }
        let head = sequences.iter().map(|s| s[0].clone()).find(|candidate| {
            !sequences
                .iter()
                .any(|s| s[1..].iter().any(|c| Rc::ptr_eq(c, candidate)))
        })?;
        for s in &mut sequences {
            if Rc::ptr_eq(&s[0], &head) {
                s.remove(0);
            }
        }
        out.push(head);
    }
}

/// The built-in exceptions and their parents.
const EXCEPTIONS: &[(&str, &str)] = &[
    ("BaseException", ""),
    ("Exception", "BaseException"),
    ("ArithmeticError", "Exception"),
    ("ZeroDivisionError", "ArithmeticError"),
    ("OverflowError", "ArithmeticError"),
    ("AssertionError", "Exception"),
    ("AttributeError", "Exception"),
    ("ImportError", "Exception"),
    ("ModuleNotFoundError", "ImportError"),
    ("LookupError", "Exception"),
    ("IndexError", "LookupError"),
    ("KeyError", "LookupError"),
    ("NameError", "Exception"),
    ("UnboundLocalError", "NameError"),
    ("RuntimeError", "Exception"),
    ("NotImplementedError", "RuntimeError"),
    ("RecursionError", "RuntimeError"),
    ("StopIteration", "Exception"),
    ("SyntaxError", "Exception"),
    ("TypeError", "Exception"),
    ("ValueError", "Exception"),
    ("OSError", "Exception"),
    ("TimeoutError", "OSError"),
];

impl Interpreter<'_> {
    pub fn install_exceptions(&mut self) {
        for (name, parent) in EXCEPTIONS {
            let bases = self.exceptions.get(*parent).cloned().into_iter().collect();
            let class = new_class(name, bases, HashMap::new()).expect("a single-inheritance chain");
            self.exceptions.insert(name.to_string(), class);
        }
    }

    pub fn is_exception_class(&self, class: &Rc<Class>) -> bool {
        class.is_subclass_of(&self.exceptions["BaseException"])
    }

    /// The class of an error: its object's class, or the built-in class of its name.
    fn error_class(&self, err: &PyErr) -> Rc<Class> {
        match &err.value {
            Some(Value::Instance(i)) => i.class(),
            _ => self
                .exceptions
                .get(&err.kind)
                .cloned()
                .unwrap_or_else(|| self.exceptions["Exception"].clone()),
        }
    }

    /// Whether `except filter:` catches `err`; `filter` may be a class or a tuple.
    pub fn exception_matches(&self, err: &PyErr, filter: &Value) -> PyResult<bool> {
        let class = self.error_class(err);
        match filter {
            Value::Class(c) => Ok(class.is_subclass_of(c)),
            Value::Tuple(items) => {
                for item in items.iter() {
                    if self.exception_matches(err, item)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            other => Err(PyErr::type_error(format!(
                "catching classes that do not inherit from BaseException is not allowed (got {})",
                other.type_name()
            ))),
        }
    }

    /// `KeyError(key)`, with the key itself as its argument, so that its `str`
    /// is the key's `repr` however it is printed.
    pub async fn key_error(&mut self, key: &Value) -> PyErr {
        let message = self.repr_of(key).await.unwrap_or_default();
        let instance = crate::python::value::Instance {
            class_cell: RefCell::new(self.exceptions["KeyError"].clone()),
            attrs: RefCell::default(),
        };
        instance.set("args", Value::tuple(vec![key.clone()]));
        let mut err = PyErr::new("KeyError", message);
        err.value = Some(Value::Instance(Rc::new(instance)));
        err
    }

    /// The exception object bound by `except ... as e`.
    pub fn exception_value(&self, err: &PyErr) -> Value {
        if let Some(v) = &err.value {
            return v.clone();
        }
        let instance = crate::python::value::Instance {
            class_cell: RefCell::new(self.error_class(err)),
            attrs: RefCell::default(),
        };
        instance.set("args", Value::tuple(vec![Value::str(&err.message)]));
        Value::Instance(Rc::new(instance))
    }
}

impl Interpreter<'_> {
    /// `type(name, bases, namespace)`: a new class, as a `class` statement
    /// with that body would make it.
    pub fn new_type(&mut self, args: Vec<Value>) -> PyResult<Value> {
        let [name, bases, namespace]: [Value; 3] = args
            .try_into()
            .map_err(|_| PyErr::type_error("type() takes 1 or 3 arguments"))?;
        let Value::Str(name) = name else {
            return Err(PyErr::type_error("type.__new__() argument 1 must be str"));
        };
        let bases = match bases {
            Value::Tuple(items) => items
                .iter()
                .map(|b| match b {
                    Value::Class(c) => Ok(c.clone()),
                    _ => Err(PyErr::type_error("type() bases must be classes")),
                })
                .collect::<PyResult<Vec<_>>>()?,
            _ => {
                return Err(PyErr::type_error("type.__new__() argument 2 must be tuple"));
            }
        };
        let mut attrs = HashMap::new();
        match namespace {
            Value::Dict(d) => {
                let d = d.borrow();
                for (k, v) in d.keys().into_iter().zip(d.values()) {
                    if let Value::Str(k) = k {
                        attrs.insert(k.to_string(), v);
                    }
                }
            }
            _ => {
                return Err(PyErr::type_error("type.__new__() argument 3 must be dict"));
            }
        }
        let class = new_class(&name, bases, attrs)?;
        self.classes.push(Rc::downgrade(&class));
        Ok(Value::Class(class))
    }
}
