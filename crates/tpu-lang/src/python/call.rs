//! Calls, attribute access, subscripts and iteration: the object protocol. Python
//! functions get their arguments bound exactly as CPython binds them (positional,
//! keyword, defaults, `*args`, `**kwargs`, with CPython's `TypeError` wording), and
//! run in a fresh scope whose parent is their closure.

use crate::python::env::{Env, ScopeKind};
use crate::python::error::PyErr;
use crate::python::expr::hash_key;
use crate::python::interp::{Boxed, Flow, Interpreter, PyResult};
use crate::python::value::{Dict, Function, FunctionCode, Instance, Value};
use std::cell::RefCell;
use std::rc::Rc;

/// A running iteration: ranges stay lazy, everything else is a list of items.
pub enum Iter {
    Range { next: i64, stop: i64, step: i64 },
    Items(std::vec::IntoIter<Value>),
}

impl Iterator for Iter {
    type Item = Value;

    fn next(&mut self) -> Option<Value> {
        match self {
            Iter::Range { next, stop, step } => {
                let more = if *step > 0 {
                    *next < *stop
                } else {
                    *next > *stop
                };
                if !more {
                    return None;
                }
                let v = *next;
                *next += *step;
                Some(Value::Int(v))
            }
            Iter::Items(items) => items.next(),
        }
    }
}

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
                Value::Builtin(name) => Box::pin(self.call_builtin(name, args, kwargs)).await,
                Value::NativeMethod(m) => {
                    Box::pin(self.call_native_method(&m.0, m.1, args, kwargs)).await
                }
                Value::Class(class) => {
                    if self.is_exception_class(&class) {
                        let instance = Instance {
                            class: class.clone(),
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
                        class: class.clone(),
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
                Value::GradMode(enabled) => self.decorate_with_grad_mode(enabled, args).await,
                Value::Instance(i) => match i.class.lookup("__call__") {
                    Some(method) => {
                        args.insert(0, Value::Instance(i.clone()));
                        self.call(method, args, kwargs).await
                    }
                    None => Err(PyErr::type_error(format!(
                        "'{}' object is not callable",
                        i.class.name
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
        self.env = outer_env;
        self.file = outer_file;
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
            Value::Instance(i) => {
                if let Some(v) = i.get(name) {
                    return Ok(v);
                }
                match i.class.lookup(name) {
                    Some(Value::Function(f)) => Ok(Value::BoundMethod(Rc::new((base.clone(), f)))),
                    Some(v) => Ok(v),
                    None if name == "__class__" => Ok(Value::Class(i.class.clone())),
                    None if name == "__dict__" => {
                        let mut dict = Dict::default();
                        for (k, v) in i.attrs.borrow().iter() {
                            dict.insert(
                                crate::python::value::HashKey::Str(k.clone()),
                                Value::Str(k.clone()),
                                v.clone(),
                            );
                        }
                        Ok(Value::Dict(Rc::new(RefCell::new(dict))))
                    }
                    None => match i.class.lookup("__getattr__") {
                        Some(getattr) => {
                            self.call(getattr, vec![base.clone(), Value::str(name)], Vec::new())
                                .await
                        }
                        None => Err(missing()),
                    },
                }
            }
            Value::Class(c) => match name {
                "__name__" => Ok(Value::str(&c.name)),
                _ => c.lookup(name).ok_or_else(|| {
                    PyErr::new(
                        "AttributeError",
                        format!("type object '{}' has no attribute '{name}'", c.name),
                    )
                }),
            },
            Value::Super(s) => {
                let (class, obj) = (&s.0, &s.1);
                let Value::Instance(instance) = obj else {
                    return Err(missing());
                };
                let mro = instance.class.mro.borrow().clone();
                let after = mro
                    .iter()
                    .position(|c| Rc::ptr_eq(c, class))
                    .map_or(mro.len(), |i| i + 1);
                for c in &mro[after..] {
                    if let Some(v) = c.attrs.borrow().get(name) {
                        return Ok(match v {
                            Value::Function(f) => {
                                Value::BoundMethod(Rc::new((obj.clone(), f.clone())))
                            }
                            other => other.clone(),
                        });
                    }
                }
                if name == "__init__" {
                    // `object.__init__` takes no arguments and does nothing.
                    return Ok(Value::Builtin("object.__init__"));
                }
                Err(PyErr::new(
                    "AttributeError",
                    format!("'super' object has no attribute '{name}'"),
                ))
            }
            Value::Module(m) => m.attrs.borrow().get(name).cloned().ok_or_else(|| {
                if crate::torch::pytorch_names::is_pytorch_name(&m.name, name)
                    || crate::torch::prelude::is_missing_submodule(&format!("{}.{name}", m.name))
                {
                    return crate::torch::pytorch_names::not_supported(&m.name, name);
                }
                PyErr::new(
                    "AttributeError",
                    format!("module '{}' has no attribute '{name}'", m.name),
                )
            }),
            Value::Function(f) if name == "__name__" => Ok(Value::str(&f.name)),
            Value::Function(f) if name == "__doc__" => {
                Ok(crate::python::introspect::function_doc(f))
            }
            Value::BoundMethod(m) if name == "__doc__" => {
                Ok(crate::python::introspect::function_doc(&m.1))
            }
            // `object.__setattr__(self, name, value)`, which a class's own
            // `__setattr__` calls to store the attribute.
            Value::Builtin("object") if name == "__setattr__" => {
                Ok(Value::Builtin("object.__setattr__"))
            }
            Value::Builtin(b) if name == "__name__" => {
                Ok(Value::str(b.rsplit('.').next().unwrap_or(b)))
            }
            Value::Tensor(t) => self.tensor_attribute(t, name).await,
            other => crate::python::methods::native_attribute(other, name).ok_or_else(missing),
        }
    }

    /// `base.name = value` as a statement or `setattr` runs it: through the
    /// class's `__setattr__` when it defines one (as `nn.Module` does).
    pub async fn assign_attribute(
        &mut self,
        base: &Value,
        name: &str,
        value: Value,
    ) -> PyResult<()> {
        if let Value::Instance(i) = base
            && let Some(hook @ Value::Function(_)) = i.class.lookup("__setattr__")
        {
            self.call(
                hook,
                vec![base.clone(), Value::str(name), value],
                Vec::new(),
            )
            .await?;
            return Ok(());
        }
        self.set_attribute(base, name, value)
    }

    pub fn set_attribute(&mut self, base: &Value, name: &str, value: Value) -> PyResult<()> {
        match base {
            Value::Instance(i) => {
                i.set(name, value);
                Ok(())
            }
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
                    None => Err(PyErr::new("KeyError", self.repr_of(index).await?)),
                }
            }
            Value::Tensor(t) => self.tensor_get_item(t, index).await,
            Value::Instance(i) => match i.class.lookup("__getitem__") {
                Some(getitem) => {
                    self.call(getitem, vec![base.clone(), index.clone()], Vec::new())
                        .await
                }
                None => Err(PyErr::type_error(format!(
                    "'{}' object is not subscriptable",
                    i.class.name
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
            Value::Instance(i) => match i.class.lookup("__setitem__") {
                Some(setitem) => {
                    self.call(setitem, vec![base.clone(), index, value], Vec::new())
                        .await?;
                    Ok(())
                }
                None => Err(PyErr::type_error(format!(
                    "'{}' object does not support item assignment",
                    i.class.name
                ))),
            },
            other => Err(PyErr::type_error(format!(
                "'{}' object does not support item assignment",
                other.type_name()
            ))),
        }
    }

    pub fn del_item(&mut self, base: &Value, index: &Value) -> PyResult<()> {
        match base {
            Value::List(l) => {
                let len = l.borrow().len();
                let i = normalize_index(index, len, "list assignment")?;
                l.borrow_mut().remove(i);
                Ok(())
            }
            Value::Dict(d) => {
                let key = hash_key(index)?;
                d.borrow_mut()
                    .remove(&key)
                    .map(|_| ())
                    .ok_or_else(|| PyErr::new("KeyError", ""))
            }
            other => Err(PyErr::type_error(format!(
                "'{}' object doesn't support item deletion",
                other.type_name()
            ))),
        }
    }

    /// Starts iterating over `value`.
    pub async fn iter(&mut self, value: Value) -> PyResult<Iter> {
        Ok(match value {
            Value::Range(start, stop, step) => Iter::Range {
                next: start,
                stop,
                step,
            },
            other => Iter::Items(self.collect(other).await?.into_iter()),
        })
    }

    /// All items of an iterable, as `list(value)` gives them.
    pub async fn collect(&mut self, value: Value) -> PyResult<Vec<Value>> {
        Ok(match value {
            Value::List(l) => l.borrow().clone(),
            Value::Tuple(t) => t.to_vec(),
            Value::Str(s) => s.chars().map(|c| Value::str(&c.to_string())).collect(),
            Value::Dict(d) | Value::Set(d) => d.borrow().keys(),
            Value::Size(s) => s.iter().map(|&d| Value::Int(d as i64)).collect(),
            Value::Range(start, stop, step) => {
                crate::python::ops::check_len(range_len(start, stop, step).max(0) as usize)?;
                Iter::Range {
                    next: start,
                    stop,
                    step,
                }
                .collect()
            }
            Value::Tensor(t) => self.tensor_unbind(&t).await?,
            Value::Instance(ref i) => match i.class.lookup("__iter__") {
                Some(method) => {
                    let it = self.call(method, vec![value.clone()], Vec::new()).await?;
                    Box::pin(self.collect(it)).await?
                }
                None => {
                    return Err(PyErr::type_error(format!(
                        "'{}' object is not iterable",
                        i.class.name
                    )));
                }
            },
            other => {
                return Err(PyErr::type_error(format!(
                    "'{}' object is not iterable",
                    other.type_name()
                )));
            }
        })
    }
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
            let picked = Iter::Range {
                next: start,
                stop,
                step,
            }
            .map(|i| items[i.as_int().unwrap_or(0) as usize].clone())
            .collect();
            Ok(make(picked))
        }
        _ => Ok(items[normalize_index(index, items.len(), what)?].clone()),
    }
}
