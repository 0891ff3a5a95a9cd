//! Differential cases for the ops that move elements through a window of a
//! buffer rather than compute on them: strided views (transposes, offsets,
//! broadcasts, steps, rank 8), constant pads around ragged shapes, and the
//! gradient of `unfold`, which sums overlapping windows back. Their values
//! must agree exactly, so each case's tolerance is `Exact`.

use crate::case::{Case, Tolerance};
use crate::values::{dyadic, mixed, ramp};
use tpu_ir::{DType, Op, Shape};
use tpu_runtime::HostData;

pub fn strided() -> Vec<Case> {
    let mut cases = Vec::new();
    // (out dims, strides, offset) over a flat buffer of 2,000 elements: a
    // transpose, a slice with an offset, a broadcast (stride 0), a step, and a
    // rank-8 window.
    let windows: Vec<(Vec<usize>, Vec<usize>, usize)> = vec![
        (vec![1], vec![1], 0),
        (vec![7], vec![1], 13),
        (vec![5, 3], vec![1, 5], 0),
        (vec![257], vec![3], 5),
        (vec![4, 1000], vec![0, 1], 1),
        (vec![2, 3, 4], vec![1, 8, 2], 7),
        (
            vec![2, 1, 3, 1, 2, 2, 1, 3],
            vec![400, 9, 100, 1, 30, 3, 1, 1],
            11,
        ),
    ];
    for (dims, strides, offset) in windows {
        let op = Op::Strided { offset, strides };
        let input = (ramp(2000), Shape::new([2000]));
        cases.push(Case::f32(
            op.clone(),
            vec![input],
            Shape::new(dims.clone()),
            Tolerance::Exact,
        ));
        // The same window of a bool tensor (a causal mask's slice).
        let mask: Vec<bool> = (0..2000).map(|i| (i * 7 + i / 3) % 5 < 2).collect();
        cases.push(Case {
            op,
            inputs: vec![(HostData::Bool(mask), Shape::new([2000]))],
            out: Shape::new(dims),
            dtype: DType::Bool,
            expect: crate::case::Expect::Close(Tolerance::Exact),
        });
    }
    let nine = Shape::new([1, 2, 1, 2, 1, 2, 1, 2, 1]);
    let op = Op::Strided {
        offset: 0,
        strides: vec![1; 9],
    };
    let input = (HostData::F32(ramp(16)), Shape::new([16]));
    cases.push(Case::refused(op, vec![input], nine, DType::Float32));
    cases
}

/// Borders of a constant (NaN and -inf too, max pooling's fill) around
/// ragged shapes up to rank 8, and past 65,535 workgroups' worth of threads.
pub fn pads() -> Vec<Case> {
    type Border = (Vec<usize>, Vec<usize>, Vec<usize>, f64);
    let borders: Vec<Border> = vec![
        (vec![7], vec![2], vec![3], f64::NEG_INFINITY),
        (vec![1], vec![0], vec![0], 0.0),
        (vec![3, 5], vec![1, 0], vec![0, 2], 0.5),
        (
            vec![2, 3, 5, 7],
            vec![0, 0, 1, 2],
            vec![0, 0, 2, 1],
            f64::NAN,
        ),
        (vec![257, 4], vec![3, 1], vec![0, 5], -2.0),
        (
            vec![2, 1, 3, 1, 2, 2, 1, 3],
            vec![1, 0, 1, 2, 0, 1, 0, 1],
            vec![0; 8],
            1.0,
        ),
        (vec![1000, 70], vec![1, 1], vec![1, 1], 0.0),
    ];
    borders
        .into_iter()
        .map(|(dims, before, after, value)| {
            let input = Shape::new(dims.clone());
            let out: Vec<usize> = (0..dims.len())
                .map(|d| before[d] + dims[d] + after[d])
                .collect();
            let values = mixed(input.numel());
            let op = Op::Pad {
                before,
                after,
                value,
            };
            Case::f32(op, vec![(values, input)], Shape::new(out), Tolerance::Exact)
        })
        .collect()
}

/// `torch.cat` of one to six parts along each axis: runs of one element,
/// empty parts, a leading axis (whole parts in turn), and a part past one
/// workgroup.
pub fn concats() -> Vec<Case> {
    // (each part's dims, axis)
    let joins: Vec<(Vec<Vec<usize>>, usize)> = vec![
        (vec![vec![5]], 0),
        (vec![vec![3], vec![4]], 0),
        (vec![vec![2, 3], vec![2, 1], vec![2, 0], vec![2, 4]], 1),
        (vec![vec![1, 3], vec![2, 3], vec![3, 3]], 0),
        (vec![vec![2, 2, 8], vec![2, 3, 8], vec![2, 1, 8]], 1),
        (
            vec![
                vec![3, 1],
                vec![3, 2],
                vec![3, 1],
                vec![3, 3],
                vec![3, 1],
                vec![3, 2],
            ],
            1,
        ),
        (vec![vec![4, 300], vec![4, 17]], 1),
    ];
    joins
        .into_iter()
        .map(|(parts, axis)| {
            let mut out = parts[0].clone();
            out[axis] = parts.iter().map(|p| p[axis]).sum();
            let inputs = parts
                .iter()
                .map(|dims| {
                    let shape = Shape::new(dims.clone());
                    (mixed(shape.numel()), shape)
                })
                .collect();
            let op = Op::Concat {
                axis,
                parts: parts.len(),
            };
            Case::f32(op, inputs, Shape::new(out), Tolerance::Exact)
        })
        .collect()
}

/// Window gradients summed back: overlapping windows (step below size),
/// gapped ones (step above size), one window, every axis position, with
/// dyadic values so that every order of summation is exact.
pub fn unfold_backwards() -> Vec<Case> {
    // (output dims, axis, size, step)
    let windows: Vec<(Vec<usize>, usize, usize, usize)> = vec![
        (vec![7], 0, 3, 2),
        (vec![1], 0, 1, 1),
        (vec![2, 11, 3], 1, 3, 4),
        (vec![2, 11, 3], 2, 2, 1),
        (vec![5, 4], 0, 5, 1),
        (vec![1000], 0, 5, 3),
        (vec![3, 2, 9, 7], 2, 3, 1),
        (vec![1, 2, 1, 3, 1, 2, 4], 6, 2, 2),
    ];
    windows
        .into_iter()
        .map(|(dims, axis, size, step)| {
            let mut grad = dims.clone();
            grad[axis] = (dims[axis] - size) / step + 1;
            grad.push(size);
            let grad = Shape::new(grad);
            let values = dyadic(grad.numel());
            let op = Op::UnfoldBackward { axis, size, step };
            Case::f32(op, vec![(values, grad)], Shape::new(dims), Tolerance::Exact)
        })
        .collect()
}
