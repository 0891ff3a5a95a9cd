//! Attribute lookup on instances and classes as CPython's `object.__getattribute__`
//! and `object.__setattr__` do it: data descriptors on the class (`property`, or a
//! class with `__get__` and `__set__`) come before the instance's own attributes,
//! then those, then the class's attributes bound by kind (a function becomes a
//! bound method, a `staticmethod` its function, a `classmethod` a method bound to
//! the class); `__getattr__` only after all of that failed with `AttributeError`.
//! A class may replace the whole lookup with `__getattribute__` and assignment
//! with `__setattr__`, which reach the default through `object.__getattribute__`
//! / `object.__setattr__` or `super()`. Also here: `property`, `staticmethod` and
//! `classmethod` themselves, and `call_special`, which finds special methods on
//! the type alone, as the interpreter's operators do in CPython.

use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::value::{Class, Descriptor, Instance, Value};
use std::rc::Rc;

impl Interpreter<'_> {
    /// `receiver.name(*args)` for a special method, looked up on the type only;
    /// `None` if the type does not define it.
    pub async fn call_special(
        &mut self,
        receiver: &Value,
        name: &str,
        args: Vec<Value>,
    ) -> PyResult<Option<Value>> {
        let Value::Instance(i) = receiver else {
            return Ok(None);
        };
        let Some(attr) = i.class().lookup(name) else {
            return Ok(None);
        };
        let method = self
            .bind_class_attribute(Some(receiver), &i.class(), attr)
            .await?;
        Ok(Some(self.call(method, args, Vec::new()).await?))
    }

    /// What a class attribute gives when looked up through `obj` (an instance
    /// of `owner`), or through the class itself when `obj` is `None`.
    pub async fn bind_class_attribute(
        &mut self,
        obj: Option<&Value>,
        owner: &Rc<Class>,
        attr: Value,
    ) -> PyResult<Value> {
        Ok(match (&attr, obj) {
            (Value::Function(f), Some(obj)) => {
                Value::BoundMethod(Rc::new((obj.clone(), f.clone())))
            }
            (Value::Descriptor(d), _) => match &**d {
                Descriptor::StaticMethod(f) => f.clone(),
                Descriptor::ClassMethod(Value::Function(f)) => {
                    Value::BoundMethod(Rc::new((Value::Class(owner.clone()), f.clone())))
                }
                Descriptor::ClassMethod(_) => attr.clone(),
                Descriptor::Property { fget, .. } => match obj {
                    None => attr.clone(),
                    Some(_) if matches!(fget, Value::None) => {
                        return Err(PyErr::new("AttributeError", "property has no getter"));
                    }
                    Some(obj) => {
                        self.call(fget.clone(), vec![obj.clone()], Vec::new())
                            .await?
                    }
                },
            },
            // A user-defined descriptor: a class attribute whose class has `__get__`.
            (Value::Instance(d), _) if d.class().lookup("__get__").is_some() => {
                let instance = obj.cloned().unwrap_or(Value::None);
                Box::pin(self.call_special(
                    &attr,
                    "__get__",
                    vec![instance, Value::Class(owner.clone())],
                ))
                .await?
                .unwrap_or(Value::None)
            }
            _ => attr,
        })
    }

    /// `obj.name` for an instance: the class's `__getattribute__` if it has one,
    /// else the default lookup, with `__getattr__` when that fails.
    pub async fn instance_attribute(
        &mut self,
        obj: &Value,
        instance: &Rc<Instance>,
        name: &str,
    ) -> PyResult<Value> {
        let found = match instance.class().lookup("__getattribute__") {
            Some(getattribute) => {
                let method = self
                    .bind_class_attribute(Some(obj), &instance.class(), getattribute)
                    .await?;
                self.call(method, vec![Value::str(name)], Vec::new()).await
            }
            None => self.default_attribute(obj, instance, name).await,
        };
        match found {
            Err(e) if self.is_error(&e, "AttributeError") => {
                match instance.class().lookup("__getattr__") {
                    Some(getattr) => {
                        let method = self
                            .bind_class_attribute(Some(obj), &instance.class(), getattr)
                            .await?;
                        self.call(method, vec![Value::str(name)], Vec::new()).await
                    }
                    None => Err(e),
                }
            }
            other => other,
        }
    }

    /// `object.__getattribute__(obj, name)`.
    pub async fn default_attribute(
        &mut self,
        obj: &Value,
        instance: &Rc<Instance>,
        name: &str,
    ) -> PyResult<Value> {
        let class_attr = instance.class().lookup(name);
        if let Some(attr) = &class_attr
            && is_data_descriptor(attr)
        {
            return self
                .bind_class_attribute(Some(obj), &instance.class(), attr.clone())
                .await;
        }
        if let Some(v) = instance.get(name) {
            return Ok(v);
        }
        match class_attr {
            Some(attr) => {
                self.bind_class_attribute(Some(obj), &instance.class(), attr)
                    .await
            }
            None if name == "__class__" => Ok(Value::Class(instance.class())),
            None if name == "__dict__" => Ok(instance_dict(instance)),
            None => Err(PyErr::new(
                "AttributeError",
                format!(
                    "'{}' object has no attribute '{name}'",
                    instance.class().name
                ),
            )),
        }
    }

    /// `obj.name = value` for an instance: the class's `__setattr__` if it has
    /// one, else the default.
    pub async fn set_instance_attribute(
        &mut self,
        obj: &Value,
        instance: &Rc<Instance>,
        name: &str,
        value: Value,
    ) -> PyResult<()> {
        match instance.class().lookup("__setattr__") {
            Some(setattr) => {
                let method = self
                    .bind_class_attribute(Some(obj), &instance.class(), setattr)
                    .await?;
                self.call(method, vec![Value::str(name), value], Vec::new())
                    .await?;
                Ok(())
            }
            None => self.default_set_attribute(obj, instance, name, value).await,
        }
    }

    /// `object.__setattr__(obj, name, value)`.
    pub async fn default_set_attribute(
        &mut self,
        obj: &Value,
        instance: &Rc<Instance>,
        name: &str,
        value: Value,
    ) -> PyResult<()> {
        if name == "__class__" {
            // `obj.__class__ = C`: the object becomes a `C`, keeping its
            // attributes (FSDP2 makes a module an `FSDP<Name>` so).
            let Value::Class(class) = value else {
                return Err(PyErr::type_error(format!(
                    "__class__ must be set to a class, not '{}' object",
                    value.type_name()
                )));
            };
            *instance.class_cell.borrow_mut() = class;
            return Ok(());
        }
        match instance.class().lookup(name) {
            Some(Value::Descriptor(d)) if matches!(*d, Descriptor::Property { .. }) => {
                let Descriptor::Property { fset, .. } = &*d else {
                    unreachable!("matched a property above")
                };
                if matches!(fset, Value::None) {
                    return Err(PyErr::new(
                        "AttributeError",
                        format!(
                            "property '{name}' of '{}' object has no setter",
                            instance.class().name
                        ),
                    ));
                }
                self.call(fset.clone(), vec![obj.clone(), value], Vec::new())
                    .await?;
            }
            Some(descriptor @ Value::Instance(_)) if has_method(&descriptor, "__set__") => {
                self.call_special(&descriptor, "__set__", vec![obj.clone(), value])
                    .await?;
            }
            _ => instance.set(name, value),
        }
        Ok(())
    }

    /// `del obj.name`: a property's deleter, `__delattr__`, or the instance's own
    /// attribute.
    pub async fn delete_attribute(&mut self, obj: &Value, name: &str) -> PyResult<()> {
        let Value::Instance(instance) = obj else {
            return Err(PyErr::new(
                "AttributeError",
                format!("'{}' object has no attribute '{name}'", obj.type_name()),
            ));
        };
        if let Some(delattr) = instance.class().lookup("__delattr__") {
            let method = self
                .bind_class_attribute(Some(obj), &instance.class(), delattr)
                .await?;
            self.call(method, vec![Value::str(name)], Vec::new())
                .await?;
            return Ok(());
        }
        self.default_delete_attribute(obj, instance, name).await
    }

    /// `object.__delattr__(obj, name)`.
    pub async fn default_delete_attribute(
        &mut self,
        obj: &Value,
        instance: &Rc<Instance>,
        name: &str,
    ) -> PyResult<()> {
        if let Some(Value::Descriptor(d)) = instance.class().lookup(name)
            && let Descriptor::Property { fdel, .. } = &*d
        {
            if matches!(fdel, Value::None) {
                return Err(PyErr::new(
                    "AttributeError",
                    format!(
                        "property '{name}' of '{}' object has no deleter",
                        instance.class().name
                    ),
                ));
            }
            self.call(fdel.clone(), vec![obj.clone()], Vec::new())
                .await?;
            return Ok(());
        }
        if instance.remove(name).is_none() {
            return Err(PyErr::new(
                "AttributeError",
                format!(
                    "'{}' object has no attribute '{name}'",
                    instance.class().name
                ),
            ));
        }
        Ok(())
    }

    /// The built-ins `property(fget, fset, fdel, doc)`, `staticmethod(f)` and
    /// `classmethod(f)`, and the default attribute methods of `object`
    /// (`object.__setattr__(self, name, value)` and its kin), which a class that
    /// overrides them calls to do the ordinary thing.
    pub async fn call_descriptor_builtin(
        &mut self,
        name: &str,
        args: Vec<Value>,
        kwargs: Vec<(String, Value)>,
    ) -> PyResult<Value> {
        match name {
            "property" => {
                let mut parts = [Value::None, Value::None, Value::None];
                for (slot, arg) in parts.iter_mut().zip(args) {
                    *slot = arg;
                }
                for (key, value) in kwargs {
                    match key.as_str() {
                        "fget" => parts[0] = value,
                        "fset" => parts[1] = value,
                        "fdel" => parts[2] = value,
                        "doc" => {}
                        _ => {
                            return Err(PyErr::type_error(format!(
                                "property() got an unexpected keyword argument '{key}'"
                            )));
                        }
                    }
                }
                let [fget, fset, fdel] = parts;
                Ok(Value::Descriptor(Rc::new(Descriptor::Property {
                    fget,
                    fset,
                    fdel,
                })))
            }
            "staticmethod" | "classmethod" => {
                let [f] = <[Value; 1]>::try_from(args).map_err(|args| {
                    PyErr::type_error(format!("{name} expected 1 argument, got {}", args.len()))
                })?;
                Ok(Value::Descriptor(Rc::new(if name == "staticmethod" {
                    Descriptor::StaticMethod(f)
                } else {
                    Descriptor::ClassMethod(f)
                })))
            }
            _ => {
                let receiver = args.first().cloned().unwrap_or(Value::None);
                let Value::Instance(instance) = &receiver else {
                    return Err(PyErr::type_error(format!(
                        "descriptor '{name}' requires a 'object' object but received a '{}'",
                        receiver.type_name()
                    )));
                };
                let attr = match args.get(1) {
                    Some(Value::Str(s)) => s.to_string(),
                    _ => return Err(PyErr::type_error("attribute name must be string")),
                };
                match (name.trim_start_matches("object."), args.get(2)) {
                    ("__getattribute__", _) => {
                        self.default_attribute(&receiver, instance, &attr).await
                    }
                    ("__setattr__", Some(value)) => {
                        self.default_set_attribute(&receiver, instance, &attr, value.clone())
                            .await?;
                        Ok(Value::None)
                    }
                    ("__delattr__", _) => {
                        self.default_delete_attribute(&receiver, instance, &attr)
                            .await?;
                        Ok(Value::None)
                    }
                    _ => Err(PyErr::type_error(format!(
                        "expected 3 arguments, got {}",
                        args.len()
                    ))),
                }
            }
        }
    }

    /// `prop.setter(f)`, `prop.getter(f)`, `prop.deleter(f)`: a copy of the
    /// property with one part replaced, as the decorator forms use them.
    pub fn property_method(
        &mut self,
        property: &Descriptor,
        name: &str,
        args: Vec<Value>,
    ) -> PyResult<Value> {
        let Descriptor::Property { fget, fset, fdel } = property else {
            return Err(PyErr::new(
                "AttributeError",
                format!("object has no attribute '{name}'"),
            ));
        };
        let [f] = <[Value; 1]>::try_from(args).map_err(|args| {
            PyErr::type_error(format!(
                "{name}() takes exactly one argument ({} given)",
                args.len()
            ))
        })?;
        let (mut fget, mut fset, mut fdel) = (fget.clone(), fset.clone(), fdel.clone());
        match name {
            "getter" => fget = f,
            "setter" => fset = f,
            _ => fdel = f,
        }
        Ok(Value::Descriptor(Rc::new(Descriptor::Property {
            fget,
            fset,
            fdel,
        })))
    }
}

/// The attributes of `property`, `staticmethod` and `classmethod` objects.
pub fn descriptor_attribute(value: &Value, descriptor: &Descriptor, name: &str) -> Option<Value> {
    match (descriptor, name) {
        (Descriptor::Property { .. }, "setter" | "getter" | "deleter") => {
            let name = ["setter", "getter", "deleter"]
                .into_iter()
                .find(|&n| n == name)?;
            Some(Value::NativeMethod(Rc::new((value.clone(), name))))
        }
        (Descriptor::Property { fget, .. }, "fget") => Some(fget.clone()),
        (Descriptor::Property { fset, .. }, "fset") => Some(fset.clone()),
        (Descriptor::Property { fdel, .. }, "fdel") => Some(fdel.clone()),
        (Descriptor::StaticMethod(f) | Descriptor::ClassMethod(f), "__func__") => Some(f.clone()),
        _ => None,
    }
}

/// A class attribute that takes precedence over an instance's own attributes:
/// a `property`, or an object whose class defines `__set__` or `__delete__`.
fn is_data_descriptor(attr: &Value) -> bool {
    match attr {
        Value::Descriptor(d) => matches!(**d, Descriptor::Property { .. }),
        Value::Instance(_) => has_method(attr, "__set__") || has_method(attr, "__delete__"),
        _ => false,
    }
}

fn has_method(value: &Value, name: &str) -> bool {
    matches!(value, Value::Instance(i) if i.class().lookup(name).is_some())
}

/// `obj.__dict__`, a snapshot of the instance's attributes.
fn instance_dict(instance: &Instance) -> Value {
    let mut dict = crate::python::value::Dict::default();
    for (k, v) in instance.attrs.borrow().iter() {
        dict.insert(
            crate::python::value::HashKey::Str(k.clone()),
            Value::Str(k.clone()),
            v.clone(),
        );
    }
    Value::Dict(Rc::new(std::cell::RefCell::new(dict)))
}
