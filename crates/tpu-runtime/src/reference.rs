//! The reference backend: plain Rust loops over host memory. It is the definition
//! of what every op means; every other backend and eager mode is tested against it.
//! Clarity wins over speed here, except where a loop order is free to choose.

use crate::backend::{
    Backend, BackendError, BackendKind, BufferId, Dispatched, Operand, ReadFuture,
};
use std::collections::HashMap;
use tpu_ir::{Op, Shape};

#[derive(Default)]
pub struct ReferenceBackend {
    buffers: HashMap<u64, Vec<f32>>,
    next_id: u64,
}

impl ReferenceBackend {
    pub fn new() -> Self {
        Self::default()
    }

    fn store(&mut self, data: Vec<f32>) -> BufferId {
        self.next_id += 1;
        self.buffers.insert(self.next_id, data);
        BufferId(self.next_id)
    }

    fn get(&self, id: BufferId) -> Result<&[f32], BackendError> {
        self.buffers
            .get(&id.0)
            .map(Vec::as_slice)
            .ok_or(BackendError::UnknownBuffer(id))
    }

    fn compute(
        &self,
        op: &Op,
        inputs: &[Operand<'_>],
        out: &Shape,
    ) -> Result<Vec<f32>, BackendError> {
        Ok(match op {
            Op::Fill { value } => vec![*value; out.numel()],
            Op::Binary { op } => {
                let (a, b) = (&inputs[0], &inputs[1]);
                let (da, db) = (self.get(a.buffer)?, self.get(b.buffer)?);
                let sa = a.shape.broadcast_strides(out);
                let sb = b.shape.broadcast_strides(out);
                let mut result = Vec::with_capacity(out.numel());
                for_each_index(out, |index| {
                    result.push(op.apply(da[offset(index, &sa)], db[offset(index, &sb)]));
                });
                result
            }
            Op::BinaryScalar {
                op,
                scalar,
                scalar_on_left,
            } => {
                let a = self.get(inputs[0].buffer)?;
                a.iter()
                    .map(|&x| {
                        if *scalar_on_left {
                            op.apply(*scalar, x)
                        } else {
                            op.apply(x, *scalar)
                        }
                    })
                    .collect()
            }
            Op::MatMul => {
                let (a, b) = (self.get(inputs[0].buffer)?, self.get(inputs[1].buffer)?);
                let (m, k) = (inputs[0].shape.dims()[0], inputs[0].shape.dims()[1]);
                let n = inputs[1].shape.dims()[1];
                let mut c = vec![0.0f32; m * n];
                // i-k-j order streams rows of `b`; each output still accumulates its
                // products in increasing k, the order the WGSL kernel uses too.
                for i in 0..m {
                    for p in 0..k {
                        let aip = a[i * k + p];
                        for j in 0..n {
                            c[i * n + j] += aip * b[p * n + j];
                        }
                    }
                }
                c
            }
            Op::SumAll => {
                let a = self.get(inputs[0].buffer)?;
                vec![pairwise_sum(a)]
            }
        })
    }
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

    fn upload(&mut self, data: &[f32]) -> Result<BufferId, BackendError> {
        Ok(self.store(data.to_vec()))
    }

    fn execute(
        &mut self,
        op: &Op,
        inputs: &[Operand<'_>],
        out_shape: &Shape,
    ) -> Result<Dispatched, BackendError> {
        let data = self.compute(op, inputs, out_shape)?;
        Ok(Dispatched {
            buffer: self.store(data),
            kernel: op.kernel_name(),
            kernel_language: "Rust",
        })
    }

    fn read(&mut self, buffer: BufferId) -> ReadFuture<'_> {
        let data = self.get(buffer).map(<[f32]>::to_vec);
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
        pollster::block_on(crate::run_op(backend, &op, inputs, &out)).unwrap()
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
