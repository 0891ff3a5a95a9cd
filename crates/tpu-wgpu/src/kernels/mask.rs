//! Bool tensors on the device, one `u32` word per element (0 or 1):
//! comparisons of float32 tensors (broadcasting, or with a Python number),
//! `where` with a bool condition, casts between float32 and bool, and fills and
//! strided copies of bool tensors (a causal mask's slice).
//! `params`: `compare` as `broadcast.rs`'s (`[count, rank, dims[8],
//! a_strides[8], b_strides[8]]`); `compare_scalar` `[count, bits(scalar)]`;
//! `select` `[count, rank, dims[8], cond_strides[8], a_strides[8],
//! b_strides[8]]`; `cast` `[count]`; `fill` `[count, word]`.

use super::{COUNT, Launch, MAX_RANK, check_rank, elementwise_grid, expr, per_op_index};
use tpu_ir::{CompareOp, DType, Shape};
use tpu_runtime::BackendError;

const RANK: usize = COUNT + 1;
const DIMS: usize = RANK + 1;
/// Where `select` keeps the strides of operand `i` (the condition first).
const fn strides(i: usize) -> usize {
    DIMS + MAX_RANK * (1 + i)
}
/// Where `compare_scalar` keeps its number and `fill` its word.
const SCALAR: usize = COUNT + 1;

/// `out[i] = a op b`, broadcasting, into a bool.
pub(super) fn compare(op: CompareOp) -> String {
    format!(
        "{}@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<u32>;
{}
{}
    out[i] = select(0u, 1u, {});
}}
",
        expr::compare_helpers(),
        per_op_index(),
        walk(&["ia", "ib"]),
        expr::compare(op, "a[ia]", "b[ib]")
    )
}

/// `out[i] = a[i] op s`, the number rounded to float32 as PyTorch compares a
/// float32 tensor with a Python number.
pub(super) fn compare_scalar(op: CompareOp) -> String {
    format!(
        "{}@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
{}
    let s = bitcast<f32>(params[{SCALAR}]);
    out[i] = select(0u, 1u, {});
}}
",
        expr::compare_helpers(),
        per_op_index(),
        expr::compare(op, "a[i]", "s")
    )
}

/// `out[i] = cond ? a : b`, broadcasting all three (`torch.where`), of WGSL
/// `element`s.
pub(super) fn select(element: &str) -> String {
    format!(
        "@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> cond: array<u32>;
@group(0) @binding(2) var<storage, read> a: array<{element}>;
@group(0) @binding(3) var<storage, read> b: array<{element}>;
@group(0) @binding(4) var<storage, read_write> out: array<{element}>;
{}
{}
    out[i] = select(b[ib], a[ia], cond[ic] != 0u);
}}
",
        per_op_index(),
        walk(&["ic", "ia", "ib"]),
    )
}

/// A cast between float32 and bool: a float is true unless it is zero (NaN
/// is true, as in PyTorch); a bool is 0.0 or 1.0. Same-dtype casts copy.
pub(super) fn cast(from: DType, to: DType) -> String {
    let (input, output, value) = match (from, to) {
        (DType::Float32, DType::Bool) => {
            ("f32", "u32", "select(0u, 1u, is_nan(a[i]) || a[i] != 0.0)")
        }
        (DType::Bool, DType::Float32) => ("u32", "f32", "f32(a[i])"),
        (DType::Bool, DType::Bool) => ("u32", "u32", "a[i]"),
        _ => ("f32", "f32", "a[i]"),
    };
    format!(
        "{}@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> a: array<{input}>;
@group(0) @binding(2) var<storage, read_write> out: array<{output}>;
{}
    out[i] = {value};
}}
",
        expr::compare_helpers(),
        per_op_index(),
    )
}

/// `out[i] = word` for a bool tensor.
pub(super) fn fill() -> String {
    format!(
        "@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
{}
    out[i] = params[{SCALAR}];
}}
",
        per_op_index()
    )
}

/// The loop that places each operand of a broadcasting kernel: offset
/// `names[j]` of operand `j` at this thread's output coordinates.
pub(super) fn walk(names: &[&str]) -> String {
    let mut text = format!("    let rank = params[{RANK}];\n    var rest = i;\n");
    for name in names {
        text.push_str(&format!("    var {name} = 0u;\n"));
    }
    text.push_str(&format!(
        "    for (var d = 0u; d < rank; d = d + 1u) {{\n        let axis = rank - 1u - d;\n        let size = params[{DIMS}u + axis];\n        let coord = rest % size;\n        rest = rest / size;\n"
    ));
    for (j, name) in names.iter().enumerate() {
        text.push_str(&format!(
            "        {name} = {name} + coord * params[{}u + axis];\n",
            strides(j)
        ));
    }
    text.push_str("    }");
    text
}

/// `compare` and `select`: the output's dims and each operand's broadcast
/// strides.
pub(super) fn broadcast_launch(operands: &[&Shape], out: &Shape) -> Result<Launch, BackendError> {
    check_rank(out, "elementwise ops on tensors")?;
    let mut params = vec![0u32; strides(operands.len())];
    params[COUNT] = out.numel() as u32;
    params[RANK] = out.rank() as u32;
    for axis in 0..out.rank() {
        params[DIMS + axis] = out.dims()[axis] as u32;
    }
    for (j, shape) in operands.iter().enumerate() {
        for (axis, stride) in shape.broadcast_strides(out).into_iter().enumerate() {
            params[strides(j) + axis] = stride as u32;
        }
    }
    Ok(Launch {
        params,
        workgroups: elementwise_grid(out.numel()),
    })
}

/// `fill` of a bool tensor with `value`'s truth.
pub(super) fn fill_launch(out: &Shape, value: f64) -> Launch {
    let mut params = vec![0u32; SCALAR + 1];
    params[COUNT] = out.numel() as u32;
    params[SCALAR] = u32::from(value != 0.0);
    Launch {
        params,
        workgroups: elementwise_grid(out.numel()),
    }
}
