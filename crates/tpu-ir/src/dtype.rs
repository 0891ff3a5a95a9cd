//! Element types and PyTorch's type promotion between them. The reference backend
//! computes in all four; bfloat16 values are stored as bfloat16 and rounded after
//! every op, as PyTorch's CPU kernels round them.

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
    BFloat16,
    Int64,
    Bool,
}

impl DType {
    /// The name PyTorch prints, as in `dtype=torch.int64`.
    pub fn torch_name(self) -> &'static str {
        match self {
            DType::Float32 => "torch.float32",
            DType::BFloat16 => "torch.bfloat16",
            DType::Int64 => "torch.int64",
            DType::Bool => "torch.bool",
        }
    }

    pub fn is_floating(self) -> bool {
        matches!(self, DType::Float32 | DType::BFloat16)
    }

    /// PyTorch's promotion of two tensors' dtypes (`torch.promote_types`): the
    /// higher category wins (bool < integer < floating), and within floating the
    /// wider type.
    pub fn promote(a: DType, b: DType) -> DType {
        fn rank(d: DType) -> u8 {
            match d {
                DType::Bool => 0,
                DType::Int64 => 1,
                DType::BFloat16 => 2,
                DType::Float32 => 3,
            }
        }
        if rank(a) >= rank(b) { a } else { b }
    }

    /// The result of a tensor of dtype `self` combined with a Python number: a
    /// number of a higher category brings that category's default dtype
    /// (float32 for floats, int64 for ints); otherwise the tensor's dtype wins.
    pub fn with_scalar(self, scalar: ScalarKind) -> DType {
        match (self, scalar) {
            (DType::Bool, ScalarKind::Int) => DType::Int64,
            (DType::Bool | DType::Int64, ScalarKind::Float) => DType::Float32,
            (d, _) => d,
        }
    }

    pub fn size_in_bytes(self) -> usize {
        match self {
            DType::Float32 => 4,
            DType::BFloat16 => 2,
            DType::Int64 => 8,
            DType::Bool => 1,
        }
    }
}
