//! What a rank asks of its group: the reduction (`dist.ReduceOp`) and the
//! collective call, with whether two members' calls agree and which
//! collective the device model simulates for it.

use serde::{Deserialize, Serialize};

/// `dist.ReduceOp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum ReduceOp {
    Sum,
    Product,
    Min,
    Max,
    Avg,
    BAnd,
    BOr,
    BXor,
}

impl ReduceOp {
    pub const ALL: [ReduceOp; 8] = [
        ReduceOp::Sum,
        ReduceOp::Avg,
        ReduceOp::Product,
        ReduceOp::Min,
        ReduceOp::Max,
        ReduceOp::BAnd,
        ReduceOp::BOr,
        ReduceOp::BXor,
    ];

    /// The name PyTorch gives it: `SUM`, `PRODUCT`, `BAND`.
    pub fn name(self) -> &'static str {
        match self {
            ReduceOp::Sum => "SUM",
            ReduceOp::Product => "PRODUCT",
            ReduceOp::Min => "MIN",
            ReduceOp::Max => "MAX",
            ReduceOp::Avg => "AVG",
            ReduceOp::BAnd => "BAND",
            ReduceOp::BOr => "BOR",
            ReduceOp::BXor => "BXOR",
        }
    }

    pub fn from_name(name: &str) -> Option<ReduceOp> {
        ReduceOp::ALL.into_iter().find(|op| op.name() == name)
    }

    pub(super) fn is_bitwise(self) -> bool {
        matches!(self, ReduceOp::BAnd | ReduceOp::BOr | ReduceOp::BXor)
    }
}

/// What a rank asks of its group. Ranks (`src`) are global ranks.
#[derive(Clone, Debug, PartialEq)]
pub enum CollectiveCall {
    AllReduce {
        op: ReduceOp,
    },
    Broadcast {
        src: usize,
    },
    /// Every member's input, to every member (`all_gather`, `all_gather_into_tensor`).
    AllGather,
    ReduceScatter {
        op: ReduceOp,
    },
    /// `all_to_all_single`: rows (`row` elements each) of dim 0, split by
    /// `input_splits` (even splits when empty).
    AllToAll {
        input_splits: Vec<usize>,
        output_splits: Vec<usize>,
        row: usize,
    },
    Barrier,
}

impl CollectiveCall {
    /// Whether two members' calls are the same collective (all-to-all's
    /// splits are each member's own).
    pub(super) fn agrees_with(&self, other: &CollectiveCall) -> bool {
        match (self, other) {
            (CollectiveCall::AllToAll { row: a, .. }, CollectiveCall::AllToAll { row: b, .. }) => {
                a == b
            }
            _ => self == other,
        }
    }

    /// The collective the device model simulates for it.
    pub fn kind(&self) -> tpu_device::collective::CollectiveKind {
        use tpu_device::collective::CollectiveKind as K;
        match self {
            CollectiveCall::AllReduce { .. } | CollectiveCall::Barrier => K::AllReduce,
            // A broadcast moves the source's array to every member: as much
            // traffic as gathering it.
            CollectiveCall::Broadcast { .. } | CollectiveCall::AllGather => K::AllGather,
            CollectiveCall::ReduceScatter { .. } => K::ReduceScatter,
            CollectiveCall::AllToAll { .. } => K::AllToAll,
        }
    }

    pub(super) fn reduce_op(&self) -> Option<ReduceOp> {
        match self {
            CollectiveCall::AllReduce { op } | CollectiveCall::ReduceScatter { op } => Some(*op),
            _ => None,
        }
    }
}
