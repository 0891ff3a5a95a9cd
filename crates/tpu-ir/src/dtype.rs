//! Element types and PyTorch's type promotion between them. The reference backend
//! computes in all seven; float16 and bfloat16 values are stored as such and
//! rounded after every op, as PyTorch's CPU kernels round them (computing in
//! float32 between), and float64 computes in double precision throughout.

use serde::{Deserialize, Serialize};

/// The kind of a Python number operand, for type promotion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarKind {
    Bool,
    Int,
    Float,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum DType {
    Float32,
    Float64,
    BFloat16,
    Float16,
    UInt8,
    Int32,
    Int64,
    Bool,
}

impl DType {
    /// The name PyTorch prints, as in `dtype=torch.int64`.
    pub fn torch_name(self) -> &'static str {
        match self {
            DType::Float32 => "torch.float32",
            DType::Float64 => "torch.float64",
            DType::BFloat16 => "torch.bfloat16",
            DType::Float16 => "torch.float16",
            DType::UInt8 => "torch.uint8",
            DType::Int32 => "torch.int32",
            DType::Int64 => "torch.int64",
            DType::Bool => "torch.bool",
        }
    }

    /// The name without `torch.`, as `float16`.
    pub fn short_name(self) -> &'static str {
        &self.torch_name()["torch.".len()..]
    }

    pub fn is_floating(self) -> bool {
        matches!(
            self,
            DType::Float32 | DType::Float64 | DType::BFloat16 | DType::Float16
        )
    }

    pub fn is_integer(self) -> bool {
        matches!(self, DType::UInt8 | DType::Int32 | DType::Int64)
    }

    /// PyTorch's promotion of two tensors' dtypes (`torch.promote_types`): the
    /// higher category wins (bool < integer < floating), and within a category
    /// the wider type; float16 with bfloat16, neither of which holds the
    /// other, is float32.
    pub fn promote(a: DType, b: DType) -> DType {
        match (a, b) {
            (DType::Float16, DType::BFloat16) | (DType::BFloat16, DType::Float16) => DType::Float32,
            _ if a.rank() >= b.rank() => a,
            _ => b,
        }
    }

    fn rank(self) -> u8 {
        match self {
            DType::Bool => 0,
            DType::UInt8 => 1,
            DType::Int32 => 2,
            DType::Int64 => 3,
            DType::BFloat16 | DType::Float16 => 4,
            DType::Float32 => 5,
            DType::Float64 => 6,
        }
    }

    fn category(self) -> u8 {
        match self {
            DType::Bool => 0,
            DType::UInt8 | DType::Int32 | DType::Int64 => 1,
            DType::BFloat16 | DType::Float16 | DType::Float32 | DType::Float64 => 2,
        }
    }

    /// The dtype of an op on two tensors, as `torch.result_type` decides it: a
    /// 0-d tensor takes part only when its category is higher than the other
    /// operand's (`int32 tensor + tensor(5)` stays int32, `int32 tensor +
    /// tensor(1.5, dtype=float64)` is float64), as ATen's `combine_categories`.
    pub fn result_type(a: (DType, bool), b: (DType, bool)) -> DType {
        let ((a, a_zero_dim), (b, b_zero_dim)) = (a, b);
        if a_zero_dim == b_zero_dim {
            return DType::promote(a, b);
        }
        let (dim, zero) = if a_zero_dim { (b, a) } else { (a, b) };
        if zero.category() > dim.category() {
            DType::promote(dim, zero)
        } else {
            dim
        }
    }

    /// The result of a tensor of dtype `self` combined with a Python number: a
    /// number of a higher category brings that category's default dtype
    /// (float32 for floats, int64 for ints); otherwise the tensor's dtype wins.
    pub fn with_scalar(self, scalar: ScalarKind) -> DType {
        match (self, scalar) {
            (DType::Bool, ScalarKind::Int) => DType::Int64,
            (DType::Bool | DType::UInt8 | DType::Int32 | DType::Int64, ScalarKind::Float) => {
                DType::Float32
            }
            (d, _) => d,
        }
    }

    pub fn size_in_bytes(self) -> usize {
        match self {
            DType::Float32 | DType::Int32 => 4,
            DType::Float64 => 8,
            DType::BFloat16 | DType::Float16 => 2,
            DType::Int64 => 8,
            DType::Bool | DType::UInt8 => 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::DType::*;
    use super::*;

    /// Each case as `torch.result_type` printed it (PyTorch 2.15).
    #[test]
    fn result_type_follows_pytorch() {
        let cases = [
            ((Int32, false), (Int64, false), Int64),
            ((Int32, false), (Float32, false), Float32),
            ((Float64, false), (Float32, false), Float64),
            ((BFloat16, false), (Float64, false), Float64),
            ((Int32, false), (Int64, true), Int32),
            ((Float32, false), (Float64, true), Float32),
            ((Int32, false), (Float64, true), Float64),
            ((BFloat16, false), (Float32, true), BFloat16),
            ((Float16, false), (BFloat16, false), Float32),
            ((Float16, false), (Float64, true), Float16),
            ((Float16, false), (Int64, false), Float16),
            ((Bool, false), (Int64, true), Int64),
            ((Int32, true), (Int64, true), Int64),
            ((Float32, true), (Int32, false), Float32),
            ((UInt8, false), (Int32, false), Int32),
            ((UInt8, false), (Bool, false), UInt8),
            ((UInt8, false), (Int64, true), UInt8),
            ((Bool, false), (UInt8, true), UInt8),
            ((UInt8, false), (Float16, false), Float16),
        ];
        for (a, b, expected) in cases {
            assert_eq!(DType::result_type(a, b), expected, "{a:?} with {b:?}");
            assert_eq!(DType::result_type(b, a), expected, "{b:?} with {a:?}");
        }
        assert_eq!(Int32.with_scalar(ScalarKind::Float), Float32);
        assert_eq!(Int32.with_scalar(ScalarKind::Int), Int32);
        assert_eq!(Float64.with_scalar(ScalarKind::Float), Float64);
    }
}
