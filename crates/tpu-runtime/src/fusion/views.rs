//! Strided operands read in place. Attention's head transposes
//! (`q.view(B, T, H, D).transpose(1, 2)`) reach a matmul as `Op::Strided`
//! copies that make the view dense. In Fused mode a copy whose only readers
//! are matmul operands is not launched: each matmul reads the copy's source
//! through a `MatrixLayout` instead, so the copy costs neither a kernel nor
//! a pass over memory. The copy stays where a tensor holds its value, where
//! any other op reads it, or where the view does not fold into a layout.

use super::Pending;
use std::collections::HashMap;
use tpu_ir::{DType, MatrixLayout, Op};

/// Rewrites the matmuls that read an absorbable strided copy to read its
/// source through a layout, and drops those copies from `pending`. Returns
/// the dropped copies' values (`held` says whether a tensor holds a value).
pub(super) fn read_in_place(pending: &mut Vec<Pending>, held: &dyn Fn(u64) -> bool) -> Vec<u64> {
    let mut readers: HashMap<u64, Vec<(usize, usize)>> = HashMap::new();
    for (j, q) in pending.iter().enumerate() {
        for (pos, x) in q.inputs.iter().enumerate() {
            readers.entry(x.id).or_default().push((j, pos));
        }
    }
    let mut dropped = Vec::new();
    let mut rewrites = Vec::new();
    for p in pending.iter() {
        let Op::Strided { offset, strides } = &p.op else {
            continue;
        };
        if p.out_dtype != DType::Float32 || held(p.out) {
            continue;
        }
        let Some(reads) = readers.get(&p.out) else {
            continue;
        };
        let layouts: Option<Vec<MatrixLayout>> = reads
            .iter()
            .map(|&(j, pos)| {
                let x = &pending[j].inputs[pos];
                if !matches!(pending[j].op, Op::MatMul { .. }) || x.view.is_some() {
                    return None;
                }
                MatrixLayout::of_view(*offset, p.out_shape.dims(), strides, x.shape.dims())
            })
            .collect();
        if let Some(layouts) = layouts {
            let source = p.inputs[0].id;
            rewrites.extend(reads.iter().zip(layouts).map(|(&r, l)| (r, source, l)));
            dropped.push(p.out);
        }
    }
    for ((j, pos), source, layout) in rewrites {
        let x = &mut pending[j].inputs[pos];
        x.id = source;
        x.view = Some(layout);
    }
    pending.retain(|p| !dropped.contains(&p.out));
    dropped
}
