//! The reference kernels of the ops that make tensors from their constants
//! (`arange`, `linspace`, `eye`) and of `nonzero`, each computing what
//! PyTorch's CPU kernel computes, in the same arithmetic and order.

use crate::data::HostData;
use tpu_ir::{DType, IntOrFloat, Shape};

/// `start + step * i` for `i` in `0..n`: exact (wrapping) int64 arithmetic
/// when both are integers and the output is an integer dtype; otherwise the
/// value in double (PyTorch's accumulate type for float and float64 on the
/// CPU), rounded once to float64, or to float32 and then to `dtype`.
pub(super) fn arange(start: IntOrFloat, step: IntOrFloat, n: usize, dtype: DType) -> HostData {
    if let (IntOrFloat::Int(s), IntOrFloat::Int(st), true) = (start, step, dtype.is_integer()) {
        let values = (0..n as i64)
            .map(|i| s.wrapping_add(i.wrapping_mul(st)))
            .collect();
        return HostData::from_i64(dtype, values);
    }
    let (s, st) = (start.as_f64(), step.as_f64());
    let value = |i: usize| s + st * i as f64;
    match dtype {
        DType::Float64 => HostData::F64((0..n).map(value).collect()),
        _ => HostData::F32((0..n).map(|i| value(i) as f32).collect()).cast(dtype),
    }
}

/// PyTorch's CPU `linspace`: with `step = (end - start) / (n - 1)`, the first
/// half is `start + step * i` and the second `end - step * (n - 1 - i)`, so
/// both ends are exact. Float64 computes in double, every other dtype in
/// float32 and is then converted.
pub(super) fn linspace(start: f64, end: f64, n: usize, dtype: DType) -> HostData {
    let half = n / 2;
    let denominator = n.saturating_sub(1).max(1);
    if dtype == DType::Float64 {
        let step = if n > 1 {
            (end - start) / denominator as f64
        } else {
            0.0
        };
        return HostData::F64(
            (0..n)
                .map(|i| {
                    if i < half {
                        start + step * i as f64
                    } else {
                        end - step * (n - 1 - i) as f64
                    }
                })
                .collect(),
        );
    }
    let (start, end) = (start as f32, end as f32);
    let step = if n > 1 {
        (end - start) / denominator as f32
    } else {
        0.0
    };
    let values: Vec<f32> = (0..n)
        .map(|i| {
            if i < half {
                start + step * i as f32
            } else {
                end - step * (n - 1 - i) as f32
            }
        })
        .collect();
    HostData::F32(values).cast(dtype)
}

/// Ones where the row equals the column of a `[n, m]` output.
pub(super) fn eye(out: &Shape, dtype: DType) -> HostData {
    let m = out.dims()[1];
    let values = (0..out.numel())
        .map(|i| if i / m == i % m { 1.0 } else { 0.0 })
        .collect();
    HostData::F32(values).cast(dtype)
}

/// The coordinates of the nonzero elements of `data` (of shape `shape`), one
/// row of `shape.rank()` int64 values each, in row-major order. NaN is nonzero.
pub(super) fn nonzero(data: &HostData, shape: &Shape) -> Vec<i64> {
    let dims = shape.dims();
    let mut coords = Vec::new();
    for (i, v) in data.to_f64().iter().enumerate() {
        if *v != 0.0 {
            let start = coords.len();
            coords.resize(start + dims.len(), 0);
            let mut rest = i;
            for d in (0..dims.len()).rev() {
                coords[start + d] = (rest % dims[d]) as i64;
                rest /= dims[d];
            }
        }
    }
    coords
}

/// How many elements of `data` are nonzero: the row count of `nonzero`.
pub(crate) fn count_nonzero(data: &HostData) -> usize {
    data.to_f64().iter().filter(|v| **v != 0.0).count()
}
