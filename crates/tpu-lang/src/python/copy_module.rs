//! The `copy` module: `copy.copy` and `copy.deepcopy`, as CPython's `copy.py`
//! resolves them for the values a program has here. Training code snapshots a
//! model (`copy.deepcopy(model)`) or its `state_dict()` to restore the best
//! weights later, so a deep copy keeps the shape of the object graph: a value
//! reached twice is copied once (the memo, keyed by identity), instances keep
//! their class, and tensors copy as `torch.Tensor.__deepcopy__` does (a detached
//! clone keeping `requires_grad`, `nn.Parameter`-ness and a copy of `.grad`).

use crate::python::error::PyErr;
use crate::python::interp::{Boxed, Interpreter, PyResult};
use crate::python::value::{Dict, Instance, Value};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

pub const COPY_FUNCTIONS: &[&str] = &["copy.copy", "copy.deepcopy"];

/// Copies made so far in one `deepcopy` call, by the identity of the original.
type Memo = HashMap<usize, Value>;

impl Interpreter<'_> {
    /// `copy.<name>(x)`.
    pub async fn call_copy(
        &mut self,
        name: &str,
        args: &[Value],
        kwargs: &[(String, Value)],
    ) -> PyResult<Value> {
        let Some(x) = args.first() else {
            return Err(PyErr::type_error(format!(
                "{name}() missing 1 required positional argument: 'x'"
            )));
        };
        if args.len() > 1 || !kwargs.is_empty() {
            return Err(PyErr::not_implemented(format!(
                "copy.{name}() with a memo argument"
            )));
        }
        match name {
            "copy" => self.shallow_copy(x),
            _ => self.deep_copy(x.clone(), &mut Memo::new()).await,
        }
    }

    /// `copy.copy(x)`: a new container or instance holding the same items.
    fn shallow_copy(&mut self, x: &Value) -> PyResult<Value> {
        Ok(match x {
            Value::List(items) => Value::list(items.borrow().clone()),
            Value::Dict(d) => Value::Dict(Rc::new(RefCell::new(d.borrow().clone()))),
            Value::Set(d) => Value::Set(Rc::new(RefCell::new(d.borrow().clone()))),
            Value::Instance(obj) => Value::Instance(Rc::new(Instance {
                class_cell: RefCell::new(obj.class()),
                attrs: RefCell::new(obj.attrs.borrow().clone()),
            })),
            Value::Tensor(_) => {
                return Err(PyErr::not_implemented(
                    "copy.copy() of a tensor; use tensor.clone() or copy.deepcopy()",
                ));
            }
            other => other.clone(),
        })
    }

    /// `copy.deepcopy(x)`, recording each copy in `memo` before copying what it
    /// holds, so shared and cyclic references come out shared and cyclic.
    fn deep_copy<'a>(&'a mut self, x: Value, memo: &'a mut Memo) -> Boxed<'a, Value> {
        Box::pin(async move {
            let key = x.identity();
            if let Some(copied) = key.and_then(|k| memo.get(&k)) {
                return Ok(copied.clone());
            }
            let copied = match &x {
                Value::List(items) => {
                    let out = Rc::new(RefCell::new(Vec::new()));
                    memo.insert(key.unwrap_or(0), Value::List(out.clone()));
                    let originals = items.borrow().clone();
                    for item in originals {
                        let c = self.deep_copy(item, memo).await?;
                        out.borrow_mut().push(c);
                    }
                    Value::List(out)
                }
                Value::Tuple(items) => {
                    let mut out = Vec::with_capacity(items.len());
                    for item in items.iter() {
                        out.push(self.deep_copy(item.clone(), memo).await?);
                    }
                    Value::tuple(out)
                }
                Value::Dict(d) | Value::Set(d) => {
                    let out = Rc::new(RefCell::new(Dict::default()));
                    let wrap = |d: Rc<RefCell<Dict>>| match &x {
                        Value::Set(_) => Value::Set(d),
                        _ => Value::Dict(d),
                    };
                    memo.insert(key.unwrap_or(0), wrap(out.clone()));
                    let entries = d.borrow().items().to_vec();
                    for (k, v) in entries {
                        let k = self.deep_copy(k, memo).await?;
                        let v = self.deep_copy(v, memo).await?;
                        let hk = k.hash_key().ok_or_else(|| {
                            PyErr::type_error(format!("unhashable type: '{}'", k.type_name()))
                        })?;
                        out.borrow_mut().insert(hk, k, v);
                    }
                    wrap(out)
                }
                Value::Instance(obj) => {
                    if let Some(hook) = obj.class().lookup("__deepcopy__") {
                        let memo_dict = Value::Dict(Rc::new(RefCell::new(Dict::default())));
                        let method = Value::BoundMethod(Rc::new((
                            x.clone(),
                            match hook {
                                Value::Function(f) => f,
                                _ => {
                                    return Err(PyErr::type_error(
                                        "__deepcopy__ must be a function",
                                    ));
                                }
                            },
                        )));
                        let c = self.call(method, vec![memo_dict], Vec::new()).await?;
                        memo.insert(key.unwrap_or(0), c.clone());
                        return Ok(c);
                    }
                    let out = Rc::new(Instance {
                        class_cell: RefCell::new(obj.class()),
                        attrs: RefCell::default(),
                    });
                    memo.insert(key.unwrap_or(0), Value::Instance(out.clone()));
                    let attrs = obj.attrs.borrow().clone();
                    for (name, v) in attrs {
                        let c = self.deep_copy(v, memo).await?;
                        out.attrs.borrow_mut().push((name, c));
                    }
                    Value::Instance(out)
                }
                Value::Tensor(t) => {
                    if !t.is_leaf() {
                        return Err(PyErr::new(
                            "RuntimeError",
                            "Only Tensors created explicitly by the user (graph leaves) support \
                             the deepcopy protocol at the moment.  If you were attempting to \
                             deepcopy a module, this may be because of a torch.nn.utils.weight_norm \
                             usage, see https://github.com/pytorch/pytorch/pull/103001",
                        ));
                    }
                    let detached = self.runtime.detach(t);
                    let c = self.runtime.clone_tensor(&detached).await?;
                    if t.is_parameter() {
                        c.mark_parameter();
                    }
                    self.runtime.set_requires_grad(&c, t.requires_grad())?;
                    memo.insert(key.unwrap_or(0), Value::Tensor(c.clone()));
                    if let Some(g) = t.grad() {
                        let g = self.deep_copy(Value::Tensor(g), memo).await?;
                        if let Value::Tensor(g) = g {
                            c.set_grad(Some(g));
                        }
                    }
                    return Ok(Value::Tensor(c));
                }
                // Numbers, strings, functions, classes, modules and the other
                // immutable or shared values are their own copies, as CPython's
                // `_deepcopy_atomic` makes them.
                other => return Ok(other.clone()),
            };
            if let Some(k) = key {
                memo.insert(k, copied.clone());
            }
            Ok(copied)
        })
    }
}
