//! Positional arguments of a `torch._C` primitive with typed accessors: each
//! raises the `TypeError` PyTorch would for a wrong type, naming the primitive
//! and the position. The prelude has already applied defaults and keywords, so
//! this is the only parsing a primitive does.

use crate::python::error::PyErr;
use crate::python::interp::PyResult;
use crate::python::value::Value;
use crate::torch::module::parse_device;
use tpu_ir::DType;
use tpu_runtime::{Device, Tensor, normalize_axis};

/// Positional arguments with typed accessors that raise `TypeError`.
pub(super) struct Args<'a> {
    pub name: &'a str,
    pub values: Vec<Value>,
}

impl Args<'_> {
    pub fn get(&self, i: usize) -> PyResult<&Value> {
        self.values
            .get(i)
            .ok_or_else(|| PyErr::type_error(format!("_C.{}() missing argument {i}", self.name)))
    }

    pub fn tensor(&self, i: usize) -> PyResult<Tensor> {
        match self.get(i)? {
            Value::Tensor(t) => Ok(t.clone()),
            other => Err(PyErr::type_error(format!(
                "{}(): argument 'input' (position {}) must be Tensor, not {}",
                self.name,
                i + 1,
                other.type_name()
            ))),
        }
    }

    pub fn int(&self, i: usize) -> PyResult<i64> {
        let v = self.get(i)?;
        v.as_int().ok_or_else(|| {
            PyErr::type_error(format!(
                "{}(): argument {} must be int, not {}",
                self.name,
                i + 1,
                v.type_name()
            ))
        })
    }

    pub fn float(&self, i: usize) -> PyResult<f64> {
        let v = self.get(i)?;
        match v {
            Value::Tensor(_) => Err(PyErr::type_error(format!(
                "{}(): argument {} must be a number, not Tensor",
                self.name,
                i + 1
            ))),
            _ => v.as_number().ok_or_else(|| {
                PyErr::type_error(format!(
                    "{}(): argument {} must be a number, not {}",
                    self.name,
                    i + 1,
                    v.type_name()
                ))
            }),
        }
    }

    pub fn bool(&self, i: usize) -> PyResult<bool> {
        Ok(match self.get(i)? {
            Value::Bool(b) => *b,
            Value::Int(n) => *n != 0,
            Value::None => false,
            other => {
                return Err(PyErr::type_error(format!(
                    "{}(): argument {} must be bool, not {}",
                    self.name,
                    i + 1,
                    other.type_name()
                )));
            }
        })
    }

    pub fn str(&self, i: usize) -> PyResult<String> {
        match self.get(i)? {
            Value::Str(s) => Ok(s.to_string()),
            other => Err(PyErr::type_error(format!(
                "{}(): argument {} must be str, not {}",
                self.name,
                i + 1,
                other.type_name()
            ))),
        }
    }

    /// An int, a sequence of ints, or `torch.Size`.
    pub fn ints(&self, i: usize) -> PyResult<Vec<i64>> {
        ints_of(self.get(i)?, self.name)
    }

    /// `None` or ints (a single int becomes a one-element list).
    pub fn opt_ints(&self, i: usize) -> PyResult<Option<Vec<i64>>> {
        match self.values.get(i) {
            None | Some(Value::None) => Ok(None),
            Some(v) => ints_of(v, self.name).map(Some),
        }
    }

    pub fn opt_dtype(&self, i: usize) -> PyResult<Option<DType>> {
        match self.values.get(i) {
            None | Some(Value::None) => Ok(None),
            Some(Value::DType(d)) => Ok(Some(*d)),
            Some(other) => Err(PyErr::type_error(format!(
                "{}(): argument 'dtype' must be torch.dtype, not {}",
                self.name,
                other.type_name()
            ))),
        }
    }

    pub fn device(&self, i: usize) -> PyResult<Device> {
        match self.values.get(i) {
            None | Some(Value::None) => Ok(Device::Cpu),
            Some(v) => parse_device(v),
        }
    }

    pub fn take(&mut self, i: usize) -> Value {
        std::mem::replace(&mut self.values[i], Value::None)
    }
}

/// An int, a list/tuple of ints, or a `torch.Size`, as dims.
fn ints_of(v: &Value, function: &str) -> PyResult<Vec<i64>> {
    let bad = |what: &Value| {
        PyErr::type_error(format!(
            "{function}(): argument 'size' must be tuple of ints, but found element of type {}",
            what.type_name()
        ))
    };
    let items: Vec<Value> = match v {
        Value::Int(n) => return Ok(vec![*n]),
        Value::Size(s) => return Ok(s.iter().map(|&d| d as i64).collect()),
        Value::Tuple(t) => t.to_vec(),
        Value::List(l) => l.borrow().clone(),
        other => return Err(bad(other)),
    };
    items
        .iter()
        .map(|x| match x {
            Value::Bool(_) => Err(bad(x)),
            _ => x.as_int().ok_or_else(|| bad(x)),
        })
        .collect()
}

/// `d` as an axis of `t`, negative dims counting from the end.
pub(super) fn axis(t: &Tensor, d: i64) -> PyResult<usize> {
    normalize_axis(d, t.rank()).map_err(PyErr::from)
}

/// Each of `ds` as an axis of `t`.
pub(super) fn axes(t: &Tensor, ds: &[i64]) -> PyResult<Vec<usize>> {
    ds.iter().map(|&d| axis(t, d)).collect()
}
