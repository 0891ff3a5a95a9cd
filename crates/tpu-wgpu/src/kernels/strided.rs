//! A dense copy of a strided window of a flat buffer, which materialises views
//! (transposes, slices, broadcasts) for kernels that read dense operands:
//! `out[i] = a[offset + sum(coord[d] * stride[d])]`.
//! `params`: `[count, rank, offset, dims[8], strides[8]]`.

use super::{COUNT, Launch, MAX_RANK, check_rank, elementwise_grid, per_op_index};
use tpu_ir::Shape;
use tpu_runtime::BackendError;

const RANK: usize = COUNT + 1;
const OFFSET: usize = RANK + 1;
const DIMS: usize = OFFSET + 1;
const STRIDES: usize = DIMS + MAX_RANK;
const WORDS: usize = STRIDES + MAX_RANK;

/// The copy of a tensor of WGSL `element`s (`f32`, or `u32` for bools).
pub(super) fn copy_of(element: &str) -> String {
    format!(
        "@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> a: array<{element}>;
@group(0) @binding(2) var<storage, read_write> out: array<{element}>;
{}
    let rank = params[{RANK}];
    var rest = i;
    var src = params[{OFFSET}];
    for (var d = 0u; d < rank; d = d + 1u) {{
        let axis = rank - 1u - d;
        let size = params[{DIMS}u + axis];
        src = src + (rest % size) * params[{STRIDES}u + axis];
        rest = rest / size;
    }}
    out[i] = a[src];
}}
",
        per_op_index()
    )
}

pub(super) fn launch(
    offset: usize,
    strides: &[usize],
    out: &Shape,
) -> Result<Launch, BackendError> {
    check_rank(out, "strided copies")?;
    let mut params = vec![0u32; WORDS];
    params[COUNT] = out.numel() as u32;
    params[RANK] = out.rank() as u32;
    params[OFFSET] = offset as u32;
    for axis in 0..out.rank() {
        params[DIMS + axis] = out.dims()[axis] as u32;
        params[STRIDES + axis] = strides[axis] as u32;
    }
    Ok(Launch {
        params,
        workgroups: elementwise_grid(out.numel()),
    })
}
