//! The ops that make a tensor from constants, as the reference's
//! (`reference/creation.rs`): `arange` with integer bounds (exact int64, then
//! the output's dtype), `linspace` in float32, `eye`, and fills of integer
//! tensors. `params`: `arange` `[count, start_lo, start_hi, step_lo,
//! step_hi]`; `linspace` `[count, bits(start), bits(end), bits(step), half,
//! last]`; `eye` `[count, columns]`; `fill` `[count, lo, hi]`.

use super::int64::{self, storage, store};
use super::{COUNT, Launch, elementwise_grid, per_op_index};
use tpu_ir::{DType, IntOrFloat, Shape};
use tpu_runtime::{BackendError, HostData};

const START: usize = COUNT + 1;
const STEP: usize = START + 2;

/// `out[i] = start + step * i` in int64, stored as `out`.
pub(super) fn arange(out: DType) -> String {
    format!(
        "{}@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<{}>;
{}
    let start = vec2<u32>(params[{START}], params[{}]);
    let step = vec2<u32>(params[{STEP}], params[{}]);
    out[i] = {};
}}
",
        int64::LIB,
        storage(out),
        per_op_index(),
        START + 1,
        STEP + 1,
        store(out, "i64_add(start, i64_mul(step, vec2<u32>(i, 0u)))")
    )
}

/// The largest magnitude at which double arithmetic is exact on integers:
/// within it the reference's float `arange` equals the int64 one rounded.
const EXACT_IN_DOUBLE: f64 = 9_007_199_254_740_992.0;

/// `arange`'s start and step as int64, when its values are integers: integer
/// bounds, or float bounds with integer values whose every element is exact
/// in double (the reference's float path computes in double).
pub(super) fn arange_launch(
    start: IntOrFloat,
    step: IntOrFloat,
    out: &Shape,
    dtype: DType,
) -> Result<Launch, BackendError> {
    let n = out.numel();
    let exact = |v: f64| v.fract() == 0.0 && v.abs() < EXACT_IN_DOUBLE;
    let ints = match (start, step) {
        (IntOrFloat::Int(s), IntOrFloat::Int(t)) if dtype.is_integer() => Some((s, t)),
        _ => {
            let (s, t) = (start.as_f64(), step.as_f64());
            let last = s + t * n.saturating_sub(1) as f64;
            (exact(s) && exact(t) && exact(last)).then_some((s as i64, t as i64))
        }
    };
    let Some((s, t)) = ints else {
        return Err(BackendError::Unsupported {
            backend: "wgpu",
            what: "arange with fractional bounds yet (computed in double)".into(),
        });
    };
    let mut params = vec![n as u32];
    params.extend(int64::words(s));
    params.extend(int64::words(t));
    Ok(Launch {
        params,
        workgroups: elementwise_grid(n),
    })
}

/// PyTorch's float32 `linspace`: the first half steps up from `start`, the
/// second down from `end` (the step is computed on the host, as the
/// reference computes it).
pub(super) fn linspace() -> String {
    format!(
        "@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
{}
    let start = bitcast<f32>(params[1]);
    let end = bitcast<f32>(params[2]);
    let step = bitcast<f32>(params[3]);
    if (i < params[4]) {{
        out[i] = start + step * f32(i);
    }} else {{
        out[i] = end - step * f32(params[5] - i);
    }}
}}
",
        per_op_index()
    )
}

/// The largest count whose indices are exact in float32.
const EXACT_IN_FLOAT: usize = 1 << 24;

pub(super) fn linspace_launch(start: f64, end: f64, out: &Shape) -> Result<Launch, BackendError> {
    let n = out.numel();
    if n > EXACT_IN_FLOAT {
        return Err(BackendError::Unsupported {
            backend: "wgpu",
            what: format!("linspace of more than {EXACT_IN_FLOAT} values"),
        });
    }
    let (start, end) = (start as f32, end as f32);
    let step = if n > 1 {
        (end - start) / (n - 1) as f32
    } else {
        0.0
    };
    Ok(Launch {
        params: vec![
            n as u32,
            start.to_bits(),
            end.to_bits(),
            step.to_bits(),
            (n / 2) as u32,
            n.saturating_sub(1) as u32,
        ],
        workgroups: elementwise_grid(n),
    })
}

/// Ones where the row equals the column of a `[n, m]` output.
pub(super) fn eye(out: DType) -> String {
    format!(
        "{}@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<{}>;
{}
    let m = params[1];
    out[i] = {};
}}
",
        int64::LIB,
        storage(out),
        per_op_index(),
        store(out, "vec2<u32>(select(0u, 1u, i / m == i % m), 0u)")
    )
}

pub(super) fn eye_launch(out: &Shape) -> Launch {
    Launch {
        params: vec![out.numel() as u32, out.dims()[1].max(1) as u32],
        workgroups: elementwise_grid(out.numel()),
    }
}

/// `out[i] = value` for an integer tensor.
pub(super) fn fill(out: DType) -> String {
    format!(
        "@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<{}>;
{}
    out[i] = {};
}}
",
        storage(out),
        per_op_index(),
        match out {
            DType::Int64 => "vec2<u32>(params[1], params[2])",
            // The low byte: `fill_launch` converts as the reference does.
            DType::UInt8 => "params[1]",
            _ => "bitcast<i32>(params[1])",
        }
    )
}

/// The fill's value converted as the reference converts it.
pub(super) fn fill_launch(out: &Shape, dtype: DType, value: f64) -> Launch {
    let v = HostData::filled(dtype, 1, value)
        .as_i64()
        .and_then(|v| v.first().copied())
        .unwrap_or(0);
    let [lo, hi] = int64::words(v);
    Launch {
        params: vec![out.numel() as u32, lo, hi],
        workgroups: elementwise_grid(out.numel()),
    }
}
