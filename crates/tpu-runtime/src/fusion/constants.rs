//! Constants inlined into their readers. `masked_fill(mask, -inf)` and
//! `torch.where(c, x, 0.0)` reach the backend as a `Fill` of a scalar and an
//! elementwise op that broadcasts it; the fill's shape is not its reader's,
//! so the planner would give it a kernel of its own. In Fused mode a fill
//! whose only readers are elementwise ops is not launched: each reader takes
//! its value as a constant of its kernel (`FusedNode::Const`, a parameter, so
//! one pipeline serves every value). The fill stays where a tensor holds its
//! value or any other op (a matmul, a reduction, an op kernel) reads it.

use super::Pending;
use super::plan::{Caps, Role, role};
use std::collections::{HashMap, HashSet};
use tpu_ir::{DType, Op};

/// Makes the readers of every inlinable fill take its value as a constant,
/// and drops those fills from `pending`. Returns the dropped fills' values
/// (`held` says whether a tensor holds a value).
pub(super) fn inline_fills(
    pending: &mut Vec<Pending>,
    caps: Caps,
    held: &dyn Fn(u64) -> bool,
) -> Vec<u64> {
    let fills: HashMap<u64, (f64, usize)> = pending
        .iter()
        .filter_map(|p| match p.op {
            Op::Fill { value } if p.out_dtype == DType::Float32 && !held(p.out) => {
                Some((p.out, (value, p.op_index)))
            }
            _ => None,
        })
        .collect();
    if fills.is_empty() {
        return Vec::new();
    }
    // A fill is inlined only if every op that reads it is elementwise.
    let mut inlinable: HashMap<u64, bool> = HashMap::new();
    for q in pending.iter() {
        for x in q.inputs.iter().filter(|x| fills.contains_key(&x.id)) {
            let elementwise = role(q, caps) == Role::Elementwise;
            *inlinable.entry(x.id).or_insert(true) &= elementwise;
        }
    }
    let dropped: HashSet<u64> = inlinable
        .into_iter()
        .filter_map(|(id, ok)| ok.then_some(id))
        .collect();
    for q in pending.iter_mut() {
        for x in q.inputs.iter_mut() {
            if dropped.contains(&x.id) {
                x.constant = Some(fills[&x.id]);
            }
        }
    }
    pending.retain(|p| !dropped.contains(&p.out));
    dropped.into_iter().collect()
}
