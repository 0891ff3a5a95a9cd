//! Python numbers meeting tensors: the promotion kind of a Python number, the
//! dtype PyTorch gives one that becomes a tensor (`torch.tensor(3)`,
//! `torch.full((2,), 1.5)`, the `2` in `torch.where(c, t, 2)`), and an element
//! read back from a tensor as the Python number PyTorch returns. The dtype rule
//! lives here once; promotion of a number against a tensor's dtype is
//! `tpu_ir::DType::with_scalar`.

use crate::python::value::Value;
use tpu_ir::{DType, ScalarKind};
use tpu_runtime::Scalar;

/// The promotion kind of a Python number operand, with its value.
pub fn scalar_kind(v: &Value) -> Option<(f64, ScalarKind)> {
    match v {
        Value::Bool(b) => Some((*b as u8 as f64, ScalarKind::Bool)),
        Value::Int(i) => Some((*i as f64, ScalarKind::Int)),
        Value::Float(f) => Some((*f, ScalarKind::Float)),
        _ => None,
    }
}

/// The dtype a Python number of this kind gets as a tensor of its own: bool,
/// int64, or the default float dtype (float32), as `torch.tensor` infers it.
pub fn python_scalar_dtype(kind: ScalarKind) -> DType {
    match kind {
        ScalarKind::Bool => DType::Bool,
        ScalarKind::Int => DType::Int64,
        ScalarKind::Float => DType::Float32,
    }
}

/// The dtype a Python number gets when it becomes a tensor next to a tensor of
/// dtype `other` (promoted with it), or on its own when there is none.
pub fn scalar_dtype_beside(kind: ScalarKind, other: Option<DType>) -> DType {
    match other {
        Some(d) => d.with_scalar(kind),
        None => python_scalar_dtype(kind),
    }
}

/// A value read from a tensor as the Python object PyTorch returns.
pub fn scalar_value(s: Scalar) -> Value {
    match s {
        Scalar::Float(f) => Value::Float(f),
        Scalar::Int(i) => Value::Int(i),
        Scalar::Bool(b) => Value::Bool(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_python_number_becomes_the_tensor_dtype_pytorch_infers() {
        assert_eq!(python_scalar_dtype(ScalarKind::Bool), DType::Bool);
        assert_eq!(python_scalar_dtype(ScalarKind::Int), DType::Int64);
        assert_eq!(python_scalar_dtype(ScalarKind::Float), DType::Float32);
        // Beside a tensor, a number only widens the tensor's category.
        let beside = scalar_dtype_beside;
        assert_eq!(
            beside(ScalarKind::Float, Some(DType::Int64)),
            DType::Float32
        );
        assert_eq!(
            beside(ScalarKind::Int, Some(DType::BFloat16)),
            DType::BFloat16
        );
        assert_eq!(beside(ScalarKind::Int, Some(DType::Bool)), DType::Int64);
        assert_eq!(beside(ScalarKind::Int, None), DType::Int64);
    }
}
