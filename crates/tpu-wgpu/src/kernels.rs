//! WGSL source for each kernel. Every kernel reads its sizes from a `params` array of
//! `u32` (floats travel bit-cast) so that one compiled pipeline serves every shape,
//! and every elementwise kernel indexes a 2-D grid of 256-wide workgroups so that
//! tensors past 65,535 workgroups still fit WebGPU's per-dimension dispatch limit.

use tpu_ir::{BinaryOp, FusedKernel, FusedNode, Op, ReduceOp, UnaryOp};

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
    }
}

const ELEMENTWISE_INDEX: &str = "
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

/// The WGSL of a fusion group: one thread per element of the iteration shape;
/// each input is read through its broadcast strides, the SSA program runs in
/// registers, and each output is stored. params (a uniform buffer): `[n, rank,
/// dims[8], strides[8] per input, bits(scalar) per Scalar/Const node]`. The code depends
/// only on the kernel's structure (`FusedKernel::code_key`), never on shapes'
/// sizes or scalar values, which are parameters.
pub fn fused(kernel: &FusedKernel) -> String {
    let k = kernel.inputs.len();
    // The parameters are a uniform buffer, so that all eight storage-buffer
    // bindings WebGPU guarantees per stage are left to inputs and outputs.
    let words = fused_params(kernel).len() / 4;
    let mut decls = format!(
        "@group(0) @binding(0) var<uniform> params: array<vec4<u32>, {words}>;\nfn param(i: u32) -> u32 {{\n    return params[i / 4u][i % 4u];\n}}\n"
    );
    for i in 0..k {
        decls.push_str(&format!(
            "@group(0) @binding({}) var<storage, read> in{i}: array<f32>;\n",
            i + 1
        ));
    }
    for (j, _) in kernel.outputs.iter().enumerate() {
        decls.push_str(&format!(
            "@group(0) @binding({}) var<storage, read_write> out{j}: array<f32>;\n",
            k + 1 + j
        ));
    }
    let mut helpers = String::new();
    let uses_erf = kernel.nodes.iter().any(|n| {
        matches!(
            n,
            FusedNode::Unary {
                op: UnaryOp::Erf,
                ..
            }
        )
    });
    if uses_erf {
        helpers.push_str(ERF_HELPER);
    }
    let uses_binary_helpers = kernel.nodes.iter().any(|n| match n {
        FusedNode::Binary { op, .. } | FusedNode::Scalar { op, .. } => !helpers_for(*op).is_empty(),
        _ => false,
    });
    if uses_binary_helpers {
        helpers.push_str(tpu_ir::WGSL_BINARY_HELPERS);
    }
    let mut body = String::new();
    body.push_str("    let rank = param(1u);\n    var rest = i;\n");
    for i in 0..k {
        body.push_str(&format!("    var o{i} = 0u;\n"));
    }
    body.push_str("    for (var d = 0u; d < rank; d = d + 1u) {\n        let axis = rank - 1u - d;\n        let size = param(2u + axis);\n        let c = rest % size;\n        rest = rest / size;\n");
    for i in 0..k {
        body.push_str(&format!(
            "        o{i} = o{i} + c * param({}u + axis);\n",
            10 + 8 * i
        ));
    }
    body.push_str("    }\n");
    let scalar_base = 10 + 8 * k;
    let mut scalar = 0;
    for (n, node) in kernel.nodes.iter().enumerate() {
        let expr = match node {
            FusedNode::Input { index } => format!("in{index}[o{index}]"),
            FusedNode::Const { .. } => {
                let e = format!("bitcast<f32>(param({}u))", scalar_base + scalar);
                scalar += 1;
                e
            }
            FusedNode::Binary { op, a, b } => op.wgsl(&format!("v{a}"), &format!("v{b}")),
            FusedNode::Scalar {
                op,
                x,
                scalar_on_left,
                ..
            } => {
                let s = format!("bitcast<f32>(param({}u))", scalar_base + scalar);
                scalar += 1;
                if *scalar_on_left {
                    op.wgsl(&s, &format!("v{x}"))
                } else {
                    op.wgsl(&format!("v{x}"), &s)
                }
            }
            FusedNode::Unary { x, .. } => format!("unary_{n}(v{x})"),
        };
        if let FusedNode::Unary { op, .. } = node {
            helpers.push_str(&format!(
                "fn unary_{n}(x: f32) -> f32 {{\n    return {};\n}}\n",
                op.wgsl()
            ));
        }
        body.push_str(&format!("    let v{n} = {expr};\n"));
    }
    for (j, node) in kernel.outputs.iter().enumerate() {
        body.push_str(&format!("    out{j}[i] = v{node};\n"));
    }
    let index = ELEMENTWISE_INDEX.replace("params[0]", "param(0u)");
    format!("{helpers}{decls}{index}\n{body}}}\n")
}

/// The `params` of a fused kernel (see `fused`).
pub fn fused_params(kernel: &FusedKernel) -> Vec<u32> {
    let out = &kernel.shape;
    let mut params = vec![0u32; 10 + 8 * kernel.inputs.len()];
    params[0] = out.numel() as u32;
    params[1] = out.rank() as u32;
    for axis in 0..out.rank() {
        params[2 + axis] = out.dims()[axis] as u32;
    }
    for (i, input) in kernel.inputs.iter().enumerate() {
        let strides = input.shape.broadcast_strides(out);
        for axis in 0..out.rank() {
            params[10 + 8 * i + axis] = strides[axis] as u32;
        }
    }
    params.extend(kernel.scalars().iter().map(|&s| (s as f32).to_bits()));
    // A uniform array of vec4s: pad to whole vectors.
    params.resize(params.len().div_ceil(4) * 4, 0);
    params
}

/// The helper functions a binary op's WGSL calls, if any.
fn helpers_for(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::FloorDiv => "",
        _ => tpu_ir::WGSL_BINARY_HELPERS,
    }
}

/// `erf` in float32 (Abramowitz and Stegun 7.1.26, absolute error below 1.5e-7,
/// the formula of ATen's vectorised CPU `erf`): WGSL has no built-in.
const ERF_HELPER: &str = "fn erf_f32(x: f32) -> f32 {
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
    let (init, step) = match op {
        ReduceOp::Sum => ("0.0", "acc + x"),
        ReduceOp::Prod => ("1.0", "acc * x"),
        ReduceOp::Max => ("x0", "select(max(acc, x), x + acc, x != x || acc != acc)"),
        ReduceOp::Min => ("x0", "select(min(acc, x), x + acc, x != x || acc != acc)"),
        ReduceOp::ArgMax | ReduceOp::ArgMin => {
            unreachable!("int64 results are refused before planning")
        }
    };
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

    /// `relu(a * 2 + b) ** c` with `b` broadcast and an erf on the side.
    fn sample_fused_kernel() -> FusedKernel {
        use tpu_ir::{DType, FusedInput, Shape};
        let input = |dims: &[usize]| FusedInput {
            shape: Shape::new(dims),
            dtype: DType::Float32,
        };
        FusedKernel {
            shape: Shape::new([2, 3]),
            dtype: DType::Float32,
            inputs: vec![input(&[2, 3]), input(&[3]), input(&[2, 1])],
            nodes: vec![
                FusedNode::Input { index: 0 },
                FusedNode::Scalar {
                    op: BinaryOp::Mul,
                    x: 0,
                    scalar: 2.0,
                    scalar_on_left: false,
                },
                FusedNode::Input { index: 1 },
                FusedNode::Binary {
                    op: BinaryOp::Add,
                    a: 1,
                    b: 2,
                },
                FusedNode::Unary {
                    op: UnaryOp::Relu,
                    x: 3,
                },
                FusedNode::Input { index: 2 },
                FusedNode::Binary {
                    op: BinaryOp::Pow,
                    a: 4,
                    b: 5,
                },
                FusedNode::Unary {
                    op: UnaryOp::Erf,
                    x: 0,
                },
            ],
            outputs: vec![6, 7],
        }
    }

    #[test]
    fn fused_params_fill_whole_uniform_vectors() {
        let p = fused_params(&sample_fused_kernel());
        // n, rank, dims[8], 3 inputs x strides[8], one scalar, padded to 4.
        assert_eq!(p.len(), (10 + 24 + 1usize).div_ceil(4) * 4);
        assert_eq!(&p[..4], &[6, 2, 2, 3]);
        // b ([3]) broadcasts over rows: strides [0, 1]; c ([2, 1]): [1, 0].
        assert_eq!(&p[18..20], &[0, 1]);
        assert_eq!(&p[26..28], &[1, 0]);
        assert_eq!(f32::from_bits(p[34]), 2.0);
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
            fused(&sample_fused_kernel()),
        ];
        for source in sources {
            let module =
                naga::front::wgsl::parse_str(&source).unwrap_or_else(|e| panic!("{e}\n{source}"));
            naga::valid::Validator::new(
                naga::valid::ValidationFlags::all(),
                naga::valid::Capabilities::empty(),
            )
            .validate(&module)
            .unwrap_or_else(|e| panic!("{e:?}\n{source}"));
        }
    }
}
