//! The edge-value check, shared by the native test (`tests/edge_values.rs`, on
//! lavapipe) and the browser test (`tpu-wasm`'s `tests/browser/edge_values.rs`, on WebGPU in
//! Chromium), so that both run the same vectors under the same rule: every
//! unary op, every binary op (tensor with tensor over every pair, and tensor
//! with a Python number on either side; each enum's `ALL`, so a new op is
//! checked without being listed here), every reduction of values, running
//! sums, sums of everything, a matmul, and fused chains, over float32's
//! edges (±inf, NaN, ±0, 1e±30, a denormal, arguments where `tanh`, `exp`
//! and `sigmoid` saturate), each checked against the reference backend.
//!
//! The rule (`agrees`): NaN where the reference has NaN; infinities and zeros
//! bit for bit, sign included; other values exactly for the ops WGSL rounds
//! correctly and within the op's ulps otherwise. WGSL lets an implementation
//! flush denormals to zero, so a denormal result may come back as a zero of
//! the same sign, and a denormal operand may act as a zero of its sign (the
//! result must then match the reference on that zero). `sin` and `cos` are
//! held to their edges (NaN, infinities, signed zeros, tiny arguments) and to
//! 2^-11 absolute where `|x| <= 300`; WGSL bounds their error only on
//! `[-pi, pi]`, and the kernels reduce larger arguments in float32, so huge
//! arguments (1e30) only have to stay in `[-1, 1]`.

use crate::WgpuBackend;
use tpu_ir::{BinaryOp, DType, Op, ReduceOp, ScalarKind, Shape, UnaryOp};
use tpu_runtime::{Backend, Device, EagerMode, HostData, ReferenceBackend, Runtime, run_op};

/// The edge values every op is fed: zeros of both signs, ordinary numbers,
/// saturating arguments, huge and tiny magnitudes, a denormal, infinities and
/// NaN.
pub const EDGE_VALUES: [f32; 18] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    -2.5,
    3.0,
    0.3,
    100.0,
    -100.0,
    300.0,
    1e30,
    -1e30,
    1e-30,
    1e-40,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
];

/// How close a value must be to the reference's, beyond the rules every op
/// shares (NaN, infinities and zeros exact).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tolerance {
    /// Bit for bit: WGSL rounds these correctly, or they are exact.
    Exact,
    /// Within `ulps` units in the last place of the reference's result.
    Ulps(f32),
    /// Within this much absolutely (`sin`, `cos`, `erf`).
    Absolute(f32),
}

/// The tolerance of each unary op. No `_` arm: a new op needs its line.
pub fn unary_tolerance(op: UnaryOp) -> Tolerance {
    match op {
        UnaryOp::Neg
        | UnaryOp::Abs
        | UnaryOp::Relu
        | UnaryOp::Floor
        | UnaryOp::Ceil
        | UnaryOp::Round
        | UnaryOp::Sign => Tolerance::Exact,
        UnaryOp::Exp | UnaryOp::Log | UnaryOp::Tanh | UnaryOp::Sigmoid => Tolerance::Ulps(4.0),
        // WGSL allows `sqrt` 2.5 ulp (it is `1 / inverseSqrt`).
        UnaryOp::Sqrt => Tolerance::Ulps(3.0),
        // WGSL bounds `sin` and `cos` to 2^-11 absolute on [-pi, pi].
        UnaryOp::Sin | UnaryOp::Cos => Tolerance::Absolute(1.0 / 2048.0),
        // `atan` is Cephes' reduction and polynomial (measured within 2
        // ulp); WGSL bounds `tan` by `sin` over `cos` (2^-11 absolute
        // each), so only near its zeros is it tight.
        UnaryOp::Atan => Tolerance::Ulps(4.0),
        UnaryOp::Tan => Tolerance::Absolute(1.0 / 256.0),
        // Abramowitz and Stegun 7.1.26: below 1.5e-7 absolute, plus rounding.
        UnaryOp::Erf => Tolerance::Absolute(5e-7),
    }
}

/// The tolerance of each binary op. No `_` arm.
pub fn binary_tolerance(op: BinaryOp) -> Tolerance {
    match op {
        BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Maximum | BinaryOp::Minimum => {
            Tolerance::Exact
        }
        // WGSL allows `/` 2.5 ulp; `floor` of a quotient is exact where the
        // quotient is (the edge values divide exactly or saturate).
        BinaryOp::Div => Tolerance::Ulps(3.0),
        BinaryOp::FloorDiv => Tolerance::Exact,
        // `pow` is `exp2(b * log2(a))` away from its exact special cases;
        // `binary_agrees` widens this with `|b * log2(a)|`.
        BinaryOp::Pow => Tolerance::Ulps(8.0),
        // The remainder is computed exactly (see `expr.rs`'s `rem_f32`).
        BinaryOp::Remainder => Tolerance::Exact,
    }
}

/// Whether `actual` is what the reference's `expected` allows under
/// `tolerance`, for an op whose operand `input` may have been flushed (see the
/// module's rule; `flushed` is the reference's result on the flushed operand).
pub fn agrees(expected: f32, actual: f32, flushed: Option<f32>, tolerance: Tolerance) -> bool {
    if close(expected, actual, tolerance) {
        return true;
    }
    // Where denormals are flushed, a denormal result may be a zero of its
    // sign, and a denormal operand acts as a zero of its sign, although its
    // bits may pass through unchanged (SwiftShader's `minimum(0.0, 1e-40)`
    // is 1e-40, which it takes for 0): both sides are compared flushed.
    let actual = flush(actual);
    close(flush(expected), actual, tolerance)
        || flushed.is_some_and(|f| close(flush(f), actual, tolerance))
}

fn close(expected: f32, actual: f32, tolerance: Tolerance) -> bool {
    if expected.to_bits() == actual.to_bits() {
        return true;
    }
    if expected.is_nan() || actual.is_nan() {
        return expected.is_nan() && actual.is_nan();
    }
    if expected.is_infinite() || expected == 0.0 || actual.is_infinite() {
        return expected.to_bits() == actual.to_bits();
    }
    match tolerance {
        Tolerance::Exact => expected.to_bits() == actual.to_bits(),
        Tolerance::Ulps(ulps) => {
            let ulp = f32::EPSILON * expected.abs().max(f32::MIN_POSITIVE);
            (expected - actual).abs() <= ulps * ulp
        }
        Tolerance::Absolute(bound) => (expected - actual).abs() <= bound,
    }
}

/// A nonzero float32 below the smallest normal, which WGSL may flush to zero.
pub fn is_denormal(x: f32) -> bool {
    x != 0.0 && x.abs() < f32::MIN_POSITIVE
}

/// `x` as a WGSL implementation that flushes denormals may see it.
fn flush(x: f32) -> f32 {
    if is_denormal(x) {
        0.0f32.copysign(x)
    } else {
        x
    }
}

/// One disagreement, in words: the op, its operands, both results.
fn disagreement(what: &str, operands: &[f32], expected: f32, actual: f32) -> String {
    format!(
        "{what}{operands:?}: reference {expected:e} ({:#010x}), wgpu {actual:e} ({:#010x})",
        expected.to_bits(),
        actual.to_bits()
    )
}

/// Runs `op` on the reference and on `gpu`, both as float32.
async fn both(
    gpu: &mut WgpuBackend,
    op: &Op,
    inputs: &[(Vec<f32>, Shape)],
    out: &Shape,
) -> Result<(Vec<f32>, Vec<f32>), String> {
    let inputs: Vec<(HostData, Shape)> = inputs
        .iter()
        .map(|(d, s)| (HostData::F32(d.clone()), s.clone()))
        .collect();
    let mut reference = ReferenceBackend::new();
    let r = run_op(&mut reference, op, &inputs, out, DType::Float32).await;
    let w = run_op(gpu, op, &inputs, out, DType::Float32).await;
    match (r, w) {
        (Ok(r), Ok(w)) => Ok((r.as_f32().expect("float32"), w.as_f32().expect("float32"))),
        (r, w) => Err(format!(
            "{op:?}: reference {:?}, wgpu {:?}",
            r.err(),
            w.err()
        )),
    }
}

/// The reference's result of `op` on one float32 each (for a flushed operand).
fn reference_unary(op: UnaryOp, x: f32) -> f32 {
    op.apply_f32(x)
}

/// Every disagreement between `gpu` and the reference on the edge values;
/// empty when wgpu gives PyTorch's results. Consumes the backend: the fused
/// chains run it inside a runtime.
pub async fn edge_value_disagreements(mut gpu: WgpuBackend) -> Vec<String> {
    let mut failures = Vec::new();
    let n = EDGE_VALUES.len();
    let values = EDGE_VALUES.to_vec();
    let line = Shape::new([n]);

    for op in UnaryOp::ALL {
        let tolerance = unary_tolerance(op);
        match both(
            &mut gpu,
            &Op::Unary { op },
            &[(values.clone(), line.clone())],
            &line,
        )
        .await
        {
            Ok((r, w)) => {
                for (i, &x) in EDGE_VALUES.iter().enumerate() {
                    let flushed = is_denormal(x).then(|| reference_unary(op, flush(x)));
                    if !unary_agrees(op, x, r[i], w[i], flushed, tolerance) {
                        failures.push(disagreement(op.name(), &[x], r[i], w[i]));
                    }
                }
            }
            Err(e) => failures.push(e),
        }
    }

    // Every pair, through broadcasting: [n, 1] with [1, n].
    let (column, row, square) = (Shape::new([n, 1]), Shape::new([1, n]), Shape::new([n, n]));
    for op in BinaryOp::ALL {
        let inputs = [
            (values.clone(), column.clone()),
            (values.clone(), row.clone()),
        ];
        match both(&mut gpu, &Op::Binary { op }, &inputs, &square).await {
            Ok((r, w)) => {
                for i in 0..n * n {
                    let (a, b) = (EDGE_VALUES[i / n], EDGE_VALUES[i % n]);
                    let flushed =
                        (is_denormal(a) || is_denormal(b)).then(|| op.apply(flush(a), flush(b)));
                    if !binary_agrees(op, a, b, r[i], w[i], flushed) {
                        failures.push(disagreement(op.name(), &[a, b], r[i], w[i]));
                    }
                }
            }
            Err(e) => failures.push(e),
        }
        // A Python number on either side, for a few numbers.
        for scalar in [0.0f32, -0.0, 0.3, -1.0, f32::INFINITY, f32::NAN] {
            for scalar_on_left in [false, true] {
                let scalar_op = Op::BinaryScalar {
                    op,
                    scalar: scalar as f64,
                    scalar_on_left,
                };
                match both(
                    &mut gpu,
                    &scalar_op,
                    &[(values.clone(), line.clone())],
                    &line,
                )
                .await
                {
                    Ok((r, w)) => {
                        for (i, &x) in EDGE_VALUES.iter().enumerate() {
                            let (a, b) = if scalar_on_left {
                                (scalar, x)
                            } else {
                                (x, scalar)
                            };
                            let flushed = is_denormal(x).then(|| op.apply(flush(a), flush(b)));
                            if !binary_agrees(op, a, b, r[i], w[i], flushed) {
                                let what = format!("{} with a number", op.name());
                                failures.push(disagreement(&what, &[a, b], r[i], w[i]));
                            }
                        }
                    }
                    Err(e) => failures.push(e),
                }
            }
        }
    }

    // Reductions of every pair (the rows of [n * n, 2]), and running sums.
    let pairs: Vec<f32> = (0..n * n)
        .flat_map(|i| [EDGE_VALUES[i / n], EDGE_VALUES[i % n]])
        .collect();
    let pair_rows = Shape::new([n * n, 2]);
    // The index reductions (`argmax`, `argmin`) give int64 positions, not
    // values that can disagree at an edge.
    let value_reductions = ReduceOp::ALL
        .into_iter()
        .filter(|op| !matches!(op, ReduceOp::ArgMax | ReduceOp::ArgMin));
    for op in value_reductions {
        let reduce = Op::Reduce { op, axis: 1 };
        match both(
            &mut gpu,
            &reduce,
            &[(pairs.clone(), pair_rows.clone())],
            &Shape::new([n * n, 1]),
        )
        .await
        {
            Ok((r, w)) => {
                for i in 0..n * n {
                    let pair = [pairs[2 * i], pairs[2 * i + 1]];
                    let flushed = pair.iter().any(|&v| is_denormal(v)).then(|| {
                        let (a, b) = (flush(pair[0]), flush(pair[1]));
                        match op {
                            ReduceOp::Sum => a + b,
                            ReduceOp::Prod => a * b,
                            // The first of equal values stays, NaN aside.
                            _ if a.is_nan() || b.is_nan() => f32::NAN,
                            ReduceOp::Max => {
                                if b > a {
                                    b
                                } else {
                                    a
                                }
                            }
                            _ => {
                                if b < a {
                                    b
                                } else {
                                    a
                                }
                            }
                        }
                    });
                    if !agrees(r[i], w[i], flushed, Tolerance::Exact) {
                        failures.push(disagreement(op.name(), &pair, r[i], w[i]));
                    }
                }
            }
            Err(e) => failures.push(e),
        }
    }
    let cumsum = Op::Cumsum {
        axis: 1,
        reverse: false,
    };
    match both(
        &mut gpu,
        &cumsum,
        &[(pairs.clone(), pair_rows.clone())],
        &pair_rows,
    )
    .await
    {
        Ok((r, w)) => {
            for i in 0..2 * n * n {
                let pair = [pairs[i & !1], pairs[i | 1]];
                if !agrees(r[i], w[i], None, Tolerance::Exact)
                    && !pair.iter().any(|&v| is_denormal(v))
                {
                    failures.push(disagreement("cumsum", &pair, r[i], w[i]));
                }
            }
        }
        Err(e) => failures.push(e),
    }
    let inf = f32::INFINITY;
    for summed in [
        vec![inf, 1.0],
        vec![inf, -inf],
        vec![1e30, 1e30, -0.0],
        vec![f32::NAN, 1.0],
        vec![-0.0, -0.0],
        vec![3e38, 3e38],
    ] {
        let shape = Shape::new([summed.len()]);
        match both(
            &mut gpu,
            &Op::SumAll,
            &[(summed.clone(), shape)],
            &Shape::scalar(),
        )
        .await
        {
            Ok((r, w)) if !agrees(r[0], w[0], None, Tolerance::Exact) => {
                failures.push(disagreement("sum of everything", &summed, r[0], w[0]));
            }
            Ok(_) => {}
            Err(e) => failures.push(e),
        }
    }
    // inf * 0 inside a matrix product is NaN, and inf + -inf too.
    let (a, b) = (vec![inf, 0.0, 1.0, -inf], vec![0.0, 1.0, 2.0, 1.0]);
    let square2 = Shape::new([2, 2]);
    match both(
        &mut gpu,
        &Op::MATMUL,
        &[(a.clone(), square2.clone()), (b.clone(), square2.clone())],
        &square2,
    )
    .await
    {
        Ok((r, w)) => {
            for i in 0..4 {
                if !agrees(r[i], w[i], None, Tolerance::Exact) {
                    failures.push(disagreement("matmul element", &[i as f32], r[i], w[i]));
                }
            }
        }
        Err(e) => failures.push(e),
    }

    failures.extend(fused_disagreements(gpu).await);
    failures
}

/// `agrees` for a binary op on `a` and `b`, where PyTorch's `maximum` and
/// `minimum` of two zeros may be either zero (its vectorised and scalar CPU
/// paths differ).
fn binary_agrees(
    op: BinaryOp,
    a: f32,
    b: f32,
    expected: f32,
    actual: f32,
    flushed: Option<f32>,
) -> bool {
    // Compared flushed: a denormal may act as a zero (see `agrees`).
    let tie_of_zeros = flush(a) == 0.0 && flush(b) == 0.0 && flush(actual) == 0.0;
    if matches!(op, BinaryOp::Maximum | BinaryOp::Minimum) && tie_of_zeros {
        return true;
    }
    let tolerance = match op {
        // `exp2(t)` with `t = b * log2(|a|)` carries `t`'s rounding error
        // (an ulp of `t`, times `ln 2`, relative to the result): about `|t|`
        // ulp beyond the built-ins' own.
        BinaryOp::Pow => {
            let t = (b * a.abs().log2()).abs();
            Tolerance::Ulps(8.0 + if t.is_finite() { t } else { 0.0 })
        }
        // Past 2^24 every float is an integer, so `floor` changes nothing
        // and `//` is the quotient as `/` rounds it: within WGSL's 2.5 ulp
        // (an NVIDIA H200's `1e30 // 100.0` was an ulp below PyTorch's).
        BinaryOp::FloorDiv if expected.abs() >= 16_777_216.0 => Tolerance::Ulps(3.0),
        _ => binary_tolerance(op),
    };
    agrees(expected, actual, flushed, tolerance)
}

/// `unary`'s rule, with `sin`, `cos` and `tan` of huge arguments only bounded.
fn unary_agrees(
    op: UnaryOp,
    x: f32,
    expected: f32,
    actual: f32,
    flushed: Option<f32>,
    tolerance: Tolerance,
) -> bool {
    if matches!(op, UnaryOp::Sin | UnaryOp::Cos) && x.is_finite() && x.abs() > 300.0 {
        return actual.abs() <= 1.0;
    }
    // `tan` is `sin / cos` with both bounded absolutely, so its error grows
    // as its derivative, 1 + tan^2; of huge arguments it is only a number.
    if op == UnaryOp::Tan && x.is_finite() {
        if x.abs() > 300.0 {
            return !actual.is_nan();
        }
        let e = expected as f64;
        return ((actual as f64) - e).abs() <= (1.0 + e * e) / 256.0;
    }
    agrees(expected, actual, flushed, tolerance)
}

/// Every unary op and every binary op (with `x` reversed as its second
/// operand) in Fused mode, where they become fused kernels, against the
/// reference in Strict mode.
async fn fused_disagreements(gpu: WgpuBackend) -> Vec<String> {
    let strict = chains(Box::new(ReferenceBackend::new()), EagerMode::Strict).await;
    let fused = chains(Box::new(gpu), EagerMode::Fused).await;
    let (strict, fused) = match (strict, fused) {
        (Ok(s), Ok(f)) => (s, f),
        (s, f) => {
            return vec![format!(
                "fused chains: reference {:?}, wgpu {:?}",
                s.err(),
                f.err()
            )];
        }
    };
    let mut failures = Vec::new();
    let mut reversed = EDGE_VALUES;
    reversed.reverse();
    for ((name, tolerance, r), (_, _, w)) in strict.iter().zip(&fused) {
        for i in 0..r.len() {
            let (x, y) = (EDGE_VALUES[i], reversed[i]);
            if is_denormal(x) || is_denormal(y) {
                continue;
            }
            let ok = match (BinaryOp::from_name(name), UnaryOp::from_name(name)) {
                (Some(op), _) => binary_agrees(op, x, y, r[i], w[i], None),
                (None, Some(op)) => unary_agrees(op, x, r[i], w[i], None, *tolerance),
                (None, None) => agrees(r[i], w[i], None, *tolerance),
            };
            if !ok {
                failures.push(disagreement(&format!("fused {name}"), &[x, y], r[i], w[i]));
            }
        }
    }
    failures
}

type Chain = (String, Tolerance, Vec<f32>);

/// The op results `fused_disagreements` compares, in one runtime: each unary
/// op reads `-(-x)` and each result is multiplied by 1 (exact, signed zeros
/// kept), so that every op sits inside a chain that Fused mode compiles into
/// one kernel.
async fn chains(backend: Box<dyn Backend>, mode: EagerMode) -> Result<Vec<Chain>, String> {
    let mut rt = Runtime::new(backend);
    rt.set_mode(mode).map_err(|e| e.to_string())?;
    let n = EDGE_VALUES.len();
    let mut reversed = EDGE_VALUES;
    reversed.reverse();
    let x = rt
        .from_data(
            HostData::F32(EDGE_VALUES.to_vec()),
            Shape::new([n]),
            Device::Tpu(0),
        )
        .await
        .map_err(|e| e.to_string())?;
    let y = rt
        .from_data(
            HostData::F32(reversed.to_vec()),
            Shape::new([n]),
            Device::Tpu(0),
        )
        .await
        .map_err(|e| e.to_string())?;
    let mut results = Vec::new();
    for op in UnaryOp::ALL {
        let neg = rt
            .unary(UnaryOp::Neg, &x)
            .await
            .map_err(|e| e.to_string())?;
        let back = rt
            .unary(UnaryOp::Neg, &neg)
            .await
            .map_err(|e| e.to_string())?;
        let t = rt.unary(op, &back).await.map_err(|e| e.to_string())?;
        let t = rt
            .binary_scalar(BinaryOp::Mul, &t, 1.0, ScalarKind::Float, false)
            .await
            .map_err(|e| e.to_string())?;
        results.push((op.name().to_string(), unary_tolerance(op), t));
    }
    for op in BinaryOp::ALL {
        let t = rt.binary(op, &x, &y).await.map_err(|e| e.to_string())?;
        let t = rt
            .binary_scalar(BinaryOp::Mul, &t, 1.0, ScalarKind::Float, false)
            .await
            .map_err(|e| e.to_string())?;
        results.push((op.name().to_string(), binary_tolerance(op), t));
    }
    let mut read = Vec::new();
    for (name, tolerance, t) in results {
        let values = rt
            .read(&t)
            .await
            .map_err(|e| e.to_string())?
            .as_f32()
            .ok_or("a float32 result")?;
        read.push((name, tolerance, values));
    }
    Ok(read)
}
