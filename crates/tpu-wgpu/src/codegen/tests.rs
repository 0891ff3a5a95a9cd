//! The fused kernels' tests: their `params` words, their WGSL validates
//! (naga, as wgpu checks it) for elementwise, row (softmax) and matmul
//! epilogue patterns, and a row kernel's loops.

use super::*;
use tpu_ir::{BinaryOp, DType, FusedInput, ReduceOp, Shape, UnaryOp};

/// Parses and validates WGSL with naga, as wgpu does before compiling.
pub(crate) fn validate(source: &str) {
    let module = naga::front::wgsl::parse_str(source).unwrap_or_else(|e| panic!("{e}\n{source}"));
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::empty(),
    )
    .validate(&module)
    .unwrap_or_else(|e| panic!("{e:?}\n{source}"));
}

fn input(dims: &[usize]) -> FusedInput {
    FusedInput {
        shape: Shape::new(dims),
        dtype: DType::Float32,
        layout: None,
    }
}

/// `relu(a * 2 + b) ** c` with `b` broadcast and an erf on the side.
fn elementwise() -> FusedKernel {
    FusedKernel {
        shape: Shape::new([2, 3]),
        dtype: DType::Float32,
        inputs: vec![input(&[2, 3]), input(&[1, 3]), input(&[2, 1])],
        nodes: vec![
            FusedNode::Input { index: 0 },
            FusedNode::Scalar {
                op: BinaryOp::Mul,
                x: 0,
                scalar: 2.0,
                scalar_on_left: false,
            },
            FusedNode::Input { index: 1 },
            FusedNode::Binary {
                op: BinaryOp::Add,
                a: 1,
                b: 2,
            },
            FusedNode::Unary {
                op: UnaryOp::Relu,
                x: 3,
            },
            FusedNode::Input { index: 2 },
            FusedNode::Binary {
                op: BinaryOp::Pow,
                a: 4,
                b: 5,
            },
            FusedNode::Unary {
                op: UnaryOp::Erf,
                x: 0,
            },
        ],
        outputs: vec![6, 7],
        reduce_axis: None,
        per_row: Vec::new(),
    }
}

/// Softmax along axis 1 of a `[4, 5]` input: max, subtract, exp, sum, divide.
fn softmax() -> FusedKernel {
    FusedKernel {
        shape: Shape::new([4, 5]),
        dtype: DType::Float32,
        inputs: vec![input(&[4, 5])],
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
        reduce_axis: Some(1),
        per_row: vec![false, true, false, false, true, false],
    }
}

/// `relu(a @ b.T + bias)`.
fn linear() -> FusedKernel {
    FusedKernel {
        shape: Shape::new([4, 3]),
        dtype: DType::Float32,
        inputs: vec![input(&[4, 5]), input(&[3, 5]), input(&[1, 3])],
        nodes: vec![
            FusedNode::MatMul {
                a: 0,
                b: 1,
                transpose_a: false,
                transpose_b: true,
            },
            FusedNode::Input { index: 2 },
            FusedNode::Binary {
                op: BinaryOp::Add,
                a: 0,
                b: 1,
            },
            FusedNode::Unary {
                op: UnaryOp::Relu,
                x: 2,
            },
        ],
        outputs: vec![3],
        reduce_axis: None,
        per_row: Vec::new(),
    }
}

#[test]
fn params_fill_whole_uniform_vectors() {
    let p = fused_params(&elementwise());
    // n, rank, dims[8], 3 inputs x strides[8], one scalar, padded to 4.
    assert_eq!(p.len(), (10 + 24 + 1usize).div_ceil(4) * 4);
    assert_eq!(&p[..4], &[6, 2, 2, 3]);
    // b ([1, 3]) broadcasts over rows: strides [0, 1]; c ([2, 1]): [1, 0].
    assert_eq!(&p[18..20], &[0, 1]);
    assert_eq!(&p[26..28], &[1, 0]);
    assert_eq!(f32::from_bits(p[34]), 2.0);
}

#[test]
fn row_and_matmul_params_carry_their_extra_words() {
    let p = fused_params(&softmax());
    // Four rows; then n = 5, inner = 1, axis 1 after one input's strides.
    assert_eq!(p[0], 4);
    assert_eq!(&p[18..21], &[5, 1, 1]);
    let p = fused_params(&linear());
    // Twelve elements; m, k, n after three inputs' strides; the operands
    // read whole have their layouts: offset, outer stride, inner, inner
    // stride, row and column strides.
    assert_eq!(p[0], 12);
    assert_eq!(&p[10..16], &[0, 20, 1, 0, 5, 1]);
    assert_eq!(&p[18..24], &[0, 15, 1, 0, 5, 1]);
    assert_eq!(&p[26..28], &[0, 1]);
    assert_eq!(&p[34..37], &[4, 5, 3]);
}

#[test]
fn every_pattern_parses_and_validates_as_wgsl() {
    for kernel in [elementwise(), softmax(), linear()] {
        validate(&fused(&kernel));
    }
}

#[test]
fn a_row_kernel_loops_once_per_reduction_and_once_to_write() {
    let source = fused(&softmax());
    assert_eq!(source.matches("for (var e = 0u").count(), 3, "{source}");
    assert!(source.contains("out1[i] = v4;"), "{source}");
    assert!(source.contains("out0[base + e * inner] = v5;"), "{source}");
}
