//! Element types. The foundation computes in float32 only; the other variants exist
//! so that names and printing are right from the start, and the backends reject them
//! with a clear error until they are implemented.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
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

    pub fn size_in_bytes(self) -> usize {
        match self {
            DType::Float32 => 4,
            DType::BFloat16 => 2,
            DType::Int64 => 8,
            DType::Bool => 1,
        }
    }
}
