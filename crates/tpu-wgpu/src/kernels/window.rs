//! The window ops behind convolutions and pooling, one thread per output
//! element.
//! - `pad`: the input inside a border of a constant, of any dtype the device
//!   holds. `params`: `[count, rank, value[2], out_dims[8], before[8],
//!   in_dims[8]]`, the value as its element's words (an int64's two).
//! - `unfold_backward`: each element along `axis` sums the window elements
//!   that read it; the gradient is dense in the unfolded shape (`axis` counts
//!   windows, one more dimension of `size` last). Offsets are visited from the
//!   last down, the order the reference's scatter adds them in.
//!   `params`: `[count, rank, axis, size, step, windows, out_dims[8]]`.

use super::{COUNT, Launch, MAX_RANK, check_rank, elementwise_grid, int64, per_op_index};
use tpu_ir::{DType, Shape};
use tpu_runtime::{BackendError, HostData};

const RANK: usize = COUNT + 1;
const PAD_VALUE: usize = RANK + 1;
const PAD_OUT_DIMS: usize = PAD_VALUE + 2;
const PAD_BEFORE: usize = PAD_OUT_DIMS + MAX_RANK;
const PAD_IN_DIMS: usize = PAD_BEFORE + MAX_RANK;
const PAD_WORDS: usize = PAD_IN_DIMS + MAX_RANK;

const AXIS: usize = RANK + 1;
const SIZE: usize = AXIS + 1;
const STEP: usize = SIZE + 1;
const WINDOWS: usize = STEP + 1;
const UNFOLD_OUT_DIMS: usize = WINDOWS + 1;
const UNFOLD_WORDS: usize = UNFOLD_OUT_DIMS + MAX_RANK;

/// `pad` for elements of `dtype` (as the kernels hold it: float32 for the
/// half dtypes).
pub(super) fn pad(dtype: DType) -> String {
    let element = int64::storage(dtype);
    let value = match dtype {
        DType::Int64 => format!("vec2<u32>(params[{PAD_VALUE}], params[{}])", PAD_VALUE + 1),
        DType::Int32 => format!("bitcast<i32>(params[{PAD_VALUE}])"),
        DType::Bool | DType::UInt8 => format!("params[{PAD_VALUE}]"),
        _ => format!("bitcast<f32>(params[{PAD_VALUE}])"),
    };
    format!(
        "@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> a: array<{element}>;
@group(0) @binding(2) var<storage, read_write> out: array<{element}>;
{}
    let rank = params[{RANK}];
    var rest = i;
    var src = 0u;
    var stride = 1u;
    var inside = true;
    for (var d = 0u; d < rank; d = d + 1u) {{
        let axis = rank - 1u - d;
        let size = params[{PAD_OUT_DIMS}u + axis];
        let at = rest % size;
        rest = rest / size;
        let before = params[{PAD_BEFORE}u + axis];
        let n = params[{PAD_IN_DIMS}u + axis];
        if (at < before || at - before >= n) {{
            inside = false;
        }} else {{
            src = src + (at - before) * stride;
        }}
        stride = stride * n;
    }}
    if (inside) {{
        out[i] = a[src];
    }} else {{
        out[i] = {value};
    }}
}}
",
        per_op_index()
    )
}

/// The launch of `pad`: the value converted to `dtype` as the reference
/// converts it (a float32 for the half dtypes, whose kernels round it).
pub(super) fn pad_launch(
    input: &Shape,
    before: &[usize],
    value: f64,
    out: &Shape,
    dtype: DType,
) -> Result<Launch, BackendError> {
    check_rank(out, "padding")?;
    let mut params = vec![0u32; PAD_WORDS];
    params[COUNT] = out.numel() as u32;
    params[RANK] = out.rank() as u32;
    let words = match HostData::filled(dtype, 1, value).as_i64() {
        Some(v) => int64::words(v[0]),
        None => [(value as f32).to_bits(), 0],
    };
    params[PAD_VALUE..PAD_VALUE + 2].copy_from_slice(&words);
    for axis in 0..out.rank() {
        params[PAD_OUT_DIMS + axis] = out.dims()[axis] as u32;
        params[PAD_BEFORE + axis] = before[axis] as u32;
        params[PAD_IN_DIMS + axis] = input.dims()[axis] as u32;
    }
    Ok(Launch {
        params,
        workgroups: elementwise_grid(out.numel()),
    })
}

pub(super) fn unfold_backward() -> String {
    format!(
        "@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
{}
    let rank = params[{RANK}];
    let axis = params[{AXIS}];
    let size = params[{SIZE}];
    let step = params[{STEP}];
    let windows = params[{WINDOWS}];
    // The gradient's strides: its last dimension is the window.
    var rest = i;
    var base = 0u;
    var stride = size;
    var at = 0u;
    var axis_stride = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {{
        let dim = rank - 1u - d;
        let n = params[{UNFOLD_OUT_DIMS}u + dim];
        let c = rest % n;
        rest = rest / n;
        if (dim == axis) {{
            at = c;
            axis_stride = stride;
            stride = stride * windows;
        }} else {{
            base = base + c * stride;
            stride = stride * n;
        }}
    }}
    var sum = 0.0;
    for (var j = 0u; j < size; j = j + 1u) {{
        let k = size - 1u - j;
        if (at >= k && (at - k) % step == 0u && (at - k) / step < windows) {{
            sum = sum + a[base + ((at - k) / step) * axis_stride + k];
        }}
    }}
    out[i] = sum;
}}
",
        per_op_index()
    )
}

pub(super) fn unfold_backward_launch(
    grad: &Shape,
    axis: usize,
    size: usize,
    step: usize,
    out: &Shape,
) -> Result<Launch, BackendError> {
    check_rank(grad, "unfold gradients")?;
    let mut params = vec![0u32; UNFOLD_WORDS];
    params[COUNT] = out.numel() as u32;
    params[RANK] = out.rank() as u32;
    params[AXIS] = axis as u32;
    params[SIZE] = size as u32;
    params[STEP] = step as u32;
    params[WINDOWS] = grad.dims()[axis] as u32;
    for d in 0..out.rank() {
        params[UNFOLD_OUT_DIMS + d] = out.dims()[d] as u32;
    }
    Ok(Launch {
        params,
        workgroups: elementwise_grid(out.numel()),
    })
}
