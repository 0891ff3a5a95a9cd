//! The lowerings that are compositions of several StableHLO ops: erf,
//! PyTorch's float floor_divide, argmax/argmin as a two-operand reduce,
//! running sums as a `reduce_window`, linspace, strided windows (a
//! transpose or a gather of positions) and scatters.

use super::{Lowered, V, Writer, i64s, lowest, sign_differs, ty};
use std::fmt::Write;
use tpu_ir::{CompareOp, DType, ReduceOp, Shape};

/// PyTorch's float `floor_divide` (`tpu_ir::floor_divide`), op for op.
pub(super) fn floor_divide(w: &mut Writer, a: &V, b: &V) -> V {
    let quotient = w.binary("divide", a, b);
    let rem = w.binary("remainder", a, b);
    let diff = w.binary("subtract", a, &rem);
    let div = w.binary("divide", &diff, b);
    let fix = sign_differs(w, &rem, b);
    let one = w.splat(1.0, &div);
    let lowered = w.binary("subtract", &div, &one);
    let div = w.select(&fix, &lowered, &div);
    let floor = w.unary("floor", &div);
    let frac = w.binary("subtract", &div, &floor);
    let half = w.splat(0.5, &div);
    let round_up = w.compare(CompareOp::Gt, &frac, &half);
    let up = w.binary("add", &floor, &one);
    let rounded = w.select(&round_up, &up, &floor);
    let zero = w.splat(0.0, &div);
    let is_zero = w.compare(CompareOp::Eq, &div, &zero);
    let signed_zero = w.binary("multiply", &zero, &quotient);
    let result = w.select(&is_zero, &signed_zero, &rounded);
    let b_zero = w.compare(CompareOp::Eq, b, &zero);
    w.select(&b_zero, &quotient, &result)
}

/// `erf(x) = 1 - erfc(x)`, with erfc from its Chebyshev fit (fractional
/// error below 1.2e-7, Numerical Recipes' `erfcc`), since StableHLO has no
/// erf of its own.
pub(super) fn erf(w: &mut Writer, x: &V) -> V {
    const C: [f64; 10] = [
        -1.265_512_23,
        1.000_023_68,
        0.374_091_96,
        0.096_784_18,
        -0.186_288_06,
        0.278_868_07,
        -1.135_203_98,
        1.488_515_87,
        -0.822_152_23,
        0.170_872_77,
    ];
    let z = w.unary("abs", x);
    let one = w.splat(1.0, x);
    let half = w.splat(0.5, x);
    let hz = w.binary("multiply", &half, &z);
    let denom = w.binary("add", &one, &hz);
    let t = w.binary("divide", &one, &denom);
    // Horner from the last coefficient.
    let mut poly = w.splat(C[9], x);
    for &c in C[..9].iter().rev() {
        let m = w.binary("multiply", &t, &poly);
        let k = w.splat(c, x);
        poly = w.binary("add", &m, &k);
    }
    let z2 = w.binary("multiply", &z, &z);
    let neg = w.unary("negate", &z2);
    let arg = w.binary("add", &neg, &poly);
    let e = w.unary("exponential", &arg);
    let erfc = w.binary("multiply", &t, &e);
    let erf_abs = w.binary("subtract", &one, &erfc);
    let zero = w.splat(0.0, x);
    let negative = w.compare(CompareOp::Lt, x, &zero);
    let flipped = w.unary("negate", &erf_abs);
    w.select(&negative, &flipped, &erf_abs)
}

/// `argmax`/`argmin` along `axis`: a `reduce` of (value, index) pairs that
/// keeps the first index of the extremum, NaN counting as the extremum (as
/// PyTorch's CPU kernels do).
pub(super) fn arg_extremum(w: &mut Writer, op: ReduceOp, x: &V, axis: usize) -> V {
    let float = x.dtype.is_floating();
    let index = w.iota(axis, &x.dims.clone(), DType::Int64);
    let init_v = w.constant(
        if op == ReduceOp::ArgMax {
            lowest(x.dtype)
        } else {
            -lowest(x.dtype)
        },
        &[],
        x.dtype,
    );
    let init_i = w.constant(i64::MAX as f64, &[], DType::Int64);
    let dims: Vec<usize> = x
        .dims
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != axis)
        .map(|(_, &d)| d)
        .collect();
    let sv = ty(&[], x.dtype);
    let si = ty(&[], DType::Int64);
    let sb = ty(&[], DType::Bool);
    let kind = if float {
        "FLOAT"
    } else if x.dtype == DType::Bool {
        "UNSIGNED"
    } else {
        "SIGNED"
    };
    let cmp = |name: &str, dir: &str, a: &str, b: &str, t: &str, k: &str| {
        format!(
            "      {name} = \"stablehlo.compare\"({a}, {b}) {{comparison_direction = #stablehlo<comparison_direction {dir}>, compare_type = #stablehlo<comparison_type {k}>}} : ({t}, {t}) -> {sb}\n"
        )
    };
    let better = if op == ReduceOp::ArgMax { "GT" } else { "LT" };
    let mut body = String::new();
    body.push_str(&cmp("%better", better, "%av", "%bv", &sv, kind));
    body.push_str(&cmp("%same", "EQ", "%av", "%bv", &sv, kind));
    body.push_str(&cmp("%first", "LT", "%ai", "%bi", &si, "SIGNED"));
    let bin = |name: &str, op: &str, a: &str, b: &str| {
        format!("      {name} = \"stablehlo.{op}\"({a}, {b}) : ({sb}, {sb}) -> {sb}\n")
    };
    body.push_str(&bin("%tie", "and", "%same", "%first"));
    body.push_str(&bin("%ordered", "or", "%better", "%tie"));
    let pick = if float {
        // a wins if it is NaN (unless b is a NaN before it), and loses to a
        // NaN b.
        body.push_str(&cmp("%anan", "NE", "%av", "%av", &sv, kind));
        body.push_str(&cmp("%bnan", "NE", "%bv", "%bv", &sv, kind));
        body.push_str(
            "      %bnum = \"stablehlo.not\"(%bnan) : (tensor<i1>) -> tensor<i1>\n      %anum = \"stablehlo.not\"(%anan) : (tensor<i1>) -> tensor<i1>\n",
        );
        body.push_str(&bin("%nanfirst", "or", "%bnum", "%first"));
        body.push_str(&bin("%nanwins", "and", "%anan", "%nanfirst"));
        body.push_str(&bin("%numbers", "and", "%anum", "%bnum"));
        body.push_str(&bin("%numwins", "and", "%numbers", "%ordered"));
        body.push_str(&bin("%pick", "or", "%nanwins", "%numwins"));
        "%pick"
    } else {
        "%ordered"
    };
    let _ = write!(
        body,
        "      %v = \"stablehlo.select\"({pick}, %av, %bv) : ({sb}, {sv}, {sv}) -> {sv}\n      %i = \"stablehlo.select\"({pick}, %ai, %bi) : ({sb}, {si}, {si}) -> {si}\n      \"stablehlo.return\"(%v, %i) : ({sv}, {si}) -> ()\n"
    );
    let result = format!("%{}", w.next);
    w.next += 1;
    let _ = writeln!(
        w.body,
        "    {result}:2 = \"stablehlo.reduce\"({}, {}, {}, {}) ({{\n    ^bb0(%av: {sv}, %ai: {si}, %bv: {sv}, %bi: {si}):\n{body}    }}) {{dimensions = array<i64: {axis}>}} : ({}, {}, {sv}, {si}) -> ({}, {})",
        x.name,
        index.name,
        init_v.name,
        init_i.name,
        ty(&x.dims, x.dtype),
        ty(&x.dims, DType::Int64),
        ty(&dims, x.dtype),
        ty(&dims, DType::Int64)
    );
    V {
        name: format!("{result}#1"),
        dims,
        dtype: DType::Int64,
    }
}

/// Running sums along `axis`: a `reduce_window` whose window is the whole
/// axis, padded before (or after, from the end) so each position sums what
/// precedes it.
pub(super) fn cumsum(w: &mut Writer, x: &V, axis: usize, reverse: bool) -> Lowered {
    let n = x.dims[axis];
    let window: Vec<usize> = (0..x.dims.len())
        .map(|d| if d == axis { n } else { 1 })
        .collect();
    let strides = vec![1; x.dims.len()];
    let padding: Vec<String> = (0..x.dims.len())
        .map(|d| match (d == axis, reverse) {
            (false, _) => "[0, 0]".to_string(),
            (true, false) => format!("[{}, 0]", n.saturating_sub(1)),
            (true, true) => format!("[0, {}]", n.saturating_sub(1)),
        })
        .collect();
    let init = w.constant(0.0, &[], x.dtype);
    let combine = if x.dtype == DType::Bool { "or" } else { "add" };
    let scalar = ty(&[], x.dtype);
    let result = format!("%{}", w.next);
    w.next += 1;
    let _ = writeln!(
        w.body,
        "    {result} = \"stablehlo.reduce_window\"({}, {}) ({{\n    ^bb0(%a: {scalar}, %b: {scalar}):\n      %r = \"stablehlo.{combine}\"(%a, %b) : ({scalar}, {scalar}) -> {scalar}\n      \"stablehlo.return\"(%r) : ({scalar}) -> ()\n    }}) {{window_dimensions = {}, window_strides = {}, padding = dense<[{}]> : tensor<{}x2xi64>}} : ({}, {scalar}) -> {}",
        x.name,
        init.name,
        i64s(&window),
        i64s(&strides),
        padding.join(", "),
        x.dims.len(),
        ty(&x.dims, x.dtype),
        ty(&x.dims, x.dtype)
    );
    Ok(V {
        name: result,
        dims: x.dims.clone(),
        dtype: x.dtype,
    })
}

/// `torch.linspace` as the reference computes it: the first half steps up
/// from `start`, the second down from `end`, in the output's float type.
pub(super) fn linspace(
    w: &mut Writer,
    start: f64,
    end: f64,
    out: &[usize],
    dtype: DType,
) -> Lowered {
    let n = out.iter().product::<usize>();
    let compute = if dtype == DType::Float64 {
        DType::Float64
    } else {
        DType::Float32
    };
    let denominator = n.saturating_sub(1).max(1) as f64;
    let step = if n > 1 {
        if compute == DType::Float64 {
            (end - start) / denominator
        } else {
            f64::from((end as f32 - start as f32) / denominator as f32)
        }
    } else {
        0.0
    };
    let i = w.iota(0, &[n], compute);
    let s = w.splat(start, &i);
    let e = w.splat(end, &i);
    let d = w.splat(step, &i);
    let last = w.splat((n.max(1) - 1) as f64, &i);
    let up = w.binary("multiply", &d, &i);
    let up = w.binary("add", &s, &up);
    let back = w.binary("subtract", &last, &i);
    let back = w.binary("multiply", &d, &back);
    let down = w.binary("subtract", &e, &back);
    let half = w.splat((n / 2) as f64, &i);
    let first = w.compare(CompareOp::Lt, &i, &half);
    let v = w.select(&first, &up, &down);
    let v = w.convert(&v, dtype);
    w.reshape(&v, out)
}

/// A strided window of a flat buffer: a `reshape` (and `transpose`) when it is
/// a permutation of the whole buffer, else a `gather` of the positions.
pub(super) fn strided(
    w: &mut Writer,
    input: &V,
    offset: usize,
    strides: &[usize],
    out: &[usize],
) -> Lowered {
    let n = input.dims.iter().product::<usize>();
    let flat = w.reshape(input, &[n])?;
    if let Some((base, perm)) = permutation(offset, strides, out, n) {
        let shaped = w.reshape(&flat, &base)?;
        if perm.iter().enumerate().all(|(i, &p)| i == p) {
            return w.reshape(&shaped, out);
        }
        let attr = format!("permutation = {}", i64s(&perm));
        return Ok(w.op("transpose", &[&shaped], &attr, out, input.dtype));
    }
    let mut index = w.constant(offset as f64, out, DType::Int64);
    for (d, &s) in strides.iter().enumerate() {
        if s == 0 || out[d] == 1 {
            continue;
        }
        let i = w.iota(d, out, DType::Int64);
        let k = w.splat(s as f64, &i);
        let term = w.binary("multiply", &i, &k);
        index = w.binary("add", &index, &term);
    }
    Ok(w.gather(&flat, &index))
}

/// `Some((base, perm))` when a strided view is the whole buffer of shape
/// `base` with its dimensions permuted: output dimension `i` is `base`'s
/// dimension `perm[i]`.
fn permutation(
    offset: usize,
    strides: &[usize],
    out: &[usize],
    n: usize,
) -> Option<(Vec<usize>, Vec<usize>)> {
    if offset != 0 || out.iter().product::<usize>() != n || out.contains(&1) {
        return None;
    }
    let mut order: Vec<usize> = (0..out.len()).collect();
    order.sort_by(|&a, &b| strides[b].cmp(&strides[a]));
    let base: Vec<usize> = order.iter().map(|&d| out[d]).collect();
    let expected = Shape::new(base.clone()).strides();
    if order.iter().zip(&expected).any(|(&d, &e)| strides[d] != e) {
        return None;
    }
    let mut perm = vec![0; out.len()];
    for (position, &d) in order.iter().enumerate() {
        perm[d] = position;
    }
    Some((base, perm))
}

/// `base` with `values` written (or added) at the flat positions `index`.
pub(super) fn scatter(w: &mut Writer, args: &[V], accumulate: bool, out: &[usize]) -> Lowered {
    let n = args[0].dims.iter().product::<usize>();
    let base = w.reshape(&args[0], &[n])?;
    let index = w.convert(&args[1], DType::Int64);
    let values = w.convert(&args[2], base.dtype);
    let values = w.reshape(&values, &index.dims.clone())?;
    let rank = index.dims.len();
    let scalar = ty(&[], base.dtype);
    let body = if accumulate {
        let combine = if base.dtype == DType::Bool {
            "or"
        } else {
            "add"
        };
        format!(
            "      %r = \"stablehlo.{combine}\"(%a, %b) : ({scalar}, {scalar}) -> {scalar}\n      \"stablehlo.return\"(%r) : ({scalar}) -> ()\n"
        )
    } else {
        format!("      \"stablehlo.return\"(%b) : ({scalar}) -> ()\n")
    };
    let result = format!("%{}", w.next);
    w.next += 1;
    let _ = writeln!(
        w.body,
        "    {result} = \"stablehlo.scatter\"({}, {}, {}) ({{\n    ^bb0(%a: {scalar}, %b: {scalar}):\n{body}    }}) {{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = {rank}>, indices_are_sorted = false, unique_indices = false}} : ({}, {}, {}) -> {}",
        base.name,
        index.name,
        values.name,
        ty(&base.dims, base.dtype),
        ty(&index.dims, DType::Int64),
        ty(&values.dims, values.dtype),
        ty(&base.dims, base.dtype)
    );
    let v = V {
        name: result,
        dims: base.dims.clone(),
        dtype: base.dtype,
    };
    w.reshape(&v, out)
}

/// `stablehlo.pad` of `x` by `low`/`high` with `interior` elements between
/// neighbours, filled with `value`.
fn pad_with(
    w: &mut Writer,
    x: &V,
    low: &[usize],
    high: &[usize],
    interior: &[usize],
    value: f64,
) -> V {
    let fill = w.constant(value, &[], x.dtype);
    let dims: Vec<usize> = x
        .dims
        .iter()
        .enumerate()
        .map(|(d, &n)| low[d] + high[d] + n + n.saturating_sub(1) * interior[d])
        .collect();
    let attr = format!(
        "edge_padding_low = {}, edge_padding_high = {}, interior_padding = {}",
        i64s(low),
        i64s(high),
        i64s(interior)
    );
    w.op("pad", &[x, &fill], &attr, &dims, x.dtype)
}

/// `F.pad` with a constant.
pub(super) fn pad(w: &mut Writer, x: &V, before: &[usize], after: &[usize], value: f64) -> V {
    let interior = vec![0; x.dims.len()];
    pad_with(w, x, before, after, &interior, value)
}

/// The gradient of `unfold(axis, size, step)`: for each window offset `k`,
/// the slice `g[.., k]` spread `step` apart along `axis` (interior padding)
/// from position `k`, all added up.
pub(super) fn unfold_backward(
    w: &mut Writer,
    g: &V,
    axis: usize,
    size: usize,
    step: usize,
    out: &[usize],
) -> Lowered {
    let rank = out.len();
    let count = g.dims[axis];
    let mut sum = w.constant(0.0, out, g.dtype);
    if count == 0 {
        return Ok(sum);
    }
    for k in 0..size {
        let mut start = vec![0; rank + 1];
        let mut limit = g.dims.clone();
        start[rank] = k;
        limit[rank] = k + 1;
        let attr = format!(
            "start_indices = {}, limit_indices = {}, strides = {}",
            i64s(&start),
            i64s(&limit),
            i64s(&vec![1; rank + 1])
        );
        let mut sliced = g.dims.clone();
        sliced[rank] = 1;
        let part = w.op("slice", &[g], &attr, &sliced, g.dtype);
        let part = w.reshape(&part, &g.dims[..rank])?;
        let mut low = vec![0; rank];
        let mut high = vec![0; rank];
        let mut interior = vec![0; rank];
        low[axis] = k;
        interior[axis] = step - 1;
        // The last window ends inside the input: k + (count - 1) * step < n.
        high[axis] = out[axis] - k - ((count - 1) * step + 1);
        let placed = pad_with(w, &part, &low, &high, &interior, 0.0);
        sum = w.binary("add", &sum, &placed);
    }
    Ok(sum)
}
