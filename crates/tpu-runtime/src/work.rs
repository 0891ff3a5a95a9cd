//! What each kernel does, in the terms of the device model's cost model
//! (`tpu_device::cost::Work`): matmul sizes, other arithmetic, HBM traffic,
//! and whether it is SparseCore work; and what an op costs the interpreter's
//! fuel budget (`op_fuel`), derived from the same work.

use crate::backend::Operand;
use tpu_device::cost::Work;
use tpu_ir::{DType, FusedKernel, FusedNode, Op, Shape};

/// The work of one op run as its own kernel.
pub(crate) fn op_work(
    op: &Op,
    inputs: &[Operand<'_>],
    out_shape: &Shape,
    out_dtype: DType,
) -> Work {
    let bytes = |shape: &Shape, dtype: DType| (shape.numel() * dtype.size_in_bytes()) as f64;
    let hbm_bytes =
        inputs.iter().map(|i| bytes(i.shape, i.dtype)).sum::<f64>() + bytes(out_shape, out_dtype);
    let largest = inputs
        .iter()
        .map(|i| i.shape.numel())
        .chain([out_shape.numel()])
        .max()
        .unwrap_or(0) as f64;
    match op {
        Op::MatMul {
            transpose_a,
            transpose_b,
        } => {
            let (batch, m, k, n) = Op::matmul_dims(
                inputs[0].shape.dims(),
                inputs[1].shape.dims(),
                *transpose_a,
                *transpose_b,
            );
            Work {
                matmul: Some([batch, m, k, n]),
                hbm_bytes,
                ..Work::default()
            }
        }
        Op::Gather | Op::Scatter { .. } => Work {
            hbm_bytes,
            sparse: true,
            ..Work::default()
        },
        // Copies move bytes and compute nothing; the creation ops only write
        // their output (random draws are made on the host and uploaded).
        Op::Strided { .. }
        | Op::Cast { .. }
        | Op::Fill { .. }
        | Op::Arange { .. }
        | Op::Linspace { .. }
        | Op::Eye
        | Op::Random { .. } => Work {
            hbm_bytes,
            ..Work::default()
        },
        // One operation per element of the largest operand (for `nonzero`, a
        // comparison per input element).
        Op::Nonzero
        | Op::Binary { .. }
        | Op::BinaryScalar { .. }
        | Op::Unary { .. }
        | Op::Compare { .. }
        | Op::CompareScalar { .. }
        | Op::SumAll
        | Op::Where
        | Op::Reduce { .. }
        | Op::Cumsum { .. } => Work {
            vector_flops: largest,
            hbm_bytes,
            ..Work::default()
        },
    }
}

/// The work of a fusion group: its inputs and outputs cross HBM once; every
/// computed node is one operation per element.
pub(crate) fn fused_work(kernel: &FusedKernel) -> Work {
    let size = kernel.dtype.size_in_bytes() as f64;
    let inputs: f64 = kernel
        .inputs
        .iter()
        .map(|i| i.shape.numel() as f64 * i.dtype.size_in_bytes() as f64)
        .sum();
    let outputs: f64 = (0..kernel.outputs.len())
        .map(|j| kernel.output_shape(j).numel() as f64 * size)
        .sum();
    let computed = kernel
        .nodes
        .iter()
        .filter(|n| !matches!(n, FusedNode::Input { .. } | FusedNode::MatMul { .. }))
        .count();
    Work {
        matmul: kernel.matmul().map(|mm| [mm.batch, mm.m, mm.k, mm.n]),
        vector_flops: (computed * kernel.shape.numel()) as f64,
        hbm_bytes: inputs + outputs,
        sparse: false,
    }
}

/// Fuel an op costs the interpreter's budget of steps: one launch (dispatch,
/// bookkeeping, a record in the op log) weighs as much as `LAUNCH_FUEL` Python
/// steps, and every thousand elements touched or arithmetic operations done one
/// more. The charge makes a loop of tensor work end in `TimeoutError` as
/// surely as a loop of Python does, and bounds the op log (and the pending
/// graph of Fused mode) an endless loop can grow. It is not a time proxy: a
/// launch costs about 200 Python steps' time on lavapipe, but charging that
/// (250 was tried) let the default budget of ten million hold only 40,000
/// tensor ops, which a 500-step training loop of a small model passes. At 50,
/// the default budget holds some 200,000 launches of small tensors (`while
/// True: x = x + 1` over 1,000 elements: 16.7 s to `TimeoutError` in Strict,
/// 2.8 s in Fused, release build on lavapipe); the
/// wall-clock limit (`RunOptions::timeout`, the page's time limit, `tpu run
/// --timeout`) is what ends a slow runaway sooner.
pub(crate) fn op_fuel(work: &Work) -> u64 {
    let matmul_flops = work
        .matmul
        .map_or(0.0, |[b, m, k, n]| 2.0 * (b * m * k * n) as f64);
    let elements = work.hbm_bytes / 4.0 + work.vector_flops + matmul_flops;
    LAUNCH_FUEL + (elements / 1000.0) as u64
}

/// See `op_fuel`.
pub(crate) const LAUNCH_FUEL: u64 = 50;
