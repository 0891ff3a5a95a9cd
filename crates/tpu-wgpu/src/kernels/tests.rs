//! The per-op kernels' tests: their WGSL validates, a kernel's name
//! determines its source, integer kernels keep only the helpers they call.

use super::*;
use expect_test::expect;
use tpu_ir::{BinaryOp, UnaryOp};

#[test]
fn binary_scalar_kernel_text() {
    expect![[r#"
        @group(0) @binding(0) var<storage, read> params: array<u32>;
        @group(0) @binding(1) var<storage, read> a: array<f32>;
        @group(0) @binding(2) var<storage, read_write> out: array<f32>;

        @compute @workgroup_size(256)
        fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
            let i = gid.y * groups.x * 256u + gid.x;
            if (i >= params[0]) {
                return;
            }
            let s = bitcast<f32>(params[1]);
            out[i] = (s - a[i]);
        }
    "#]]
    .assert_eq(&elementwise::binary_scalar(BinaryOp::Sub, true));
}

#[test]
fn every_kernel_parses_and_validates_as_wgsl() {
    let sources = [
        elementwise::fill(),
        elementwise::binary_scalar(BinaryOp::Mul, false),
        elementwise::binary_scalar(BinaryOp::Remainder, true),
        elementwise::unary(UnaryOp::Relu),
        elementwise::unary(UnaryOp::Sigmoid),
        elementwise::unary(UnaryOp::Erf),
        broadcast::binary(BinaryOp::Add),
        broadcast::binary(BinaryOp::Pow),
        broadcast::binary(BinaryOp::Maximum),
        matmul::source(false, false),
        matmul::source(true, true),
        matmul::tiled_source(false, false),
        matmul::tiled_source(true, false),
        matmul::tiled_source(false, true),
        sum_all::source(),
        strided::copy_of("f32"),
        strided::copy_of("u32"),
        mask::compare(tpu_ir::CompareOp::Ne),
        mask::compare_scalar(tpu_ir::CompareOp::Gt),
        mask::select("f32"),
        mask::select("vec2<u32>"),
        mask::cast(DType::Float32, DType::Bool),
        mask::cast(DType::Bool, DType::Float32),
        mask::fill(),
        axis::reduce(ReduceOp::Sum),
        axis::reduce(ReduceOp::Max),
        axis::cumsum(true),
        strided::copy_of("vec2<u32>"),
        ints::binary(BinaryOp::FloorDiv, DType::Int64),
        ints::binary(BinaryOp::Pow, DType::Int32),
        ints::binary_scalar(BinaryOp::Remainder, true, DType::Int64),
        ints::unary(UnaryOp::Sign, DType::Int64),
        ints::compare(tpu_ir::CompareOp::Le, DType::Int64, DType::Int32),
        ints::compare_scalar(tpu_ir::CompareOp::Ge, DType::Bool),
        ints::cast(DType::Float32, DType::Int64),
        ints::cast(DType::Float32, DType::Int32),
        ints::cast(DType::Int64, DType::Float32),
        ints::cast(DType::Int32, DType::Bool),
        ints::reduce(ReduceOp::Max, DType::Bool, DType::Bool),
        ints::reduce(ReduceOp::Sum, DType::Int32, DType::Int64),
        ints::arg_reduce(ReduceOp::ArgMax, DType::Float32, DType::Int64),
        ints::arg_reduce(ReduceOp::ArgMin, DType::Int64, DType::Int64),
        ints::cumsum(true, DType::Int64, DType::Int64),
        ints::sum_all(DType::Bool, DType::Int64),
        creation::arange(DType::Int64),
        creation::arange(DType::Float32),
        creation::linspace(),
        creation::eye(DType::Float32),
        creation::fill(DType::Int64),
        creation::fill(DType::Int32),
        index::gather(DType::Float32),
        index::gather(DType::Int64),
        index::scatter(DType::Float32, false),
        index::scatter(DType::Float32, true),
        index::scatter(DType::Int64, true),
    ];
    for source in sources {
        crate::codegen::tests::validate(&source);
    }
}

/// A pipeline is kept by name, so two variants with one name must have
/// one source: every dtype combination the backend accepts, op by op.
#[test]
fn a_kernel_name_determines_its_source() {
    use tpu_runtime::BufferId;
    let dtypes = [
        DType::Float32,
        DType::Bool,
        DType::UInt8,
        DType::Int32,
        DType::Int64,
        DType::BFloat16,
        DType::Float16,
    ];
    let ops = [
        Op::Where,
        Op::Compare {
            op: tpu_ir::CompareOp::Lt,
        },
        Op::CompareScalar {
            op: tpu_ir::CompareOp::Lt,
            scalar: 1.0,
        },
        Op::Reduce {
            op: ReduceOp::Max,
            axis: 0,
        },
        Op::Reduce {
            op: ReduceOp::ArgMax,
            axis: 0,
        },
        Op::SumAll,
        Op::Cast { to: DType::Float32 },
        Op::Cast { to: DType::Int64 },
        Op::Cast { to: DType::Bool },
        Op::Fill { value: 1.0 },
        Op::Strided {
            offset: 0,
            strides: vec![1],
        },
        Op::Gather,
        Op::Scatter { accumulate: false },
        Op::Scatter { accumulate: true },
        Op::Pad {
            before: vec![1],
            after: vec![0],
            value: -1.0,
        },
        Op::Concat { axis: 0, parts: 2 },
        Op::Binary { op: BinaryOp::Add },
        Op::Unary { op: UnaryOp::Neg },
        Op::Eye,
    ];
    let shape = Shape::new([4]);
    let mut sources: std::collections::HashMap<String, String> = Default::default();
    let mut accepted = 0;
    for op in &ops {
        for out in dtypes {
            for a in dtypes {
                for b in dtypes {
                    let arity = match op {
                        Op::Fill { .. } | Op::Eye => 0,
                        Op::Compare { .. } | Op::Binary { .. } | Op::Gather | Op::Concat { .. } => {
                            2
                        }
                        Op::Where | Op::Scatter { .. } => 3,
                        _ => 1,
                    };
                    let all = [a, b, b];
                    let inputs: Vec<Operand> = all[..arity]
                        .iter()
                        .map(|&dtype| Operand {
                            buffer: BufferId(0),
                            shape: &shape,
                            dtype,
                        })
                        .collect();
                    if check_dtypes(op, &inputs, out).is_err() {
                        continue;
                    }
                    accepted += 1;
                    let variant = Variant::of(MatmulKernel::Naive, &inputs, out);
                    let name = pipeline_name(op, variant);
                    let source = source_with(op, variant);
                    // A concatenation copies words already rounded.
                    if half::is_half(out) && !matches!(op, Op::Concat { .. }) {
                        every_store_rounded(&name, &source);
                    }
                    let known = sources.entry(name.clone()).or_insert(source.clone());
                    assert_eq!(*known, source, "two sources named {name}");
                }
            }
        }
    }
    assert!(accepted > 50, "{accepted} variants");
    let rounding = |suffix| sources.keys().filter(|n| n.ends_with(suffix)).count();
    assert!(
        rounding("_bf16") > 10 && rounding("_f16") > 10,
        "{:?}",
        sources.keys()
    );
    for source in sources.values() {
        crate::codegen::tests::validate(source);
    }
}

/// A kernel with a bfloat16 or float16 output rounds every value it stores
/// into `out`, and stores something.
fn every_store_rounded(name: &str, source: &str) {
    let stores: Vec<(&str, &str)> = source.lines().filter_map(half::store).collect();
    assert!(!stores.is_empty(), "{name} stores nothing:\n{source}");
    for (target, value) in stores {
        assert!(
            value.starts_with("round_bf16(") || value.starts_with("round_f16("),
            "{name} stores `{value}` into {target} unrounded"
        );
    }
    // Every line that writes `out` is a store `half::store` sees.
    let writes = source
        .lines()
        .filter(|l| l.trim_start().starts_with("out[") && l.contains(" = "))
        .count();
    assert_eq!(
        writes,
        source.lines().filter_map(half::store).count(),
        "{name}"
    );
}

#[test]
fn the_tiled_matmul_rounds_its_half_outputs() {
    let op = Op::MatMul {
        transpose_a: false,
        transpose_b: true,
    };
    for dtype in [DType::BFloat16, DType::Float16] {
        let variant = Variant::new(MatmulKernel::Tiled, dtype, &[dtype, dtype]);
        let source = source_with(&op, variant);
        every_store_rounded(&pipeline_name(&op, variant), &source);
        crate::codegen::tests::validate(&source);
    }
}

#[test]
fn integer_kernels_keep_only_the_helpers_they_call() {
    let int64 = Variant::new(MatmulKernel::Naive, DType::Int64, &[DType::Int64]);
    let neg = source_with(&Op::Unary { op: UnaryOp::Neg }, int64);
    // Negation calls `i64_neg`, which calls `i64_add`; nothing divides.
    assert!(
        neg.contains("fn i64_neg(") && neg.contains("fn i64_add("),
        "{neg}"
    );
    assert!(!neg.contains("fn u64_divmod(") && !neg.contains("fn i64_to_f32("));
    let floor_div = Op::Binary {
        op: BinaryOp::FloorDiv,
    };
    let div = source_with(&floor_div, int64);
    assert!(div.contains("fn u64_divmod(") && !div.contains("fn int_pow("));
    // The `//` comment above a helper goes with it.
    assert!(!neg.contains("Unsigned quotient"));
    for source in [neg, div] {
        crate::codegen::tests::validate(&source);
    }
}
