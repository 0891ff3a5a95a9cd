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

/// Elementwise comparisons; their result is a bool tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CompareOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CompareOp {
    pub fn name(self) -> &'static str {
        match self {
            CompareOp::Eq => "eq",
            CompareOp::Ne => "ne",
            CompareOp::Lt => "lt",
            CompareOp::Le => "le",
            CompareOp::Gt => "gt",
            CompareOp::Ge => "ge",
        }
    }

    /// IEEE comparison: every comparison with NaN is false except `!=`.
    pub fn apply<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            CompareOp::Eq => a == b,
            CompareOp::Ne => a != b,
            CompareOp::Lt => a < b,
            CompareOp::Le => a <= b,
            CompareOp::Gt => a > b,
            CompareOp::Ge => a >= b,
        }
    }
}

/// Elementwise functions of one tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UnaryOp {
    Neg,
    Abs,
    Relu,
    Exp,
    Log,
    Sqrt,
    Tanh,
    Sigmoid,
    Sin,
    Cos,
}

impl UnaryOp {
    pub fn name(self) -> &'static str {
        match self {
            UnaryOp::Neg => "neg",
            UnaryOp::Abs => "abs",
            UnaryOp::Relu => "relu",
            UnaryOp::Exp => "exp",
            UnaryOp::Log => "log",
            UnaryOp::Sqrt => "sqrt",
            UnaryOp::Tanh => "tanh",
            UnaryOp::Sigmoid => "sigmoid",
            UnaryOp::Sin => "sin",
            UnaryOp::Cos => "cos",
        }
    }

    pub fn from_name(name: &str) -> Option<UnaryOp> {
        use UnaryOp::*;
        [Neg, Abs, Relu, Exp, Log, Sqrt, Tanh, Sigmoid, Sin, Cos]
            .into_iter()
            .find(|op| op.name() == name)
    }

    /// Whether integer inputs keep their dtype (`abs`, `neg`, `relu`) rather
    /// than becoming float32 (`exp` of an int64 tensor is float32 in PyTorch).
    pub fn keeps_integers(self) -> bool {
        matches!(self, UnaryOp::Neg | UnaryOp::Abs | UnaryOp::Relu)
    }

    /// The definition on floats, computed in double and rounded by the caller,
    /// so the reference is correctly rounded for float32.
    pub fn apply(self, x: f64) -> f64 {
        match self {
            UnaryOp::Neg => -x,
            UnaryOp::Abs => x.abs(),
            UnaryOp::Relu => {
                if x > 0.0 || x.is_nan() {
                    x
                } else {
                    0.0
                }
            }
            UnaryOp::Exp => x.exp(),
            UnaryOp::Log => x.ln(),
            UnaryOp::Sqrt => x.sqrt(),
            UnaryOp::Tanh => x.tanh(),
            UnaryOp::Sigmoid => 1.0 / (1.0 + (-x).exp()),
            UnaryOp::Sin => x.sin(),
            UnaryOp::Cos => x.cos(),
        }
    }

    pub fn apply_i64(self, x: i64) -> i64 {
        match self {
            UnaryOp::Neg => x.wrapping_neg(),
            UnaryOp::Abs => x.wrapping_abs(),
            _ => x.max(0),
        }
    }

    /// The WGSL expression of the function of `x`.
    pub fn wgsl(self) -> &'static str {
        match self {
            UnaryOp::Neg => "-x",
            UnaryOp::Abs => "abs(x)",
            UnaryOp::Relu => "select(0.0, x, x > 0.0 || x != x)",
            UnaryOp::Exp => "exp(x)",
            UnaryOp::Log => "log(x)",
            UnaryOp::Sqrt => "sqrt(x)",
            UnaryOp::Tanh => "tanh(x)",
            UnaryOp::Sigmoid => "1.0 / (1.0 + exp(-x))",
            UnaryOp::Sin => "sin(x)",
            UnaryOp::Cos => "cos(x)",
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
    /// An elementwise function of one tensor.
    Unary { op: UnaryOp },
    /// Two tensors compared elementwise with broadcasting, into bools.
    Compare { op: CompareOp },
    /// A tensor compared with a Python number (`x > 0`), into bools.
    CompareScalar { op: CompareOp, scalar: f64 },
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
            Op::Unary { op } => format!("aten::{}", op.name()),
            Op::Compare { op } | Op::CompareScalar { op, .. } => format!("aten::{}", op.name()),
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
            Op::Unary { op } => format!("unary_{}", op.name()),
            Op::Compare { op } => format!("compare_{}", op.name()),
            Op::CompareScalar { op, .. } => format!("compare_scalar_{}", op.name()),
        }
    }
}
