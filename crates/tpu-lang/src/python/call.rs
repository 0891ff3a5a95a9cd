//! Calls, attribute access, subscripts and iteration: the object protocol. Python
//! functions get their arguments bound exactly as CPython binds them (positional,
//! keyword, defaults, `*args`, `**kwargs`, with CPython's `TypeError` wording), and
//! run in a fresh scope whose parent is their closure.

use crate::python::env::{Env, ScopeKind};
use crate::python::error::PyErr;
use crate::python::expr::hash_key;
use crate::python::interp::{Boxed, Flow, Interpreter, PyResult};
use crate::python::value::{Function, FunctionCode, Instance, Value};
use std::cell::RefCell;
use std::rc::Rc;

impl Interpreter<'_> {
    pub fn call(
        &mut self,
        func: Value,
        mut args: Vec<Value>,
        kwargs: Vec<(String, Value)>,
    ) -> Boxed<'_, Value> {
        Box::pin(async move {
            match func {
                Value::Function(f) => self.call_function(f, args, kwargs).await,
                Value::BoundMethod(m) => {
                    args.insert(0, m.0.clone());
                    self.call_function(m.1.clone(), args, kwargs).await
                }
                // Boxed: the built-ins' futures are large, and inlining them
                // here would grow every Python call's share of the browser's
                // small native stack.
                Value::Builtin(
                    name @ ("property"
                    | "staticmethod"
                    | "classmethod"
                    | "object.__getattribute__"
                    | "object.__setattr__"
                    | "object.__delattr__"),
                ) => Box::pin(self.call_descriptor_builtin(name, args, kwargs)).await,
                Value::Builtin("functools.update_wrapper") => match &args[..] {
                    [wrapper, wrapped, ..] => {
                        Ok(crate::torch::contexts::renamed_like(wrapper, wrapped))
                    }
                    _ => Err(PyErr::type_error(
                        "update_wrapper() missing required arguments 'wrapper' and 'wrapped'",
                    )),
                },
                Value::Builtin(name) => Box::pin(self.call_builtin(name, args, kwargs)).await,
                // `super().__setattr__(name, value)` and its kin: `object`'s
                // default, bound to the instance.
                Value::NativeMethod(m) if matches!(m.0, Value::Instance(_)) => {
                    args.insert(0, m.0.clone());
                    let name = match m.1 {
                        "__getattribute__" => "object.__getattribute__",
                        "__setattr__" => "object.__setattr__",
                        _ => "object.__delattr__",
                    };
                    Box::pin(self.call_descriptor_builtin(name, args, kwargs)).await
                }
                Value::NativeMethod(m) if matches!(m.0, Value::Descriptor(_)) => {
                    let Value::Descriptor(d) = &m.0 else {
                        unreachable!("matched a descriptor above")
                    };
                    self.property_method(d, m.1, args)
                }
                Value::NativeMethod(m) => {
                    Box::pin(self.call_native_method(&m.0, m.1, args, kwargs)).await
                }
                Value::Class(class) => {
                    if self.is_exception_class(&class) {
                        let instance = Instance {
                            class_cell: RefCell::new(class.clone()),
                            attrs: RefCell::default(),
                        };
                        instance.set("args", Value::tuple(args));
                        return Ok(Value::Instance(Rc::new(instance)));
                    }
                    // `__new__` returning something other than an instance of
                    // the class skips `__init__`, as in CPython (`nn.Parameter`
                    // returns a tensor).
                    if let Some(new) = class.lookup("__new__") {
                        args.insert(0, Value::Class(class.clone()));
                        let made = self.call(new, args, kwargs).await?;
                        return Ok(made);
                    }
                    let instance = Value::Instance(Rc::new(Instance {
                        class_cell: RefCell::new(class.clone()),
                        attrs: RefCell::default(),
                    }));
                    if let Some(init) = class.lookup("__init__") {
                        args.insert(0, instance.clone());
                        let result = self.call(init, args, kwargs).await?;
                        if !matches!(result, Value::None) {
                            return Err(PyErr::type_error(format!(
                                "__init__() should return None, not '{}'",
                                result.type_name()
                            )));
                        }
                    } else if !args.is_empty() || !kwargs.is_empty() {
                        return Err(PyErr::type_error(format!(
                            "{}() takes no arguments",
                            class.name
                        )));
                    }
                    Ok(instance)
                }
                Value::TorchContext(mode) => self.decorate_with_grad_mode(mode, args).await,
                Value::Instance(i) => match i.class().lookup("__call__") {
                    Some(method) => {
                        args.insert(0, Value::Instance(i.clone()));
                        self.call(method, args, kwargs).await
                    }
                    None => Err(PyErr::type_error(format!(
                        "'{}' object is not callable",
                        i.class().name
                    ))),
                },
                other => Err(PyErr::type_error(format!(
                    "'{}' object is not callable",
                    other.type_name()
                ))),
            }
        })
    }

    async fn call_function(
        &mut self,
        f: Rc<Function>,
        args: Vec<Value>,
        kwargs: Vec<(String, Value)>,
    ) -> PyResult<Value> {
        if self.frames.len() >= crate::python::interp::MAX_CALLS {
            return Err(PyErr::fatal(
                "RecursionError",
                "maximum recursion depth exceeded",
            ));
        }
        self.call_boundary().await;
        self.enter()?;
        let scope = Env::new(ScopeKind::Function, Some(f.closure.clone()));
        let bound = crate::python::bind::bind_arguments(&f, args, kwargs, &scope);
        if let Err(e) = bound {
            self.leave();
            return Err(e);
        }
        // The first positional parameter is the receiver `super()` binds to.
        let first = f
            .parameters()
            .and_then(|p| p.posonlyargs.iter().chain(&p.args).next());
        let self_arg =
            first.and_then(|p| scope.vars.borrow().get(p.parameter.name.as_str()).cloned());
        let outer_env = std::mem::replace(&mut self.env, scope);
        let outer_file = std::mem::replace(&mut self.file, f.file.clone());
        let outer_line = (self.runtime.line(), self.watch.line);
        self.frames.push((f.clone(), self_arg));
        let result = match &f.code {
            FunctionCode::Def(def) => {
                let def = def.clone();
                match self.exec_block(&def.body).await {
                    Ok(Flow::Return(v)) => Ok(v),
                    Ok(_) => Ok(Value::None),
                    Err(e) => Err(e),
                }
            }
            FunctionCode::Lambda(l) => {
                let l = l.clone();
                self.eval(&l.body).await
            }
        };
        self.frames.pop();
        let scope = std::mem::replace(&mut self.env, outer_env);
        scope.release_closures();
        self.file = outer_file;
        // What the caller's statement does after the call is its own line's
        // work, not the callee's last line's.
        self.runtime.set_line(outer_line.0);
        self.watch.line = outer_line.1;
        self.leave();
        result.map_err(|e| e.leave_frame(&f.file, &f.name))
    }

    pub async fn get_attribute(&mut self, base: &Value, name: &str) -> PyResult<Value> {
        let missing = || {
            PyErr::new(
                "AttributeError",
                format!("'{}' object has no attribute '{name}'", base.type_name()),
            )
        };
        match base {
            Value::Instance(i) => self.instance_attribute(base, i, name).await,
            Value::Slice(parts) => match name {
                "start" => Ok(parts[0].clone()),
                "stop" => Ok(parts[1].clone()),
                "step" => Ok(parts[2].clone()),
                _ => Err(missing()),
            },
            Value::Class(c) => match name {
                "__name__" => Ok(Value::str(&c.name)),
                _ => match c.lookup(name) {
                    Some(attr) => self.bind_class_attribute(None, c, attr).await,
                    None => Err(PyErr::new(
                        "AttributeError",
                        format!("type object '{}' has no attribute '{name}'", c.name),
                    )),
                },
            },
            Value::Super(s) => {
                let (class, obj) = (&s.0, &s.1);
                // `super()` in a classmethod holds the class, in a method the
                // instance; attributes bind to it as they would have there.
                let (start, instance) = match obj {
                    Value::Instance(i) => (i.class(), Some(obj)),
                    Value::Class(c) => (c.clone(), None),
                    _ => return Err(missing()),
                };
                let mro = start.mro.borrow().clone();
                let after = mro
                    .iter()
                    .position(|c| Rc::ptr_eq(c, class))
                    .map_or(mro.len(), |i| i + 1);
                for c in &mro[after..] {
                    let found = c.attrs.borrow().get(name).cloned();
                    if let Some(v) = found {
                        return self.bind_class_attribute(instance, &start, v).await;
                    }
                }
                if name == "__init__" {
                    // `object.__init__` takes no arguments and does nothing.
                    return Ok(Value::Builtin("object.__init__"));
                }
                if let (Some(obj), Some(method)) = (instance, object_method(name)) {
                    return Ok(Value::NativeMethod(Rc::new((obj.clone(), method))));
                }
                Err(PyErr::new(
                    "AttributeError",
                    format!("'super' object has no attribute '{name}'"),
                ))
            }
            Value::Module(m) if !m.attrs.borrow().contains_key(name) => {
                // `torch_tpu.pallas` is loaded when first used, as it brings JAX's modules.
                if m.name == "torch_tpu" && name == "pallas" {
                    return self.import("torch_tpu.pallas").await;
                }
                // A module's own `__getattr__` (PEP 562) answers for names it lacks.
                let hook = m.attrs.borrow().get("__getattr__").cloned();
                if let Some(hook) = hook {
                    return self.call(hook, vec![Value::str(name)], Vec::new()).await;
                }
                Err(missing_module_attribute(m, name))
            }
            Value::Module(m) => m
                .attrs
                .borrow()
                .get(name)
                .cloned()
                .ok_or_else(|| missing_module_attribute(m, name)),
            Value::Function(f) if name == "__name__" => Ok(Value::str(&f.name)),
            Value::Function(f) if name == "__doc__" => {
                Ok(crate::python::introspect::function_doc(f))
            }
            Value::BoundMethod(m) if name == "__name__" => Ok(Value::str(&m.1.name)),
            Value::BoundMethod(m) if name == "__self__" => Ok(m.0.clone()),
            Value::BoundMethod(m) if name == "__func__" => Ok(Value::Function(m.1.clone())),
            Value::BoundMethod(m) if name == "__doc__" => {
                Ok(crate::python::introspect::function_doc(&m.1))
            }
            Value::Builtin("object") if object_method(name).is_some() => {
                Ok(Value::Builtin(match name {
                    "__getattribute__" => "object.__getattribute__",
                    "__setattr__" => "object.__setattr__",
                    _ => "object.__delattr__",
                }))
            }
            Value::Descriptor(d) => {
                crate::python::descriptors::descriptor_attribute(base, d, name).ok_or_else(missing)
            }
            Value::Builtin(b) if name == "__name__" => {
                Ok(Value::str(b.rsplit('.').next().unwrap_or(b)))
            }
            Value::Tensor(t) => self.tensor_attribute(t, name).await,
            other => crate::python::methods::native_attribute(other, name).ok_or_else(missing),
        }
    }

    pub async fn set_attribute(&mut self, base: &Value, name: &str, value: Value) -> PyResult<()> {
        match base {
            Value::Instance(i) => self.set_instance_attribute(base, i, name, value).await,
            Value::Class(c) => {
                c.attrs.borrow_mut().insert(name.to_string(), value);
                Ok(())
            }
            Value::Module(m) => {
                m.attrs.borrow_mut().insert(name.to_string(), value);
                Ok(())
            }
            Value::Tensor(t) => self.set_tensor_attribute(t, name, value),
            other => Err(PyErr::new(
                "AttributeError",
                format!(
                    "'{}' object attribute '{name}' is read-only",
                    other.type_name()
                ),
            )),
        }
    }

    pub async fn get_item(&mut self, base: &Value, index: &Value) -> PyResult<Value> {
        // An object with `__index__` indexes a sequence (or bounds a slice of
        // one, or indexes a tensor) as its int would.
        let converted = match (base, index) {
            (Value::Dict(_) | Value::Instance(_), _) => None,
            (_, Value::Slice(parts)) if parts.iter().any(|p| matches!(p, Value::Instance(_))) => {
                let mut ints = [Value::None, Value::None, Value::None];
                for (slot, part) in ints.iter_mut().zip(parts.iter()) {
                    *slot = self.index_of(part).await?.unwrap_or_else(|| part.clone());
                }
                Some(Value::Slice(Rc::new(ints)))
            }
            _ => self.index_of(index).await?,
        };
        let index = converted.as_ref().unwrap_or(index);
        match base {
            Value::List(l) => {
                let items = l.borrow().clone();
                sequence_item(&items, index, "list", Value::list)
            }
            Value::Tuple(t) => sequence_item(t, index, "tuple", Value::tuple),
            Value::Str(s) => {
                let chars: Vec<Value> = s.chars().map(|c| Value::str(&c.to_string())).collect();
                sequence_item(&chars, index, "string", |items| {
                    let text: String = items
                        .iter()
                        .map(|v| match v {
                            Value::Str(s) => s.to_string(),
                            _ => String::new(),
                        })
                        .collect();
                    Value::str(&text)
                })
            }
            Value::Size(dims) => {
                let items: Vec<Value> = dims.iter().map(|&d| Value::Int(d as i64)).collect();
                sequence_item(&items, index, "tuple", |items| {
                    Value::Size(
                        items
                            .iter()
                            .map(|v| v.as_int().unwrap_or(0) as usize)
                            .collect(),
                    )
                })
            }
            Value::Range(..) => {
                let items = self.collect(base.clone()).await?;
                sequence_item(&items, index, "range", Value::list)
            }
            Value::Dict(d) => {
                let key = hash_key(index)?;
                let found = d.borrow().get(&key).cloned();
                match found {
                    Some(v) => Ok(v),
                    None => Err(self.key_error(index).await),
                }
            }
            Value::Tensor(t) => self.tensor_get_item(t, index).await,
            Value::Instance(i) => match i.class().lookup("__getitem__") {
                Some(getitem) => {
                    self.call(getitem, vec![base.clone(), index.clone()], Vec::new())
                        .await
                }
                None => Err(PyErr::type_error(format!(
                    "'{}' object is not subscriptable",
                    i.class().name
                ))),
            },
            other => Err(PyErr::type_error(format!(
                "'{}' object is not subscriptable",
                other.type_name()
            ))),
        }
    }

    pub async fn set_item(&mut self, base: &Value, index: Value, value: Value) -> PyResult<()> {
        match base {
            Value::List(l) => {
                let len = l.borrow().len();
                match &index {
                    Value::Slice(_) => {
                        let (start, stop, step) = slice_indices(&index, len)?;
                        if step != 1 {
                            return Err(PyErr::not_implemented(
                                "assignment to extended slices is not supported",
                            ));
                        }
                        let items = self.collect(value).await?;
                        let stop = stop.max(start);
                        l.borrow_mut().splice(start as usize..stop as usize, items);
                        Ok(())
                    }
                    _ => {
                        let i = normalize_index(&index, len, "list assignment")?;
                        l.borrow_mut()[i] = value;
                        Ok(())
                    }
                }
            }
            Value::Dict(d) => {
                let key = hash_key(&index)?;
                d.borrow_mut().insert(key, index, value);
                Ok(())
            }
            Value::Tensor(t) => self.tensor_set_item(t, &index, value).await,
            Value::Instance(i) => match i.class().lookup("__setitem__") {
                Some(setitem) => {
                    self.call(setitem, vec![base.clone(), index, value], Vec::new())
                        .await?;
                    Ok(())
                }
                None => Err(PyErr::type_error(format!(
                    "'{}' object does not support item assignment",
                    i.class().name
                ))),
            },
            other => Err(PyErr::type_error(format!(
                "'{}' object does not support item assignment",
                other.type_name()
            ))),
        }
    }

    pub async fn del_item(&mut self, base: &Value, index: &Value) -> PyResult<()> {
        match base {
            Value::Instance(i) if i.class().lookup("__delitem__").is_some() => {
                self.call_special(base, "__delitem__", vec![index.clone()])
                    .await?;
                Ok(())
            }
            Value::List(l) if matches!(index, Value::Slice(_)) => {
                // `del xs[a:b:c]`: the positions the slice selects, removed
                // from the last so the earlier ones stay put.
                let len = l.borrow().len();
                let (start, stop, step) = slice_indices(index, len)?;
                let mut doomed = Vec::new();
                let mut i = start;
                while (step > 0 && i < stop) || (step < 0 && i > stop) {
                    doomed.push(i as usize);
                    i += step;
                }
                doomed.sort_unstable();
                let mut items = l.borrow_mut();
                for i in doomed.into_iter().rev() {
                    items.remove(i);
                }
                Ok(())
            }
            Value::List(l) => {
                let len = l.borrow().len();
                let i = normalize_index(index, len, "list assignment")?;
                l.borrow_mut().remove(i);
                Ok(())
            }
            Value::Dict(d) => {
                let key = hash_key(index)?;
                let removed = d.borrow_mut().remove(&key);
                match removed {
                    Some(_) => Ok(()),
                    None => Err(self.key_error(index).await),
                }
            }
            other => Err(PyErr::type_error(format!(
                "'{}' object doesn't support item deletion",
                other.type_name()
            ))),
        }
    }
}

/// The attribute methods every object inherits from `object`, which a class
/// that overrides them reaches through `super()` or `object.<name>`.
fn object_method(name: &str) -> Option<&'static str> {
    ["__getattribute__", "__setattr__", "__delattr__"]
        .into_iter()
        .find(|&m| m == name)
}

pub fn range_len(start: i64, stop: i64, step: i64) -> i64 {
    if step > 0 && start < stop {
        (stop - start + step - 1) / step
    } else if step < 0 && start > stop {
        (start - stop - step - 1) / -step
    } else {
        0
    }
}

/// Python's index normalisation: negative from the end, IndexError when outside.
pub fn normalize_index(index: &Value, len: usize, what: &str) -> PyResult<usize> {
    let Some(i) = index.as_int() else {
        return Err(PyErr::type_error(format!(
            "{what} indices must be integers or slices, not {}",
            index.type_name()
        )));
    };
    let j = if i < 0 { i + len as i64 } else { i };
    if j < 0 || j >= len as i64 {
        return Err(PyErr::new(
            "IndexError",
            format!("{what} index out of range"),
        ));
    }
    Ok(j as usize)
}

/// `slice.indices(len)`: clamped start, stop and step.
pub fn slice_indices(slice: &Value, len: usize) -> PyResult<(i64, i64, i64)> {
    let Value::Slice(parts) = slice else {
        return Err(PyErr::type_error("expected a slice"));
    };
    let get = |v: &Value| -> PyResult<Option<i64>> {
        match v {
            Value::None => Ok(None),
            v => v
                .as_int()
                .map(Some)
                .ok_or_else(|| PyErr::type_error("slice indices must be integers or None")),
        }
    };
    let step = get(&parts[2])?.unwrap_or(1);
    if step == 0 {
        return Err(PyErr::value_error("slice step cannot be zero"));
    }
    let len = len as i64;
    let clamp = |v: Option<i64>, default: i64, lo: i64, hi: i64| -> i64 {
        match v {
            None => default,
            Some(i) if i < 0 => (i + len).max(lo),
            Some(i) => i.min(hi),
        }
    };
    if step > 0 {
        Ok((
            clamp(get(&parts[0])?, 0, 0, len),
            clamp(get(&parts[1])?, len, 0, len),
            step,
        ))
    } else {
        Ok((
            clamp(get(&parts[0])?, len - 1, -1, len - 1),
            clamp(get(&parts[1])?, -1, -1, len - 1),
            step,
        ))
    }
}

fn sequence_item(
    items: &[Value],
    index: &Value,
    what: &str,
    make: impl Fn(Vec<Value>) -> Value,
) -> PyResult<Value> {
    match index {
        Value::Slice(_) => {
            let (start, stop, step) = slice_indices(index, items.len())?;
            let picked = crate::python::iteration::RangeIter::new(start, stop, step)
                .map(|i| items[i.as_int().unwrap_or(0) as usize].clone())
                .collect();
            Ok(make(picked))
        }
        _ => Ok(items[normalize_index(index, items.len(), what)?].clone()),
    }
}

/// The error for `module.name` where the module has no such attribute: a
/// PyTorch name this playground lacks is a `NotImplementedError` naming it.
fn missing_module_attribute(m: &crate::python::value::Module, name: &str) -> PyErr {
    if crate::torch::pytorch_names::is_pytorch_name(&m.name, name)
        || crate::torch::prelude::is_missing_submodule(&format!("{}.{name}", m.name))
    {
        return crate::torch::pytorch_names::not_supported(&m.name, name);
    }
    PyErr::new(
        "AttributeError",
        format!("module '{}' has no attribute '{name}'", m.name),
    )
}
