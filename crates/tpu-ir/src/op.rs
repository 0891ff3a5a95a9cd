//! The op set a backend implements. An `Op` names the computation only; operands
//! and the output shape travel beside it, so that an op stream can be logged,
//! compared and (later) fingerprinted without holding any tensor data.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
}

impl BinaryOp {
    pub fn name(self) -> &'static str {
        match self {
            BinaryOp::Add => "add",
            BinaryOp::Sub => "sub",
            BinaryOp::Mul => "mul",
            BinaryOp::Div => "div",
        }
    }

    pub fn apply(self, a: f32, b: f32) -> f32 {
        match self {
            BinaryOp::Add => a + b,
            BinaryOp::Sub => a - b,
            BinaryOp::Mul => a * b,
            BinaryOp::Div => a / b,
        }
    }

    /// The op on int64 values, wrapping on overflow as PyTorch's CPU kernels do.
    /// Division of integers is true division in PyTorch, so callers convert to
    /// float first; here it truncates, and division by zero gives 0.
    pub fn apply_i64(self, a: i64, b: i64) -> i64 {
        match self {
            BinaryOp::Add => a.wrapping_add(b),
            BinaryOp::Sub => a.wrapping_sub(b),
            BinaryOp::Mul => a.wrapping_mul(b),
            BinaryOp::Div => a.checked_div(b).unwrap_or(0),
        }
    }

    /// The WGSL operator symbol, so generated shaders and the reference agree on
    /// which operation a name means.
    pub fn wgsl_symbol(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
        }
    }
}

/// One computation on device tensors. Scalars from Python (`x * 2`) are carried
/// in the op, as PyTorch treats them as wrapped numbers rather than tensors.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Op {
    /// A tensor filled with one value (`zeros`, `ones`, `full`), converted to the
    /// output dtype.
    Fill { value: f64 },
    /// Two tensors combined elementwise with broadcasting.
    Binary { op: BinaryOp },
    /// A tensor combined with a Python number; `scalar_on_left` is `2 - x`.
    BinaryScalar {
        op: BinaryOp,
        scalar: f64,
        scalar_on_left: bool,
    },
    /// A copy converted to another dtype (`.to(dtype)`, `.float()`, promotion).
    Cast { to: crate::DType },
    /// A 2-D matrix product `[m, k] @ [k, n]`.
    MatMul,
    /// The sum of every element, to a 0-d tensor.
    SumAll,
}

impl Op {
    /// The name PyTorch's dispatcher would use (`aten::mul`), shown in the Report.
    pub fn aten_name(&self) -> String {
        match self {
            Op::Fill { .. } => "aten::fill".into(),
            Op::Binary { op } | Op::BinaryScalar { op, .. } => format!("aten::{}", op.name()),
            Op::MatMul => "aten::mm".into(),
            Op::SumAll => "aten::sum".into(),
            Op::Cast { .. } => "aten::_to_copy".into(),
        }
    }

    /// The name of the kernel that computes this op, the same on every backend:
    /// ops that need different code get different names (`_rev` puts the scalar on
    /// the left), ops that differ only in their constants share one.
    pub fn kernel_name(&self) -> String {
        match self {
            Op::Fill { .. } => "fill".into(),
            Op::Binary { op } => format!("binary_{}", op.name()),
            Op::BinaryScalar {
                op, scalar_on_left, ..
            } => {
                let rev = if *scalar_on_left { "_rev" } else { "" };
                format!("binary_scalar_{}{rev}", op.name())
            }
            Op::MatMul => "matmul".into(),
            Op::SumAll => "sum_all".into(),
            Op::Cast { to } => format!("cast_{}", to.torch_name().trim_start_matches("torch.")),
        }
    }
}
