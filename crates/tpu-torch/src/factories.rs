//! `torch.tensor`'s data: nested Python lists of numbers (or 0-d tensors)
//! flattened row-major with their shape checked, then made host data in the
//! dtype PyTorch infers, ints kept exact.

use crate::runtime::with_runtime;
use crate::torch_c::_tpu_torch::{PyTensor, python_scalar_dtype};
use rustpython_vm::{AsObject, PyObjectRef, PyResult, TryFromObject, VirtualMachine};
use tpu_ir::{DType, ScalarKind};
use tpu_runtime::{HostData, Scalar};

/// A leaf of `torch.tensor`'s data, exact (an int64 beyond 2**53 stays
/// itself).
#[derive(Clone, Copy)]
pub(crate) enum Number {
    Bool(bool),
    Int(i64),
    Float(f64),
}

impl Number {
    fn of(v: &PyObjectRef, vm: &VirtualMachine) -> Option<Number> {
        use rustpython_vm::builtins::{PyBool, PyFloat, PyInt};
        if v.downcast_ref::<PyBool>().is_some() {
            return v.clone().try_to_bool(vm).ok().map(Number::Bool);
        }
        if v.downcast_ref::<PyInt>().is_some() {
            return i64::try_from_object(vm, v.clone()).ok().map(Number::Int);
        }
        v.downcast_ref::<PyFloat>()
            .map(|f| Number::Float(f.to_f64()))
    }

    fn kind(self) -> ScalarKind {
        match self {
            Number::Bool(_) => ScalarKind::Bool,
            Number::Int(_) => ScalarKind::Int,
            Number::Float(_) => ScalarKind::Float,
        }
    }

    fn f64(self) -> f64 {
        match self {
            Number::Bool(b) => f64::from(u8::from(b)),
            Number::Int(n) => n as f64,
            Number::Float(x) => x,
        }
    }

    fn i64(self) -> i64 {
        match self {
            Number::Bool(b) => i64::from(b),
            Number::Int(n) => n,
            Number::Float(x) => x as i64,
        }
    }
}

/// Flattens nested lists of numbers for `torch.tensor`, checking they
/// are rectangular; the leaves come back in row-major order.
pub(crate) fn flatten(
    value: &PyObjectRef,
    shape: &mut Vec<usize>,
    depth: usize,
    out: &mut Vec<Number>,
    vm: &VirtualMachine,
) -> PyResult<()> {
    if let Some(number) = Number::of(value, vm) {
        if depth < shape.len() {
            return Err(vm.new_value_error(format!(
                "expected sequence of length {} at dim {depth} (got a number)",
                shape[depth]
            )));
        }
        out.push(number);
        return Ok(());
    }
    if let Some(t) = value.downcast_ref::<PyTensor>() {
        let t = t.tensor();
        if t.rank() == 0 {
            let s = with_runtime(vm, async |rt| rt.item(&t).await)?;
            out.push(match s {
                Scalar::Float(x) => Number::Float(x),
                Scalar::Int(n) => Number::Int(n),
                Scalar::Bool(b) => Number::Bool(b),
            });
            return Ok(());
        }
    }
    let Some(items) = crate::args::items(value) else {
        return Err(vm.new_type_error(format!(
            "new(): invalid data type '{}'",
            value.class().name()
        )));
    };
    if shape.len() == depth {
        shape.push(items.len());
    } else if shape[depth] != items.len() {
        return Err(vm.new_value_error(format!(
            "expected sequence of length {} at dim {depth} (got {})",
            shape[depth],
            items.len()
        )));
    }
    for item in &items {
        flatten(item, shape, depth + 1, out, vm)?;
    }
    Ok(())
}

/// Python numbers as tensor data, in the dtype `torch.tensor` infers
/// from the widest kind among them (float32 for an empty list), then
/// converted to `dtype`.
pub(crate) fn host_data(values: &[Number], dtype: Option<DType>) -> HostData {
    let kind = values
        .iter()
        .map(|n| n.kind())
        .max_by_key(|kind| match kind {
            ScalarKind::Bool => 0,
            ScalarKind::Int => 1,
            ScalarKind::Float => 2,
        })
        .unwrap_or(ScalarKind::Float);
    let data = match python_scalar_dtype(kind) {
        DType::Bool => HostData::Bool(values.iter().map(|n| n.f64() != 0.0).collect()),
        DType::Int64 => HostData::I64(values.iter().map(|n| n.i64()).collect()),
        _ => HostData::F32(values.iter().map(|n| n.f64() as f32).collect()),
    };
    match dtype {
        // Python floats are doubles: round once, straight to the type.
        Some(DType::BFloat16) if kind == ScalarKind::Float => HostData::BF16(
            values
                .iter()
                .map(|n| tpu_runtime::data::f32_to_bf16(n.f64() as f32))
                .collect(),
        ),
        Some(DType::Float64) if kind == ScalarKind::Float => {
            HostData::F64(values.iter().map(|n| n.f64()).collect())
        }
        Some(d) => data.cast(d),
        None => data,
    }
}
