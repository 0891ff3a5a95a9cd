//! The iteration protocol: what `for`, comprehensions, unpacking and `list()` ask
//! of a value, and the built-ins `iter()` and `next()`. Built-in iterables give
//! their items directly (ranges stay lazy). A class is iterated as CPython does
//! it: `__iter__`, then `__next__` once per step until `StopIteration`, so that a
//! loop body's effects interleave with the iterator's as they do in CPython; a
//! class without `__iter__` but with `__getitem__` is indexed with 0, 1, 2, ...
//! until `IndexError`. `iter()` of a built-in iterable is an iterator object
//! (`Value::Iterator`) that `next()` and loops advance in turn.

use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::value::Value;
use std::cell::RefCell;
use std::rc::Rc;

/// `range(start, stop, step)`'s numbers, produced one at a time.
pub struct RangeIter {
    next: i64,
    stop: i64,
    step: i64,
}

impl RangeIter {
    pub fn new(start: i64, stop: i64, step: i64) -> RangeIter {
        RangeIter {
            next: start,
            stop,
            step,
        }
    }
}

impl Iterator for RangeIter {
    type Item = Value;

    fn next(&mut self) -> Option<Value> {
        let more = if self.step > 0 {
            self.next < self.stop
        } else {
            self.next > self.stop
        };
        if !more {
            return None;
        }
        let v = self.next;
        self.next += self.step;
        Some(Value::Int(v))
    }
}

/// A running iteration.
pub enum Iter {
    Range(RangeIter),
    Items(std::vec::IntoIter<Value>),
    /// An object with `__next__`, called once per step.
    Next(Value),
    /// The sequence protocol: `__getitem__` with increasing indices; `None` once
    /// an `IndexError` has ended it, so that it stays ended.
    Indexed(Option<Value>, i64),
    /// The iteration an iterator object holds, advanced by whoever holds it.
    Shared(Rc<RefCell<Iter>>),
}

impl Interpreter<'_> {
    /// Starts iterating over `value`, as CPython's `iter(value)` does.
    pub async fn iter(&mut self, value: Value) -> PyResult<Iter> {
        Ok(match value {
            Value::Range(start, stop, step) => Iter::Range(RangeIter::new(start, stop, step)),
            Value::Iterator(shared) => Iter::Shared(shared),
            Value::Instance(ref i) => {
                if i.class().lookup("__iter__").is_some() {
                    let iterator = self
                        .call_special(&value, "__iter__", Vec::new())
                        .await?
                        .unwrap_or(Value::None);
                    match &iterator {
                        Value::Iterator(shared) => Iter::Shared(shared.clone()),
                        Value::Instance(it) if it.class().lookup("__next__").is_some() => {
                            Iter::Next(iterator)
                        }
                        other => {
                            return Err(PyErr::type_error(format!(
                                "iter() returned non-iterator of type '{}'",
                                other.type_name()
                            )));
                        }
                    }
                } else if i.class().lookup("__getitem__").is_some() {
                    Iter::Indexed(Some(value.clone()), 0)
                } else {
                    return Err(not_iterable(&value));
                }
            }
            other => Iter::Items(self.collect(other).await?.into_iter()),
        })
    }

    /// The next item of an iteration, or `None` at its end.
    pub async fn next_item(&mut self, iter: &mut Iter) -> PyResult<Option<Value>> {
        match iter {
            Iter::Range(r) => Ok(r.next()),
            Iter::Items(items) => Ok(items.next()),
            Iter::Next(obj) => {
                let obj = obj.clone();
                self.step_next(&obj).await
            }
            Iter::Indexed(seq, index) => {
                let Some(obj) = seq.clone() else {
                    return Ok(None);
                };
                let item = self.step_indexed(&obj, *index).await?;
                *index += 1;
                if item.is_none() {
                    *seq = None;
                }
                Ok(item)
            }
            Iter::Shared(shared) => {
                // The borrow ends before any Python code runs, since that code
                // may advance the same iterator.
                let (obj, index) = {
                    let mut inner = shared.borrow_mut();
                    match &mut *inner {
                        Iter::Range(r) => return Ok(r.next()),
                        Iter::Items(items) => return Ok(items.next()),
                        Iter::Indexed(None, _) => return Ok(None),
                        Iter::Indexed(Some(obj), index) => {
                            *index += 1;
                            (obj.clone(), *index - 1)
                        }
                        Iter::Next(obj) => (obj.clone(), -1),
                        Iter::Shared(_) => return Ok(None),
                    }
                };
                if index < 0 {
                    return self.step_next(&obj).await;
                }
                let item = self.step_indexed(&obj, index).await?;
                if item.is_none()
                    && let Iter::Indexed(seq, _) = &mut *shared.borrow_mut()
                {
                    *seq = None;
                }
                Ok(item)
            }
        }
    }

    /// `obj.__next__()`, with `StopIteration` read as the end.
    async fn step_next(&mut self, obj: &Value) -> PyResult<Option<Value>> {
        match self.call_special(obj, "__next__", Vec::new()).await {
            Ok(item) => Ok(item),
            Err(e) if self.is_error(&e, "StopIteration") => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// `obj[index]` for the sequence protocol, with `IndexError` (or
    /// `StopIteration`) read as the end.
    async fn step_indexed(&mut self, obj: &Value, index: i64) -> PyResult<Option<Value>> {
        match self.get_item(obj, &Value::Int(index)).await {
            Ok(item) => Ok(Some(item)),
            Err(e) if self.is_error(&e, "IndexError") || self.is_error(&e, "StopIteration") => {
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// Whether `err` is the built-in exception `kind` or a subclass of it.
    pub fn is_error(&self, err: &PyErr, kind: &str) -> bool {
        if err.fatal {
            return false;
        }
        match self.exceptions.get(kind) {
            Some(class) => self
                .exception_matches(err, &Value::Class(class.clone()))
                .unwrap_or(false),
            None => err.kind == kind,
        }
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
                crate::python::ops::check_len(
                    crate::python::call::range_len(start, stop, step).max(0) as usize,
                )?;
                RangeIter::new(start, stop, step).collect()
            }
            Value::Tensor(t) => self.tensor_unbind(&t).await?,
            Value::Instance(_) | Value::Iterator(_) => {
                let mut iter = Box::pin(self.iter(value)).await?;
                let mut items = Vec::new();
                while let Some(item) = Box::pin(self.next_item(&mut iter)).await? {
                    crate::python::ops::check_len(items.len() + 1)?;
                    items.push(item);
                }
                items
            }
            other => return Err(not_iterable(&other)),
        })
    }

    /// The built-in `iter(value)`: an object's own iterator from `__iter__`, or an
    /// iterator object over a built-in iterable.
    pub async fn iter_builtin(&mut self, value: Value) -> PyResult<Value> {
        if let Value::Iterator(_) = value {
            return Ok(value);
        }
        Ok(match self.iter(value).await? {
            Iter::Next(obj) => obj,
            Iter::Shared(shared) => Value::Iterator(shared),
            other => Value::Iterator(Rc::new(RefCell::new(other))),
        })
    }

    /// The built-in `next(iterator[, default])`.
    pub async fn next_builtin(&mut self, args: Vec<Value>) -> PyResult<Value> {
        let mut args = args.into_iter();
        let (Some(iterator), default, None) = (args.next(), args.next(), args.next()) else {
            return Err(PyErr::type_error("next expected 1 or 2 arguments"));
        };
        let item = match &iterator {
            Value::Iterator(shared) => {
                let mut iter = Iter::Shared(shared.clone());
                self.next_item(&mut iter).await?
            }
            Value::Instance(i) if i.class().lookup("__next__").is_some() => {
                match self.call_special(&iterator, "__next__", Vec::new()).await {
                    Ok(item) => item,
                    Err(e) if default.is_some() && self.is_error(&e, "StopIteration") => None,
                    Err(e) => return Err(e),
                }
            }
            other => {
                return Err(PyErr::type_error(format!(
                    "'{}' object is not an iterator",
                    other.type_name()
                )));
            }
        };
        match (item, default) {
            (Some(item), _) => Ok(item),
            (None, Some(default)) => Ok(default),
            (None, None) => Err(PyErr::new("StopIteration", "")),
        }
    }
}

fn not_iterable(value: &Value) -> PyErr {
    PyErr::type_error(format!("'{}' object is not iterable", value.type_name()))
}
