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
        Op::Pallas { kernel } => pallas_work(kernel),
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
        | Op::Pad { .. }
        | Op::Concat { .. }
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
        | Op::UnfoldBackward { .. }
        | Op::Reduce { .. }
        | Op::Cumsum { .. } => Work {
            vector_flops: largest,
            hbm_bytes,
            ..Work::default()
        },
    }
}

/// The work of a Pallas kernel: its dot products on the MXU and its other
/// block operations on the VPU at every grid point (a `pl.when` body counted
/// as if it always ran), and the HBM traffic of its blocks as Pallas's
/// pipeline moves them: a block is copied in (an output's written back) only
/// when its index differs from the previous grid point's.
pub(crate) fn pallas_work(kernel: &tpu_ir::PallasKernel) -> Work {
    use tpu_ir::BlockOp;
    let points = kernel.grid_points() as f64;
    let mut dot_flops = 0.0;
    let mut first_dot = None;
    let mut vector_flops = 0.0;
    for inst in kernel.instructions() {
        let numel = inst.shape.iter().product::<usize>() as f64;
        match &inst.op {
            BlockOp::Dot { .. } => {
                let (m, n) = (inst.shape[0], inst.shape[1]);
                let k = dot_depth(kernel, inst).unwrap_or(1);
                dot_flops += 2.0 * (m * k * n) as f64;
                first_dot.get_or_insert((m, k, n));
            }
            BlockOp::Binary { .. }
            | BlockOp::Unary { .. }
            | BlockOp::Compare { .. }
            | BlockOp::Where { .. }
            | BlockOp::Cast { .. } => vector_flops += numel,
            BlockOp::Reduce { a, .. } => vector_flops += value_numel(kernel, *a) as f64,
            _ => {}
        }
    }
    let matmul = first_dot.map(|(m, k, n)| {
        let per_dot = 2.0 * (m * k * n) as f64;
        [((dot_flops * points) / per_dot).round() as usize, m, k, n]
    });
    Work {
        matmul,
        vector_flops: vector_flops * points,
        hbm_bytes: block_traffic(kernel),
        sparse: false,
        conv: None,
    }
}

/// The contraction length of a `Dot`: the columns of its left operand.
pub(crate) fn dot_depth(kernel: &tpu_ir::PallasKernel, dot: &tpu_ir::Inst) -> Option<usize> {
    let tpu_ir::BlockOp::Dot { a, .. } = dot.op else {
        return None;
    };
    kernel
        .instructions()
        .into_iter()
        .find(|i| i.out == a && !i.shape.is_empty())
        .and_then(|i| i.shape.get(1).copied())
}

fn value_numel(kernel: &tpu_ir::PallasKernel, v: usize) -> usize {
    kernel
        .instructions()
        .into_iter()
        .find(|i| i.out == v)
        .map_or(1, |i| i.shape.iter().product())
}

/// Bytes a Pallas kernel's blocks move between HBM and VMEM.
pub(crate) fn block_traffic(kernel: &tpu_ir::PallasKernel) -> f64 {
    kernel
        .refs
        .iter()
        .map(|r| {
            (r.block_numel() * r.dtype.size_in_bytes()) as f64 * block_copies(kernel, r) as f64
        })
        .sum()
}

/// How many times ref `r`'s block is copied over the grid: at the first
/// point, and wherever its index differs from the previous point's. Grids
/// past a million points are counted as copying at every point.
pub(crate) fn block_copies(kernel: &tpu_ir::PallasKernel, r: &tpu_ir::BlockRef) -> u64 {
    const WALKED: usize = 1 << 20;
    let points = kernel.grid_points();
    if points > WALKED {
        return points as u64;
    }
    let mut copies = 0;
    let mut last: Option<Vec<usize>> = None;
    for p in 0..points {
        let start = r.block_start(&kernel.program_ids(p));
        if last.as_ref() != Some(&start) {
            copies += 1;
            last = Some(start);
        }
    }
    copies
}

/// The work of a fusion group: its inputs and outputs cross HBM once; every
/// computed node is one operation per element.
pub(crate) fn fused_work(kernel: &FusedKernel) -> Work {
    let inputs: f64 = kernel
        .inputs
        .iter()
        .map(|i| i.shape.numel() as f64 * i.dtype.size_in_bytes() as f64)
        .sum();
    let outputs: f64 = (0..kernel.outputs.len())
        .map(|j| {
            let size = kernel.output_dtype(j).size_in_bytes() as f64;
            kernel.output_shape(j).numel() as f64 * size
        })
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
        conv: None,
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
