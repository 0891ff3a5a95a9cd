//! Matmul cases: odd sizes, batches and every pair of transposes, on both
//! matmul kernels whichever the adapter would choose.

use crate::case::{Case, Tolerance, run_case};
use crate::halves::{self, HALVES};
use crate::values::dyadic;
use tpu_ir::{Op, Shape};

pub fn matmul() -> Vec<Case> {
    matmul_cases(&[
        (1, 1, 1, 1),
        (1, 2, 3, 2),
        (1, 17, 33, 5),
        (1, 65, 1, 129),
        (3, 5, 7, 3),
    ])
}

/// Matmuls of `(batch, m, k, n)`, each with every pair of transposes.
pub fn matmul_cases(sizes: &[(usize, usize, usize, usize)]) -> Vec<Case> {
    let mut cases = Vec::new();
    for &(batch, m, k, n) in sizes {
        for (transpose_a, transpose_b) in
            [(false, false), (true, false), (false, true), (true, true)]
        {
            let stored = |rows: usize, cols: usize, t: bool| {
                let (r, c) = if t { (cols, rows) } else { (rows, cols) };
                if batch == 1 {
                    vec![r, c]
                } else {
                    vec![batch, r, c]
                }
            };
            let (a, b) = (stored(m, k, transpose_a), stored(k, n, transpose_b));
            let out = if batch == 1 {
                vec![m, n]
            } else {
                vec![batch, m, n]
            };
            let op = Op::MatMul {
                transpose_a,
                transpose_b,
            };
            // Products of quarters summed in the same order on both: exact.
            let inputs = vec![
                (dyadic(a.iter().product()), Shape::new(a)),
                (dyadic(b.iter().product()), Shape::new(b)),
            ];
            cases.push(Case::f32(op, inputs, Shape::new(out), Tolerance::Exact));
        }
    }
    cases
}

/// Both matmul kernels, whichever the adapter would choose: the tiled one
/// on shapes that fill several of its 64x64 blocks and 16-deep slices, end
/// part way through them, and batch; every product exact, as the reference.
#[test]
#[cfg_attr(
    not(tpu_gpu),
    ignore = "needs a wgpu adapter: set TPU_REQUIRE_GPU=1 when building the tests (the test command does), or run with --include-ignored"
)]
fn both_matmul_kernels_match_the_reference() {
    let mut gpu = pollster::block_on(tpu_wgpu::wgpu_for_tests());
    let mut cases = matmul();
    cases.extend(matmul_cases(&[
        (1, 64, 16, 64),
        (1, 130, 70, 67),
        (2, 63, 17, 129),
        (5, 1, 40, 3),
        (1, 3, 0, 2),
    ]));
    // And in bfloat16 and float16, rounded once from float32 sums.
    let halves: Vec<Case> = cases
        .iter()
        .flat_map(|case| HALVES.map(|dtype| halves::of(case, dtype)))
        .flatten()
        .collect();
    cases.extend(halves);
    let mut failures = Vec::new();
    for kernel in tpu_wgpu::MatmulKernel::ALL {
        gpu.set_matmul_kernel(kernel);
        for case in &cases {
            if let Err(e) = run_case(&mut gpu, case) {
                failures.push(format!("{kernel:?}: {e}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
