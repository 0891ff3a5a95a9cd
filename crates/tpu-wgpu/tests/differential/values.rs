//! The differential test's input values: ramps that are not exact in
//! binary, the special values ops disagree on (NaN, signed zeros, halves),
//! divisors and exponents, and values whose sums and products are exact in
//! any order (so summation order cannot excuse a difference).

/// Values in [-3, 3.6] that are not exact in binary.
pub fn ramp(n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| ((i * 7919) % 113) as f32 / 17.0 - 3.0)
        .collect()
}

/// `ramp` scaled into [-1, 1.2], where `tan` is far from its poles.
pub fn within_one(n: usize) -> Vec<f32> {
    ramp(n).into_iter().map(|x| x / 3.0).collect()
}

/// `ramp` with the values ops disagree on sprinkled in: NaN, signed zeros,
/// negative integers and halves (for rounding, floor and remainder).
pub fn mixed(n: usize) -> Vec<f32> {
    const SPECIAL: [f32; 9] = [f32::NAN, -0.0, 0.0, -2.0, -1.5, -0.5, 0.5, 2.5, -3.0];
    let mut v = ramp(n);
    for (i, x) in v.iter_mut().enumerate() {
        if i % 5 == 1 {
            *x = SPECIAL[(i / 5) % SPECIAL.len()];
        }
    }
    v
}

/// Non-zero divisors of both signs, and NaN. Not 0.3: `3.0 % 0.3` is a
/// known defect of the wgpu remainder (see `rem_f32` in
/// `src/kernels/expr.rs`), whose quotient rounds up to 10.
pub fn divisors(n: usize) -> Vec<f32> {
    const D: [f32; 11] = [
        -2.5,
        3.0,
        -1.0,
        0.75,
        f32::NAN,
        7.0,
        -0.5,
        1.0,
        2.0,
        -3.0,
        0.7,
    ];
    (0..n).map(|i| D[i % D.len()]).collect()
}

/// Exponents: the special-cased ones, fractions (NaN for negative bases),
/// negative integers, and NaN.
pub fn exponents(n: usize) -> Vec<f32> {
    const E: [f32; 13] = [
        2.0,
        3.0,
        0.5,
        -1.0,
        0.0,
        1.0,
        -2.0,
        1.5,
        2.5,
        -0.5,
        f32::NAN,
        4.0,
        -3.0,
    ];
    (0..n).map(|i| E[i % E.len()]).collect()
}

/// Positive values (with NaN and zero), for `log` and `sqrt`.
pub fn positive(n: usize) -> Vec<f32> {
    mixed(n)
        .into_iter()
        .map(|x| if x.is_nan() { x } else { x.abs() })
        .collect()
}

/// Quarters in [-3, 3]: every sum of up to 2^20 of them, and every product of
/// two summed up to 2^18 times, is exact in float32.
pub fn dyadic(n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| ((i * 7919) % 25) as f32 / 4.0 - 3.0)
        .collect()
}

/// Factors whose running products stay between 1/8 and 8, all exact.
pub fn powers_of_two(n: usize) -> Vec<f32> {
    const P: [f32; 8] = [2.0, -1.0, 0.5, 2.0, 1.0, -0.5, 0.5, -1.0];
    (0..n).map(|i| P[i % P.len()]).collect()
}
