//! The wgpu backend against the reference backend, op by op, on a real adapter
//! (lavapipe on CI). Set `TPU_REQUIRE_GPU=1` (the test command does) to make a
//! missing adapter a failure instead of a skip.

use tpu_ir::{BinaryOp, DType, Op, Shape, UnaryOp};
use tpu_runtime::{Backend, HostData, ReferenceBackend, run_op};
use tpu_wgpu::WgpuBackend;

fn wgpu_or_skip() -> Option<WgpuBackend> {
    match pollster::block_on(WgpuBackend::new()) {
        Ok(b) => Some(b),
        Err(e) if std::env::var_os("TPU_REQUIRE_GPU").is_some() => {
            panic!("TPU_REQUIRE_GPU is set but {e}")
        }
        Err(e) => {
            eprintln!("skipping: {e}");
            None
        }
    }
}

/// Runs `op` on both backends with the same inputs and returns both outputs.
fn both(
    gpu: &mut WgpuBackend,
    op: Op,
    inputs: &[(Vec<f32>, Shape)],
    out: &Shape,
) -> (Vec<f32>, Vec<f32>) {
    let inputs: Vec<(HostData, Shape)> = inputs
        .iter()
        .map(|(d, s)| (HostData::F32(d.clone()), s.clone()))
        .collect();
    let f32 = DType::Float32;
    let reference =
        pollster::block_on(run_op(&mut ReferenceBackend::new(), &op, &inputs, out, f32));
    let wgpu = pollster::block_on(run_op(gpu, &op, &inputs, out, f32));
    let values = |d: HostData| d.as_f32().expect("float32 results");
    (values(reference.unwrap()), values(wgpu.unwrap()))
}

fn assert_close(reference: &[f32], actual: &[f32]) {
    assert_eq!(reference.len(), actual.len());
    for (i, (r, a)) in reference.iter().zip(actual).enumerate() {
        let tolerance = 1e-5f32.max(1e-5 * r.abs());
        assert!(
            (r - a).abs() <= tolerance,
            "element {i}: reference {r}, wgpu {a}"
        );
    }
}

fn ramp(n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| ((i * 7919) % 113) as f32 / 17.0 - 3.0)
        .collect()
}

#[test]
fn matmul_matches_reference_on_ragged_shapes() {
    let Some(mut gpu) = wgpu_or_skip() else {
        return;
    };
    for (m, k, n) in [(1, 1, 1), (2, 3, 2), (17, 33, 5), (64, 128, 96)] {
        let inputs = [
            (ramp(m * k), Shape::new([m, k])),
            (ramp(k * n), Shape::new([k, n])),
        ];
        let (r, g) = both(&mut gpu, Op::MATMUL, &inputs, &Shape::new([m, n]));
        assert_close(&r, &g);
    }
}

#[test]
fn broadcasting_binary_ops_match_reference() {
    let Some(mut gpu) = wgpu_or_skip() else {
        return;
    };
    let cases = [
        (Shape::new([4, 5]), Shape::new([5]), Shape::new([4, 5])),
        (
            Shape::new([3, 1, 2]),
            Shape::new([4, 1]),
            Shape::new([3, 4, 2]),
        ),
        (Shape::new([1000]), Shape::new([1000]), Shape::new([1000])),
    ];
    for op in [BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div] {
        for (a, b, out) in &cases {
            let inputs = [
                (ramp(a.numel()), a.clone()),
                (ramp(b.numel()).iter().map(|x| x + 5.0).collect(), b.clone()),
            ];
            let (r, g) = both(&mut gpu, Op::Binary { op }, &inputs, out);
            assert_close(&r, &g);
        }
    }
}

#[test]
fn scalar_ops_fill_and_sum_match_reference() {
    let Some(mut gpu) = wgpu_or_skip() else {
        return;
    };
    // 70,000 elements need more than one row of workgroups' worth of 256 threads
    // per dimension only past 16.7M, but exercise a non-multiple of 256.
    let shape = Shape::new([70_001]);
    let input = [(ramp(70_001), shape.clone())];
    let op = Op::BinaryScalar {
        op: BinaryOp::Sub,
        scalar: 2.5,
        scalar_on_left: true,
    };
    let (r, g) = both(&mut gpu, op, &input, &shape);
    assert_close(&r, &g);
    let (r, g) = both(&mut gpu, Op::Fill { value: -1.5 }, &[], &shape);
    assert_close(&r, &g);
    let ones = [(vec![1.0; 70_001], shape.clone())];
    let (r, g) = both(&mut gpu, Op::SumAll, &ones, &Shape::scalar());
    assert_eq!(r, vec![70_001.0]);
    assert_eq!(g, vec![70_001.0]);
}

#[test]
fn unary_functions_match_reference_within_a_few_ulps() {
    let Some(mut gpu) = wgpu_or_skip() else {
        return;
    };
    let shape = Shape::new([1000]);
    // Positive inputs keep log and sqrt defined; the ramp covers [-3, 3.6].
    let ramp = ramp(1000);
    let positive: Vec<f32> = ramp.iter().map(|x| x.abs() + 0.01).collect();
    for op in [
        UnaryOp::Neg,
        UnaryOp::Abs,
        UnaryOp::Relu,
        UnaryOp::Exp,
        UnaryOp::Log,
        UnaryOp::Sqrt,
        UnaryOp::Tanh,
        UnaryOp::Sigmoid,
        UnaryOp::Sin,
        UnaryOp::Cos,
    ] {
        let input = if matches!(op, UnaryOp::Log | UnaryOp::Sqrt) {
            &positive
        } else {
            &ramp
        };
        let (r, g) = both(
            &mut gpu,
            Op::Unary { op },
            &[(input.clone(), shape.clone())],
            &shape,
        );
        for (i, (x, y)) in r.iter().zip(&g).enumerate() {
            // GPU transcendentals are not correctly rounded: allow 4 ulps of
            // the result, or 1e-6 absolute near zero (sin, tanh).
            let tolerance = (4.0 * f32::EPSILON * x.abs()).max(1e-6);
            assert!(
                (x - y).abs() <= tolerance,
                "{op:?} element {i}: reference {x}, wgpu {y}"
            );
        }
    }
}

#[test]
fn oversized_tensors_are_an_error_not_a_crash() {
    let Some(mut gpu) = wgpu_or_skip() else {
        return;
    };
    let huge = Shape::new([1usize << 40]);
    let err = gpu
        .execute(&Op::Fill { value: 0.0 }, &[], &huge, DType::Float32)
        .unwrap_err();
    assert!(err.to_string().contains("out of memory"), "{err}");
}
