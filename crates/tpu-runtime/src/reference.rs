//! The reference backend: plain Rust loops over host memory. It is the definition
//! of what every op means; every other backend and eager mode is tested against it.
//! Clarity wins over speed here, except where a loop order is free to choose.

use crate::backend::{
    Backend, BackendError, BackendKind, BufferId, Dispatched, Operand, ReadFuture,
};
use crate::data::{HostData, bf16_to_f32, f32_to_bf16};
use std::collections::HashMap;
use tpu_ir::{DType, Op, Shape};

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
                HostData::Bool(match (self.get(a.buffer)?, self.get(b.buffer)?) {
                    (HostData::I64(x), HostData::I64(y)) => {
                        broadcast(out, x, &sa, y, &sb, |p, q| op.apply(p, q))
                    }
                    (HostData::Bool(x), HostData::Bool(y)) => {
                        broadcast(out, x, &sa, y, &sb, |p, q| op.apply(p, q))
                    }
                    (x, y) => match (x.as_f32(), y.as_f32()) {
                        (Some(x), Some(y)) => {
                            broadcast(out, &x, &sa, &y, &sb, |p, q| op.apply(p, q))
                        }
                        _ => return Err(unsupported(op.name())),
                    },
                })
            }
            Op::CompareScalar { op, scalar } => {
                // PyTorch compares in the promoted type; comparing in f64 is
                // exact for float32 values and for int64 below 2^53.
                let values = self.get(inputs[0].buffer)?.to_f64();
                HostData::Bool(values.into_iter().map(|v| op.apply(v, *scalar)).collect())
            }
            Op::Unary { op } => match self.get(inputs[0].buffer)? {
                HostData::I64(x) if op.keeps_integers() => {
                    HostData::I64(x.iter().map(|&v| op.apply_i64(v)).collect())
                }
                data => match data.as_f32() {
                    Some(x) => data.with_f32_values(x.iter().map(|&v| op.apply(v as f64) as f32)),
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
                    (HostData::BF16(x), HostData::BF16(y)) => {
                        HostData::BF16(broadcast(out, x, &sa, y, &sb, |p, q| {
                            f32_to_bf16(op.apply(bf16_to_f32(p), bf16_to_f32(q)))
                        }))
                    }
                    (HostData::I64(x), HostData::I64(y)) => {
                        HostData::I64(broadcast(out, x, &sa, y, &sb, |p, q| op.apply_i64(p, q)))
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
                        HostData::F32(x.iter().map(|&v| ordered(v, *scalar as f32)).collect())
                    }
                    HostData::BF16(x) => HostData::BF16(
                        x.iter()
                            .map(|&v| f32_to_bf16(ordered(bf16_to_f32(v), *scalar as f32)))
                            .collect(),
                    ),
                    HostData::I64(x) => {
                        let s = *scalar as i64;
                        HostData::I64(
                            x.iter()
                                .map(|&v| {
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
            Op::MatMul => {
                let (m, k) = (inputs[0].shape.dims()[0], inputs[0].shape.dims()[1]);
                let n = inputs[1].shape.dims()[1];
                match (self.get(inputs[0].buffer)?, self.get(inputs[1].buffer)?) {
                    (HostData::I64(a), HostData::I64(b)) => HostData::I64(matmul(a, b, m, k, n)),
                    (a, b) => {
                        let (Some(a), Some(b)) = (a.as_f32(), b.as_f32()) else {
                            return Err(unsupported("matmul"));
                        };
                        // bfloat16 accumulates in float32 and rounds once, as
                        // PyTorch's CPU matmul does.
                        HostData::F32(matmul(&a, &b, m, k, n)).cast(out_dtype)
                    }
                }
            }
            Op::SumAll => match self.get(inputs[0].buffer)? {
                HostData::I64(x) => {
                    HostData::I64(vec![x.iter().fold(0i64, |s, &v| s.wrapping_add(v))])
                }
                data => match data.as_f32() {
                    Some(values) => HostData::F32(vec![pairwise_sum(&values)]).cast(out_dtype),
                    None => return Err(unsupported("sum")),
                },
            },
        })
    }
}

/// `f(a[i], b[i])` over the broadcast output shape, reading each input through
/// its broadcast strides.
fn broadcast<T: Copy, U>(
    out: &Shape,
    a: &[T],
    sa: &[usize],
    b: &[T],
    sb: &[usize],
    f: impl Fn(T, T) -> U,
) -> Vec<U> {
    let mut result = Vec::with_capacity(out.numel());
    for_each_index(out, |index| {
        result.push(f(a[offset(index, sa)], b[offset(index, sb)]));
    });
    result
}

/// `[m, k] @ [k, n]`. i-k-j order streams rows of `b`; each output still
/// accumulates its products in increasing k, the order the WGSL kernel uses too.
fn matmul<T: Copy + Default + std::ops::Add<Output = T> + std::ops::Mul<Output = T>>(
    a: &[T],
    b: &[T],
    m: usize,
    k: usize,
    n: usize,
) -> Vec<T> {
    let mut c = vec![T::default(); m * n];
    for i in 0..m {
        for p in 0..k {
            let aip = a[i * k + p];
            for j in 0..n {
                c[i * n + j] = c[i * n + j] + aip * b[p * n + j];
            }
        }
    }
    c
}

/// Visits every multi-index of `shape` in row-major order.
fn for_each_index(shape: &Shape, mut visit: impl FnMut(&[usize])) {
    let dims = shape.dims();
    if dims.contains(&0) {
        return;
    }
    let mut index = vec![0usize; dims.len()];
    loop {
        visit(&index);
        let mut axis = dims.len();
        loop {
            if axis == 0 {
                return;
            }
            axis -= 1;
            index[axis] += 1;
            if index[axis] < dims[axis] {
                break;
            }
            index[axis] = 0;
        }
    }
}

fn offset(index: &[usize], strides: &[usize]) -> usize {
    index.iter().zip(strides).map(|(i, s)| i * s).sum()
}

/// Pairwise summation, as PyTorch's CPU reductions do, so that long sums keep the
/// accuracy PyTorch users see.
fn pairwise_sum(values: &[f32]) -> f32 {
    const BLOCK: usize = 128;
    if values.len() <= BLOCK {
        values.iter().sum()
    } else {
        let mid = values.len() / 2;
        pairwise_sum(&values[..mid]) + pairwise_sum(&values[mid..])
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
            run(&mut b, Op::MatMul, &[a, c], Shape::new([2, 2])),
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
