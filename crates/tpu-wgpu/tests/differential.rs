//! The wgpu backend against the reference backend, every op: `cases` matches
//! on every `Op` variant with no `_` arm (and `binary`, `unary`, `reduce` and
//! `compare` on every variant of theirs), so a new op does not compile until it
//! has a case here. Each case runs on both backends with the same inputs, on
//! ragged shapes (1, 7, 257, 1000 elements, odd matmul sizes, broadcasting and
//! views up to rank 8, every axis of reductions and running sums) with NaN,
//! signed zeros, negative numbers and halves where the op's definition cares,
//! and must agree within the tolerance its family states (see `Tolerance`).
//! Ops wgpu has no kernel for must be refused as `BackendError::Unsupported`,
//! which is what makes the runtime run them on the host instead, and must run
//! on the reference.
//!
//! The wgpu part is ignored, with its reason, unless the tests are built with
//! `TPU_REQUIRE_GPU=1` (then a missing adapter fails it); that every variant
//! has a case is checked always.

use case::{Case, Expect, Tolerance, run_case};
use integers::bools;
use tpu_ir::{BinaryOp, CompareOp, DType, IntOrFloat, Op, RandomDraw, ReduceOp, Shape, UnaryOp};
use tpu_runtime::{Backend, HostData};
use values::{divisors, dyadic, exponents, mixed, positive, powers_of_two, within_one};
use variants::{every, variant_names};

// The crate root of a test resolves modules beside it, in `tests/`; these
// live in `tests/differential/`, which Cargo does not take for a test.
#[path = "differential/case.rs"]
mod case;
#[path = "differential/halves.rs"]
mod halves;
#[path = "differential/integers.rs"]
mod integers;
#[path = "differential/matmuls.rs"]
mod matmuls;
#[path = "differential/pallas.rs"]
mod pallas;
#[path = "differential/values.rs"]
mod values;
#[path = "differential/variants.rs"]
mod variants;
#[path = "differential/windows.rs"]
mod windows;

/// One op of each `Op` variant; `cases` turns each into the variant's cases.
fn seeds() -> Vec<Op> {
    vec![
        Op::Fill { value: 0.0 },
        Op::Binary { op: BinaryOp::Add },
        Op::BinaryScalar {
            op: BinaryOp::Add,
            scalar: 0.0,
            scalar_on_left: false,
        },
        Op::Unary { op: UnaryOp::Neg },
        Op::Compare { op: CompareOp::Eq },
        Op::CompareScalar {
            op: CompareOp::Eq,
            scalar: 0.0,
        },
        Op::Cast { to: DType::Int64 },
        Op::MATMUL,
        Op::SumAll,
        Op::Strided {
            offset: 0,
            strides: vec![],
        },
        Op::Gather,
        Op::Scatter { accumulate: false },
        Op::Where,
        Op::Pad {
            before: vec![],
            after: vec![],
            value: 0.0,
        },
        Op::Concat { axis: 0, parts: 1 },
        Op::UnfoldBackward {
            axis: 0,
            size: 1,
            step: 1,
        },
        Op::Reduce {
            op: ReduceOp::Sum,
            axis: 0,
        },
        Op::Cumsum {
            axis: 0,
            reverse: false,
        },
        Op::Arange {
            start: IntOrFloat::Int(0),
            step: IntOrFloat::Int(1),
        },
        Op::Linspace {
            start: 0.0,
            end: 1.0,
        },
        Op::Eye,
        Op::Nonzero,
        Op::Random {
            draw: RandomDraw::Randperm,
        },
        pallas::cases(1).remove(0).op,
    ]
}

/// Every case of `seed`'s variant. No `_` arm: add a new op's cases here.
fn cases(seed: &Op) -> Vec<Case> {
    match seed {
        Op::Fill { .. } => [1, 7, 257, 1000, 70_001]
            .into_iter()
            .flat_map(|n| {
                [-1.5, 0.0, f64::NAN, 1e40].map(|value| {
                    // 1e40 rounds to float32 infinity on both.
                    Case::f32(
                        Op::Fill { value },
                        vec![],
                        Shape::new([n]),
                        Tolerance::Exact,
                    )
                })
            })
            // Bool fills: any nonzero (NaN too) is true.
            .chain(
                [0.0, 1.0, f64::NAN]
                    .map(|value| Case::exact(Op::Fill { value }, vec![], [1000], DType::Bool)),
            )
            .chain(integers::fills())
            .collect(),
        Op::Binary { .. } => every::<BinaryOp>()
            .into_iter()
            .flat_map(|op| [binary(op), integers::binary(op)].into_iter().flatten())
            .collect(),
        Op::BinaryScalar { .. } => every::<BinaryOp>()
            .into_iter()
            .flat_map(|op| {
                [binary_scalar(op), integers::binary_scalar(op)]
                    .into_iter()
                    .flatten()
            })
            .collect(),
        Op::Unary { .. } => every::<UnaryOp>()
            .into_iter()
            .flat_map(|op| [unary(op), integers::unary(op)].into_iter().flatten())
            .collect(),
        Op::Compare { .. } => every::<CompareOp>()
            .into_iter()
            .flat_map(|op| {
                [compare(op, false), integers::compare(op, false)]
                    .into_iter()
                    .flatten()
            })
            .collect(),
        Op::CompareScalar { .. } => every::<CompareOp>()
            .into_iter()
            .flat_map(|op| {
                [compare(op, true), integers::compare(op, true)]
                    .into_iter()
                    .flatten()
            })
            .collect(),
        Op::Arange { .. } | Op::Linspace { .. } | Op::Eye => integers::creations(),
        Op::Nonzero => {
            let x = (HostData::F32(vec![0.0, 1.5, 0.0, -2.0]), Shape::new([2, 2]));
            vec![Case::refused(
                Op::Nonzero,
                vec![x],
                Shape::new([2, 2]),
                DType::Int64,
            )]
        }
        Op::Random { .. } => vec![Case::runtime_only(
            Op::Random {
                draw: RandomDraw::Uniform {
                    low: 0.0,
                    high: 1.0,
                },
            },
            Shape::new([7]),
            DType::Float32,
        )],
        Op::Cast { .. } => integers::casts(),
        Op::MatMul { .. } => matmuls::matmul(),
        Op::Pallas { .. } => pallas::cases(36),
        Op::SumAll => [1, 7, 257, 1000, 70_001]
            .map(|n| {
                let x = (dyadic(n), Shape::new([n]));
                Case::f32(Op::SumAll, vec![x], Shape::scalar(), Tolerance::Exact)
            })
            .into_iter()
            .chain(integers::sums())
            .collect(),
        Op::Strided { .. } => [windows::strided(), integers::strided()]
            .into_iter()
            .flatten()
            .collect(),
        Op::Pad { .. } => [windows::pads(), integers::pads()]
            .into_iter()
            .flatten()
            .collect(),
        Op::Concat { .. } => [windows::concats(), integers::concats()]
            .into_iter()
            .flatten()
            .collect(),
        Op::UnfoldBackward { .. } => windows::unfold_backwards(),
        Op::Gather => integers::gathers(),
        Op::Scatter { .. } => integers::scatters(),
        Op::Where => {
            let cond = (HostData::Bool(vec![true, false, true]), Shape::new([3]));
            let a = (HostData::F32(vec![1.0, 2.0, 3.0]), Shape::new([3]));
            let b = (HostData::F32(vec![4.0]), Shape::new([1]));
            // A causal mask over scores, NaN and infinities kept as chosen.
            let mask = (HostData::Bool(bools(7 * 7)), Shape::new([7, 7]));
            let scores = (HostData::F32(mixed(2 * 7 * 7)), Shape::new([2, 1, 7, 7]));
            let fill = (HostData::F32(vec![f32::NEG_INFINITY]), Shape::new([1]));
            vec![
                Case::exact(Op::Where, vec![cond, a, b], [3], DType::Float32),
                Case::exact(
                    Op::Where,
                    vec![mask, scores, fill],
                    [2, 1, 7, 7],
                    DType::Float32,
                ),
            ]
            .into_iter()
            .chain(integers::wheres())
            .collect()
        }
        Op::Reduce { .. } => every::<ReduceOp>()
            .into_iter()
            .flat_map(|op| [reduce(op), integers::reduce(op)].into_iter().flatten())
            .collect(),
        Op::Cumsum { .. } => {
            let mut cases = Vec::new();
            for dims in [vec![1000], vec![7, 1, 257], vec![3, 4, 5, 2]] {
                let shape = Shape::new(dims.clone());
                for axis in 0..dims.len() {
                    for reverse in [false, true] {
                        // Accumulated in double by the reference and in float
                        // by wgpu: exact on inputs whose partial sums are.
                        let x = (dyadic(shape.numel()), shape.clone());
                        let op = Op::Cumsum { axis, reverse };
                        cases.push(Case::f32(op, vec![x], shape.clone(), Tolerance::Exact));
                    }
                }
            }
            cases.extend(integers::cumsums());
            cases
        }
    }
}

/// Broadcasting pairs of shapes, from one element to rank 8.
fn broadcast_shapes() -> Vec<(Vec<usize>, Vec<usize>, Vec<usize>)> {
    vec![
        (vec![1], vec![1], vec![1]),
        (vec![7], vec![1], vec![7]),
        (vec![1000], vec![1000], vec![1000]),
        (vec![4, 5], vec![5], vec![4, 5]),
        (vec![3, 1, 2], vec![4, 1], vec![3, 4, 2]),
        (vec![257, 1], vec![1, 3], vec![257, 3]),
        (
            vec![2, 1, 3, 1, 2, 1, 2, 3],
            vec![1, 3, 1, 2, 1, 2, 1],
            vec![2, 1, 3, 3, 2, 2, 2, 3],
        ),
    ]
}

/// The tolerance of a binary op, and the second operand's values.
fn binary_family(op: BinaryOp) -> (Tolerance, fn(usize) -> Vec<f32>) {
    match op {
        // Correctly rounded in WGSL, and NaN-aware by the helpers.
        BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul => (Tolerance::Exact, mixed),
        BinaryOp::Maximum | BinaryOp::Minimum => (Tolerance::Exact, mixed),
        // WGSL allows 2.5 ulp for `/`.
        BinaryOp::Div => (
            Tolerance::Ulps {
                ulps: 3.0,
                floor: 0.0,
            },
            divisors,
        ),
        // Exact: a quotient off by an ulp at an integer would change the
        // floor, and `-6 // 3` must print what PyTorch prints. Vulkan drivers
        // (lavapipe) divide correctly rounded; one that does not fails here.
        BinaryOp::FloorDiv => (Tolerance::Exact, divisors),
        // Both compute `fmod` exactly (the kernel by long division on the
        // significands), so the remainder is exact.
        BinaryOp::Remainder => (Tolerance::Exact, divisors),
        // WGSL's `pow` is `exp2(b * log2(a))`, whose error grows with
        // `|b * log2(a)|` (at most 2.5 * 2 here); the special cases (`x ** 2`,
        // `x ** 0.5`, negative bases with integer exponents) are as exact as
        // `*`, `sqrt` and `/`.
        BinaryOp::Pow => (
            Tolerance::Ulps {
                ulps: 16.0,
                floor: 0.0,
            },
            exponents,
        ),
    }
}

fn binary(op: BinaryOp) -> Vec<Case> {
    let (tolerance, second) = binary_family(op);
    let mut cases = Vec::new();
    for (a, b, out) in broadcast_shapes() {
        let (a, b, out) = (Shape::new(a), Shape::new(b), Shape::new(out));
        let inputs = vec![(mixed(a.numel()), a), (second(b.numel()), b)];
        cases.push(Case::f32(Op::Binary { op }, inputs, out, tolerance));
    }
    // Rank 9 is past the kernel's parameters: refused, run on the host.
    let nine = Shape::new([1, 2, 1, 2, 1, 2, 1, 2, 1]);
    let x = || (HostData::F32(mixed(16)), nine.clone());
    cases.push(Case::refused(
        Op::Binary { op },
        vec![x(), x()],
        nine.clone(),
        DType::Float32,
    ));
    cases
}

fn binary_scalar(op: BinaryOp) -> Vec<Case> {
    let (tolerance, second) = binary_family(op);
    let mut cases = Vec::new();
    for n in [1, 7, 257, 1000] {
        for scalar in second(11) {
            for scalar_on_left in [false, true] {
                // The tensor takes the divisor's or exponent's role on the left.
                let x = if scalar_on_left { second(n) } else { mixed(n) };
                let op = Op::BinaryScalar {
                    op,
                    scalar: scalar as f64,
                    scalar_on_left,
                };
                cases.push(Case::f32(
                    op,
                    vec![(x, Shape::new([n]))],
                    Shape::new([n]),
                    tolerance,
                ));
            }
        }
    }
    cases
}

fn unary(op: UnaryOp) -> Vec<Case> {
    // Transcendentals on a GPU are not correctly rounded: 4 ulp of the
    // result, or 1e-6 absolute near zero (sin, tanh, erf), as measured on
    // lavapipe with a margin. WGSL's own bounds are looser (sin and cos are
    // 2^-11 absolute), so a browser's driver may need more.
    let transcendental = Tolerance::Ulps {
        ulps: 4.0,
        floor: 1e-6,
    };
    let (tolerance, values): (Tolerance, fn(usize) -> Vec<f32>) = match op {
        UnaryOp::Neg
        | UnaryOp::Abs
        | UnaryOp::Relu
        | UnaryOp::Floor
        | UnaryOp::Ceil
        | UnaryOp::Round
        | UnaryOp::Sign => (Tolerance::Exact, mixed),
        UnaryOp::Exp | UnaryOp::Tanh | UnaryOp::Sigmoid | UnaryOp::Sin | UnaryOp::Cos => {
            (transcendental, mixed)
        }
        UnaryOp::Log | UnaryOp::Sqrt => (transcendental, positive),
        // `atan` is Cephes' polynomial (the built-in was 200 ulp off on
        // lavapipe); WGSL bounds `tan` by `sin / cos`, checked away from its
        // poles.
        UnaryOp::Atan => (
            Tolerance::Ulps {
                ulps: 4.0,
                floor: 1e-6,
            },
            mixed,
        ),
        UnaryOp::Tan => (
            Tolerance::Ulps {
                ulps: 64.0,
                floor: 1e-6,
            },
            within_one,
        ),
        // Abramowitz and Stegun 7.1.26 has an absolute error below 1.5e-7;
        // float32 rounding of its steps adds a few ulp of 1.
        UnaryOp::Erf => (
            Tolerance::Ulps {
                ulps: 0.0,
                floor: 5e-7,
            },
            mixed,
        ),
    };
    [1, 7, 257, 1000]
        .map(|n| {
            let shape = Shape::new([n]);
            Case::f32(
                Op::Unary { op },
                vec![(values(n), shape.clone())],
                shape,
                tolerance,
            )
        })
        .into()
}

/// Comparisons into bool tensors: NaN, signed zeros and equal values on
/// both sides, broadcasting, and numbers that float32 holds exactly.
fn compare(op: CompareOp, with_scalar: bool) -> Vec<Case> {
    let x = |n: usize, dims: &[usize]| (HostData::F32(mixed(n)), Shape::new(dims.to_vec()));
    if with_scalar {
        return [0.5, -0.0, 2.5, f64::INFINITY]
            .map(|scalar| {
                Case::exact(
                    Op::CompareScalar { op, scalar },
                    vec![x(70, &[70])],
                    [70],
                    DType::Bool,
                )
            })
            .into();
    }
    // `mixed` against itself reversed meets NaN with numbers and with NaN.
    let reversed = {
        let mut v = mixed(70);
        v.reverse();
        (HostData::F32(v), Shape::new([70]))
    };
    vec![
        Case::exact(
            Op::Compare { op },
            vec![x(70, &[70]), reversed],
            [70],
            DType::Bool,
        ),
        Case::exact(
            Op::Compare { op },
            vec![x(6, &[3, 1, 2]), x(8, &[4, 1])],
            [3, 4, 2],
            DType::Bool,
        ),
    ]
}

fn reduce(op: ReduceOp) -> Vec<Case> {
    let (expect, values): (Expect, fn(usize) -> Vec<f32>) = match op {
        // Pairwise on the reference, sequential on wgpu: exact on inputs
        // whose partial sums (products) are all exact.
        ReduceOp::Sum => (Expect::Close(Tolerance::Exact), dyadic),
        ReduceOp::Prod => (Expect::Close(Tolerance::Exact), powers_of_two),
        ReduceOp::Max | ReduceOp::Min => (Expect::Close(Tolerance::Exact), mixed),
        // int64 results: `integers::reduce`.
        ReduceOp::ArgMax | ReduceOp::ArgMin => return Vec::new(),
    };
    let mut cases = Vec::new();
    for dims in [vec![1], vec![1000], vec![7, 1, 257], vec![3, 4, 5, 2]] {
        let shape = Shape::new(dims.clone());
        for axis in 0..dims.len() {
            let mut out = dims.clone();
            out[axis] = 1;
            let dtype = match expect {
                Expect::Close(_) => DType::Float32,
                Expect::Refused | Expect::RuntimeOnly => DType::Int64,
            };
            cases.push(Case {
                op: Op::Reduce { op, axis },
                inputs: vec![(HostData::F32(values(shape.numel())), shape.clone())],
                out: Shape::new(out),
                dtype,
                expect,
            });
        }
    }
    cases
}

#[test]
fn every_op_variant_has_a_seed_and_cases() {
    let mut names: Vec<String> = seeds()
        .iter()
        .map(|op| {
            serde_json::to_value(op).unwrap()["kind"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    names.sort();
    let mut all = variant_names::<Op>(r#"{"kind": "?"}"#);
    all.sort();
    assert!(all.len() >= 15, "serde's error changed: {all:?}");
    assert_eq!(names, all, "every Op variant needs one seed in `seeds`");
    for seed in seeds() {
        assert!(!cases(&seed).is_empty(), "{seed:?} has no cases");
    }
}

#[test]
#[cfg_attr(
    not(tpu_gpu),
    ignore = "needs a wgpu adapter: set TPU_REQUIRE_GPU=1 when building the tests (the test command does), or run with --include-ignored"
)]
fn every_op_matches_the_reference_or_is_refused() {
    let mut gpu = pollster::block_on(tpu_wgpu::wgpu_for_tests());
    let mut failures = Vec::new();
    let mut count = 0;
    for seed in seeds() {
        for case in cases(&seed) {
            count += 1;
            if let Err(e) = run_case(&mut gpu, &case) {
                failures.push(e);
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {count} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
#[cfg_attr(
    not(tpu_gpu),
    ignore = "needs a wgpu adapter: set TPU_REQUIRE_GPU=1 when building the tests (the test command does), or run with --include-ignored"
)]
fn oversized_tensors_are_an_error_not_a_crash() {
    let mut gpu = pollster::block_on(tpu_wgpu::wgpu_for_tests());
    let huge = Shape::new([1usize << 40]);
    let err = gpu
        .execute(&Op::Fill { value: 0.0 }, &[], &huge, DType::Float32)
        .unwrap_err();
    assert!(err.to_string().contains("out of memory"), "{err}");
}

/// Every float32 case again in bfloat16 and in float16, and the casts into
/// and out of them (`differential/halves.rs`).
#[test]
#[cfg_attr(
    not(tpu_gpu),
    ignore = "needs a wgpu adapter: set TPU_REQUIRE_GPU=1 when building the tests (the test command does), or run with --include-ignored"
)]
fn every_float_op_matches_the_reference_in_bfloat16_and_float16() {
    let mut gpu = pollster::block_on(tpu_wgpu::wgpu_for_tests());
    let mut failures = Vec::new();
    let mut count = 0;
    let halved = seeds().into_iter().flat_map(|seed| {
        cases(&seed)
            .into_iter()
            .flat_map(|case| halves::HALVES.map(|dtype| halves::of(&case, dtype)))
            .flatten()
            .collect::<Vec<_>>()
    });
    for case in halved.chain(halves::casts()) {
        count += 1;
        if let Err(e) = run_case(&mut gpu, &case) {
            failures.push(e);
        }
    }
    assert!(count > 500, "{count} cases");
    assert!(
        failures.is_empty(),
        "{} of {count} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
