//! The WGSL of each elementwise function and reduction step, shared by the
//! per-op kernels (`kernels/`) and the fusion code generator (`codegen.rs`), so
//! that a name (`pow`, `maximum`, `erf`) means the same operation in both. The
//! reference's definitions (`BinaryOp::apply`, `UnaryOp::apply`) live in
//! `tpu-ir`; these are their float32 translations.

use tpu_ir::{BinaryOp, CompareOp, ReduceOp, UnaryOp};

/// The WGSL expression of `op` on `a` and `b`. Ops whose translation calls a
/// helper function need `binary_helpers(op)` prepended to the shader.
pub(crate) fn binary(op: BinaryOp, a: &str, b: &str) -> String {
    match op {
        BinaryOp::Add => format!("({a} + {b})"),
        BinaryOp::Sub => format!("({a} - {b})"),
        BinaryOp::Mul => format!("({a} * {b})"),
        BinaryOp::Div => format!("div_f32({a}, {b})"),
        BinaryOp::Pow => format!("pow_f32({a}, {b})"),
        BinaryOp::Maximum => format!("max_nan({a}, {b})"),
        BinaryOp::Minimum => format!("min_nan({a}, {b})"),
        BinaryOp::FloorDiv => format!("floor_div_f32({a}, {b})"),
        BinaryOp::Remainder => format!("rem_f32({a}, {b})"),
    }
}

/// The WGSL `bool` of comparison `op` of floats `a` and `b`, IEEE's: false
/// with a NaN on either side except for `!=`. NaN is tested by its bits (see
/// `FLOAT_HELPERS`); needs `compare_helpers()` prepended.
pub(crate) fn compare(op: CompareOp, a: &str, b: &str) -> String {
    let both = format!("!is_nan({a}) && !is_nan({b})");
    match op {
        CompareOp::Eq => format!("({both} && {a} == {b})"),
        CompareOp::Ne => format!("!({both} && {a} == {b})"),
        CompareOp::Lt => format!("({both} && {a} < {b})"),
        CompareOp::Le => format!("({both} && {a} <= {b})"),
        CompareOp::Gt => format!("({both} && {a} > {b})"),
        CompareOp::Ge => format!("({both} && {a} >= {b})"),
    }
}

/// The helper functions `compare` calls.
pub(crate) fn compare_helpers() -> &'static str {
    FLOAT_HELPERS
}

/// `compare_helpers`, as the other ops' lists of helpers.
pub(crate) const COMPARE_HELPERS: &[&str] = &[FLOAT_HELPERS];

/// The helper functions `binary(op, ..)` calls, in order, if any.
pub(crate) fn binary_helpers(op: BinaryOp) -> &'static [&'static str] {
    match op {
        BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul => &[],
        BinaryOp::Div => &[FLOAT_HELPERS, DIV_HELPER],
        BinaryOp::Maximum | BinaryOp::Minimum => &[FLOAT_HELPERS, MAX_MIN_HELPERS],
        BinaryOp::Pow => &[FLOAT_HELPERS, DIV_HELPER, SQRT_HELPER, POW_HELPER],
        BinaryOp::FloorDiv | BinaryOp::Remainder => &[FLOAT_HELPERS, DIV_HELPER, FMOD_HELPERS],
    }
}

/// Float32's edges by their bits. Shader compilers may assume floats are
/// never NaN or infinite (WGSL allows it), and lavapipe folds `x != x` to
/// false, so NaN and infinities are recognised by their bit patterns and made
/// from them (the differential test caught `maximum`, `relu`, `sign`, `pow`
/// and `max` reductions losing NaN). The bits pass through a `var`: a
/// constant `bitcast` to NaN or infinity is a const expression, which
/// Chromium's compiler (Tint) rejects ("value nan cannot be represented as
/// 'f32'") although naga accepts it. Every helper below tests its edges first
/// and calls a WGSL built-in only on the arguments where WGSL bounds its
/// error, because the built-ins differ between adapters outside them
/// (SwiftShader's `tanh(100.0)` is NaN, its `log(0.0)` is -88.03).
const FLOAT_HELPERS: &str = "
fn is_nan(x: f32) -> bool {
    return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u;
}
fn is_inf(x: f32) -> bool {
    return (bitcast<u32>(x) & 0x7fffffffu) == 0x7f800000u;
}
fn nan() -> f32 {
    var bits = 0x7fc00000u;
    return bitcast<f32>(bits);
}
fn inf() -> f32 {
    var bits = 0x7f800000u;
    return bitcast<f32>(bits);
}
fn sign_bit(x: f32) -> u32 {
    return bitcast<u32>(x) & 0x80000000u;
}
fn with_sign(magnitude: f32, sign: u32) -> f32 {
    return bitcast<f32>((bitcast<u32>(magnitude) & 0x7fffffffu) | sign);
}
fn is_denormal(x: f32) -> bool {
    let bits = bitcast<u32>(x) & 0x7fffffffu;
    return bits != 0u && bits < 0x800000u;
}
fn denormal_steps(x: f32) -> f32 {
    return f32(bitcast<u32>(x) & 0x7fffffu);
}
";

/// `a / b` with IEEE's edges written out (WGSL bounds `/` only for
/// `2^-126 <= |b| <= 2^126`): `x / 0` is a signed infinity, `0 / 0` and
/// `inf / inf` NaN, `x / inf` a signed zero; a divisor past `2^126` is scaled
/// down first, so the quotient stays within WGSL's bound. WGSL allows `/` 2.5
/// ulp: an NVIDIA H200's was an ulp off where the CPU rasterisers' are
/// correctly rounded (`1e30 // 100.0`). A correction by the residual through
/// `fma` is no cure: lavapipe's `fma` rounds the product first, and the
/// "correction" put a correct quotient an ulp off.
const DIV_HELPER: &str = "fn div_f32(a: f32, b: f32) -> f32 {
    if (is_nan(a) || is_nan(b)) { return nan(); }
    let sign = sign_bit(a) ^ sign_bit(b);
    if (b == 0.0) {
        if (a == 0.0) { return nan(); }
        return with_sign(inf(), sign);
    }
    if (is_inf(b)) {
        if (is_inf(a)) { return nan(); }
        return with_sign(0.0, sign);
    }
    if (is_inf(a)) { return with_sign(inf(), sign); }
    if (abs(b) > 8.507059e37) { return (a / (b * 0.0625)) * 0.0625; }
    return a / b;
}
";

/// `sqrt` with its edges: NaN below zero, `-0.0` and infinity kept.
/// Denormals (`x = n * 2^-149`, with `n` their significand's integer) are
/// taken from their bits, as `sqrt(2n) * 2^-75`, because adapters differ on
/// them (flushed, or read with a wrong exponent: lavapipe's `log(1e-40)` is
/// -88.02, not -92.10). `pow_f32` does the same for `log2`, and
/// `log_f32` for `log`.
const SQRT_HELPER: &str = "fn sqrt_f32(x: f32) -> f32 {
    if (is_nan(x) || (sign_bit(x) != 0u && x != 0.0)) { return nan(); }
    if (is_denormal(x) && sign_bit(x) == 0u) {
        return sqrt(2.0 * denormal_steps(x)) * 2.646978e-23;
    }
    if (x == 0.0 || is_inf(x)) { return x; }
    return sqrt(x);
}
";

/// `max_nan` and `min_nan` let a NaN win, as `torch.maximum` does; between
/// equal values they return `b`, as PyTorch's vectorised CPU kernel does (so
/// `maximum(0.0, -0.0)` is `-0.0`; PyTorch's scalar path may give either, and
/// the tests accept either zero there).
const MAX_MIN_HELPERS: &str = "fn max_nan(a: f32, b: f32) -> f32 {
    if (is_nan(a) || is_nan(b)) { return nan(); }
    return select(b, a, a > b);
}
fn min_nan(a: f32, b: f32) -> f32 {
    if (is_nan(a) || is_nan(b)) { return nan(); }
    return select(b, a, a < b);
}
";

/// `pow_f32` is C's `pow` with the exponents PyTorch special-cases computed
/// as it computes them (see `tpu_ir::pow`): `x ** 0` and `1 ** y` are 1 even
/// for NaN; zeros, infinities and infinite exponents follow C's table; a
/// negative base needs an integer exponent (its sign from the exponent's
/// parity); the rest is `exp2(b * log2(a))`, whose error grows with
/// `|b * log2(a)|`, saturated to 0 and infinity outside float32's range.
const POW_HELPER: &str = "fn pow_f32(a: f32, b: f32) -> f32 {
    if (b == 0.0 || a == 1.0) { return 1.0; }
    if (is_nan(a) || is_nan(b)) { return nan(); }
    if (b == 2.0) { return a * a; }
    if (b == 1.0) { return a; }
    if (b == 0.5) { return sqrt_f32(a); }
    if (b == -0.5) { return div_f32(1.0, sqrt_f32(a)); }
    if (b == 3.0) { return a * a * a; }
    if (b == -1.0) { return div_f32(1.0, a); }
    if (b == -2.0) { return div_f32(1.0, a * a); }
    if (is_inf(b)) {
        if (a == -1.0) { return 1.0; }
        return select(0.0, inf(), (abs(a) > 1.0) == (b > 0.0));
    }
    let integer = b == floor(b);
    let odd = integer && abs(b) < 16777216.0 && fract(b * 0.5) != 0.0;
    let sign = select(0u, sign_bit(a), odd);
    if (a == 0.0) {
        return with_sign(select(0.0, inf(), b < 0.0), sign);
    }
    if (is_inf(a)) {
        return with_sign(select(0.0, inf(), b > 0.0), sign);
    }
    if (a < 0.0 && !integer) { return nan(); }
    var l = log2(abs(a));
    if (is_denormal(a)) { l = log2(denormal_steps(a)) - 149.0; }
    let t = b * l;
    if (t >= 128.0) { return with_sign(inf(), sign); }
    if (t < -150.0) { return with_sign(0.0, sign); }
    return with_sign(exp2(t), sign);
}
";

/// `fmod_f32` is C's `fmod`, exact, by long division on the significands
/// (the remainder of `a` by `b` needs no rounding, but `a - b * trunc(a / b)`
/// rounds twice, and gave 0 for `3.0 % 0.3` where PyTorch gives 0.29999986);
/// `rem_f32` is Python's remainder, with the sign of the divisor, and
/// `floor_div_f32` PyTorch's `div_floor_floating` (`inf // 2` is NaN, `-1 //
/// inf` is -1), both from the exact `fmod`, as in `tpu_ir`.
const FMOD_HELPERS: &str = "fn fmod_f32(a: f32, b: f32) -> f32 {
    if (is_nan(a) || is_nan(b) || is_inf(a) || b == 0.0) { return nan(); }
    if (is_inf(b) || abs(a) < abs(b)) { return a; }
    let ua = bitcast<u32>(a) & 0x7fffffffu;
    let ub = bitcast<u32>(b) & 0x7fffffffu;
    var ea = ua >> 23u;
    var eb = ub >> 23u;
    var ma = ua & 0x7fffffu;
    var mb = ub & 0x7fffffu;
    if (ea == 0u) { ea = 1u; } else { ma = ma | 0x800000u; }
    if (eb == 0u) { eb = 1u; } else { mb = mb | 0x800000u; }
    var r = ma % mb;
    for (var e = ea; e > eb; e = e - 1u) {
        r = (r << 1u) % mb;
    }
    return with_sign(ldexp(f32(r), i32(eb) - 150), sign_bit(a));
}
fn rem_f32(a: f32, b: f32) -> f32 {
    let r = fmod_f32(a, b);
    if (is_nan(r)) { return r; }
    return select(r, r + b, r != 0.0 && ((r < 0.0) != (b < 0.0)));
}
fn floor_div_f32(a: f32, b: f32) -> f32 {
    if (b == 0.0) { return div_f32(a, b); }
    let r = fmod_f32(a, b);
    if (is_nan(r)) { return r; }
    var q = div_f32(a - r, b);
    if (r != 0.0 && ((b < 0.0) != (r < 0.0))) { q = q - 1.0; }
    if (q == 0.0) { return with_sign(0.0, sign_bit(a) ^ sign_bit(b)); }
    let f = floor(q);
    return select(f, f + 1.0, q - f > 0.5);
}
";

/// The WGSL expression of the function of `x`.
pub(crate) fn unary(op: UnaryOp) -> &'static str {
    match op {
        UnaryOp::Neg => "-x",
        UnaryOp::Abs => "with_sign(x, 0u)",
        UnaryOp::Relu => "select(x, 0.0, x < 0.0 && !is_nan(x))",
        UnaryOp::Exp => "exp_f32(x)",
        UnaryOp::Log => "log_f32(x)",
        UnaryOp::Sqrt => "sqrt_f32(x)",
        UnaryOp::Tanh => "tanh_f32(x)",
        UnaryOp::Sigmoid => "sigmoid_f32(x)",
        UnaryOp::Sin => "sin_f32(x)",
        UnaryOp::Cos => "cos_f32(x)",
        UnaryOp::Tan => "tan_f32(x)",
        UnaryOp::Atan => "atan_f32(x)",
        UnaryOp::Erf => "erf_f32(x)",
        UnaryOp::Floor => "floor(x)",
        UnaryOp::Ceil => "ceil_f32(x)",
        UnaryOp::Round => "round(x)",
        UnaryOp::Sign => "sign_f32(x)",
    }
}

/// The helper functions `unary(op)` calls, in order, if any.
pub(crate) fn unary_helpers(op: UnaryOp) -> &'static [&'static str] {
    match op {
        UnaryOp::Neg | UnaryOp::Floor | UnaryOp::Round => &[],
        UnaryOp::Tan => &[FLOAT_HELPERS, TAN_HELPER],
        UnaryOp::Atan => &[FLOAT_HELPERS, ATAN_HELPER],
        UnaryOp::Ceil => &[FLOAT_HELPERS, CEIL_HELPER],
        UnaryOp::Abs | UnaryOp::Relu => &[FLOAT_HELPERS],
        UnaryOp::Sign => &[FLOAT_HELPERS, SIGN_HELPER],
        UnaryOp::Exp => &[FLOAT_HELPERS, EXP_HELPER],
        UnaryOp::Log => &[FLOAT_HELPERS, LOG_HELPER],
        UnaryOp::Sqrt => &[FLOAT_HELPERS, SQRT_HELPER],
        UnaryOp::Tanh => &[FLOAT_HELPERS, EXP_HELPER, TANH_HELPER],
        UnaryOp::Sigmoid => &[FLOAT_HELPERS, EXP_HELPER, SIGMOID_HELPER],
        UnaryOp::Sin | UnaryOp::Cos => &[FLOAT_HELPERS, SIN_COS_HELPERS],
        UnaryOp::Erf => &[FLOAT_HELPERS, ERF_HELPER],
    }
}

/// `atan` as the Cephes `atanf`: the argument reduced below tan(pi/8) by
/// `atan(x) = pi/4 + atan((x - 1) / (x + 1))` or `pi/2 - atan(1/x)`, then an
/// odd polynomial (within 2 ulp on lavapipe). The built-in was 1.5e-6 off in absolute
/// terms on lavapipe (200 ulp near 0.1), gave 0 for NaN and +0 for -0.
const ATAN_HELPER: &str = "fn atan_f32(x: f32) -> f32 {
    if (is_nan(x) || (bitcast<u32>(x) & 0x7fffffffu) == 0u) { return x; }
    let a = abs(x);
    var base = 0.0;
    var t = a;
    if (a > 2.4142137) {
        base = 1.5707964;
        t = -1.0 / a;
    } else if (a > 0.41421357) {
        base = 0.7853982;
        t = (a - 1.0) / (a + 1.0);
    }
    let z = t * t;
    let p = fma(fma(fma(8.05374449538e-2, z, -1.38776856032e-1), z, 1.99777106478e-1), z, -3.33329491539e-1);
    let r = base + fma(p * z, t, t);
    return select(r, -r, sign_bit(x) != 0u);
}
";

/// `tan` of an infinity is NaN (the built-in's is unspecified), and of a
/// signed zero that zero.
const TAN_HELPER: &str = "fn tan_f32(x: f32) -> f32 {
    if (is_nan(x) || is_inf(x)) { return nan(); }
    if ((bitcast<u32>(x) & 0x7fffffffu) == 0u) { return x; }
    return tan(x);
}
";

/// PyTorch's `(0 < x) - (x < 0)`: `+0.0` for both zeros and for NaN. Written
/// with a `return 0.0`, because lavapipe gave `-0.0` for `sign(0.0)` written
/// as nested `select`s; zero and the sign read from the bits, because
/// SwiftShader flushes a subnormal to zero before comparing it.
const SIGN_HELPER: &str = "fn sign_f32(x: f32) -> f32 {
    let bits = bitcast<u32>(x);
    if (is_nan(x) || (bits & 0x7fffffffu) == 0u) { return 0.0; }
    return select(1.0, -1.0, (bits & 0x80000000u) != 0u);
}
";

/// `ceil` with subnormal inputs decided by their bits: SwiftShader flushes a
/// subnormal to zero before rounding in fused kernels, where `ceil(1e-40)` is
/// 1 (the browser corpus test found it). `floor` needs no such care: a flushed
/// positive subnormal floors to 0 either way, and a branch there made
/// lavapipe's LLVM lose the sign of that zero.
const CEIL_HELPER: &str = "fn ceil_f32(x: f32) -> f32 {
    if (is_denormal(x)) {
        if (sign_bit(x) != 0u) { return bitcast<f32>(0x80000000u); }
        return 1.0;
    }
    return ceil(x);
}
";

/// `exp` saturated where float32's result is infinite (past
/// `tpu_ir::FLOAT32_EXP_OVERFLOW`) or rounds to 0 (below `ln(2^-150)`).
const EXP_HELPER: &str = "fn exp_f32(x: f32) -> f32 {
    if (is_nan(x)) { return nan(); }
    if (x > 88.72283) { return inf(); }
    if (x < -103.97208) { return 0.0; }
    return exp(x);
}
";

/// `log` with its edges: NaN below zero, `-inf` at either zero, `inf` at
/// `inf`.
const LOG_HELPER: &str = "fn log_f32(x: f32) -> f32 {
    if (is_nan(x) || x < 0.0) { return nan(); }
    if (is_denormal(x) && sign_bit(x) == 0u) {
        return log(denormal_steps(x)) - 103.27893;
    }
    if (x == 0.0) { return -inf(); }
    if (is_inf(x)) { return x; }
    return log(x);
}
";

/// `tanh` as Cephes' `tanhf` (its odd polynomial below 0.625, `1 - 2 /
/// (exp(2|x|) + 1)` above, within 2 ulp), `x` itself where `tanh(x)` rounds
/// to `x` (so signed zeros and tiny values are kept), and `±1` past 10, where
/// it rounds to 1 (WGSL's built-in is NaN there on SwiftShader).
const TANH_HELPER: &str = "fn tanh_f32(x: f32) -> f32 {
    if (is_nan(x)) { return nan(); }
    let z = abs(x);
    if (z < 0.0001) { return x; }
    if (z >= 10.0) { return with_sign(1.0, sign_bit(x)); }
    if (z < 0.625) {
        let s = x * x;
        let p = (((-5.70498872745e-3 * s + 2.06390887954e-2) * s - 5.37397155531e-2) * s + 1.33314422036e-1) * s - 3.33332819422e-1;
        return p * s * x + x;
    }
    return with_sign(1.0 - 2.0 / (exp_f32(2.0 * z) + 1.0), sign_bit(x));
}
";

/// `1 / (1 + exp(-x))` in float32, as PyTorch computes it: 0 where
/// `exp(-x)` overflows, 1 where it vanishes next to 1.
const SIGMOID_HELPER: &str = "fn sigmoid_f32(x: f32) -> f32 {
    if (is_nan(x)) { return nan(); }
    if (x < -88.72283) { return 0.0; }
    if (x > 20.0) { return 1.0; }
    return 1.0 / (1.0 + exp_f32(-x));
}
";

/// `sin` and `cos` reduced to `[-pi/4, pi/4]` first (Cody and Waite, `pi/2`
/// in three parts, accurate while `|x|` is below about 1e4), because WGSL
/// bounds the built-ins' error only on `[-pi, pi]`; NaN at the infinities,
/// and `sin(x) = x`, `cos(x) = 1` where those round exactly. On the reduced
/// range they are the Cephes `sinf`/`cosf` polynomials (error about 1e-7),
/// not the built-ins (which still take what the three-part reduction cannot
/// bring into range, the huge arguments): SwiftShader's built-in `sin` was off by about 5e-5,
/// which the browser corpus test caught.
const SIN_COS_HELPERS: &str = "fn sin_poly(x: f32) -> f32 {
    if (abs(x) > 0.8) { return sin(x); }
    let z = x * x;
    return fma(fma(fma(-1.9515295891e-4, z, 8.3321608736e-3), z, -1.6666654611e-1) * z, x, x);
}
fn cos_poly(x: f32) -> f32 {
    if (abs(x) > 0.8) { return cos(x); }
    let z = x * x;
    let p = fma(fma(2.443315711809948e-5, z, -1.388731625493765e-3), z, 4.166664568298827e-2);
    return fma(p * z, z, fma(-0.5, z, 1.0));
}
fn quarter_turns(x: f32) -> vec2<f32> {
    let j = round(x * 0.63661977);
    let r = ((x - j * 1.5703125) - j * 4.837513e-4) - j * 7.54979e-8;
    return vec2<f32>(r, j - 4.0 * floor(j * 0.25));
}
fn sin_f32(x: f32) -> f32 {
    if (is_nan(x) || is_inf(x)) { return nan(); }
    if (abs(x) < 0.0001) { return x; }
    let t = quarter_turns(x);
    let q = t.y;
    if (q == 0.0) { return sin_poly(t.x); }
    if (q == 1.0) { return cos_poly(t.x); }
    if (q == 2.0) { return -sin_poly(t.x); }
    return -cos_poly(t.x);
}
fn cos_f32(x: f32) -> f32 {
    if (is_nan(x) || is_inf(x)) { return nan(); }
    if (abs(x) < 0.0001) { return 1.0; }
    let t = quarter_turns(x);
    let q = t.y;
    if (q == 0.0) { return cos_poly(t.x); }
    if (q == 1.0) { return -sin_poly(t.x); }
    if (q == 2.0) { return -cos_poly(t.x); }
    return sin_poly(t.x);
}
";

/// `erf` in float32 to within two float32 steps of the correctly rounded value
/// (PyTorch's CPU `erf` is within one; the reference backend rounds the exact
/// value once): WGSL has no built-in. Below 1, the Taylor series of
/// `erf(x) / x` in `x²` to its 11th term; from 1 to 4, `1 - erfc(x)` with
/// `erfc(x) = exp(-x²) q(1/x) / x` and `q` a degree-10 least-squares fit of
/// `erfc(x) exp(x²) x` in `1/x - 0.625` (relative error 2.4e-9, fitted with
/// numpy for this kernel); from 4 on, `±1`. `exp(-x²)` is computed to about
/// one float32 step (`exp_neg_square`) rather than with WGSL's `exp`, whose
/// error on GPUs that build it from `exp2` (lavapipe) is larger than
/// `1 + erf(x)` itself for `x` below -3: GELU of such `x` came out with the
/// wrong sign, and FSDP2 training (`fsdp2_train.py`) diverged from PyTorch's
/// in the fourth decimal.
const ERF_HELPER: &str = "fn exp_neg_square(a: f32) -> f32 {
    // exp(-a*a) with -a*a rounded to float32 first: Cody-Waite reduction by
    // ln 2 and a degree-7 Taylor polynomial on |r| <= ln2/2.
    let v = -(a * a);
    let n = round(v * 1.442695041);
    var r = fma(n, -0.693145752, v);
    r = fma(n, -1.428606765e-6, r);
    var p = fma(r, 1.0 / 5040.0, 1.0 / 720.0);
    p = fma(p, r, 1.0 / 120.0);
    p = fma(p, r, 1.0 / 24.0);
    p = fma(p, r, 1.0 / 6.0);
    p = fma(p, r, 0.5);
    p = fma(p, r, 1.0);
    p = fma(p, r, 1.0);
    return ldexp(p, i32(n));
}

fn erf_f32(x: f32) -> f32 {
    if (is_nan(x)) { return nan(); }
    let a = abs(x);
    if (a < 1.0) {
        let z = x * x;
        var p = 1.4807192805221803e-08;
        p = fma(p, z, -1.6365844146548625e-07);
        p = fma(p, z, 1.6462114444948384e-06);
        p = fma(p, z, -1.4925650248187594e-05);
        p = fma(p, z, 0.00012055332626914605);
        p = fma(p, z, -0.0008548327023163438);
        p = fma(p, z, 0.005223977845162153);
        p = fma(p, z, -0.02686617150902748);
        p = fma(p, z, 0.11283791810274124);
        p = fma(p, z, -0.37612637877464294);
        p = fma(p, z, 1.128379225730896);
        return x * p;
    }
    if (a >= 4.0) { return with_sign(1.0, sign_bit(x)); }
    let u = 1.0 / a;
    let t = u - 0.625;
    var q = 0.02045562118291855;
    q = fma(q, t, -0.04768544062972069);
    q = fma(q, t, 0.047659292817115784);
    q = fma(q, t, -0.024652715772390366);
    q = fma(q, t, -0.010328439995646477);
    q = fma(q, t, 0.04961782321333885);
    q = fma(q, t, -0.07802947610616684);
    q = fma(q, t, 0.07210168987512589);
    q = fma(q, t, -0.001294660265557468);
    q = fma(q, t, -0.17158564925193787);
    q = fma(q, t, 0.489524781703949);
    let y = 1.0 - exp_neg_square(a) * q * u;
    return select(y, -y, x < 0.0);
}
";

/// The helper functions `reduce_step(op)` calls, in order, if any.
pub(crate) fn reduce_helpers(op: ReduceOp) -> &'static [&'static str] {
    match op {
        ReduceOp::Max | ReduceOp::Min => &[FLOAT_HELPERS, REDUCE_HELPERS],
        ReduceOp::Sum | ReduceOp::Prod | ReduceOp::ArgMax | ReduceOp::ArgMin => &[],
    }
}

/// The running value a reduction starts from before its first element:
/// `+0.0` for sums (so that a sum of `-0.0`s is `0.0`, as PyTorch's), 1 for
/// products; max and min start from their first element.
pub(crate) fn reduce_start(op: ReduceOp) -> Option<&'static str> {
    match op {
        ReduceOp::Sum => Some("0.0"),
        ReduceOp::Prod => Some("1.0"),
        ReduceOp::Max | ReduceOp::Min | ReduceOp::ArgMax | ReduceOp::ArgMin => None,
    }
}

/// A NaN wins max and min reductions; of equal values the first stays (so
/// the max of `[0.0, -0.0]` is `0.0`), as in PyTorch and the reference. The
/// values are compared as integers (`order_key`: float order, both zeros
/// equal) and chosen by their bits: NVIDIA's compiler turned a float
/// comparison and `select` of this shape, bitcasts and all, into its own
/// `max`, which prefers `+0.0` (an H200 gave `0.0` for the max of `[-0.0,
/// 0.0]`).
const REDUCE_HELPERS: &str = "fn order_key(x: f32) -> i32 {
    let b = bitcast<i32>(x);
    if ((b & 0x7fffffff) == 0) { return 0; }
    return select(b, b ^ 0x7fffffff, b < 0);
}
fn max_step(acc: f32, x: f32) -> f32 {
    if (is_nan(acc) || is_nan(x)) { return nan(); }
    return bitcast<f32>(select(bitcast<u32>(acc), bitcast<u32>(x), order_key(x) > order_key(acc)));
}
fn min_step(acc: f32, x: f32) -> f32 {
    if (is_nan(acc) || is_nan(x)) { return nan(); }
    return bitcast<f32>(select(bitcast<u32>(acc), bitcast<u32>(x), order_key(x) < order_key(acc)));
}
";

/// One step of a float reduction, `acc` folded with `x`.
pub(crate) fn reduce_step(op: ReduceOp) -> &'static str {
    match op {
        ReduceOp::Sum => "acc + x",
        ReduceOp::Prod => "acc * x",
        ReduceOp::Max => "max_step(acc, x)",
        ReduceOp::Min => "min_step(acc, x)",
        ReduceOp::ArgMax | ReduceOp::ArgMin => {
            unreachable!("int64 results are refused before any kernel is built")
        }
    }
}
