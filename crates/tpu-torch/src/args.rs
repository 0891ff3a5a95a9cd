//! Positional arguments of a `torch._C` primitive with typed accessors: each
//! raises the
//! `TypeError` PyTorch would for a wrong type, naming the primitive and the
//! position. The prelude has already applied defaults and keywords.

use crate::torch_c::_tpu_torch::{PyDType, PyDevice, PyTensor, parse_device};
use rustpython_vm::builtins::{PyBool, PyFloat, PyInt, PyList, PyStr, PyTuple};
use rustpython_vm::{AsObject, PyObjectRef, PyResult, TryFromObject, VirtualMachine};
use tpu_ir::{DType, ScalarKind};
use tpu_runtime::{Device, Tensor, normalize_axis};

pub(crate) struct Args<'a> {
    pub name: &'a str,
    pub values: Vec<PyObjectRef>,
    pub vm: &'a VirtualMachine,
    /// `assign`'s result when it was a temporary (`natives::take_temporary`).
    pub temporary: std::cell::Cell<Option<Tensor>>,
}

/// The Python type name of `v`, for messages.
pub(crate) fn type_name(v: &PyObjectRef) -> String {
    v.class().name().to_string()
}

/// A Python number's value and kind (bool before int, since bool is an int).
pub(crate) fn scalar_kind(v: &PyObjectRef, vm: &VirtualMachine) -> Option<(f64, ScalarKind)> {
    if v.downcast_ref::<PyBool>().is_some() {
        return Some((
            f64::from(u8::from(v.clone().try_to_bool(vm).ok()?)),
            ScalarKind::Bool,
        ));
    }
    if v.downcast_ref::<PyInt>().is_some() {
        return i64::try_from_object(vm, v.clone())
            .ok()
            .map(|n| (n as f64, ScalarKind::Int));
    }
    v.downcast_ref::<PyFloat>()
        .map(|f| (f.to_f64(), ScalarKind::Float))
}

pub(crate) fn as_int(v: &PyObjectRef, vm: &VirtualMachine) -> Option<i64> {
    if v.downcast_ref::<PyInt>().is_some() {
        i64::try_from_object(vm, v.clone()).ok()
    } else {
        None
    }
}

impl Args<'_> {
    pub fn get(&self, i: usize) -> PyResult<&PyObjectRef> {
        self.values.get(i).ok_or_else(|| {
            self.vm
                .new_type_error(format!("_C.{}() missing argument {i}", self.name))
        })
    }

    pub fn is_none(&self, i: usize) -> bool {
        self.values.get(i).is_none_or(|v| self.vm.is_none(v))
    }

    pub fn tensor(&self, i: usize) -> PyResult<Tensor> {
        let v = self.get(i)?;
        v.downcast_ref::<PyTensor>()
            .map(|t| t.tensor())
            .ok_or_else(|| {
                self.vm.new_type_error(format!(
                    "{}(): argument 'input' (position {}) must be Tensor, not {}",
                    self.name,
                    i + 1,
                    type_name(v)
                ))
            })
    }

    pub fn int(&self, i: usize) -> PyResult<i64> {
        let v = self.get(i)?;
        as_int(v, self.vm).ok_or_else(|| {
            self.vm.new_type_error(format!(
                "{}(): argument {} must be int, not {}",
                self.name,
                i + 1,
                type_name(v)
            ))
        })
    }

    pub fn float(&self, i: usize) -> PyResult<f64> {
        let v = self.get(i)?;
        scalar_kind(v, self.vm).map(|(x, _)| x).ok_or_else(|| {
            self.vm.new_type_error(format!(
                "{}(): argument {} must be a number, not {}",
                self.name,
                i + 1,
                type_name(v)
            ))
        })
    }

    pub fn bool(&self, i: usize) -> PyResult<bool> {
        let v = self.get(i)?;
        if self.vm.is_none(v) {
            return Ok(false);
        }
        if v.downcast_ref::<PyBool>().is_some() || v.downcast_ref::<PyInt>().is_some() {
            return v.clone().try_to_bool(self.vm);
        }
        Err(self.vm.new_type_error(format!(
            "{}(): argument {} must be bool, not {}",
            self.name,
            i + 1,
            type_name(v)
        )))
    }

    pub fn str(&self, i: usize) -> PyResult<String> {
        let v = self.get(i)?;
        v.downcast_ref::<PyStr>()
            .map(|s| s.to_string())
            .ok_or_else(|| {
                self.vm.new_type_error(format!(
                    "{}(): argument {} must be str, not {}",
                    self.name,
                    i + 1,
                    type_name(v)
                ))
            })
    }

    /// An int, a sequence of ints, or `torch.Size`.
    pub fn ints(&self, i: usize) -> PyResult<Vec<i64>> {
        ints_of(self.get(i)?, self.name, self.vm)
    }

    /// `None` or ints (a single int becomes a one-element list).
    pub fn opt_ints(&self, i: usize) -> PyResult<Option<Vec<i64>>> {
        if self.is_none(i) {
            return Ok(None);
        }
        ints_of(self.get(i)?, self.name, self.vm).map(Some)
    }

    pub fn opt_dtype(&self, i: usize) -> PyResult<Option<DType>> {
        if self.is_none(i) {
            return Ok(None);
        }
        let v = self.get(i)?;
        v.downcast_ref::<PyDType>()
            .map(|d| Some(d.0))
            .ok_or_else(|| {
                self.vm.new_type_error(format!(
                    "{}(): argument 'dtype' must be torch.dtype, not {}",
                    self.name,
                    type_name(v)
                ))
            })
    }

    pub fn device(&self, i: usize) -> PyResult<Device> {
        if self.is_none(i) {
            return Ok(crate::torch_c::_tpu_torch::default_device());
        }
        let v = self.get(i)?;
        if let Some(d) = v.downcast_ref::<PyDevice>() {
            return Ok(d.0);
        }
        parse_device(v, self.vm)
    }

    /// `d` as an axis of `t`, negative dims counting from the end.
    pub fn axis(&self, t: &Tensor, d: i64) -> PyResult<usize> {
        normalize_axis(d, t.rank()).map_err(|e| crate::runtime::runtime_error(self.vm, &e))
    }

    pub fn axes(&self, t: &Tensor, ds: &[i64]) -> PyResult<Vec<usize>> {
        ds.iter().map(|&d| self.axis(t, d)).collect()
    }
}

/// The items of a list or tuple (a `torch.Size` is a tuple).
pub(crate) fn items(v: &PyObjectRef) -> Option<Vec<PyObjectRef>> {
    if let Some(t) = v.downcast_ref::<PyTuple>() {
        return Some(t.as_slice().to_vec());
    }
    v.downcast_ref::<PyList>().map(|l| l.borrow_vec().to_vec())
}

/// An int, a list/tuple of ints, or a `torch.Size`, as dims.
fn ints_of(v: &PyObjectRef, function: &str, vm: &VirtualMachine) -> PyResult<Vec<i64>> {
    let bad = |what: &PyObjectRef| {
        vm.new_type_error(format!(
            "{function}(): argument 'size' must be tuple of ints, but found element of type {}",
            type_name(what)
        ))
    };
    if v.downcast_ref::<PyBool>().is_none()
        && let Some(n) = as_int(v, vm)
    {
        return Ok(vec![n]);
    }
    let Some(list) = items(v) else {
        return Err(bad(v));
    };
    list.iter()
        .map(|x| {
            if x.downcast_ref::<PyBool>().is_some() {
                return Err(bad(x));
            }
            as_int(x, vm).ok_or_else(|| bad(x))
        })
        .collect()
}
