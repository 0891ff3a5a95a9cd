//! The elementwise ops (`BinaryOp`, `CompareOp`, `UnaryOp`) with their
//! reference math: `apply` over float32 and float64 through `Real`, over
//! int64, and the special functions PyTorch's CPU kernels special-case (`pow`,
//! `floor_divide`, `erf`). Each enum is declared through `named_ops!` (in
//! `op.rs`), so its names, `ALL` and `from_name` come from one list.

use serde::{Deserialize, Serialize};

named_ops! {
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
    #[serde(rename_all = "lowercase")]
    pub enum BinaryOp {
        Add => "add",
        Sub => "sub",
        Mul => "mul",
        Div => "div",
        /// `a ** b`.
        Pow => "pow",
        /// `torch.maximum`; with a scalar, the lower bound of `clamp`.
        Maximum => "maximum",
        /// `torch.minimum`; with a scalar, the upper bound of `clamp`.
        Minimum => "minimum",
        /// `a // b`: Python's floor division.
        FloorDiv => "floor_divide",
        /// `a % b`: Python's remainder, with the sign of the divisor.
        Remainder => "remainder",
    }
}

impl BinaryOp {
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

named_ops! {
    /// Elementwise comparisons; their result is a bool tensor.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
    #[serde(rename_all = "lowercase")]
    pub enum CompareOp {
        Eq => "eq",
        Ne => "ne",
        Lt => "lt",
        Le => "le",
        Gt => "gt",
        Ge => "ge",
    }
}

impl CompareOp {
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

named_ops! {
    /// Elementwise functions of one tensor.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
    #[serde(rename_all = "lowercase")]
    pub enum UnaryOp {
        Neg => "neg",
        Abs => "abs",
        Relu => "relu",
        Exp => "exp",
        Log => "log",
        Sqrt => "sqrt",
        Tanh => "tanh",
        Sigmoid => "sigmoid",
        Sin => "sin",
        Cos => "cos",
        Tan => "tan",
        Atan => "atan",
        Erf => "erf",
        Floor => "floor",
        Ceil => "ceil",
        /// Round half to even, as `torch.round`.
        Round => "round",
        Sign => "sign",
    }
}

impl UnaryOp {
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

    /// The function on float32 values (and bfloat16 and float16, computed in
    /// float32). `exp`, `log`, `tanh`, `sigmoid` and `erf` are computed in
    /// float32 (`f32math`: within 1 ulp of `apply` for `exp`, `log` and `tanh`,
    /// 2 for `sigmoid` and `erf`); `sigmoid` is PyTorch's float32 formula `1 / (1 + exp(-x))`
    /// with each step rounded, so that it is exactly 1.0 from x = 16.64 on,
    /// where PyTorch's is (and a BCE loss after it clamps its log where
    /// PyTorch's does). The rest are `apply` rounded once: exact for the ops
    /// that only move or round a value, and `sqrt`, whose float64 result
    /// rounds to the correctly rounded float32 one.
    #[inline(always)]
    pub fn apply_f32(self, x: f32) -> f32 {
        use super::f32math;
        match self {
            UnaryOp::Neg => -x,
            UnaryOp::Abs => x.abs(),
            UnaryOp::Relu => {
                if x < 0.0 {
                    0.0
                } else {
                    x
                }
            }
            UnaryOp::Sqrt => x.sqrt(),
            UnaryOp::Exp => f32math::exp(x),
            UnaryOp::Log => f32math::ln(x),
            UnaryOp::Tanh => f32math::tanh(x),
            UnaryOp::Sigmoid => f32math::sigmoid(x),
            UnaryOp::Erf => f32math::erf(x),
            _ => self.apply(x as f64) as f32,
        }
    }

    /// `apply_f32` of each element of `x` into `out`, the op chosen once,
    /// outside the loop, so that the loop vectorises.
    pub fn map_f32(self, x: &[f32], out: &mut [f32]) {
        fn each(x: &[f32], out: &mut [f32], f: impl Fn(f32) -> f32) {
            for (slot, &v) in out.iter_mut().zip(x) {
                *slot = f(v);
            }
        }
        match self {
            UnaryOp::Neg => each(x, out, |v| UnaryOp::Neg.apply_f32(v)),
            UnaryOp::Abs => each(x, out, |v| UnaryOp::Abs.apply_f32(v)),
            UnaryOp::Relu => each(x, out, |v| UnaryOp::Relu.apply_f32(v)),
            UnaryOp::Sqrt => each(x, out, |v| UnaryOp::Sqrt.apply_f32(v)),
            UnaryOp::Exp => each(x, out, |v| UnaryOp::Exp.apply_f32(v)),
            UnaryOp::Log => each(x, out, |v| UnaryOp::Log.apply_f32(v)),
            UnaryOp::Tanh => each(x, out, |v| UnaryOp::Tanh.apply_f32(v)),
            UnaryOp::Sigmoid => each(x, out, |v| UnaryOp::Sigmoid.apply_f32(v)),
            UnaryOp::Erf => each(x, out, |v| UnaryOp::Erf.apply_f32(v)),
            op => each(x, out, |v| op.apply_f32(v)),
        }
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
            UnaryOp::Tan => x.tan(),
            UnaryOp::Atan => x.atan(),
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
