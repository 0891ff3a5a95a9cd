//! `out[b, m, n] = a[b, m, k] @ b[b, k, n]`, the batch on the grid's z axis. A
//! transposed operand is read in place (`ta`: `a` stored `[k, m]`; `tb`: `b`
//! stored `[n, k]`). Products accumulate in increasing `k`, the reference
//! backend's order, in both kernels. `params`: `[m, k, n]`.
//!
//! Two kernels: the naive one, one output element per thread on a grid of
//! 16x16 tiles, each thread reading its row and column from memory; and the
//! tiled one, made for GPUs: a workgroup of 16x16 threads computes a 64x64
//! block of the output, staging 16-deep slices of both operands in workgroup
//! memory (each element read from memory once per block instead of once per
//! output element), and each thread keeps a 4x4 block of sums in registers.

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

/// The tiled kernel's block: `BLOCK x BLOCK` outputs per workgroup, staged
/// `DEPTH` products deep, `PER x PER` outputs per thread (four rows of
/// `vec4` sums, kept in registers: an array indexed in a loop spilled to
/// memory on an NVIDIA H200 and ran 4x slower than the naive kernel).
pub(crate) const BLOCK: u32 = 64;
const DEPTH: u32 = 16;
const PER: u32 = BLOCK / TILE;
const _: () = assert!(PER == 4, "the sums are four vec4 rows");

/// The tiled kernel's loads and sums, shared with fused kernels on it
/// (`codegen.rs`, whose names it must not shadow: it declares `ty`, `tx`,
/// `flat`, `acc0`..`acc3`, `sums`, `p0`, `l`, `e`, `la`, `lp`, `lq`, `lb`,
/// `av`, `bv`, `depth`, `p`, `ia`, `ib`, `a4`, `b4`, `r`, `c`): given `m`, `k`, `n`, `row0` and `col0` in scope, and
/// `load_a(row, p)` and `load_b(p, col)` writing the WGSL that reads an
/// operand's element (used only in bounds), it leaves this thread's sums in
/// `sums[r][c]` for output `(row0 + ty * PER + r, col0 + tx * PER + c)`.
pub(crate) fn tiled_sums(
    ta: bool,
    tb: bool,
    load_a: impl Fn(&str, &str) -> String,
    load_b: impl Fn(&str, &str) -> String,
) -> String {
    let words = BLOCK * DEPTH;
    let loads = words / (TILE * TILE);
    // Consecutive threads read consecutive addresses of each operand as it
    // is stored: along `k` for `a` (along `m` when transposed), along `n`
    // for `b` (along `k` when transposed).
    let (a_row, a_p) = if ta {
        ("e % BLOCK", "e / BLOCK")
    } else {
        ("e / DEPTH", "e % DEPTH")
    };
    let (b_p, b_col) = if tb {
        ("e % DEPTH", "e / DEPTH")
    } else {
        ("e / BLOCK", "e % BLOCK")
    };
    format!(
        "    let ty = lid.y;
    let tx = lid.x;
    let flat = ty * {TILE}u + tx;
    var acc0 = vec4<f32>();
    var acc1 = vec4<f32>();
    var acc2 = vec4<f32>();
    var acc3 = vec4<f32>();
    for (var p0 = 0u; p0 < k; p0 = p0 + DEPTH) {{
        for (var l = 0u; l < {loads}u; l = l + 1u) {{
            let e = flat + l * {threads}u;
            let la = {a_row};
            let lp = {a_p};
            var av = 0.0;
            if (row0 + la < m && p0 + lp < k) {{
                av = {load_a};
            }}
            tile_a[lp * BLOCK + la] = av;
            let lq = {b_p};
            let lb = {b_col};
            var bv = 0.0;
            if (p0 + lq < k && col0 + lb < n) {{
                bv = {load_b};
            }}
            tile_b[lq * BLOCK + lb] = bv;
        }}
        workgroupBarrier();
        let depth = min(DEPTH, k - p0);
        for (var p = 0u; p < depth; p = p + 1u) {{
            let ia = p * BLOCK + ty * 4u;
            let ib = p * BLOCK + tx * 4u;
            let a4 = vec4<f32>(tile_a[ia], tile_a[ia + 1u], tile_a[ia + 2u], tile_a[ia + 3u]);
            let b4 = vec4<f32>(tile_b[ib], tile_b[ib + 1u], tile_b[ib + 2u], tile_b[ib + 3u]);
            acc0 = acc0 + a4.x * b4;
            acc1 = acc1 + a4.y * b4;
            acc2 = acc2 + a4.z * b4;
            acc3 = acc3 + a4.w * b4;
        }}
        workgroupBarrier();
    }}
    var sums = array<vec4<f32>, 4>(acc0, acc1, acc2, acc3);
",
        threads = TILE * TILE,
        load_a = load_a("row0 + la", "p0 + lp"),
        load_b = load_b("p0 + lq", "col0 + lb"),
    )
}

/// The tiled kernel's declarations: its constants and workgroup memory.
pub(crate) fn tiled_decls() -> String {
    format!(
        "const BLOCK = {BLOCK}u;
const DEPTH = {DEPTH}u;
var<workgroup> tile_a: array<f32, {words}>;
var<workgroup> tile_b: array<f32, {words}>;
",
        words = BLOCK * DEPTH
    )
}

/// The tiled kernel's entry point, up to its body.
pub(crate) fn tiled_entry() -> String {
    format!(
        "@compute @workgroup_size({TILE}, {TILE})
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {{
"
    )
}

/// The loop over this thread's outputs after `tiled_sums`: `body` runs for
/// each in bounds, with `row`, `col` and `acc` (its sum) in scope.
pub(crate) fn tiled_outputs(body: &str) -> String {
    format!(
        "    for (var r = 0u; r < {PER}u; r = r + 1u) {{
        for (var c = 0u; c < {PER}u; c = c + 1u) {{
            let row = row0 + ty * {PER}u + r;
            let col = col0 + tx * {PER}u + c;
            if (row < m && col < n) {{
                let acc = sums[r][c];
{body}            }}
        }}
    }}
"
    )
}

pub(super) fn tiled_source(ta: bool, tb: bool) -> String {
    let load_a = |row: &str, p: &str| {
        if ta {
            format!("a[ao + ({p}) * m + {row}]")
        } else {
            format!("a[ao + ({row}) * k + {p}]")
        }
    };
    let load_b = |p: &str, col: &str| {
        if tb {
            format!("b[bo + ({col}) * k + {p}]")
        } else {
            format!("b[bo + ({p}) * n + {col}]")
        }
    };
    format!(
        "@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
{decls}
{entry}    let m = params[{M}];
    let k = params[{K}];
    let n = params[{N}];
    let ao = wg.z * m * k;
    let bo = wg.z * k * n;
    let row0 = wg.y * BLOCK;
    let col0 = wg.x * BLOCK;
{sums}{outputs}}}
",
        decls = tiled_decls(),
        entry = tiled_entry(),
        sums = tiled_sums(ta, tb, load_a, load_b),
        outputs = tiled_outputs("                out[wg.z * m * n + row * n + col] = acc;\n"),
    )
}

/// The tiled kernel's grid: a workgroup per `BLOCK x BLOCK` output block.
pub(super) fn tiled_launch(a: &Shape, b: &Shape, ta: bool, tb: bool) -> Launch {
    let (batch, m, _, n) = Op::matmul_dims(a.dims(), b.dims(), ta, tb);
    let Launch { params, .. } = launch(a, b, ta, tb);
    Launch {
        params,
        workgroups: (
            (n as u32).div_ceil(BLOCK),
            (m as u32).div_ceil(BLOCK),
            batch as u32,
        ),
    }
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
