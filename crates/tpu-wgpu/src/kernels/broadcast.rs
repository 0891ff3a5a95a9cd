//! Two tensors combined elementwise with broadcasting: one thread per output
//! element walks its coordinates from the last axis and reads each operand
//! through its broadcast strides (stride 0 along a broadcast axis).
//! `params`: `[count, rank, out_dims[8], a_strides[8], b_strides[8]]`.

use super::{COUNT, Launch, MAX_RANK, check_rank, elementwise_grid, expr, per_op_index};
use tpu_ir::{BinaryOp, Shape};
use tpu_runtime::BackendError;

const RANK: usize = COUNT + 1;
const DIMS: usize = RANK + 1;
const A_STRIDES: usize = DIMS + MAX_RANK;
const B_STRIDES: usize = A_STRIDES + MAX_RANK;
const WORDS: usize = B_STRIDES + MAX_RANK;

/// `out = a op b`.
pub(super) fn binary(op: BinaryOp) -> String {
    format!(
        "{}@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
{}
    let rank = params[{RANK}];
    var rest = i;
    var ia = 0u;
    var ib = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {{
        let axis = rank - 1u - d;
        let size = params[{DIMS}u + axis];
        let coord = rest % size;
        rest = rest / size;
        ia = ia + coord * params[{A_STRIDES}u + axis];
        ib = ib + coord * params[{B_STRIDES}u + axis];
    }}
    out[i] = {};
}}
",
        expr::binary_helpers(op).concat(),
        per_op_index(),
        expr::binary(op, "a[ia]", "b[ib]")
    )
}

pub(super) fn launch(a: &Shape, b: &Shape, out: &Shape) -> Result<Launch, BackendError> {
    check_rank(out, "elementwise ops on tensors")?;
    let mut params = vec![0u32; WORDS];
    params[COUNT] = out.numel() as u32;
    params[RANK] = out.rank() as u32;
    let (sa, sb) = (a.broadcast_strides(out), b.broadcast_strides(out));
    for axis in 0..out.rank() {
        params[DIMS + axis] = out.dims()[axis] as u32;
        params[A_STRIDES + axis] = sa[axis] as u32;
        params[B_STRIDES + axis] = sb[axis] as u32;
    }
    Ok(Launch {
        params,
        workgroups: elementwise_grid(out.numel()),
    })
}
