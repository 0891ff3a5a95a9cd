//! The reference kernels' threads. Natively, one pool of `TPU_THREADS`
//! threads (default: every core) runs a kernel whose work is large enough,
//! split into chunks of whole units (rows, blocks of a fused kernel, lanes of
//! a reduction, samples of a window gradient). A chunk's boundaries never
//! change an element's value: every element is computed by one thread, in the
//! order one thread would compute it, so results are the same bit for bit at
//! any thread count. In wasm every kernel runs on the calling thread; only
//! large float32 matrix products may be shared with helpers there
//! (`helpers.rs`), which the page's worker starts.

use std::ops::Range;

/// Below this much work (elements times their relative cost) a kernel runs
/// on the calling thread: handing chunks to the pool and waiting for them
/// costs a few microseconds, the time of about this many cheap elements.
/// Measured with `tpu bench --backend cpu` (docs/performance.md).
const PARALLEL_WORK: usize = 1 << 15;

/// Chunks per thread: a few, so that a thread slowed by the machine's other
/// work does not hold the rest up.
const CHUNKS_PER_THREAD: usize = 4;

/// The threads the reference kernels may use natively: `TPU_THREADS` when set
/// (the benchmark compares with PyTorch at 1 and 2 threads), else every core.
/// Always 1 in wasm.
pub(crate) fn threads() -> usize {
    #[cfg(not(target_arch = "wasm32"))]
    {
        static THREADS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
        *THREADS.get_or_init(|| {
            std::env::var("TPU_THREADS")
                .ok()
                .and_then(|t| t.parse().ok())
                .filter(|&t: &usize| t > 0)
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |t| t.get()))
        })
    }
    #[cfg(target_arch = "wasm32")]
    1
}

#[cfg(not(target_arch = "wasm32"))]
fn pool() -> &'static rayon::ThreadPool {
    static POOL: std::sync::OnceLock<rayon::ThreadPool> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads())
            .thread_name(|i| format!("tpu-reference-{i}"))
            .build()
            .expect("the reference backend's thread pool starts")
    })
}

/// `units` split into the ranges a kernel's chunks take: one range (all of
/// them, on the calling thread) when `work` (the kernel's elements times
/// their cost) is small or there is one thread.
pub(crate) fn chunks(units: usize, work: usize) -> Vec<Range<usize>> {
    #[cfg(test)]
    if let Some(count) = tests::CHUNKS.get() {
        return even(units, count);
    }
    let threads = threads();
    if threads <= 1 || work < PARALLEL_WORK || units < 2 {
        return std::iter::once(0..units).collect();
    }
    even(units, threads * CHUNKS_PER_THREAD)
}

/// `units` in at most `count` ranges of equal size (the last may be short).
pub(super) fn even(units: usize, count: usize) -> Vec<Range<usize>> {
    if units == 0 {
        return std::iter::once(0..0).collect();
    }
    let per = units.div_ceil(count.clamp(1, units));
    (0..units)
        .step_by(per)
        .map(|start| start..(start + per).min(units))
        .collect()
}

/// Runs `f` on each job: on the pool when there are several, else on the
/// calling thread.
pub(crate) fn run<J: Send>(jobs: Vec<J>, f: impl Fn(J) + Sync) {
    #[cfg(not(target_arch = "wasm32"))]
    if jobs.len() > 1 {
        use rayon::prelude::*;
        pool().install(|| jobs.into_par_iter().for_each(&f));
        return;
    }
    jobs.into_iter().for_each(f);
}

/// `data` cut at the ranges of `ranges` (in units of `unit` elements), in
/// order: the ranges must cover `data` from its start, one after another.
pub(crate) fn split<'a, T>(
    mut data: &'a mut [T],
    ranges: &[Range<usize>],
    unit: usize,
) -> Vec<&'a mut [T]> {
    let mut parts = Vec::with_capacity(ranges.len());
    for r in ranges {
        let len = ((r.end - r.start) * unit).min(data.len());
        let (head, tail) = data.split_at_mut(len);
        parts.push(head);
        data = tail;
    }
    parts
}

/// `f(first_unit, part)` over `out` cut into chunks of whole units of `unit`
/// elements, each element costing `cost` (1 for a copy, more for arithmetic).
pub(crate) fn for_chunks<T: Send>(
    out: &mut [T],
    unit: usize,
    cost: usize,
    f: impl Fn(usize, &mut [T]) + Sync,
) {
    let units = out.len().checked_div(unit).unwrap_or(0);
    let ranges = chunks(units, out.len().saturating_mul(cost));
    let parts = split(out, &ranges, unit);
    let jobs: Vec<(usize, &mut [T])> = ranges.iter().map(|r| r.start).zip(parts).collect();
    run(jobs, |(first, part)| f(first, part));
}

/// `f(i)` for `i` in `0..n`, collected in order, each costing `cost`.
pub(crate) fn map<U: Send + Default + Clone>(
    n: usize,
    cost: usize,
    f: impl Fn(usize) -> U + Sync,
) -> Vec<U> {
    let mut out = vec![U::default(); n];
    for_chunks(&mut out, 1, cost, |first, part| {
        for (j, slot) in part.iter_mut().enumerate() {
            *slot = f(first + j);
        }
    });
    out
}

/// `f` of each element of `x`, in order, each costing `cost`.
pub(crate) fn map_slice<T: Sync, U: Send + Default + Clone>(
    x: &[T],
    cost: usize,
    f: impl Fn(&T) -> U + Sync,
) -> Vec<U> {
    let mut out = vec![U::default(); x.len()];
    for_chunks(&mut out, 1, cost, |first, part| {
        for (slot, v) in part.iter_mut().zip(&x[first..]) {
            *slot = f(v);
        }
    });
    out
}

/// The multi-index of flat position `flat` in `dims` (row-major).
pub(crate) fn unravel(mut flat: usize, dims: &[usize]) -> Vec<usize> {
    let mut index = vec![0; dims.len()];
    for (axis, &d) in dims.iter().enumerate().rev() {
        if d > 0 {
            index[axis] = flat % d;
            flat /= d;
        }
    }
    index
}

/// Advances `index` to the next multi-index of `dims` in row-major order
/// (wrapping to all zeros after the last).
pub(crate) fn advance(index: &mut [usize], dims: &[usize]) {
    for axis in (0..dims.len()).rev() {
        index[axis] += 1;
        if index[axis] < dims[axis] {
            return;
        }
        index[axis] = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Backend;
    use crate::data::HostData;
    use crate::reference::ReferenceBackend;
    use std::cell::Cell;
    use tpu_ir::{
        BinaryOp, DType, FusedInput, FusedKernel, FusedNode, Op, ReduceOp, Shape, UnaryOp,
    };

    thread_local! {
        /// When set, every kernel on this thread is cut into this many chunks
        /// whatever its size (`chunks`).
        pub(super) static CHUNKS: Cell<Option<usize>> = const { Cell::new(None) };
    }

    /// An op's inputs with their shapes.
    type Operands = Vec<(HostData, Shape)>;

    /// Varied floats: signs, magnitudes, repeats.
    fn values(n: usize, seed: u64) -> Vec<f32> {
        let mut state = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (0..n)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((state >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 8.0
            })
            .collect()
    }

    fn bits(data: &HostData) -> Vec<u32> {
        match data {
            HostData::F32(v) => v.iter().map(|x| x.to_bits()).collect(),
            other => panic!("expected float32, got {other:?}"),
        }
    }

    /// What `run` returns in one chunk and in `count` chunks.
    fn in_chunks<R>(count: Option<usize>, run: impl FnOnce() -> R) -> R {
        CHUNKS.set(count);
        let result = run();
        CHUNKS.set(None);
        result
    }

    #[test]
    fn threaded_kernels_give_the_same_bits_in_any_number_of_chunks() {
        let shape = Shape::new([6, 33, 17]);
        let x = (HostData::F32(values(shape.numel(), 1)), shape.clone());
        let row = (HostData::F32(values(17, 2)), Shape::new([17]));
        let grad_shape = Shape::new([6, 33, 5, 3]);
        let grad = (HostData::F32(values(grad_shape.numel(), 3)), grad_shape);
        let a = (
            HostData::F32(values(32 * 16 * 40, 4)),
            Shape::new([32, 16, 40]),
        );
        let b = (
            HostData::F32(values(32 * 40 * 24, 5)),
            Shape::new([32, 40, 24]),
        );
        let ops: Vec<(Op, Operands, Shape)> = vec![
            (
                Op::Binary { op: BinaryOp::Mul },
                vec![x.clone(), row.clone()],
                shape.clone(),
            ),
            (
                Op::Unary { op: UnaryOp::Tanh },
                vec![x.clone()],
                shape.clone(),
            ),
            (
                Op::BinaryScalar {
                    op: BinaryOp::Div,
                    scalar: 3.0,
                    scalar_on_left: true,
                },
                vec![x.clone()],
                shape.clone(),
            ),
            // A transpose of the last two dims, copied.
            (
                Op::Strided {
                    offset: 0,
                    strides: vec![33 * 17, 1, 17],
                },
                vec![x.clone()],
                Shape::new([6, 17, 33]),
            ),
            (
                Op::Reduce {
                    op: ReduceOp::Sum,
                    axis: 1,
                },
                vec![x.clone()],
                Shape::new([6, 1, 17]),
            ),
            (
                Op::Reduce {
                    op: ReduceOp::Max,
                    axis: 2,
                },
                vec![x.clone()],
                Shape::new([6, 33, 1]),
            ),
            // The gradient of `x.unfold(2, 3, 3)` over [6, 33, 15].
            (
                Op::UnfoldBackward {
                    axis: 2,
                    size: 3,
                    step: 3,
                },
                vec![grad],
                Shape::new([6, 33, 15]),
            ),
            (Op::MATMUL, vec![a, b], Shape::new([32, 16, 24])),
        ];
        for (op, inputs, out) in &ops {
            let run = || {
                let mut backend = ReferenceBackend::new();
                let result = crate::run_op(&mut backend, op, inputs, out, DType::Float32);
                bits(&pollster::block_on(result).unwrap())
            };
            let one = in_chunks(Some(1), run);
            for count in [2, 7] {
                let chunked = in_chunks(Some(count), run);
                assert!(chunked == one, "{op:?} differs in {count} chunks");
            }
        }
        // Fused kernels: elementwise with a broadcast input, and row kernels
        // along a middle axis (rows interleaved) and the last.
        let input = |dims: &[usize]| FusedInput {
            shape: Shape::new(dims.to_vec()),
            dtype: DType::Float32,
            layout: None,
        };
        let elementwise = FusedKernel {
            shape: shape.clone(),
            dtype: DType::Float32,
            inputs: vec![input(&[6, 33, 17]), input(&[1, 1, 17])],
            nodes: vec![
                FusedNode::Input { index: 0 },
                FusedNode::Input { index: 1 },
                FusedNode::Binary {
                    op: BinaryOp::Add,
                    a: 0,
                    b: 1,
                },
                FusedNode::Unary {
                    op: UnaryOp::Exp,
                    x: 2,
                },
            ],
            outputs: vec![3, 2],
            reduce_axis: None,
            per_row: Vec::new(),
        };
        let softmax = |axis: usize| FusedKernel {
            reduce_axis: Some(axis),
            nodes: vec![
                FusedNode::Input { index: 0 },
                FusedNode::Reduce {
                    op: ReduceOp::Max,
                    x: 0,
                },
                FusedNode::Binary {
                    op: BinaryOp::Sub,
                    a: 0,
                    b: 1,
                },
                FusedNode::Unary {
                    op: UnaryOp::Exp,
                    x: 2,
                },
                FusedNode::Reduce {
                    op: ReduceOp::Sum,
                    x: 3,
                },
                FusedNode::Binary {
                    op: BinaryOp::Div,
                    a: 3,
                    b: 4,
                },
            ],
            outputs: vec![5, 4],
            per_row: vec![false, true, false, false, true, false],
            inputs: vec![input(&[6, 33, 17])],
            ..elementwise.clone()
        };
        let fused = [
            (
                elementwise.clone(),
                vec![x.0.clone(), HostData::F32(values(17, 2))],
            ),
            (softmax(1), vec![x.0.clone()]),
            (softmax(2), vec![x.0.clone()]),
        ];
        for (kernel, inputs) in &fused {
            let run = || {
                let mut backend = ReferenceBackend::new();
                let ids: Vec<_> = inputs.iter().map(|d| backend.store(d.clone())).collect();
                let done = backend.execute_fused(kernel, &ids).unwrap();
                let outs: Vec<Vec<u32>> = done
                    .buffers
                    .iter()
                    .map(|&b| bits(backend.get(b).unwrap()))
                    .collect();
                outs
            };
            let one = in_chunks(Some(1), run);
            for count in [2, 7] {
                let chunked = in_chunks(Some(count), run);
                let name = kernel.code_key();
                assert!(chunked == one, "{name} differs in {count} chunks");
            }
        }
    }

    #[test]
    fn chunks_cover_the_units_in_order() {
        for units in [0, 1, 2, 7, 100, 1001] {
            for work in [0, PARALLEL_WORK, usize::MAX] {
                let ranges = chunks(units, work);
                let mut next = 0;
                for r in &ranges {
                    assert_eq!(r.start, next);
                    next = r.end;
                }
                assert_eq!(next, units);
            }
        }
    }

    #[test]
    fn map_is_in_order_whatever_the_chunks() {
        let big = map(100_000, 1, |i| i * 3);
        assert!(big.iter().enumerate().all(|(i, &v)| v == i * 3));
    }

    #[test]
    fn unravel_and_advance_agree() {
        let dims = [2, 3, 4];
        let mut index = vec![0, 0, 0];
        for flat in 0..24 {
            assert_eq!(unravel(flat, &dims), index);
            advance(&mut index, &dims);
        }
        assert_eq!(index, vec![0, 0, 0]);
    }
}
