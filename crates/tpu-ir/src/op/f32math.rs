//! float32 `exp`, `log`, `tanh`, `sigmoid` and `erf` computed in float32,
//! for the reference backend's speed: float64 `libm` calls took 5-20 ns an
//! element, these a few nanoseconds or less, because a loop over a slice
//! vectorises. They use IEEE additions, multiplications, divisions and bit
//! operations alone (never a fused multiply-add, never a branch on a value:
//! both sides are computed and one is selected), so every platform computes
//! the same bits, natively and in wasm, with or without AVX2.
//!
//! Their polynomials were fitted by `tools/fit_f32math.py`. Against the
//! float64 definitions rounded to float32, the tests below measure at most
//! 1 ulp for `exp`, `log` and `tanh` and 2 for `sigmoid` and `erf`, over 26
//! million float32 values strided through the whole range and the edge
//! values (the float64 path was correctly rounded; PyTorch's own vectorised
//! float32 functions are not).

/// 1.5 * 2^23: adding it rounds a float below 2^22 in magnitude to an
/// integer (ties to even), held in the low bits of the sum's significand.
const ROUNDER: f32 = 12_582_912.0;

/// `x` rounded to the nearest integer, as a float and as an integer, for
/// |x| < 2^22.
#[inline(always)]
fn round(x: f32) -> (f32, i32) {
    let t = x + ROUNDER;
    let n = (t.to_bits() as i32).wrapping_sub(ROUNDER.to_bits() as i32);
    (t - ROUNDER, n)
}

/// 2^n for n in [-126, 127], from its exponent bits.
#[inline(always)]
fn pow2(n: i32) -> f32 {
    f32::from_bits(((n + 127) as u32) << 23)
}

/// `c[0] + c[1] t + c[2] t^2 + ...` by Horner's rule.
#[inline(always)]
fn poly(t: f32, c: &[f32]) -> f32 {
    let mut p = c[c.len() - 1];
    for &k in c[..c.len() - 1].iter().rev() {
        p = p * t + k;
    }
    p
}

/// exp(r) = 1 + r + r^2 EXP(r), |r| <= ln(2) / 2.
const EXP: [f32; 6] = [
    0.5,
    0.166_666_67,
    0.041_666_46,
    0.008_333_362,
    0.001_393_448_7,
    0.000_198_581_21,
];

/// e^x: x = n ln 2 + r, e^x = 2^n e^r.
#[inline(always)]
pub fn exp(x: f32) -> f32 {
    // ln 2 in two parts; the first has few significant bits, so n times it
    // is exact.
    const LN2_HI: f32 = 0.693_359_4;
    const LN2_LO: f32 = -2.121_944_4e-4;
    // Past these e^x is infinite or rounds to zero.
    let xc = x.clamp(-104.0, 89.0);
    let (n, ni) = round(xc * std::f32::consts::LOG2_E);
    let r = (xc - n * LN2_HI) - n * LN2_LO;
    let y = (r * r) * poly(r, &EXP) + r + 1.0;
    // 2^n in two factors, each a normal float, so that a result below 2^-126
    // rounds once.
    let half = ni >> 1;
    let y = y * pow2(half) * pow2(ni - half);
    if x.is_nan() { x } else { y }
}

/// log(1 + m) = m - m^2 / 2 + m^3 LOG(m), sqrt(1/2) - 1 <= m <= sqrt(2) - 1.
const LOG: [f32; 9] = [
    0.333_333_25,
    -0.249_999_94,
    0.200_020_54,
    -0.166_691_38,
    0.142_062_37,
    -0.123_676_12,
    0.120_400_78,
    -0.120_322_846,
    0.067_172_02,
];

/// The natural logarithm: x = 2^e (1 + m), log x = e ln 2 + log(1 + m).
#[inline(always)]
pub fn ln(x: f32) -> f32 {
    const LN2_HI: f32 = 0.693_359_4;
    const LN2_LO: f32 = -2.121_944_4e-4;
    // Subnormals scaled into the normal range first.
    let tiny = x < f32::MIN_POSITIVE;
    let scaled = if tiny { x * 8_388_608.0 } else { x };
    let bits = scaled.to_bits() as i32;
    // The significand in [sqrt(1/2), sqrt(2)), and its exponent.
    let shifted = bits.wrapping_sub(0x3f35_04f3);
    let e = (shifted >> 23) - if tiny { 23 } else { 0 };
    let significand = f32::from_bits((shifted & 0x007f_ffff).wrapping_add(0x3f35_04f3) as u32);
    let m = significand - 1.0;
    let fe = e as f32;
    let z = m * m;
    let y = (z * m) * poly(m, &LOG) + fe * LN2_LO - 0.5 * z;
    let y = m + y + fe * LN2_HI;
    if x > 0.0 && x < f32::INFINITY {
        y
    } else if x == 0.0 {
        f32::NEG_INFINITY
    } else if x == f32::INFINITY || x.is_nan() {
        x
    } else {
        f32::NAN
    }
}

/// tanh(x) = x + x^3 TANH(x^2), |x| < 0.625.
const TANH: [f32; 5] = [
    -0.333_333_28,
    0.133_327_89,
    -0.053_852_64,
    0.021_003_082,
    -0.006_103_430_4,
];

/// tanh: the polynomial near zero, else 1 - 2 / (e^(2|x|) + 1) with x's sign.
#[inline(always)]
pub fn tanh(x: f32) -> f32 {
    let a = x.abs();
    let s = x * x;
    let near = x + (x * s) * poly(s, &TANH);
    let far = 1.0 - 2.0 / (exp(a + a) + 1.0);
    // With x's sign: near zero too, where -0.0 would lose it.
    if a < 0.625 { near } else { far }.copysign(x)
}

/// PyTorch's float32 sigmoid, `1 / (1 + e^-x)`, each step rounded: exactly 1
/// from x = 16.64 on, and 0 where e^-x overflows.
#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + exp(-x))
}

/// erf(x) = x ERF_SMALL(x^2), |x| < 0.921875.
const ERF_SMALL: [f32; 7] = [
    std::f32::consts::FRAC_2_SQRT_PI, // the fit lands on erf'(0), as it must
    -0.376_126_35,
    0.112_836_96,
    -0.026_859_4,
    0.005_201_032_4,
    -0.000_814_270_3,
    0.000_083_700_96,
];

/// erfc(x) e^(x^2) in x - 1.4609375, on [0.921875, 2].
const ERFC_NEAR: [f32; 10] = [
    0.328_095_14,
    -0.169_726_21,
    0.080_135_72,
    -0.035_101_943,
    0.014_427_527,
    -0.005_610_037,
    0.002_071_975_5,
    -0.000_734_883_5,
    0.000_270_236_55,
    -0.000_087_395_52,
];

/// erfc(x) e^(x^2) in x - 2.96, on [2, 3.92]; past 3.92 erf(x) rounds to 1.
const ERFC_FAR: [f32; 10] = [
    0.181_201_74,
    -0.055_664_826,
    0.016_433_83,
    -0.004_680_411,
    0.001_290_135_6,
    -0.000_344_934_12,
    0.000_089_010_79,
    -0.000_022_585_32,
    0.000_006_409_616,
    -0.000_001_525_964,
];

/// The error function: a polynomial near zero, else 1 - e^(-x^2) times a
/// polynomial for erfc(x) e^(x^2), with x's sign.
#[inline(always)]
pub fn erf(x: f32) -> f32 {
    let a = x.abs();
    let near = x * poly(x * x, &ERF_SMALL);
    // Both intervals' coefficients chosen per element, one Horner's rule.
    let b = a.clamp(0.921_875, 3.92);
    let far_side = b >= 2.0;
    let t = b - if far_side { 2.96 } else { 1.460_937_5 };
    let mut p = 0.0;
    for i in (0..ERFC_NEAR.len()).rev() {
        p = p * t + if far_side { ERFC_FAR[i] } else { ERFC_NEAR[i] };
    }
    let far = 1.0 - exp(-(b * b)) * p;
    if a < 0.921_875 || x.is_nan() {
        near
    } else {
        far.copysign(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How many float32 steps `got` is from `want` (the float64 value rounded
    /// to float32), measured in `want`'s ulp; 0 for equal values, NaNs, or
    /// infinities of one sign.
    fn ulps(got: f32, want: f64) -> f64 {
        let w = want as f32;
        if got == w || (got.is_nan() && w.is_nan()) {
            return 0.0;
        }
        if !got.is_finite() || !w.is_finite() {
            return f64::INFINITY;
        }
        let a = w.abs();
        let ulp = if a < f32::MIN_POSITIVE {
            f64::from(f32::from_bits(1))
        } else {
            f64::from(f32::from_bits(a.to_bits() + 1) - a)
        };
        (f64::from(got) - f64::from(w)).abs() / ulp
    }

    /// Every float32 whose bits are a multiple of 331 (both signs: about 26
    /// million values), and the edge values.
    fn inputs() -> impl Iterator<Item = f32> {
        let edges = [
            0.0,
            -0.0,
            f32::MIN_POSITIVE,
            f32::from_bits(1),
            1.0,
            0.625,
            0.921_875,
            2.0,
            3.92,
            88.722_83,
            88.722_84,
            -87.336_55,
            -103.972_08,
            -104.0,
            f32::MAX,
            f32::INFINITY,
            f32::NAN,
        ];
        (0..u32::MAX / 2 / 331)
            .map(|i| f32::from_bits(i * 331))
            .chain(edges)
            .flat_map(|x| [x, -x])
    }

    fn worst(f: impl Fn(f32) -> f32, want: impl Fn(f64) -> f64) -> (f64, f32) {
        inputs().fold((0.0, 0.0), |worst, x| {
            let e = ulps(f(x), want(f64::from(x)));
            if e > worst.0 { (e, x) } else { worst }
        })
    }

    #[test]
    fn f32math_exp_log_and_tanh_are_within_an_ulp() {
        let (e, at) = worst(exp, f64::exp);
        assert!(e <= 1.0, "exp: {e} ulp at {at:e}");
        let (e, at) = worst(ln, f64::ln);
        assert!(e <= 1.0, "log: {e} ulp at {at:e}");
        let (e, at) = worst(tanh, f64::tanh);
        assert!(e <= 1.0, "tanh: {e} ulp at {at:e}");
    }

    #[test]
    fn f32math_sigmoid_and_erf_are_within_two_ulp() {
        // PyTorch's formula in float64, but 0 where e^-x overflows float32.
        let (e, at) = worst(sigmoid, |x| {
            let e = (-x).exp();
            if (e as f32).is_infinite() {
                0.0
            } else {
                1.0 / (1.0 + e)
            }
        });
        assert!(e <= 2.0, "sigmoid: {e} ulp at {at:e}");
        let (e, at) = worst(erf, super::super::erf);
        assert!(e <= 2.0, "erf: {e} ulp at {at:e}");
    }

    /// The special values, exactly.
    #[test]
    fn f32math_special_values() {
        let inf = f32::INFINITY;
        assert_eq!(exp(inf), inf);
        assert_eq!(exp(-inf), 0.0);
        assert_eq!(exp(0.0), 1.0);
        assert!(exp(f32::NAN).is_nan());
        assert_eq!(ln(0.0), -inf);
        assert_eq!(ln(-0.0), -inf);
        assert_eq!(ln(1.0), 0.0);
        assert_eq!(ln(inf), inf);
        assert!(ln(-1.0).is_nan() && ln(-inf).is_nan() && ln(f32::NAN).is_nan());
        assert_eq!(tanh(inf), 1.0);
        assert_eq!(tanh(-inf), -1.0);
        assert_eq!(tanh(-0.0).to_bits(), (-0.0f32).to_bits());
        assert!(tanh(f32::NAN).is_nan());
        assert_eq!(sigmoid(16.64), 1.0);
        assert_eq!(sigmoid(-inf), 0.0);
        assert_eq!(sigmoid(inf), 1.0);
        assert_eq!(erf(inf), 1.0);
        assert_eq!(erf(-inf), -1.0);
        assert_eq!(erf(-0.0).to_bits(), (-0.0f32).to_bits());
        assert!(erf(f32::NAN).is_nan());
    }
}
