//! The window ops behind convolutions and pooling: `Pad` (a constant border)
//! and `UnfoldBackward` (the sum of every window element that read an input
//! element). Both move values by position, row by row along the last
//! dimension: `pad` copies each input row into place, `unfold_backward` adds
//! each window into place in the gradient's order.

use super::{for_each_row, threads};
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
    fn place<T: Copy>(
        data: &mut [T],
        input: &[T],
        input_shape: &Shape,
        before: &[usize],
        strides: &[usize],
    ) {
        let mut at = 0;
        for_each_row(input_shape, |index, n| {
            let first: usize = index
                .iter()
                .zip(before)
                .zip(strides)
                .map(|((i, b), s)| (i + b) * s)
                .sum();
            data[first..first + n].copy_from_slice(&input[at..at + n]);
            at += n;
        });
    }
    let strides = out.strides();
    let mut data = HostData::filled(out_dtype, out.numel(), value);
    match (&mut data, input) {
        (HostData::F32(d), HostData::F32(x)) => place(d, x, input_shape, before, &strides),
        (HostData::F64(d), HostData::F64(x)) => place(d, x, input_shape, before, &strides),
        (HostData::BF16(d), HostData::BF16(x)) => place(d, x, input_shape, before, &strides),
        (HostData::F16(d), HostData::F16(x)) => place(d, x, input_shape, before, &strides),
        (HostData::I32(d), HostData::I32(x)) => place(d, x, input_shape, before, &strides),
        (HostData::I64(d), HostData::I64(x)) => place(d, x, input_shape, before, &strides),
        (HostData::U8(d), HostData::U8(x)) => place(d, x, input_shape, before, &strides),
        (HostData::Bool(d), HostData::Bool(x)) => place(d, x, input_shape, before, &strides),
        _ => unreachable!("the output has the input's dtype"),
    }
    data
}

/// `torch.cat` of dense `parts` (all of `dtype`) along `axis`: for each
/// index of the dimensions before `axis`, each part's run after the other's.
pub(super) fn concat(
    parts: &[(&HostData, &Shape)],
    axis: usize,
    out: &Shape,
    dtype: DType,
) -> HostData {
    fn join<T: Copy>(data: &mut Vec<T>, parts: &[(&[T], usize)], outer: usize) {
        for o in 0..outer {
            for &(part, run) in parts {
                data.extend_from_slice(&part[o * run..(o + 1) * run]);
            }
        }
    }
    let outer: usize = out.dims()[..axis].iter().product();
    let run = |shape: &Shape| shape.dims()[axis..].iter().product::<usize>();
    macro_rules! joined {
        ($variant:ident) => {{
            let mut data = Vec::with_capacity(out.numel());
            let runs: Vec<_> = parts
                .iter()
                .map(|(d, shape)| match d {
                    HostData::$variant(v) => (v.as_slice(), run(shape)),
                    _ => unreachable!("the parts have the output's dtype"),
                })
                .collect();
            join(&mut data, &runs, outer);
            HostData::$variant(data)
        }};
    }
    match dtype {
        DType::Float32 => joined!(F32),
        DType::Float64 => joined!(F64),
        DType::BFloat16 => joined!(BF16),
        DType::Float16 => joined!(F16),
        DType::Int32 => joined!(I32),
        DType::Int64 => joined!(I64),
        DType::UInt8 => joined!(U8),
        DType::Bool => joined!(Bool),
    }
}

/// The gradient of `unfold(axis, size, step)`: `grad` has the unfolded shape
/// (`axis` counts windows, the last dimension is the window); element
/// `[.., w, .., k]` adds into output element `[.., w * step + k, ..]`, in the
/// gradient's order.
pub(super) fn unfold_backward(
    grad: &HostData,
    grad_shape: &Shape,
    axis: usize,
    step: usize,
    out: &Shape,
    out_dtype: DType,
) -> HostData {
    fn add<T: Copy + Send + Sync + std::ops::Add<Output = T>>(
        data: &mut [T],
        grad: &[T],
        grad_shape: &Shape,
        axis: usize,
        step: usize,
    ) {
        // The gradient as `[outer, windows, inner, size]` and the output as
        // `[outer, length, inner]`: element `[o, w, i, k]` adds into
        // `[o, w * step + k, i]`.
        let dims = grad_shape.dims();
        let rank = dims.len() - 1;
        let (windows, size) = (dims[axis], dims[rank]);
        let outer: usize = dims[..axis].iter().product();
        let inner: usize = dims[axis + 1..rank].iter().product();
        if data.is_empty() || grad.is_empty() || outer == 0 {
            return;
        }
        let length = data.len() / (outer * inner);
        // Each `o` writes its own part of the output, so they are shared
        // among threads (`threads.rs`); within one, every slot gets its
        // additions in the gradient's order (by window, then position).
        threads::for_chunks(data, length * inner, size, |first, part| {
            for (o, out) in part.chunks_mut(length * inner).enumerate() {
                let g = &grad[(first + o) * windows * inner * size..];
                for w in 0..windows {
                    for i in 0..inner {
                        let from = &g[(w * inner + i) * size..(w * inner + i + 1) * size];
                        let to = w * step * inner + i;
                        for (k, &v) in from.iter().enumerate() {
                            let slot = &mut out[to + k * inner];
                            *slot = *slot + v;
                        }
                    }
                }
            }
        });
    }
    let mut data = HostData::filled(out_dtype, out.numel(), 0.0);
    match (&mut data, grad) {
        (HostData::F32(d), HostData::F32(g)) => add(d, g, grad_shape, axis, step),
        (HostData::F64(d), HostData::F64(g)) => add(d, g, grad_shape, axis, step),
        _ => {
            // Other dtypes (bfloat16; integers take no gradients), through
            // float32.
            let widened = unfold_backward(
                &grad.cast(DType::Float32),
                grad_shape,
                axis,
                step,
                out,
                DType::Float32,
            );
            return widened.cast(out_dtype);
        }
    }
    data
}
