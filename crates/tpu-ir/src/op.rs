//! The op set a backend implements. An `Op` names the computation only; operands
//! and the output shape travel beside it, so that an op stream can be logged,
//! compared and (later) fingerprinted without holding any tensor data.
//! Kernel text lives in `tpu-wgpu`, not here; the creation ops' constants
//! are in `op/creation.rs`.

use serde::{Deserialize, Serialize};

mod creation;
pub use creation::{IntOrFloat, RandomDraw};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    /// `a ** b`.
    Pow,
    /// `torch.maximum`; with a scalar, the lower bound of `clamp`.
    Maximum,
    /// `torch.minimum`; with a scalar, the upper bound of `clamp`.
    Minimum,
    /// `a // b`: Python's floor division.
    FloorDiv,
    /// `a % b`: Python's remainder, with the sign of the divisor.
    Remainder,
}

impl BinaryOp {
    pub fn name(self) -> &'static str {
        match self {
            BinaryOp::Add => "add",
            BinaryOp::Sub => "sub",
            BinaryOp::Mul => "mul",
            BinaryOp::Div => "div",
            BinaryOp::Pow => "pow",
            BinaryOp::Maximum => "maximum",
            BinaryOp::Minimum => "minimum",
            BinaryOp::FloorDiv => "floor_divide",
            BinaryOp::Remainder => "remainder",
        }
    }

    /// The op on floats (float32, or float64 for double tensors), rounded once
    /// in the operands' own type as PyTorch's CPU kernels compute it.
    pub fn apply<T: Real>(self, a: T, b: T) -> T {
        match self {
            BinaryOp::Add => a + b,
            BinaryOp::Sub => a - b,
            BinaryOp::Mul => a * b,
            BinaryOp::Div => a / b,
            BinaryOp::Pow => pow(a, b),
            // NaN propagates through both, as in PyTorch.
            BinaryOp::Maximum => {
                if a.is_nan() || b.is_nan() {
                    T::NAN
                } else {
                    a.max(b)
                }
            }
            BinaryOp::Minimum => {
                if a.is_nan() || b.is_nan() {
                    T::NAN
                } else {
                    a.min(b)
                }
            }
            BinaryOp::FloorDiv => floor_divide(a, b),
            BinaryOp::Remainder => {
                let r = a % b;
                let zero = T::from_f64(0.0);
                if r != zero && (r < zero) != (b < zero) {
                    r + b
                } else {
                    r
                }
            }
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
            BinaryOp::Pow => match u32::try_from(b) {
                Ok(e) => a.wrapping_pow(e),
                // PyTorch raises for negative integer powers of integers; the
                // dispatcher checks scalars, tensors get 0 here.
                Err(_) => 0,
            },
            BinaryOp::Maximum => a.max(b),
            BinaryOp::Minimum => a.min(b),
            BinaryOp::FloorDiv => {
                if b == 0 {
                    0
                } else {
                    a.wrapping_div_euclid(b) - i64::from(b < 0 && a.wrapping_rem_euclid(b) != 0)
                }
            }
            BinaryOp::Remainder => {
                if b == 0 {
                    0
                } else {
                    let r = a.wrapping_rem(b);
                    if r != 0 && (r < 0) != (b < 0) {
                        r + b
                    } else {
                        r
                    }
                }
            }
        }
    }
}

/// The float types the reference computes in: float32 (and bfloat16, widened)
/// and float64. Ops are written once over it so both round the same way.
pub trait Real:
    Copy
    + PartialOrd
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
    + std::ops::Rem<Output = Self>
{
    const NAN: Self;
    fn from_f64(x: f64) -> Self;
    fn is_nan(self) -> bool;
    fn floor(self) -> Self;
    fn sqrt(self) -> Self;
    fn powf(self, e: Self) -> Self;
    fn max(self, other: Self) -> Self;
    fn min(self, other: Self) -> Self;
}

macro_rules! real {
    ($t:ty) => {
        impl Real for $t {
            const NAN: Self = <$t>::NAN;
            fn from_f64(x: f64) -> Self {
                x as $t
            }
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            fn floor(self) -> Self {
                <$t>::floor(self)
            }
            fn sqrt(self) -> Self {
                <$t>::sqrt(self)
            }
            fn powf(self, e: Self) -> Self {
                <$t>::powf(self, e)
            }
            fn max(self, other: Self) -> Self {
                <$t>::max(self, other)
            }
            fn min(self, other: Self) -> Self {
                <$t>::min(self, other)
            }
        }
    };
}
real!(f32);
real!(f64);

/// `a ** b` as C's `pow`, with the exponents PyTorch's CPU kernel for a
/// Python-number exponent special-cases (`x ** 2` is `x * x`, `x ** 0.5` is
/// `sqrt(x)`, `x ** -0.5` is `1 / sqrt(x)`, so `(-inf) ** 0.5` is NaN and
/// `(-0.0) ** -0.5` is `-inf`). PyTorch's tensor-exponent kernel calls C's
/// `pow` for these too, which differs at `-inf` and `-0.0` only; both paths
/// here take the special cases.
pub fn pow<T: Real>(a: T, b: T) -> T {
    let is = |v: f64| b == T::from_f64(v);
    let one = T::from_f64(1.0);
    if is(2.0) {
        a * a
    } else if is(1.0) {
        a
    } else if is(0.5) {
        a.sqrt()
    } else if is(-0.5) {
        one / a.sqrt()
    } else if is(3.0) {
        a * a * a
    } else if is(-1.0) {
        one / a
    } else if is(-2.0) {
        one / (a * a)
    } else {
        a.powf(b)
    }
}

/// `a // b` as PyTorch's `div_floor_floating`: through the exact `fmod`, so
/// that `inf // 2` is NaN, `-1 // inf` is `-1`, and a quotient that rounds up
/// to an integer (`3 // 0.3`) still floors to 9.
pub fn floor_divide<T: Real>(a: T, b: T) -> T {
    let zero = T::from_f64(0.0);
    if b == zero {
        return a / b;
    }
    let rem = a % b;
    let mut div = (a - rem) / b;
    if rem != zero && (b < zero) != (rem < zero) {
        div = div - T::from_f64(1.0);
    }
    if div == zero {
        // A zero with the sign of the true quotient.
        return zero * (a / b);
    }
    let floor = div.floor();
    if div - floor > T::from_f64(0.5) {
        floor + T::from_f64(1.0)
    } else {
        floor
    }
}

/// `a ** b` on float32 (see `pow`).
pub fn pow_f32(a: f32, b: f32) -> f32 {
    pow(a, b)
}

/// Elementwise comparisons; their result is a bool tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
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
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
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
    Erf,
    Floor,
    Ceil,
    /// Round half to even, as `torch.round`.
    Round,
    Sign,
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
            UnaryOp::Erf => "erf",
            UnaryOp::Floor => "floor",
            UnaryOp::Ceil => "ceil",
            UnaryOp::Round => "round",
            UnaryOp::Sign => "sign",
        }
    }

    pub fn from_name(name: &str) -> Option<UnaryOp> {
        use UnaryOp::*;
        [
            Neg, Abs, Relu, Exp, Log, Sqrt, Tanh, Sigmoid, Sin, Cos, Erf, Floor, Ceil, Round, Sign,
        ]
        .into_iter()
        .find(|op| op.name() == name)
    }

    /// Whether integer inputs keep their dtype (`abs`, `neg`, `relu`) rather
    /// than becoming float32 (`exp` of an int64 tensor is float32 in PyTorch).
    pub fn keeps_integers(self) -> bool {
        matches!(
            self,
            UnaryOp::Neg
                | UnaryOp::Abs
                | UnaryOp::Relu
                | UnaryOp::Floor
                | UnaryOp::Ceil
                | UnaryOp::Round
                | UnaryOp::Sign
        )
    }

    /// The definition on floats, computed in double and rounded by the caller,
    /// so the reference is correctly rounded for float32.
    pub fn apply(self, x: f64) -> f64 {
        match self {
            UnaryOp::Neg => -x,
            UnaryOp::Abs => x.abs(),
            // `-0.0` stays `-0.0` and NaN stays NaN: PyTorch's `relu` is
            // `clamp_min(x, 0)`, which keeps `x` unless `x < 0`.
            UnaryOp::Relu => {
                if x < 0.0 {
                    0.0
                } else {
                    x
                }
            }
            UnaryOp::Exp => x.exp(),
            UnaryOp::Log => x.ln(),
            UnaryOp::Sqrt => x.sqrt(),
            UnaryOp::Tanh => x.tanh(),
            // PyTorch computes `1 / (1 + exp(-x))` in float32, where
            // `exp(-x)` overflows past `x < -88.72`: the result is 0 there,
            // not the tiny value exact arithmetic gives.
            UnaryOp::Sigmoid => {
                if -x > f64::from(FLOAT32_EXP_OVERFLOW) {
                    0.0
                } else {
                    1.0 / (1.0 + (-x).exp())
                }
            }
            UnaryOp::Sin => x.sin(),
            UnaryOp::Cos => x.cos(),
            UnaryOp::Erf => erf(x),
            UnaryOp::Floor => x.floor(),
            UnaryOp::Ceil => x.ceil(),
            UnaryOp::Round => x.round_ties_even(),
            // PyTorch's `(0 < x) - (x < 0)`: `sign(-0.0)` and `sign(nan)`
            // are both `0.0`.
            UnaryOp::Sign => f64::from(u8::from(x > 0.0)) - f64::from(u8::from(x < 0.0)),
        }
    }

    pub fn apply_i64(self, x: i64) -> i64 {
        match self {
            UnaryOp::Neg => x.wrapping_neg(),
            UnaryOp::Abs => x.wrapping_abs(),
            UnaryOp::Sign => x.signum(),
            UnaryOp::Relu => x.max(0),
            _ => x,
        }
    }
}

/// The largest float32 `x` whose `exp(x)` is finite in float32 (`ln` of the
/// largest float32, rounded down).
pub const FLOAT32_EXP_OVERFLOW: f32 = 88.722_83;

/// `erf` in double precision (musl's, through the `libm` crate): Python's
/// `math.erf`, and `torch.erf` rounded once to float32.
pub fn erf(x: f64) -> f64 {
    libm::erf(x)
}

/// Reductions along one axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum ReduceOp {
    Sum,
    Prod,
    Max,
    Min,
    /// The index of the first maximum (NaN counts as the maximum), as int64.
    ArgMax,
    /// The index of the first minimum (NaN counts as the minimum), as int64.
    ArgMin,
}

impl ReduceOp {
    pub fn name(self) -> &'static str {
        match self {
            ReduceOp::Sum => "sum",
            ReduceOp::Prod => "prod",
            ReduceOp::Max => "max",
            ReduceOp::Min => "min",
            ReduceOp::ArgMax => "argmax",
            ReduceOp::ArgMin => "argmin",
        }
    }
}

/// One computation on device tensors. Scalars from Python (`x * 2`) are carried
/// in the op, as PyTorch treats them as wrapped numbers rather than tensors.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
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
    /// A matrix product `[m, k] @ [k, n]`, or batched `[b, m, k] @ [b, k, n]`.
    /// A transposed operand is passed as stored (`[k, m]` for `a`, `[n, k]` for
    /// `b`), so a transposed view is read in place rather than copied first.
    MatMul {
        #[serde(default)]
        transpose_a: bool,
        #[serde(default)]
        transpose_b: bool,
    },
    /// The sum of every element, to a 0-d tensor.
    SumAll,
    /// A dense copy of a strided window of a flat buffer: output element at
    /// multi-index `i` is `input[offset + sum(i[d] * strides[d])]`. Materialises
    /// views (transposes, slices, broadcasts) for ops that read dense operands.
    Strided { offset: usize, strides: Vec<usize> },
    /// `out[i] = input[index[i]]` over a flat input and an int64 index tensor of
    /// the output's shape: advanced indexing, `index_select`, embedding lookups.
    Gather,
    /// A copy of the flat `base` with `base[index[i]] = values[i]`, or `+=` when
    /// `accumulate` (duplicates then add up): assignment through an index and the
    /// gradient of `Gather`.
    Scatter { accumulate: bool },
    /// `torch.where(cond, a, b)` with broadcasting of all three.
    Where,
    /// `F.pad` with a constant: the input surrounded by `before[d]` and
    /// `after[d]` elements of `value` along each dimension `d`.
    Pad {
        before: Vec<usize>,
        after: Vec<usize>,
        value: f64,
    },
    /// The gradient of `unfold(axis, size, step)`: the input is the unfolded
    /// shape (`axis` holds the window count, the last dimension the window),
    /// and each output element along `axis` is the sum of every window
    /// element that read it (PyTorch's `aten::unfold_backward`).
    UnfoldBackward {
        axis: usize,
        size: usize,
        step: usize,
    },
    /// A reduction along `axis`; the output keeps the axis with size 1.
    Reduce { op: ReduceOp, axis: usize },
    /// Running sums along `axis`, from the end when `reverse` (the gradient).
    Cumsum { axis: usize, reverse: bool },
    /// `torch.arange`: `start + step * i`, exact in int64 for integer bounds and
    /// output, else in double rounded to the output dtype (PyTorch's CPU kernel).
    Arange { start: IntOrFloat, step: IntOrFloat },
    /// `torch.linspace`: the first half steps up from `start`, the second down
    /// from `end`, in the output's float type (float32 below float64).
    Linspace { start: f64, end: f64 },
    /// `torch.eye`: ones on the diagonal of a `[n, m]` output, zeros elsewhere.
    Eye,
    /// `torch.nonzero`: the int64 coordinates (one row each) of the nonzero
    /// elements; the runtime reads the values first, as they fix the size.
    Nonzero,
    /// Values drawn on the host from the runtime's generator (PyTorch's CPU
    /// stream) and uploaded. Only the runtime handles it, drawing the values
    /// and logging the op; every backend refuses it.
    Random { draw: RandomDraw },
    /// A Pallas kernel (`pl.pallas_call`): its inputs in order, and one output
    /// buffer holding every output, each padded to whole blocks
    /// (`PallasKernel::output_offsets`).
    Pallas { kernel: Box<crate::PallasKernel> },
}

impl Op {
    /// The plain matrix product (neither operand transposed).
    pub const MATMUL: Op = Op::MatMul {
        transpose_a: false,
        transpose_b: false,
    };

    /// `(batch, m, k, n)` of a `MatMul` from its stored operand shapes.
    pub fn matmul_dims(
        a: &[usize],
        b: &[usize],
        transpose_a: bool,
        transpose_b: bool,
    ) -> (usize, usize, usize, usize) {
        let batch = if a.len() == 3 { a[0] } else { 1 };
        let (ra, ca) = (a[a.len() - 2], a[a.len() - 1]);
        let (rb, cb) = (b[b.len() - 2], b[b.len() - 1]);
        let (m, k) = if transpose_a { (ca, ra) } else { (ra, ca) };
        let n = if transpose_b { rb } else { cb };
        (batch, m, k, n)
    }

    /// The name PyTorch's dispatcher would use (`aten::mul`), shown in the Report.
    pub fn aten_name(&self) -> String {
        match self {
            Op::Fill { .. } => "aten::fill".into(),
            Op::Binary { op } | Op::BinaryScalar { op, .. } => format!("aten::{}", op.name()),
            Op::MatMul { .. } => "aten::mm".into(),
            Op::SumAll => "aten::sum".into(),
            Op::Cast { .. } => "aten::_to_copy".into(),
            Op::Unary { op } => format!("aten::{}", op.name()),
            Op::Compare { op } | Op::CompareScalar { op, .. } => format!("aten::{}", op.name()),
            Op::Strided { .. } => "aten::contiguous".into(),
            Op::Gather => "aten::index".into(),
            Op::Scatter { accumulate: false } => "aten::index_put_".into(),
            Op::Scatter { accumulate: true } => "aten::index_add_".into(),
            Op::Where => "aten::where".into(),
            Op::Pad { .. } => "aten::constant_pad_nd".into(),
            Op::UnfoldBackward { .. } => "aten::unfold_backward".into(),
            Op::Reduce { op, .. } => format!("aten::{}", op.name()),
            Op::Cumsum { .. } => "aten::cumsum".into(),
            Op::Arange { .. } => "aten::arange".into(),
            Op::Linspace { .. } => "aten::linspace".into(),
            Op::Eye => "aten::eye".into(),
            Op::Nonzero => "aten::nonzero".into(),
            Op::Random { draw } => draw.aten_name().into(),
            Op::Pallas { kernel } => format!("pallas::{}", kernel.name),
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
            Op::MatMul {
                transpose_a,
                transpose_b,
            } => format!(
                "matmul{}{}",
                if *transpose_a { "_ta" } else { "" },
                if *transpose_b { "_tb" } else { "" }
            ),
            Op::SumAll => "sum_all".into(),
            Op::Cast { to } => format!("cast_{}", to.torch_name().trim_start_matches("torch.")),
            Op::Unary { op } => format!("unary_{}", op.name()),
            Op::Compare { op } => format!("compare_{}", op.name()),
            Op::CompareScalar { op, .. } => format!("compare_scalar_{}", op.name()),
            Op::Strided { .. } => "strided_copy".into(),
            Op::Gather => "gather".into(),
            Op::Scatter { accumulate } => if *accumulate {
                "scatter_add"
            } else {
                "scatter"
            }
            .into(),
            Op::Where => "where".into(),
            Op::Pad { .. } => "pad".into(),
            Op::UnfoldBackward { .. } => "unfold_backward".into(),
            Op::Reduce { op, .. } => format!("reduce_{}", op.name()),
            Op::Cumsum { reverse, .. } => if *reverse { "cumsum_rev" } else { "cumsum" }.into(),
            Op::Arange { .. } => "arange".into(),
            Op::Linspace { .. } => "linspace".into(),
            Op::Eye => "eye".into(),
            Op::Nonzero => "nonzero".into(),
            Op::Random { draw } => format!("host_{}", draw.name()),
            // The code is specialised to the whole kernel, shapes included.
            Op::Pallas { kernel } => format!("pallas_{}_{}", kernel.name, kernel.fingerprint()),
        }
    }
}
