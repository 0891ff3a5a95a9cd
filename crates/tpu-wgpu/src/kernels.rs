//! WGSL source for each kernel. Every kernel reads its sizes from a `params` array of
//! `u32` (floats travel bit-cast) so that one compiled pipeline serves every shape,
//! and every elementwise kernel indexes a 2-D grid of 256-wide workgroups so that
//! tensors past 65,535 workgroups still fit WebGPU's per-dimension dispatch limit.

use tpu_ir::{BinaryOp, Op, ReduceOp, UnaryOp};

/// Threads per workgroup for 1-D kernels.
pub const WORKGROUP_SIZE: u32 = 256;
/// Side of the square workgroup tile of the matmul kernel.
pub const MATMUL_TILE: u32 = 16;
/// The highest rank the broadcasting kernel handles.
pub const MAX_RANK: usize = 8;

/// The WGSL of the kernel for `op`; ops with the same `Op::kernel_name` share it.
pub fn source(op: &Op) -> String {
    match op {
        Op::Fill { .. } => fill(),
        Op::BinaryScalar {
            op, scalar_on_left, ..
        } => binary_scalar(*op, *scalar_on_left),
        Op::Binary { op } => binary(*op),
        Op::MatMul {
            transpose_a,
            transpose_b,
        } => matmul(*transpose_a, *transpose_b),
        Op::SumAll => sum_all(),
        Op::Unary { op } => unary(*op),
        Op::Strided { .. } => strided(),
        Op::Reduce { op, .. } => reduce(*op),
        Op::Cumsum { reverse, .. } => cumsum(*reverse),
        Op::Cast { .. }
        | Op::Compare { .. }
        | Op::CompareScalar { .. }
        | Op::Gather
        | Op::Scatter { .. }
        | Op::Where => {
            unreachable!("the wgpu backend refuses non-float32 operands before planning")
        }
        Op::Arange { .. } | Op::Linspace { .. } | Op::Eye | Op::Nonzero | Op::Random { .. } => {
            unreachable!(
                "the wgpu backend refuses {} when planning",
                op.kernel_name()
            )
        }
    }
}

pub(crate) const ELEMENTWISE_INDEX: &str = "
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 256u + gid.x;
    if (i >= params[0]) {
        return;
    }";

/// `out[i] = value`. params: `[n, bits(value)]`.
pub fn fill() -> String {
    format!(
        "@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
{ELEMENTWISE_INDEX}
    out[i] = bitcast<f32>(params[1]);
}}
"
    )
}

/// `out[i] = a[i] op s` (or `s op a[i]`). params: `[n, bits(s)]`.
pub fn binary_scalar(op: BinaryOp, scalar_on_left: bool) -> String {
    let expr = if scalar_on_left {
        op.wgsl("s", "a[i]")
    } else {
        op.wgsl("a[i]", "s")
    };
    let helpers = helpers_for(op);
    format!(
        "{helpers}@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
{ELEMENTWISE_INDEX}
    let s = bitcast<f32>(params[1]);
    out[i] = {expr};
}}
"
    )
}

/// `out[i] = f(a[i])`. params: `[n]`.
pub fn unary(op: UnaryOp) -> String {
    let expr = op.wgsl();
    let helpers = if op == UnaryOp::Erf { ERF_HELPER } else { "" };
    format!(
        "{helpers}@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
{ELEMENTWISE_INDEX}
    let x = a[i];
    out[i] = {expr};
}}
"
    )
}

/// `out = a op b` with broadcasting. params: `[n, rank, out_dims[8], a_strides[8],
/// b_strides[8]]`; a broadcast dimension has stride 0.
pub fn binary(op: BinaryOp) -> String {
    let expr = op.wgsl("a[ia]", "b[ib]");
    let helpers = helpers_for(op);
    format!(
        "{helpers}@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
{ELEMENTWISE_INDEX}
    let rank = params[1];
    var rest = i;
    var ia = 0u;
    var ib = 0u;
    for (var d = 0u; d < rank; d = d + 1u) {{
        let axis = rank - 1u - d;
        let size = params[2u + axis];
        let coord = rest % size;
        rest = rest / size;
        ia = ia + coord * params[10u + axis];
        ib = ib + coord * params[18u + axis];
    }}
    out[i] = {expr};
}}
"
    )
}

/// The helper functions a binary op's WGSL calls, if any.
pub(crate) fn helpers_for(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::FloorDiv => "",
        _ => tpu_ir::WGSL_BINARY_HELPERS,
    }
}

/// `erf` in float32 (Abramowitz and Stegun 7.1.26, absolute error below 1.5e-7,
/// the formula of ATen's vectorised CPU `erf`): WGSL has no built-in.
pub(crate) const ERF_HELPER: &str = "fn erf_f32(x: f32) -> f32 {
    let t = 1.0 / fma(0.3275911, abs(x), 1.0);
    var r = fma(1.061405429, t, -1.453152027);
    r = fma(r, t, 1.421413741);
    r = fma(r, t, -0.284496736);
    r = fma(r, t, 0.254829592);
    let y = fma(-exp(-x * x) * t, r, 1.0);
    return select(y, -y, x < 0.0);
}
";

/// A dense copy of a strided window: `out[i] = a[offset + sum(coord[d] * stride[d])]`.
/// params: `[n, rank, offset, dims[8], strides[8]]`.
pub fn strided() -> String {
    format!(
        "@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
{ELEMENTWISE_INDEX}
    let rank = params[1];
    var rest = i;
    var src = params[2];
    for (var d = 0u; d < rank; d = d + 1u) {{
        let axis = rank - 1u - d;
        let size = params[3u + axis];
        src = src + (rest % size) * params[11u + axis];
        rest = rest / size;
    }}
    out[i] = a[src];
}}
"
    )
}

/// One axis reduced, one thread per output lane. params: `[lanes, n, inner]`.
pub fn reduce(op: ReduceOp) -> String {
    let init = match op {
        ReduceOp::Sum => "0.0",
        ReduceOp::Prod => "1.0",
        _ => "x0",
    };
    let step = reduce_step(op);
    format!(
        "@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
{ELEMENTWISE_INDEX}
    let n = params[1];
    let inner = params[2];
    let base = (i / inner) * n * inner + i % inner;
    let x0 = a[base];
    var acc: f32 = {init};
    for (var j = 0u; j < n; j = j + 1u) {{
        let x = a[base + j * inner];
        acc = {step};
    }}
    out[i] = acc;
}}
"
    )
}

/// One step of a float reduction, `acc` folded with `x` (a NaN wins max and min).
pub(crate) fn reduce_step(op: ReduceOp) -> &'static str {
    match op {
        ReduceOp::Sum => "acc + x",
        ReduceOp::Prod => "acc * x",
        ReduceOp::Max => "select(max(acc, x), x + acc, x != x || acc != acc)",
        ReduceOp::Min => "select(min(acc, x), x + acc, x != x || acc != acc)",
        ReduceOp::ArgMax | ReduceOp::ArgMin => {
            unreachable!("int64 results are refused before planning")
        }
    }
}

/// Running sums along an axis, one thread per lane. params: `[lanes, n, inner]`.
pub fn cumsum(reverse: bool) -> String {
    let index = if reverse { "n - 1u - j" } else { "j" };
    format!(
        "@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
{ELEMENTWISE_INDEX}
    let n = params[1];
    let inner = params[2];
    let base = (i / inner) * n * inner + i % inner;
    var acc = 0.0;
    for (var j = 0u; j < n; j = j + 1u) {{
        let p = base + ({index}) * inner;
        acc = acc + a[p];
        out[p] = acc;
    }}
}}
"
    )
}

/// `out[b, m, n] = a[b, m, k] @ b[b, k, n]`, one output element per thread, the
/// batch on the grid's z axis. params: `[m, k, n]`. A transposed operand is
/// read in place (`ta`: `a` stored `[k, m]`; `tb`: `b` stored `[n, k]`).
/// Products accumulate in increasing `k`, the reference backend's order.
pub fn matmul(ta: bool, tb: bool) -> String {
    let a_index = if ta { "p * m + row" } else { "row * k + p" };
    let b_index = if tb { "col * k + p" } else { "p * n + col" };
    "@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let m = params[0];
    let k = params[1];
    let n = params[2];
    let row = gid.y;
    let col = gid.x;
    if (row >= m || col >= n) {
        return;
    }
    let ao = gid.z * m * k;
    let bo = gid.z * k * n;
    var acc = 0.0;
    for (var p = 0u; p < k; p = p + 1u) {
        acc = acc + a[ao + A_INDEX] * b[bo + B_INDEX];
    }
    out[gid.z * m * n + row * n + col] = acc;
}
"
    .replace("A_INDEX", a_index)
    .replace("B_INDEX", b_index)
}

/// The sum of all `n` elements in one workgroup: strided partial sums, then a tree
/// in workgroup memory. params: `[n]`.
pub fn sum_all() -> String {
    "@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

var<workgroup> partial: array<f32, 256>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32) {
    let n = params[0];
    var acc = 0.0;
    for (var i = lid; i < n; i = i + 256u) {
        acc = acc + a[i];
    }
    partial[lid] = acc;
    workgroupBarrier();
    for (var stride = 128u; stride > 0u; stride = stride / 2u) {
        if (lid < stride) {
            partial[lid] = partial[lid] + partial[lid + stride];
        }
        workgroupBarrier();
    }
    if (lid == 0u) {
        out[0] = partial[0];
    }
}
"
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::expect;

    #[test]
    fn binary_scalar_kernel_text() {
        expect![[r#"
            @group(0) @binding(0) var<storage, read> params: array<u32>;
            @group(0) @binding(1) var<storage, read> a: array<f32>;
            @group(0) @binding(2) var<storage, read_write> out: array<f32>;

            @compute @workgroup_size(256)
            fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
                let i = gid.y * groups.x * 256u + gid.x;
                if (i >= params[0]) {
                    return;
                }
                let s = bitcast<f32>(params[1]);
                out[i] = (s - a[i]);
            }
        "#]]
        .assert_eq(&binary_scalar(BinaryOp::Sub, true));
    }

    #[test]
    fn every_kernel_parses_and_validates_as_wgsl() {
        let sources = [
            fill(),
            binary_scalar(BinaryOp::Mul, false),
            binary(BinaryOp::Add),
            matmul(false, false),
            matmul(true, true),
            sum_all(),
            unary(UnaryOp::Relu),
            unary(UnaryOp::Sigmoid),
            unary(UnaryOp::Erf),
            binary(BinaryOp::Pow),
            binary(BinaryOp::Maximum),
            binary_scalar(BinaryOp::Remainder, true),
            strided(),
            reduce(ReduceOp::Sum),
            reduce(ReduceOp::Max),
            cumsum(true),
        ];
        for source in sources {
            crate::codegen::tests::validate(&source);
        }
    }
}
