//! The vocabulary every other crate speaks: element types, shapes with PyTorch's
//! broadcasting rule, and the op set a backend must implement. Everything here is
//! plain data (`Clone + Hash + Serialize`) so that op streams can be logged in the
//! Report, fingerprinted for the compile cache, and compared across backends.

mod dtype;
mod fused;
mod op;
mod pallas;
mod shape;

pub use dtype::{DType, ScalarKind};
pub use fused::{FusedInput, FusedKernel, FusedNode, MatMulSpec, MatrixLayout, fingerprint, fnv1a};
pub use op::{
    BinaryOp, CompareOp, IntOrFloat, MAX_CONCAT_PARTS, Op, RandomDraw, Real, ReduceOp, UnaryOp,
    erf, pow, pow_f32,
};
pub use pallas::{
    BlockOp, BlockRef, Index, Inst, InvalidKernel, Number, PallasKernel, Window, axis_name,
};
pub use shape::{Shape, ShapeError};
