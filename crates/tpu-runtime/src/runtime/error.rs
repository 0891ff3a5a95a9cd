//! The runtime's error type, `RuntimeError`, with PyTorch's wording for each
//! case and the Python exception class a user sees, and the dtype names those
//! messages use (`float`, `Long`). They live apart from the dispatcher because
//! every part of the runtime (views, reductions, autograd, placement) returns them.

use crate::backend::BackendError;
use crate::tensor::Device;
use tpu_ir::{DType, ShapeError};

#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum RuntimeError {
    #[error("{0}")]
    Shape(#[from] ShapeError),
    #[error(
        "Expected all tensors to be on the same device, but found at least two devices, {0} and {1}!"
    )]
    DeviceMismatch(Device, Device),
    #[error(
        "out of memory: a tensor of shape {shape:?} needs {bytes} bytes; this runtime allows {limit} bytes per tensor"
    )]
    OutOfMemory {
        shape: Vec<usize>,
        bytes: u128,
        limit: usize,
    },
    #[error(
        "out of memory: a tensor of shape {shape:?} needs {bytes} bytes while {live} bytes are in use; this runtime allows {limit} bytes of tensors in all"
    )]
    OutOfMemoryTotal {
        shape: Vec<usize>,
        bytes: u128,
        live: usize,
        limit: usize,
    },
    #[error("expected m1 and m2 to have the same dtype, but got: {} != {}", c_type_name(*.0), c_type_name(*.1))]
    DTypeMismatch(DType, DType),
    #[error("a Tensor with {0} elements cannot be converted to Scalar")]
    NotAScalar(usize),
    #[error("{0}")]
    Backend(#[from] BackendError),
    #[error("{0}")]
    NotImplemented(String),
    /// Any other `RuntimeError` with PyTorch's message.
    #[error("{0}")]
    Message(String),
    /// An `IndexError` (index out of range).
    #[error("{0}")]
    Index(String),
    /// A `ValueError`.
    #[error("{0}")]
    Value(String),
    /// A graph break under `torch.compile(fullgraph=True)`: a `RuntimeError`
    /// the prelude raises again as `torch._dynamo.exc.Unsupported`.
    #[error("{0}")]
    GraphBreak(String),
    /// A `TypeError`.
    #[error("{0}")]
    Type(String),
}

impl RuntimeError {
    /// The Python exception class a user sees for this error.
    pub fn python_kind(&self) -> &'static str {
        match self {
            RuntimeError::NotImplemented(_)
            | RuntimeError::Backend(BackendError::Unsupported { .. }) => "NotImplementedError",
            RuntimeError::Index(_) => "IndexError",
            RuntimeError::Value(_) => "ValueError",
            RuntimeError::Type(_) => "TypeError",
            _ => "RuntimeError",
        }
    }
}

/// The C++ type name PyTorch's messages use for a dtype (`float`, `long int`).
pub fn c_type_name(dtype: DType) -> &'static str {
    match dtype {
        DType::Float32 => "float",
        DType::Float64 => "double",
        DType::BFloat16 => "c10::BFloat16",
        DType::Float16 => "c10::Half",
        DType::UInt8 => "unsigned char",
        DType::Int32 => "int",
        DType::Int64 => "long int",
        DType::Bool => "bool",
    }
}

/// The ScalarType name PyTorch's messages use (`Float`, `Long`).
pub fn scalar_type_name(dtype: DType) -> &'static str {
    match dtype {
        DType::Float32 => "Float",
        DType::Float64 => "Double",
        DType::BFloat16 => "BFloat16",
        DType::Float16 => "Half",
        DType::UInt8 => "Byte",
        DType::Int32 => "Int",
        DType::Int64 => "Long",
        DType::Bool => "Bool",
    }
}
