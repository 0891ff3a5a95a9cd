//! The reference reductions: one axis reduced with its size kept at 1 (sum,
//! prod, max, min, argmax, argmin), running sums, and the float lane and
//! pairwise summation that the unfused ops and the fused row kernels share so
//! that they agree exactly.

use super::threads;
use crate::data::HostData;
use tpu_ir::{Real, ReduceOp, Shape};

/// The `(outer, n, inner)` factorisation of a shape around `axis`.
fn around(shape: &Shape, axis: usize) -> (usize, usize, usize) {
    let d = shape.dims();
    (
        d[..axis].iter().product(),
        d[axis],
        d[axis + 1..].iter().product(),
    )
}

/// One axis reduced, keeping it with size 1. `None` for unsupported dtypes.
pub(super) fn reduce(
    data: &HostData,
    shape: &Shape,
    op: ReduceOp,
    axis: usize,
) -> Option<HostData> {
    let (outer, n, inner) = around(shape, axis);
    let lanes = (0..outer).flat_map(move |o| (0..inner).map(move |i| (o, i)));
    let lane = move |o: usize, i: usize| (0..n).map(move |j| (o * n + j) * inner + i);
    Some(match (op, data) {
        (ReduceOp::ArgMax | ReduceOp::ArgMin, HostData::F32(v)) => {
            HostData::I64(arg_lanes(v, (outer, n, inner), op == ReduceOp::ArgMax))
        }
        (ReduceOp::ArgMax | ReduceOp::ArgMin, d) => HostData::I64(arg_lanes(
            &d.to_f64(),
            (outer, n, inner),
            op == ReduceOp::ArgMax,
        )),
        (_, d @ (HostData::I64(_) | HostData::I32(_) | HostData::U8(_))) => HostData::I64({
            let v = d.as_i64().unwrap_or_default();
            lanes
                .map(|(o, i)| {
                    let mut it = lane(o, i).map(|p| v[p]);
                    match op {
                        ReduceOp::Sum => it.fold(0i64, |s, x| s.wrapping_add(x)),
                        ReduceOp::Prod => it.fold(1i64, |s, x| s.wrapping_mul(x)),
                        ReduceOp::Max => it.max().unwrap_or(0),
                        _ => it.next().map(|f| it.fold(f, i64::min)).unwrap_or(0),
                    }
                })
                .collect()
        }),
        (ReduceOp::Max | ReduceOp::Min, HostData::Bool(v)) => HostData::Bool(
            lanes
                .map(|(o, i)| {
                    let mut it = lane(o, i).map(|p| v[p]);
                    if op == ReduceOp::Max {
                        it.any(|x| x)
                    } else {
                        it.all(|x| x)
                    }
                })
                .collect(),
        ),
        (_, HostData::F64(v)) => HostData::F64(
            lanes
                .map(|(o, i)| {
                    let xs: Vec<f64> = lane(o, i).map(|p| v[p]).collect();
                    reduce_lane(op, &xs)
                })
                .collect(),
        ),
        (_, d) => {
            // Lanes are shared among threads (`threads.rs`); a lane along
            // the last axis is read in place.
            let v = d.f32_values()?;
            if inner == 1 || n == 0 {
                // Each lane is contiguous (or empty), read in place.
                let values = threads::map(outer * inner, n.max(1), |l| {
                    reduce_lane(op, &v[l * n..l * n + n])
                });
                return Some(d.with_f32_values(values.into_iter()));
            }
            // Lanes across the inner positions lie side by side: up to
            // `ACROSS` of them are gathered as `[n][width]` and reduced
            // together (`reduce_across`), each with its own lane's operations.
            let mut values = vec![0f32; outer * inner];
            threads::for_chunks(&mut values, inner, n, |first, part| {
                let mut tile = Vec::with_capacity(n * ACROSS);
                for (o, out) in part.chunks_mut(inner).enumerate() {
                    let o = first + o;
                    for (c, out) in out.chunks_mut(ACROSS).enumerate() {
                        let (i0, width) = (c * ACROSS, out.len());
                        tile.clear();
                        for j in 0..n {
                            let at = (o * n + j) * inner + i0;
                            tile.extend_from_slice(&v[at..at + width]);
                        }
                        reduce_across(op, &tile, width, out);
                    }
                }
            });
            d.with_f32_values(values.into_iter())
        }
    })
}

/// The position of each lane's first largest (`max`) or smallest value, a NaN
/// winning over numbers (the first NaN); lanes shared among threads.
fn arg_lanes<T: Real + Sync>(
    v: &[T],
    (outer, n, inner): (usize, usize, usize),
    max: bool,
) -> Vec<i64> {
    let mut out = vec![0i64; outer * inner];
    if n == 0 {
        return out;
    }
    threads::for_chunks(&mut out, inner.max(1), n, |first, part| {
        for (o, lanes) in part.chunks_mut(inner.max(1)).enumerate() {
            let lane = &v[(first + o) * n * inner..][..n * inner];
            for (i, slot) in lanes.iter_mut().enumerate() {
                let (mut best, mut b) = (0, lane[i]);
                for j in 1..n {
                    let x = lane[j * inner + i];
                    if !b.is_nan() && (x.is_nan() || if max { x > b } else { x < b }) {
                        (best, b) = (j, x);
                    }
                }
                *slot = best as i64;
            }
        }
    });
    out
}

/// Running sums along `axis`, accumulated in double for floats as PyTorch's
/// CPU kernel does.
pub(super) fn cumsum(
    data: &HostData,
    shape: &Shape,
    axis: usize,
    reverse: bool,
) -> Option<HostData> {
    let (outer, n, inner) = around(shape, axis);
    let order = |o: usize, i: usize| {
        let idx: Vec<usize> = (0..n).map(|j| (o * n + j) * inner + i).collect();
        if reverse {
            idx.into_iter().rev().collect()
        } else {
            idx
        }
    };
    Some(match data {
        HostData::F64(v) => {
            let mut out = v.clone();
            for o in 0..outer {
                for i in 0..inner {
                    let mut acc = 0f64;
                    for p in order(o, i) {
                        acc += v[p];
                        out[p] = acc;
                    }
                }
            }
            HostData::F64(out)
        }
        HostData::I64(_) | HostData::I32(_) | HostData::U8(_) => {
            let v = data.as_i64().unwrap_or_default();
            let mut out = v.clone();
            for o in 0..outer {
                for i in 0..inner {
                    let mut acc = 0i64;
                    for p in order(o, i) {
                        acc = acc.wrapping_add(v[p]);
                        out[p] = acc;
                    }
                }
            }
            HostData::I64(out)
        }
        d => {
            let v = d.as_f32()?;
            let mut out = v.clone();
            for o in 0..outer {
                for i in 0..inner {
                    let mut acc = 0f64;
                    for p in order(o, i) {
                        acc += v[p] as f64;
                        out[p] = acc as f32;
                    }
                }
            }
            d.with_f32_values(out.into_iter())
        }
    })
}

/// One lane of a float reduction (sum, prod, max or min; a NaN wins max and
/// min), shared by the unfused op and fused row kernels so they agree exactly.
pub(super) fn reduce_lane<T: Real + Default + std::iter::Product>(op: ReduceOp, xs: &[T]) -> T {
    let pick = |better: fn(T, T) -> T| {
        xs.iter()
            .copied()
            .reduce(|a, b| {
                if a.is_nan() || b.is_nan() {
                    T::NAN
                } else {
                    better(a, b)
                }
            })
            .unwrap_or(T::NAN)
    };
    match op {
        ReduceOp::Sum => pairwise_sum(xs),
        ReduceOp::Prod => xs.iter().copied().product(),
        // The first of equal values wins (`max(0.0, -0.0)` is `0.0`), as in
        // PyTorch's reductions.
        ReduceOp::Max => pick(|a, b| if b > a { b } else { a }),
        ReduceOp::Min => pick(|a, b| if b < a { b } else { a }),
        ReduceOp::ArgMax | ReduceOp::ArgMin => unreachable!("index reductions are not float lanes"),
    }
}

/// How many lanes side by side an unfused reduction over a leading axis
/// reduces at once.
const ACROSS: usize = 64;

/// The length up to which `pairwise_sum` adds in order.
const PAIRWISE_BLOCK: usize = 128;

/// Pairwise summation, as PyTorch's CPU reductions do, so that long sums keep the
/// accuracy PyTorch users see. Each block starts from `+0.0` (`T::default()`),
/// as PyTorch's do: a sum of `-0.0`s is `0.0` (Rust's float `Sum` starts from
/// `-0.0` and would keep it).
pub(super) fn pairwise_sum<T: Copy + Default + std::ops::Add<Output = T>>(values: &[T]) -> T {
    if values.len() <= PAIRWISE_BLOCK {
        values.iter().fold(T::default(), |s, &x| s + x)
    } else {
        let mid = values.len() / 2;
        pairwise_sum(&values[..mid]) + pairwise_sum(&values[mid..])
    }
}

/// `reduce_lane` of each of the `out.len()` rows side by side in `x`
/// (`[n][width]`), with its operations in its order: a sum is pairwise over
/// the same halves, a product and max or min fold from the first value.
pub(super) fn reduce_across(op: ReduceOp, x: &[f32], width: usize, out: &mut [f32]) {
    match op {
        ReduceOp::Sum => pairwise_across(x, width, out),
        ReduceOp::Prod => {
            out.fill(1.0);
            for lane in x.chunks(width) {
                for (acc, &v) in out.iter_mut().zip(lane) {
                    *acc *= v;
                }
            }
        }
        ReduceOp::Max | ReduceOp::Min => {
            out.copy_from_slice(&x[..width]);
            for lane in x.chunks(width).skip(1) {
                for (acc, &v) in out.iter_mut().zip(lane) {
                    let better = if op == ReduceOp::Max {
                        v > *acc
                    } else {
                        v < *acc
                    };
                    *acc = if acc.is_nan() || v.is_nan() {
                        f32::NAN
                    } else if better {
                        v
                    } else {
                        *acc
                    };
                }
            }
        }
        ReduceOp::ArgMax | ReduceOp::ArgMin => unreachable!("index reductions are not float lanes"),
    }
}

/// `pairwise_sum` of each row side by side in `x` (`[n][width]`): the same
/// blocks of 128, halves and additions as one row's.
fn pairwise_across(x: &[f32], width: usize, out: &mut [f32]) {
    let n = x.len() / width;
    if n <= PAIRWISE_BLOCK {
        out.fill(0.0);
        for lane in x.chunks(width) {
            for (acc, &v) in out.iter_mut().zip(lane) {
                *acc += v;
            }
        }
    } else {
        let mid = n / 2;
        let mut right = vec![0f32; width];
        pairwise_across(&x[..mid * width], width, out);
        pairwise_across(&x[mid * width..], width, &mut right);
        for (acc, &v) in out.iter_mut().zip(&right) {
            *acc += v;
        }
    }
}
