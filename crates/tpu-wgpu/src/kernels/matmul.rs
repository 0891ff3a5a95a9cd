//! `out[b, m, n] = a[b, m, k] @ b[b, k, n]`, one output element per thread on a
//! grid of 16x16 tiles, the batch on the grid's z axis. A transposed operand is
//! read in place (`ta`: `a` stored `[k, m]`; `tb`: `b` stored `[n, k]`).
//! Products accumulate in increasing `k`, the reference backend's order.
//! `params`: `[m, k, n]`.

use super::Launch;
use tpu_ir::{Op, Shape};

/// Side of the square workgroup tile.
const TILE: u32 = 16;
const M: usize = 0;
const K: usize = 1;
const N: usize = 2;

pub(super) fn source(ta: bool, tb: bool) -> String {
    let a_index = if ta { "p * m + row" } else { "row * k + p" };
    let b_index = if tb { "col * k + p" } else { "p * n + col" };
    format!(
        "@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;

@compute @workgroup_size({TILE}, {TILE})
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {{
    let m = params[{M}];
    let k = params[{K}];
    let n = params[{N}];
    let row = gid.y;
    let col = gid.x;
    if (row >= m || col >= n) {{
        return;
    }}
    let ao = gid.z * m * k;
    let bo = gid.z * k * n;
    var acc = 0.0;
    for (var p = 0u; p < k; p = p + 1u) {{
        acc = acc + a[ao + {a_index}] * b[bo + {b_index}];
    }}
    out[gid.z * m * n + row * n + col] = acc;
}}
"
    )
}

pub(super) fn launch(a: &Shape, b: &Shape, ta: bool, tb: bool) -> Launch {
    let (batch, m, k, n) = Op::matmul_dims(a.dims(), b.dims(), ta, tb);
    let mut params = vec![0u32; N + 1];
    params[M] = m as u32;
    params[K] = k as u32;
    params[N] = n as u32;
    Launch {
        params,
        workgroups: (
            (n as u32).div_ceil(TILE),
            (m as u32).div_ceil(TILE),
            batch as u32,
        ),
    }
}
