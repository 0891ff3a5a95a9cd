//! The WGSL of each elementwise function and reduction step, shared by the
//! per-op kernels (`kernels/`) and the fusion code generator (`codegen.rs`), so
//! that a name (`pow`, `maximum`, `erf`) means the same operation in both. The
//! reference's definitions (`BinaryOp::apply`, `UnaryOp::apply`) live in
//! `tpu-ir`; these are their float32 translations.

use tpu_ir::{BinaryOp, ReduceOp, UnaryOp};

/// The WGSL expression of `op` on `a` and `b`. Ops whose translation calls a
/// helper function need `binary_helpers(op)` prepended to the shader.
pub(crate) fn binary(op: BinaryOp, a: &str, b: &str) -> String {
    match op {
        BinaryOp::Add => format!("({a} + {b})"),
        BinaryOp::Sub => format!("({a} - {b})"),
        BinaryOp::Mul => format!("({a} * {b})"),
        BinaryOp::Div => format!("({a} / {b})"),
        BinaryOp::Pow => format!("pow_f32({a}, {b})"),
        BinaryOp::Maximum => format!("max_nan({a}, {b})"),
        BinaryOp::Minimum => format!("min_nan({a}, {b})"),
        BinaryOp::FloorDiv => format!("floor({a} / {b})"),
        BinaryOp::Remainder => format!("rem_f32({a}, {b})"),
    }
}

/// The helper functions `binary(op, ..)` calls, in order, if any.
pub(crate) fn binary_helpers(op: BinaryOp) -> &'static [&'static str] {
    match op {
        BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::FloorDiv => &[],
        BinaryOp::Pow | BinaryOp::Maximum | BinaryOp::Minimum | BinaryOp::Remainder => {
            &[NAN_HELPER, BINARY_HELPERS]
        }
    }
}

/// NaN by its bits. Shader compilers may assume floats are never NaN (WGSL
/// allows it), and lavapipe folds `x != x` to false, so a NaN is recognised
/// by its bit pattern and made by one (the differential test caught
/// `maximum`, `relu`, `sign`, `pow` and `max` reductions losing NaN). The
/// bits pass through a `var`: a constant `bitcast` to NaN is a const
/// expression, which Chromium's compiler (Tint) rejects ("value nan cannot be
/// represented as 'f32'") although naga accepts it.
const NAN_HELPER: &str = "
fn is_nan(x: f32) -> bool {
    return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u;
}
fn nan() -> f32 {
    var bits = 0x7fc00000u;
    return bitcast<f32>(bits);
}
";

/// `pow_f32` special-cases the exponents PyTorch's CPU kernel computes exactly
/// (and WGSL's `pow`, which is `exp2(b * log2(a))`, is undefined for `a < 0`
/// and for NaN); `max_nan` and `min_nan` let a NaN win, as `torch.maximum`
/// does; `rem_f32` is Python's remainder, with the sign of the divisor
/// (known defect: where `a / b` rounds up to an integer, as in `3.0 % 0.3`,
/// it gives 0 where PyTorch's exact `fmod` gives 0.2999999; an `fma`
/// residual would fix it, but lavapipe does not fuse WGSL's `fma`).
const BINARY_HELPERS: &str = "fn pow_f32(a: f32, b: f32) -> f32 {
    if (b == 0.0 || a == 1.0) { return 1.0; }
    if (is_nan(a) || is_nan(b)) { return nan(); }
    if (b == 2.0) { return a * a; }
    if (b == 1.0) { return a; }
    if (b == 0.5) { return sqrt(a); }
    if (b == 3.0) { return a * a * a; }
    if (b == -1.0) { return 1.0 / a; }
    if (a < 0.0 && b == floor(b)) {
        let m = pow(-a, b);
        return select(m, -m, (abs(b) % 2.0) == 1.0);
    }
    return pow(a, b);
}
fn max_nan(a: f32, b: f32) -> f32 {
    if (is_nan(a) || is_nan(b)) { return nan(); }
    return max(a, b);
}
fn min_nan(a: f32, b: f32) -> f32 {
    if (is_nan(a) || is_nan(b)) { return nan(); }
    return min(a, b);
}
fn rem_f32(a: f32, b: f32) -> f32 {
    let r = a - b * trunc(a / b);
    return select(r, r + b, r != 0.0 && ((r < 0.0) != (b < 0.0)));
}
";

/// The WGSL expression of the function of `x`.
pub(crate) fn unary(op: UnaryOp) -> &'static str {
    match op {
        UnaryOp::Neg => "-x",
        UnaryOp::Abs => "abs(x)",
        UnaryOp::Relu => "select(0.0, x, x > 0.0 || is_nan(x))",
        UnaryOp::Exp => "exp(x)",
        UnaryOp::Log => "log(x)",
        UnaryOp::Sqrt => "sqrt(x)",
        UnaryOp::Tanh => "tanh(x)",
        UnaryOp::Sigmoid => "1.0 / (1.0 + exp(-x))",
        UnaryOp::Sin => "sin(x)",
        UnaryOp::Cos => "cos(x)",
        UnaryOp::Erf => "erf_f32(x)",
        UnaryOp::Floor => "floor(x)",
        UnaryOp::Ceil => "ceil(x)",
        UnaryOp::Round => "round(x)",
        UnaryOp::Sign => "select(sign(x), x, is_nan(x))",
    }
}

/// The helper functions `unary(op)` calls, in order, if any.
pub(crate) fn unary_helpers(op: UnaryOp) -> &'static [&'static str] {
    match op {
        UnaryOp::Erf => &[ERF_HELPER],
        UnaryOp::Relu | UnaryOp::Sign => &[NAN_HELPER],
        _ => &[],
    }
}

/// `erf` in float32 (Abramowitz and Stegun 7.1.26, absolute error below 1.5e-7,
/// the formula of ATen's vectorised CPU `erf`): WGSL has no built-in.
const ERF_HELPER: &str = "fn erf_f32(x: f32) -> f32 {
    let t = 1.0 / fma(0.3275911, abs(x), 1.0);
    var r = fma(1.061405429, t, -1.453152027);
    r = fma(r, t, 1.421413741);
    r = fma(r, t, -0.284496736);
    r = fma(r, t, 0.254829592);
    let y = fma(-exp(-x * x) * t, r, 1.0);
    return select(y, -y, x < 0.0);
}
";

/// The helper functions `reduce_step(op)` calls, in order, if any.
pub(crate) fn reduce_helpers(op: ReduceOp) -> &'static [&'static str] {
    match op {
        ReduceOp::Max | ReduceOp::Min => &[NAN_HELPER],
        ReduceOp::Sum | ReduceOp::Prod | ReduceOp::ArgMax | ReduceOp::ArgMin => &[],
    }
}

/// One step of a float reduction, `acc` folded with `x` (a NaN wins max and
/// min).
pub(crate) fn reduce_step(op: ReduceOp) -> &'static str {
    match op {
        ReduceOp::Sum => "acc + x",
        ReduceOp::Prod => "acc * x",
        ReduceOp::Max => "select(max(acc, x), nan(), is_nan(x) || is_nan(acc))",
        ReduceOp::Min => "select(min(acc, x), nan(), is_nan(x) || is_nan(acc))",
        ReduceOp::ArgMax | ReduceOp::ArgMin => {
            unreachable!("int64 results are refused before any kernel is built")
        }
    }
}
