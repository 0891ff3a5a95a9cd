//! The window ops behind convolutions and pooling: `Pad` (a constant border)
//! and `UnfoldBackward` (the sum of every window element that read an input
//! element). Both move values by position, so they are written as scatters of
//! the input into a filled output, in the input's order.

use super::indexing::scatter;
use super::{for_each_index, offset};
use crate::data::HostData;
use tpu_ir::{DType, Shape};

/// `input` (dense, of shape `input_shape`) inside a border of `value`:
/// element `i` lands at `i + before` in the output.
pub(super) fn pad(
    input: &HostData,
    input_shape: &Shape,
    before: &[usize],
    out: &Shape,
    out_dtype: DType,
    value: f64,
) -> HostData {
    let strides = out.strides();
    let mut positions = Vec::with_capacity(input_shape.numel());
    for_each_index(input_shape, |index| {
        let at: usize = index
            .iter()
            .zip(before)
            .zip(&strides)
            .map(|((i, b), s)| (i + b) * s)
            .sum();
        positions.push(at as i64);
    });
    let mut data = HostData::filled(out_dtype, out.numel(), value);
    scatter(&mut data, &positions, input, false);
    data
}

/// The gradient of `unfold(axis, size, step)`: `grad` has the unfolded shape
/// (`axis` counts windows, the last dimension is the window); element
/// `[.., w, .., k]` adds into output element `[.., w * step + k, ..]`.
pub(super) fn unfold_backward(
    grad: &HostData,
    grad_shape: &Shape,
    axis: usize,
    step: usize,
    out: &Shape,
    out_dtype: DType,
) -> HostData {
    let strides = out.strides();
    let rank = grad_shape.rank() - 1;
    let mut positions = Vec::with_capacity(grad_shape.numel());
    for_each_index(grad_shape, |index| {
        let mut at = offset(&index[..rank], &strides);
        at += index[rank] * strides[axis];
        at += index[axis] * (step - 1) * strides[axis];
        positions.push(at as i64);
    });
    let mut data = HostData::filled(out_dtype, out.numel(), 0.0);
    scatter(&mut data, &positions, grad, true);
    data
}
