//! Fused against unfused on random op graphs: elementwise chains with
//! broadcasting, scalar ops, masks (comparisons, casts between float32 and
//! bool, `where`), reductions (sum, max, min; axis kept or dropped, so row
//! kernels see both forms), matmuls (and their epilogues) and views between
//! them, and a backward pass through all of it. Each graph runs in Strict and in Fused mode
//! on the reference backend (where the two must agree exactly: a fused loop nest
//! does the same float32 operations) and on wgpu (within tolerance of the
//! reference), and the gradients are compared too.

use pollster::block_on;
use tpu_ir::{BinaryOp, CompareOp, DType, ReduceOp, ScalarKind, Shape, UnaryOp};
use tpu_runtime::rng::Mt19937;
use tpu_runtime::{Backend, Device, EagerMode, HostData, ReferenceBackend, Runtime, Tensor};

#[derive(Clone, Debug)]
enum Step {
    Binary(BinaryOp, usize, usize),
    Scalar(BinaryOp, usize, f64, bool),
    Unary(UnaryOp, usize),
    Reduce(ReduceOp, usize, usize, bool),
    Unsqueeze(usize, usize),
    MatMul(usize, usize),
    /// `x @ x.T`: a matmul whose operand is read transposed in place.
    Gram(usize),
    /// Attention's scores on input `HEADS` (`[B, T, H, D]`): `q @ k` with
    /// `q = x.permute(0, 2, 1, 3)` and `k = x.permute(0, 2, 3, 1)`, strided
    /// views Fused mode reads in place (`MatrixLayout`).
    Heads,
    Transpose(usize),
    /// `torch.where(x op y, z, x)`, broadcasting all three.
    Where(CompareOp, usize, usize, usize),
    /// `(x op y).float()`.
    Compare(CompareOp, usize, usize),
    /// `x * (x op s).float()`: ReLU's backward, dropout's mask.
    Mask(CompareOp, usize, f64),
}

struct Rng(Mt19937);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        (self.0.next_u32() as usize) % n.max(1)
    }
}

/// The input `Step::Heads` reads, `[B, T, H, D]`.
const HEADS: usize = 4;

/// A random graph over inputs shaped [a, b] and its broadcasts (and one
/// `[B, T, H, D]` input for `Step::Heads`).
fn graph(rng: &mut Rng) -> (Vec<Vec<usize>>, Vec<Step>) {
    let (a, b) = (1 + rng.below(5), 1 + rng.below(6));
    // Not a value other steps pick: only `Step::Heads` reads it.
    let heads = vec![1 + a % 3, b, 2, 1 + (a + b) % 4];
    let shapes = vec![vec![a, b], vec![b], vec![a, 1], vec![a, b], heads];
    let mut dims: Vec<Vec<usize>> = shapes[..HEADS].to_vec();
    let mut steps = Vec::new();
    for _ in 0..4 + rng.below(16) {
        let n = dims.len();
        // Mostly build on recent values, so that chains form.
        let recent = |rng: &mut Rng| n - 1 - rng.below(n.min(4));
        let (x, y) = if rng.below(3) == 0 {
            (rng.below(n), rng.below(n))
        } else {
            (recent(rng), recent(rng))
        };
        let compare = |rng: &mut Rng| CompareOp::ALL[rng.below(CompareOp::ALL.len())];
        let step = match rng.below(15) {
            0..=3 => {
                let ops = [
                    BinaryOp::Add,
                    BinaryOp::Sub,
                    BinaryOp::Mul,
                    BinaryOp::Maximum,
                    BinaryOp::Minimum,
                ];
                Step::Binary(ops[rng.below(ops.len())], x, y)
            }
            4 | 5 => {
                let ops = [BinaryOp::Add, BinaryOp::Mul, BinaryOp::Sub, BinaryOp::Div];
                let s = [0.5, -1.5, 2.0, 3.0][rng.below(4)];
                Step::Scalar(ops[rng.below(ops.len())], x, s, rng.below(2) == 0)
            }
            6 | 7 => {
                let ops = [
                    UnaryOp::Tanh,
                    UnaryOp::Sigmoid,
                    UnaryOp::Sin,
                    UnaryOp::Neg,
                    UnaryOp::Relu,
                    UnaryOp::Abs,
                ];
                Step::Unary(ops[rng.below(ops.len())], x)
            }
            8 | 9 => {
                let ops = [ReduceOp::Sum, ReduceOp::Max, ReduceOp::Min];
                let axis = rng.below(dims[x].len().max(1));
                Step::Reduce(ops[rng.below(3)], x, axis, rng.below(2) == 0)
            }
            10 => Step::Unsqueeze(x, rng.below(dims[x].len() + 1)),
            11 => Step::Where(compare(rng), x, y, recent(rng)),
            12 => Step::Compare(compare(rng), x, y),
            13 => Step::Mask(compare(rng), x, [0.0, 0.5, -1.0][rng.below(3)]),
            _ => {
                if dims[x].len() == 2 && dims[y].len() == 2 && dims[x][1] == dims[y][0] {
                    Step::MatMul(x, y)
                } else if dims[x].len() == 2 && rng.below(2) == 0 {
                    Step::Gram(x)
                } else if x % 2 == 0 {
                    Step::Heads
                } else {
                    Step::Transpose(x)
                }
            }
        };
        let broadcast = |operands: &[usize]| {
            let mut out = Shape::scalar();
            for &x in operands {
                out = Shape::broadcast(&out, &Shape::new(dims[x].clone())).ok()?;
            }
            Some(out.dims().to_vec())
        };
        let out = match &step {
            Step::Binary(_, x, y) | Step::Compare(_, x, y) => match broadcast(&[*x, *y]) {
                Some(d) => d,
                None => continue,
            },
            Step::Where(_, x, y, z) => match broadcast(&[*x, *y, *z]) {
                Some(d) => d,
                None => continue,
            },
            Step::Scalar(_, x, ..) | Step::Unary(_, x) | Step::Mask(_, x, _) => dims[*x].clone(),
            Step::Reduce(_, x, axis, keepdim) => {
                if dims[*x].is_empty() || dims[*x].contains(&0) {
                    continue;
                }
                let mut d = dims[*x].clone();
                if *keepdim {
                    d[*axis] = 1;
                } else {
                    d.remove(*axis);
                }
                d
            }
            Step::Unsqueeze(x, axis) => {
                if dims[*x].len() >= 4 {
                    continue;
                }
                let mut d = dims[*x].clone();
                d.insert(*axis, 1);
                d
            }
            Step::MatMul(x, y) => vec![dims[*x][0], dims[*y][1]],
            Step::Gram(x) => vec![dims[*x][0], dims[*x][0]],
            Step::Heads => {
                let [b, t, h, _] = shapes[HEADS][..] else {
                    unreachable!("a [B, T, H, D] input")
                };
                vec![b, h, t, t]
            }
            Step::Transpose(x) => {
                let mut d = dims[*x].clone();
                d.reverse();
                d
            }
        };
        dims.push(out);
        steps.push(step);
    }
    (shapes, steps)
}

/// Runs the graph in `mode`; returns every value and the inputs' gradients.
fn run(
    backend: Box<dyn Backend>,
    mode: EagerMode,
    shapes: &[Vec<usize>],
    steps: &[Step],
    seed: u32,
) -> (Vec<Vec<f32>>, Vec<Vec<f32>>, Vec<String>) {
    block_on(async {
        let mut rt = Runtime::new(backend);
        rt.set_mode(mode).unwrap();
        let mut values: Vec<Tensor> = Vec::new();
        let mut rng = Rng(Mt19937::new(seed));
        for shape in shapes {
            let n: usize = shape.iter().product();
            let data = (0..n)
                .map(|_| rng.below(2000) as f32 / 500.0 - 2.0)
                .collect();
            let t = rt
                .from_data(
                    HostData::F32(data),
                    Shape::new(shape.clone()),
                    Device::Tpu(0),
                )
                .await
                .unwrap();
            rt.set_requires_grad(&t, true).unwrap();
            values.push(t);
        }
        let inputs = values.clone();
        let heads = values.pop().expect("the [B, T, H, D] input");
        for step in steps {
            let v = match step {
                Step::Binary(op, x, y) => rt.binary(*op, &values[*x], &values[*y]).await,
                Step::Scalar(op, x, s, left) => {
                    rt.binary_scalar(*op, &values[*x], *s, ScalarKind::Float, *left)
                        .await
                }
                Step::Unary(op, x) => rt.unary(*op, &values[*x]).await,
                Step::Reduce(ReduceOp::Sum, x, axis, keepdim) => {
                    rt.reduce_axes(ReduceOp::Sum, &values[*x], &[*axis], *keepdim)
                        .await
                }
                Step::Reduce(op, x, axis, keepdim) => rt
                    .extremum_along(*op == ReduceOp::Max, &values[*x], *axis, *keepdim, false)
                    .await
                    .map(|(v, _)| v),
                Step::Unsqueeze(x, axis) => rt.unsqueeze(&values[*x], *axis as i64),
                Step::MatMul(x, y) => rt.matmul(&values[*x], &values[*y]).await,
                Step::Gram(x) => {
                    let t = rt.permute(&values[*x], &[1, 0]).unwrap();
                    rt.matmul(&values[*x], &t).await
                }
                Step::Heads => {
                    let q = rt.permute(&heads, &[0, 2, 1, 3]).unwrap();
                    let k = rt.permute(&heads, &[0, 2, 3, 1]).unwrap();
                    rt.matmul(&q, &k).await
                }
                Step::Transpose(x) => {
                    let r = values[*x].rank() as i64;
                    let perm: Vec<i64> = (0..r).rev().collect();
                    rt.permute(&values[*x], &perm)
                }
                Step::Where(op, x, y, z) => {
                    let cond = rt.compare(*op, &values[*x], &values[*y]).await.unwrap();
                    rt.where_(&cond, &values[*z], &values[*x]).await
                }
                Step::Compare(op, x, y) => {
                    let mask = rt.compare(*op, &values[*x], &values[*y]).await.unwrap();
                    rt.cast(&mask, DType::Float32).await
                }
                Step::Mask(op, x, s) => {
                    let mask = rt.compare_scalar(*op, &values[*x], *s).await.unwrap();
                    let mask = rt.cast(&mask, DType::Float32).await.unwrap();
                    rt.binary(BinaryOp::Mul, &values[*x], &mask).await
                }
            };
            values.push(v.unwrap());
        }
        // The loss sums every value (so every op matters to the gradients).
        let mut loss = rt
            .full(Shape::scalar(), 0.0, DType::Float32, Device::Tpu(0))
            .await
            .unwrap();
        for v in &values {
            let s = rt.sum(v).await.unwrap();
            loss = rt.binary(BinaryOp::Add, &loss, &s).await.unwrap();
        }
        rt.backward(&loss, None, false).await.unwrap();
        let mut read = Vec::new();
        for v in &values {
            read.push(rt.read(v).await.unwrap().as_f32().unwrap());
        }
        let mut grads = Vec::new();
        for t in &inputs {
            // The heads input reaches the loss only through a `Step::Heads`.
            if let Some(g) = t.grad() {
                grads.push(rt.read(&g).await.unwrap().as_f32().unwrap());
            }
        }
        let mut report = tpu_runtime::Report::default();
        rt.finish_report(&mut report).unwrap();
        let kernels = report
            .kernels
            .iter()
            .map(|k| k.source.clone().unwrap_or_default())
            .collect();
        (read, grads, kernels)
    })
}

fn close(a: &[Vec<f32>], b: &[Vec<f32>], what: &str, tolerance: f32) {
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        assert_eq!(x.len(), y.len(), "{what}: value {i} changed size");
        for (p, q) in x.iter().zip(y) {
            let ok = p == q
                || (p.is_nan() && q.is_nan())
                || (p - q).abs() <= tolerance * (1.0 + q.abs());
            assert!(ok, "{what}: value {i}: {p} vs {q}");
        }
    }
}

const CASES: u32 = 150;

#[test]
fn fused_graphs_match_unfused_on_the_reference_backend() {
    let mut fewer = 0;
    let (mut rows, mut epilogues, mut heads) = (0, 0, 0);
    for case in 0..CASES {
        let mut rng = Rng(Mt19937::new(1000 + case));
        let (shapes, steps) = graph(&mut rng);
        heads += steps.iter().filter(|s| matches!(s, Step::Heads)).count();
        let reference = || Box::new(ReferenceBackend::new()) as Box<dyn Backend>;
        let (v1, g1, k1) = run(reference(), EagerMode::Strict, &shapes, &steps, case);
        let (v2, g2, k2) = run(reference(), EagerMode::Fused, &shapes, &steps, case);
        rows += k2.iter().filter(|s| s.contains("per row")).count();
        epilogues += k2.iter().filter(|s| s.contains("matmul")).count();
        let (k1, k2) = (k1.len(), k2.len());
        close(&v2, &v1, &format!("case {case} values {steps:?}"), 0.0);
        close(&g2, &g1, &format!("case {case} gradients {steps:?}"), 0.0);
        assert!(
            k2 <= k1,
            "case {case}: fused launched more kernels ({k2} > {k1})"
        );
        fewer += usize::from(k2 < k1);
    }
    assert!(
        fewer > CASES as usize / 2,
        "fusion rarely helped: {fewer} of {CASES}"
    );
    // Both richer patterns occur often enough to be tested.
    assert!(rows >= 50, "only {rows} row kernels");
    assert!(epilogues >= 20, "only {epilogues} matmuls with an epilogue");
    assert!(heads >= 30, "only {heads} matmuls of head transposes");
}

#[test]
#[cfg_attr(
    not(tpu_gpu),
    ignore = "needs a wgpu adapter: set TPU_REQUIRE_GPU=1 when building the tests (the test command does), or run with --include-ignored"
)]
fn fused_graphs_match_the_reference_on_wgpu() {
    // One device per matmul kernel, shared by every case: an NVIDIA H200's
    // driver refused new devices after a few cases when each had its own.
    let gpus: Vec<tpu_runtime::SharedBackend> = tpu_wgpu::MatmulKernel::ALL
        .into_iter()
        .map(|kernel| {
            let mut gpu = block_on(tpu_wgpu::wgpu_for_tests());
            gpu.set_matmul_kernel(kernel);
            tpu_runtime::SharedBackend::new(Box::new(gpu))
        })
        .collect();
    // Fused kernels that compute bools, and that write them.
    let (mut masks, mut written) = (0, 0);
    for case in 0..CASES / 3 {
        let mut rng = Rng(Mt19937::new(1000 + case));
        let (shapes, steps) = graph(&mut rng);
        let reference = Box::new(ReferenceBackend::new());
        let (v1, g1, _) = run(reference, EagerMode::Strict, &shapes, &steps, case);
        // Matmul epilogues on both kernels, whichever the adapter would choose.
        let gpu = gpus[case as usize % gpus.len()].clone();
        let (v2, g2, k2) = run(Box::new(gpu), EagerMode::Fused, &shapes, &steps, case);
        close(&v2, &v1, &format!("case {case} values {steps:?}"), 1e-4);
        close(&g2, &g1, &format!("case {case} gradients {steps:?}"), 1e-4);
        let fused = k2.iter().filter(|s| s.contains("fn param("));
        let fused: Vec<&String> = fused.collect();
        masks += fused
            .iter()
            .filter(|s| s.contains("select(0.0, 1.0"))
            .count();
        written += fused
            .iter()
            .filter(|s| s.contains("] = select(0u, 1u, v"))
            .count();
    }
    assert!(masks >= 50, "only {masks} fused kernels computed bools");
    assert!(written >= 10, "only {written} fused kernels wrote bools");
}
