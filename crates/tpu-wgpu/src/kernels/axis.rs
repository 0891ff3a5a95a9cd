//! Kernels along one axis, one thread per lane (a lane is one position of
//! every other axis): reductions (`sum`, `prod`, `max`, `min`, the axis kept
//! with size 1) and running sums (`cumsum`, from the end for its gradient).
//! `params`: `[lanes, len, inner]`, where `len` is the axis's size and `inner`
//! the product of the sizes after it (the axis's stride).

use super::{COUNT, Launch, elementwise_grid, expr, per_op_index};
use tpu_ir::{ReduceOp, Shape};

/// The lane count is the thread count.
const LANES: usize = COUNT;
const LEN: usize = LANES + 1;
const INNER: usize = LEN + 1;

/// The WGSL that finds lane `i`'s first element, `base`.
pub(super) fn lane_start() -> String {
    format!(
        "    let n = params[{LEN}];
    let inner = params[{INNER}];
    let base = (i / inner) * n * inner + i % inner;"
    )
}

pub(super) fn reduce(op: ReduceOp) -> String {
    let init = match op {
        ReduceOp::Sum => "0.0",
        ReduceOp::Prod => "1.0",
        ReduceOp::Max | ReduceOp::Min | ReduceOp::ArgMax | ReduceOp::ArgMin => "x0",
    };
    format!(
        "{}@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
{}
{}
    let x0 = a[base];
    var acc: f32 = {init};
    for (var j = 0u; j < n; j = j + 1u) {{
        let x = a[base + j * inner];
        acc = {};
    }}
    out[i] = acc;
}}
",
        expr::reduce_helpers(op).concat(),
        per_op_index(),
        lane_start(),
        expr::reduce_step(op)
    )
}

pub(super) fn cumsum(reverse: bool) -> String {
    let index = if reverse { "n - 1u - j" } else { "j" };
    format!(
        "@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
{}
{}
    var acc = 0.0;
    for (var j = 0u; j < n; j = j + 1u) {{
        let p = base + ({index}) * inner;
        acc = acc + a[p];
        out[p] = acc;
    }}
}}
",
        per_op_index(),
        lane_start()
    )
}

/// Both kernels along `axis` of `input`.
pub(super) fn launch(input: &Shape, axis: usize) -> Launch {
    let d = input.dims();
    let len = d[axis];
    let inner: usize = d[axis + 1..].iter().product();
    let lanes = input.numel() / len.max(1);
    let mut params = vec![0u32; INNER + 1];
    params[LANES] = lanes as u32;
    params[LEN] = len as u32;
    params[INNER] = inner.max(1) as u32;
    Launch {
        params,
        workgroups: elementwise_grid(lanes),
    }
}
