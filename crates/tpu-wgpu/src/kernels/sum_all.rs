//! The sum of every element, in one workgroup: strided partial sums, then a
//! tree in workgroup memory. `params`: `[count]`.

use super::{COUNT, Launch, WORKGROUP_SIZE};
use tpu_ir::Shape;

pub(super) fn source() -> String {
    let half = WORKGROUP_SIZE / 2;
    format!(
        "@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

var<workgroup> partial: array<f32, {WORKGROUP_SIZE}>;

@compute @workgroup_size({WORKGROUP_SIZE})
fn main(@builtin(local_invocation_index) lid: u32) {{
    let n = params[{COUNT}];
    var acc = 0.0;
    for (var i = lid; i < n; i = i + {WORKGROUP_SIZE}u) {{
        acc = acc + a[i];
    }}
    partial[lid] = acc;
    workgroupBarrier();
    for (var stride = {half}u; stride > 0u; stride = stride / 2u) {{
        if (lid < stride) {{
            partial[lid] = partial[lid] + partial[lid + stride];
        }}
        workgroupBarrier();
    }}
    if (lid == 0u) {{
        out[0] = partial[0];
    }}
}}
"
    )
}

/// One workgroup, whatever the size.
pub(super) fn launch(input: &Shape) -> Launch {
    Launch {
        params: vec![input.numel() as u32],
        workgroups: (1, 1, 1),
    }
}
