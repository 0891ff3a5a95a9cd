//! Kernels of one thread per element that read nothing but their own element:
//! `fill`, a tensor with a Python number (`binary_scalar`), and functions of
//! one tensor (`unary`). `params`: `[count, bits(scalar)]`, the scalar absent
//! for `unary`.

use super::{COUNT, Launch, elementwise_grid, expr, per_op_index};
use tpu_ir::{BinaryOp, Shape, UnaryOp};

/// Where the scalar (`fill`'s value, `binary_scalar`'s number) lives.
const SCALAR: usize = COUNT + 1;

/// `out[i] = value`.
pub(super) fn fill() -> String {
    format!(
        "@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
{}
    out[i] = bitcast<f32>(params[{SCALAR}]);
}}
",
        per_op_index()
    )
}

/// `out[i] = a[i] op s` (or `s op a[i]`).
pub(super) fn binary_scalar(op: BinaryOp, scalar_on_left: bool) -> String {
    let expr_text = if scalar_on_left {
        expr::binary(op, "s", "a[i]")
    } else {
        expr::binary(op, "a[i]", "s")
    };
    format!(
        "{}@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
{}
    let s = bitcast<f32>(params[{SCALAR}]);
    out[i] = {expr_text};
}}
",
        expr::binary_helpers(op).concat(),
        per_op_index()
    )
}

/// `out[i] = f(a[i])`.
pub(super) fn unary(op: UnaryOp) -> String {
    format!(
        "{}@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
{}
    let x = a[i];
    out[i] = {};
}}
",
        expr::unary_helpers(op).concat(),
        per_op_index(),
        expr::unary(op)
    )
}

/// `fill` and `binary_scalar`: the count and the scalar, rounded to float32.
pub(super) fn with_scalar(out: &Shape, scalar: f64) -> Launch {
    let mut params = vec![0u32; SCALAR + 1];
    params[COUNT] = out.numel() as u32;
    params[SCALAR] = (scalar as f32).to_bits();
    Launch {
        params,
        workgroups: elementwise_grid(out.numel()),
    }
}

/// `unary`: the count alone.
pub(super) fn plain(out: &Shape) -> Launch {
    Launch {
        params: vec![out.numel() as u32],
        workgroups: elementwise_grid(out.numel()),
    }
}
