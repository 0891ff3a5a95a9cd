//! The reference backend: plain Rust loops over host memory. It is the definition
//! of what every op means; every other backend and eager mode is tested against it.
//! Clarity wins over speed here, except where a loop order is free to choose.
//!
//! This file holds the backend and each op's arm (elementwise, casts, fills);
//! the kernels the arms call live beside it: `reference/creation.rs`
//! (`arange`, `linspace`, `eye`, `nonzero`), `reference/matmul.rs`,
//! `reference/reduce.rs` (reductions and running sums), `reference/indexing.rs`
//! (strided windows, gathers, scatters, `where`'s selection), `reference/window.rs`
//! (padding and the gradient of `unfold`),
//! `reference/fused.rs` (fusion groups), and their threads: `reference/threads.rs`
//! natively, `reference/helpers.rs` (other workers' shares of large products)
//! in the browser.

use crate::backend::{
    Backend, BackendError, BackendKind, BufferId, Dispatched, FusedDispatch, Operand, ReadFuture,
};
use crate::data::{HostData, bf16_to_f32, f16_to_f32, f32_to_bf16, f32_to_f16};
use std::collections::HashMap;
use tpu_ir::{DType, FusedKernel, Op, Shape};

mod creation;
mod fused;
pub mod helpers;
mod indexing;
mod loops;
mod matmul;
mod pallas;
mod reduce;
mod threads;
mod window;
pub(crate) use creation::count_nonzero;
use fused::{FUSED_BLOCK, run_fused};
use indexing::{pick, scatter, select, strided_pick};
use loops::{broadcast, for_each_index, for_each_row, offset};
use matmul::{batched, batched_in_place};
use reduce::{cumsum, pairwise_sum, reduce, reduce_lane};

#[derive(Default)]
pub struct ReferenceBackend {
    buffers: HashMap<u64, HostData>,
    next_id: u64,
}

impl ReferenceBackend {
    pub fn new() -> Self {
        Self::default()
    }

    fn store(&mut self, data: HostData) -> BufferId {
        self.next_id += 1;
        self.buffers.insert(self.next_id, data);
        BufferId(self.next_id)
    }

    fn get(&self, id: BufferId) -> Result<&HostData, BackendError> {
        self.buffers
            .get(&id.0)
            .ok_or(BackendError::UnknownBuffer(id))
    }

    fn compute(
        &self,
        op: &Op,
        inputs: &[Operand<'_>],
        out: &Shape,
        out_dtype: DType,
    ) -> Result<HostData, BackendError> {
        let unsupported = |what: &str| BackendError::Unsupported {
            backend: "reference",
            what: format!("{what} on {}", out_dtype.torch_name()),
        };
        Ok(match op {
            Op::Fill { value } => HostData::filled(out_dtype, out.numel(), *value),
            Op::Cast { to } => self.get(inputs[0].buffer)?.cast(*to),
            Op::Compare { op } => {
                let (a, b) = (&inputs[0], &inputs[1]);
                let sa = a.shape.broadcast_strides(out);
                let sb = b.shape.broadcast_strides(out);
                let (x, y) = (self.get(a.buffer)?, self.get(b.buffer)?);
                // Integers compare exactly as integers; floats in float64, which
                // is exact for every float dtype.
                HostData::Bool(match (x.as_i64(), y.as_i64()) {
                    (Some(x), Some(y)) => broadcast(out, &x, &sa, &y, &sb, |p, q| op.apply(p, q)),
                    _ => broadcast(out, &x.to_f64(), &sa, &y.to_f64(), &sb, |p, q| {
                        op.apply(p, q)
                    }),
                })
            }
            Op::CompareScalar { op, scalar } => {
                // PyTorch rounds the number to a float tensor's dtype and
                // compares there (`float32 0.1 == 0.1` is true); integers
                // compare in f64, exact below 2^53.
                let round = |to: fn(f32) -> u16, from: fn(u16) -> f32| from(to(*scalar as f32));
                HostData::Bool(match self.get(inputs[0].buffer)? {
                    HostData::F32(x) => {
                        let s = *scalar as f32;
                        x.iter().map(|&v| op.apply(v, s)).collect()
                    }
                    HostData::BF16(x) => {
                        let s = round(f32_to_bf16, bf16_to_f32);
                        x.iter().map(|&v| op.apply(bf16_to_f32(v), s)).collect()
                    }
                    HostData::F16(x) => {
                        let s = round(f32_to_f16, f16_to_f32);
                        x.iter().map(|&v| op.apply(f16_to_f32(v), s)).collect()
                    }
                    other => {
                        let values = other.to_f64();
                        values.into_iter().map(|v| op.apply(v, *scalar)).collect()
                    }
                })
            }
            Op::Unary { op } => match self.get(inputs[0].buffer)? {
                data if data.dtype().is_integer() && op.keeps_integers() => {
                    let values = data.as_i64().unwrap_or_default();
                    HostData::from_i64(
                        data.dtype(),
                        values.into_iter().map(|v| op.apply_i64(v)).collect(),
                    )
                }
                HostData::F64(x) => HostData::F64(x.iter().map(|&v| op.apply(v)).collect()),
                HostData::F32(x) => {
                    let mut out = vec![0f32; x.len()];
                    threads::for_chunks(&mut out, 1, 8, |first, part| {
                        op.map_f32(&x[first..first + part.len()], part);
                    });
                    HostData::F32(out)
                }
                data => match data.as_f32() {
                    Some(x) => data.with_f32_values(x.iter().map(|&v| op.apply_f32(v))),
                    None => return Err(unsupported(op.name())),
                },
            },
            Op::Binary { op } => {
                let (a, b) = (&inputs[0], &inputs[1]);
                let sa = a.shape.broadcast_strides(out);
                let sb = b.shape.broadcast_strides(out);
                match (self.get(a.buffer)?, self.get(b.buffer)?) {
                    (HostData::F32(x), HostData::F32(y)) => {
                        HostData::F32(broadcast(out, x, &sa, y, &sb, |p, q| op.apply(p, q)))
                    }
                    (HostData::F64(x), HostData::F64(y)) => {
                        HostData::F64(broadcast(out, x, &sa, y, &sb, |p, q| op.apply(p, q)))
                    }
                    (HostData::BF16(x), HostData::BF16(y)) => {
                        HostData::BF16(broadcast(out, x, &sa, y, &sb, |p, q| {
                            f32_to_bf16(op.apply(bf16_to_f32(p), bf16_to_f32(q)))
                        }))
                    }
                    (HostData::F16(x), HostData::F16(y)) => {
                        HostData::F16(broadcast(out, x, &sa, y, &sb, |p, q| {
                            f32_to_f16(op.apply(f16_to_f32(p), f16_to_f32(q)))
                        }))
                    }
                    (x, y) if x.dtype() == y.dtype() && x.dtype().is_integer() => {
                        let (p, q) = (
                            x.as_i64().unwrap_or_default(),
                            y.as_i64().unwrap_or_default(),
                        );
                        HostData::from_i64(
                            x.dtype(),
                            broadcast(out, &p, &sa, &q, &sb, |p, q| op.apply_i64(p, q)),
                        )
                    }
                    _ => return Err(unsupported(op.name())),
                }
            }
            Op::BinaryScalar {
                op,
                scalar,
                scalar_on_left,
            } => {
                let ordered = |x: f32, s: f32| {
                    if *scalar_on_left {
                        op.apply(s, x)
                    } else {
                        op.apply(x, s)
                    }
                };
                match self.get(inputs[0].buffer)? {
                    HostData::F32(x) => {
                        HostData::F32(threads::map_slice(x, 2, |&v| ordered(v, *scalar as f32)))
                    }
                    HostData::F64(x) => HostData::F64(
                        x.iter()
                            .map(|&v| {
                                if *scalar_on_left {
                                    op.apply(*scalar, v)
                                } else {
                                    op.apply(v, *scalar)
                                }
                            })
                            .collect(),
                    ),
                    HostData::BF16(x) => HostData::BF16(
                        x.iter()
                            .map(|&v| f32_to_bf16(ordered(bf16_to_f32(v), *scalar as f32)))
                            .collect(),
                    ),
                    HostData::F16(x) => HostData::F16(
                        x.iter()
                            .map(|&v| f32_to_f16(ordered(f16_to_f32(v), *scalar as f32)))
                            .collect(),
                    ),
                    data @ (HostData::I64(_) | HostData::I32(_) | HostData::U8(_)) => {
                        let s = *scalar as i64;
                        let values = data.as_i64().unwrap_or_default();
                        HostData::from_i64(
                            data.dtype(),
                            values
                                .into_iter()
                                .map(|v| {
                                    if *scalar_on_left {
                                        op.apply_i64(s, v)
                                    } else {
                                        op.apply_i64(v, s)
                                    }
                                })
                                .collect(),
                        )
                    }
                    HostData::Bool(_) => return Err(unsupported(op.name())),
                }
            }
            Op::MatMul {
                transpose_a,
                transpose_b,
            } => {
                let (ta, tb) = (*transpose_a, *transpose_b);
                let (batch, m, k, n) =
                    Op::matmul_dims(inputs[0].shape.dims(), inputs[1].shape.dims(), ta, tb);
                match (self.get(inputs[0].buffer)?, self.get(inputs[1].buffer)?) {
                    (HostData::F64(a), HostData::F64(b)) => {
                        HostData::F64(batched(a, b, batch, m, k, n, ta, tb))
                    }
                    (a, b) if a.dtype().is_integer() && b.dtype() == a.dtype() => {
                        let (a, b) = (
                            a.as_i64().unwrap_or_default(),
                            b.as_i64().unwrap_or_default(),
                        );
                        HostData::from_i64(out_dtype, batched(&a, &b, batch, m, k, n, ta, tb))
                    }
                    (a, b) => {
                        let (Some(a), Some(b)) = (a.f32_values(), b.f32_values()) else {
                            return Err(unsupported("matmul"));
                        };
                        // bfloat16 accumulates in float32 and rounds once, as
                        // PyTorch's CPU matmul does.
                        HostData::F32(batched(&a, &b, batch, m, k, n, ta, tb)).into_dtype(out_dtype)
                    }
                }
            }
            Op::Strided { offset, strides } => {
                let src = self.get(inputs[0].buffer)?;
                let last = out
                    .dims()
                    .iter()
                    .zip(strides)
                    .map(|(&d, &s)| d.saturating_sub(1) * s)
                    .sum::<usize>()
                    + offset;
                if out.numel() > 0 && last >= src.len() {
                    return Err(BackendError::Device("strided window out of range".into()));
                }
                strided_pick(src, out, *offset, strides)
            }
            Op::Gather => {
                let HostData::I64(index) = self.get(inputs[1].buffer)? else {
                    return Err(unsupported("gather with a non-int64 index"));
                };
                let positions: Vec<usize> = index.iter().map(|&i| i as usize).collect();
                let src = self.get(inputs[0].buffer)?;
                if positions.iter().any(|&p| p >= src.len()) {
                    return Err(BackendError::Device("gather index out of range".into()));
                }
                pick(src, &positions)
            }
            Op::Scatter { accumulate } => {
                let HostData::I64(index) = self.get(inputs[1].buffer)? else {
                    return Err(unsupported("scatter with a non-int64 index"));
                };
                let mut base = self.get(inputs[0].buffer)?.clone();
                let values = self.get(inputs[2].buffer)?;
                if index.iter().any(|&p| p < 0 || p as usize >= base.len()) {
                    return Err(BackendError::Device("scatter index out of range".into()));
                }
                scatter(&mut base, index, values, *accumulate);
                base
            }
            Op::Pad { before, value, .. } => window::pad(
                self.get(inputs[0].buffer)?,
                inputs[0].shape,
                before,
                out,
                out_dtype,
                *value,
            ),
            Op::Concat { axis, .. } => {
                let parts = inputs
                    .iter()
                    .map(|i| Ok((self.get(i.buffer)?, i.shape)))
                    .collect::<Result<Vec<_>, BackendError>>()?;
                window::concat(&parts, *axis, out, out_dtype)
            }
            Op::UnfoldBackward { axis, step, .. } => window::unfold_backward(
                self.get(inputs[0].buffer)?,
                inputs[0].shape,
                *axis,
                *step,
                out,
                out_dtype,
            ),
            Op::Where => {
                let HostData::Bool(cond) = self.get(inputs[0].buffer)? else {
                    return Err(unsupported("where with a non-bool condition"));
                };
                let sc = inputs[0].shape.broadcast_strides(out);
                let sa = inputs[1].shape.broadcast_strides(out);
                let sb = inputs[2].shape.broadcast_strides(out);
                let mut take_a = Vec::with_capacity(out.numel());
                let mut from_a = Vec::with_capacity(out.numel());
                let mut from_b = Vec::with_capacity(out.numel());
                for_each_index(out, |index| {
                    take_a.push(cond[offset(index, &sc)]);
                    from_a.push(offset(index, &sa));
                    from_b.push(offset(index, &sb));
                });
                let a = pick(self.get(inputs[1].buffer)?, &from_a);
                let b = pick(self.get(inputs[2].buffer)?, &from_b);
                select(&take_a, a, b)
            }
            // Integer sums and running sums are int64 whatever the input's
            // width (the dispatcher's output dtype); the kernels compute
            // integers in int64, so the cast only narrows `max`/`min` of int32.
            Op::Reduce { op, axis } => {
                reduce(self.get(inputs[0].buffer)?, inputs[0].shape, *op, *axis)
                    .ok_or_else(|| unsupported(op.name()))?
                    .cast(out_dtype)
            }
            Op::Cumsum { axis, reverse } => cumsum(
                self.get(inputs[0].buffer)?,
                inputs[0].shape,
                *axis,
                *reverse,
            )
            .ok_or_else(|| unsupported("cumsum"))?
            .cast(out_dtype),
            Op::Arange { start, step } => creation::arange(*start, *step, out.numel(), out_dtype),
            Op::Linspace { start, end } => creation::linspace(*start, *end, out.numel(), out_dtype),
            Op::Eye => creation::eye(out, out_dtype),
            Op::Nonzero => {
                let coords = creation::nonzero(self.get(inputs[0].buffer)?, inputs[0].shape);
                if coords.len() != out.numel() {
                    return Err(BackendError::Device(
                        "nonzero: the output's shape does not match the input's nonzero count"
                            .into(),
                    ));
                }
                HostData::I64(coords)
            }
            Op::Pallas { kernel } => {
                let mut values = Vec::with_capacity(inputs.len());
                for input in inputs {
                    values.push(self.get(input.buffer)?.to_f64());
                }
                HostData::F64(pallas::run_pallas(kernel, &values)).cast(out_dtype)
            }
            Op::Random { draw } => {
                return Err(BackendError::Unsupported {
                    backend: "reference",
                    what: format!(
                        "{} draws, which the runtime makes from its generator",
                        draw.name()
                    ),
                });
            }
            Op::SumAll => match self.get(inputs[0].buffer)? {
                HostData::F64(x) => HostData::F64(vec![pairwise_sum(x)]),
                data => match (data.as_i64(), data.as_f32()) {
                    (Some(x), _) => {
                        HostData::I64(vec![x.iter().fold(0i64, |s, &v| s.wrapping_add(v))])
                            .cast(out_dtype)
                    }
                    (None, Some(values)) => {
                        HostData::F32(vec![pairwise_sum(&values)]).cast(out_dtype)
                    }
                    (None, None) => return Err(unsupported("sum")),
                },
            },
        })
    }
}

impl Backend for ReferenceBackend {
    fn kind(&self) -> BackendKind {
        BackendKind::Reference
    }

    fn device_description(&self) -> String {
        "CPU reference (Rust loops on the host)".into()
    }

    fn upload(&mut self, data: &HostData) -> Result<BufferId, BackendError> {
        Ok(self.store(data.clone()))
    }

    fn execute(
        &mut self,
        op: &Op,
        inputs: &[Operand<'_>],
        out_shape: &Shape,
        out_dtype: DType,
    ) -> Result<Dispatched, BackendError> {
        let data = self.compute(op, inputs, out_shape, out_dtype)?;
        debug_assert_eq!(data.dtype(), out_dtype);
        Ok(Dispatched {
            buffer: self.store(data),
            kernel: op.kernel_name(),
            kernel_language: "Rust",
            launch: None,
        })
    }

    fn supports_fused(&self) -> bool {
        true
    }

    fn fuses_masks(&self) -> bool {
        true
    }

    /// A fusion group as one loop over its iteration space: each element's
    /// inputs are read through their broadcast strides, the SSA program runs,
    /// and each output is stored; no intermediate is materialised.
    fn execute_fused(
        &mut self,
        kernel: &FusedKernel,
        inputs: &[BufferId],
    ) -> Result<FusedDispatch, BackendError> {
        let mut values = Vec::with_capacity(inputs.len());
        for &id in inputs {
            let data = self.get(id)?;
            let value = match data {
                // A bool, as 0 and 1.
                HostData::Bool(mask) => {
                    std::borrow::Cow::Owned(mask.iter().map(|&b| f32::from(u8::from(b))).collect())
                }
                _ => data.f32_values().ok_or_else(|| BackendError::Unsupported {
                    backend: "reference",
                    what: "fused kernels on non-float inputs".into(),
                })?,
            };
            values.push(value);
        }
        let slices: Vec<&[f32]> = values.iter().map(|v| &v[..]).collect();
        let outs = run_fused(kernel, &slices);
        drop(values);
        let dtypes = kernel.node_dtypes();
        let buffers = outs
            .into_iter()
            .zip(&kernel.outputs)
            .map(|(o, &node)| self.store(HostData::F32(o).into_dtype(dtypes[node])))
            .collect();
        Ok(FusedDispatch {
            buffers,
            source: match kernel.reduce_axis {
                Some(axis) => format!(
                    "one pass per row of {:?} along axis {axis}, evaluating {} nodes per row",
                    kernel.shape.dims(),
                    kernel.nodes.len()
                ),
                None => format!(
                    "{}one pass over {:?} in blocks of {FUSED_BLOCK}, evaluating {} nodes per block",
                    if kernel.matmul().is_some() {
                        "the matmul's product, then "
                    } else {
                        ""
                    },
                    kernel.shape.dims(),
                    kernel.nodes.len()
                ),
            },
            kernel_language: "Rust",
            launch: None,
        })
    }

    fn read(&mut self, buffer: BufferId, _dtype: DType, _len: usize) -> ReadFuture<'_> {
        let data = self.get(buffer).cloned();
        Box::pin(async move { data })
    }

    fn free(&mut self, buffer: BufferId) {
        self.buffers.remove(&buffer.0);
    }

    fn live_buffers(&self) -> usize {
        self.buffers.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tpu_ir::BinaryOp;

    fn run(
        backend: &mut ReferenceBackend,
        op: Op,
        inputs: &[(Vec<f32>, Shape)],
        out: Shape,
    ) -> Vec<f32> {
        let inputs: Vec<(HostData, Shape)> = inputs
            .iter()
            .map(|(d, s)| (HostData::F32(d.clone()), s.clone()))
            .collect();
        let result = crate::run_op(backend, &op, &inputs, &out, DType::Float32);
        match pollster::block_on(result).unwrap() {
            HostData::F32(v) => v,
            other => panic!("expected float32, got {other:?}"),
        }
    }

    #[test]
    fn matmul_of_small_matrices() {
        let mut b = ReferenceBackend::new();
        let a = (vec![1., 2., 3., 4., 5., 6.], Shape::new([2, 3]));
        let c = (vec![1., 0., 0., 1., 1., 1.], Shape::new([3, 2]));
        assert_eq!(
            run(&mut b, Op::MATMUL, &[a, c], Shape::new([2, 2])),
            vec![4., 5., 10., 11.]
        );
    }

    #[test]
    fn binary_broadcasts_a_row_over_a_matrix() {
        let mut b = ReferenceBackend::new();
        let a = (vec![1., 2., 3., 4., 5., 6.], Shape::new([2, 3]));
        let row = (vec![10., 20., 30.], Shape::new([3]));
        let op = Op::Binary { op: BinaryOp::Add };
        assert_eq!(
            run(&mut b, op, &[a, row], Shape::new([2, 3])),
            vec![11., 22., 33., 14., 25., 36.]
        );
    }

    #[test]
    fn scalar_on_the_left_keeps_operand_order() {
        let mut b = ReferenceBackend::new();
        let a = (vec![1., 4.], Shape::new([2]));
        let op = Op::BinaryScalar {
            op: BinaryOp::Sub,
            scalar: 10.0,
            scalar_on_left: true,
        };
        assert_eq!(run(&mut b, op, &[a], Shape::new([2])), vec![9., 6.]);
    }
}
