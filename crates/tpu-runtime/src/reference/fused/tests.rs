//! The row kernels' tiles against each lane reduced alone.

use super::rows::merge_dims;
use super::*;
use crate::data::HostData;
use crate::reference::reduce_lane;
use tpu_ir::{DType, FusedInput, ReduceOp, Shape};

/// A row kernel reducing its one input in tiles of adjacent rows, and the
/// unfused reduction (which reduces columns side by side too), against
/// each lane reduced alone, bit for bit: rows longer than a pairwise
/// block (300), columns (axis 0), NaNs among the values.
#[test]
fn row_kernels_in_tiles_and_unfused_reductions_match_each_lane_alone() {
    let cases: [(&[usize], usize); 4] = [
        (&[6, 300, 17], 1),
        (&[300, 40], 0),
        (&[5, 7, 3], 2),
        (&[3, 130, 2, 5], 1),
    ];
    for (dims, axis) in cases {
        let shape = Shape::new(dims.to_vec());
        let mut values: Vec<f32> = (0..shape.numel())
            .map(|i| ((i * 7919 % 1013) as f32 - 506.0) / 97.0)
            .collect();
        values[shape.numel() / 3] = f32::NAN;
        for op in [ReduceOp::Sum, ReduceOp::Prod, ReduceOp::Max, ReduceOp::Min] {
            let mut per_row = vec![false, true];
            let kernel = FusedKernel {
                shape: shape.clone(),
                dtype: DType::Float32,
                inputs: vec![FusedInput {
                    shape: shape.clone(),
                    dtype: DType::Float32,
                    layout: None,
                }],
                nodes: vec![
                    FusedNode::Input { index: 0 },
                    FusedNode::Reduce { op, x: 0 },
                ],
                outputs: vec![1],
                reduce_axis: Some(axis),
                per_row: std::mem::take(&mut per_row),
            };
            let fused = run_fused(&kernel, &[&values]);
            let data = HostData::F32(values.clone());
            let unfused = super::super::reduce::reduce(&data, &shape, op, axis).unwrap();
            let HostData::F32(unfused) = unfused else {
                panic!("a float32 reduction")
            };
            // The definition: each lane gathered and reduced alone.
            let outer: usize = dims[..axis].iter().product();
            let inner: usize = dims[axis + 1..].iter().product();
            let n = dims[axis];
            let lanes: Vec<f32> = (0..outer * inner)
                .map(|l| {
                    let (o, i) = (l / inner, l % inner);
                    let lane: Vec<f32> = (0..n).map(|j| values[(o * n + j) * inner + i]).collect();
                    reduce_lane(op, &lane)
                })
                .collect();
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            let what = format!("{op:?} along {axis} of {dims:?}");
            assert!(bits(&fused[0]) == bits(&lanes), "fused {what}");
            assert!(bits(&unfused) == bits(&lanes), "unfused {what}");
        }
    }
}

/// `merge_dims` keeps the reduced axis and drops or merges the others only
/// where every input steps through them as one.
#[test]
fn merged_dimensions_step_as_the_originals_did() {
    // A batch norm's sum over the batch: a dense input and a per-channel one.
    let dense = vec![32768, 1024, 32, 1];
    let channel = vec![0, 1, 0, 0];
    assert_eq!(
        merge_dims(&[32, 32, 32, 32], &[dense.clone(), channel], 0),
        (
            vec![32, 32, 1024],
            vec![vec![32768, 1024, 1], vec![0, 1, 0]],
            0
        )
    );
    // Dense alone: everything but the axis in one dimension, on either side.
    assert_eq!(
        merge_dims(&[32, 32, 32, 32], std::slice::from_ref(&dense), 0),
        (vec![32, 32768], vec![vec![32768, 1]], 0)
    );
    assert_eq!(
        merge_dims(&[32, 32, 32, 32], &[dense], 2),
        (vec![1024, 32, 32], vec![vec![1024, 32, 1]], 1)
    );
    // Size-1 dimensions go, a size-1 axis stays; a transposed input stops a merge.
    assert_eq!(
        merge_dims(&[1, 4, 1, 6], &[vec![24, 6, 6, 1]], 2),
        (vec![4, 1, 6], vec![vec![6, 6, 1]], 1)
    );
    assert_eq!(
        merge_dims(&[4, 6, 5], &[vec![30, 5, 1], vec![1, 4, 24]], 2),
        (vec![4, 6, 5], vec![vec![30, 5, 1], vec![1, 4, 24]], 2)
    );
}
