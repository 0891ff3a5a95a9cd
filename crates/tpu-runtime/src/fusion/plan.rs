//! The fusion planner: cuts the pending graph into groups, and turns a group
//! into a `FusedKernel`. A group has an iteration shape; its members are
//! elementwise ops over that shape, plus either reductions along one axis (a
//! row kernel: the reductions' prologue and epilogue, softmax, layer norm) or
//! one matmul whose product the others read (its epilogue).
//!
//! Matmuls are planned alone and then given the group that first reads their
//! product as an epilogue, if the two fit in one kernel (`epilogue_for`): a
//! greedy epilogue would take the first few ops of an optimiser step and leave
//! the rest in fragments.

use super::Pending;
use std::collections::{HashMap, HashSet};
use tpu_ir::{DType, FusedInput, FusedKernel, FusedNode, Op, ReduceOp, Shape};

/// The most storage buffers a fused kernel binds (inputs and outputs; its
/// parameters are a uniform buffer): WebGPU's guaranteed 8 per shader stage.
pub(super) const MAX_FUSED_BUFFERS: usize = 8;

/// The highest rank a fused kernel indexes (as the broadcasting kernels).
const MAX_FUSED_RANK: usize = 8;

/// What a pending op can be in a fusion group.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Role {
    Elementwise,
    /// A reduction along `axis` of its operand (kept at size 1).
    Reduce {
        axis: usize,
    },
    /// A matmul; the group that reads its product may become its epilogue.
    MatMul,
    /// Runs as a kernel of its own.
    Alone,
}

/// What the backend's fused kernels can do.
#[derive(Clone, Copy, Debug)]
pub(super) struct Caps {
    /// It runs fused kernels at all (`Backend::supports_fused`).
    pub fuses: bool,
    /// They may hold bools (`Backend::fuses_masks`): `torch.where`,
    /// comparisons, casts between float32 and bool.
    pub masks: bool,
}

pub(super) fn role(p: &Pending, caps: Caps) -> Role {
    use DType::{Bool, Float32};
    let dtypes: Vec<DType> = p.inputs.iter().map(|i| i.dtype).collect();
    // Bools (held as 0 or 1) only on a backend that takes them.
    let mask = |d: DType| d == Float32 || (caps.masks && d == Bool);
    let operands = match (&p.op, &dtypes[..]) {
        (Op::Where, [c, a, b]) => caps.masks && *c == Bool && *a == Float32 && *b == Float32,
        (Op::Compare { .. }, [a, b]) => a == b && mask(*a) && mask(p.out_dtype),
        (Op::CompareScalar { .. }, [Float32]) => mask(p.out_dtype),
        (Op::Cast { to }, [from]) => mask(*from) && mask(*to),
        (
            Op::Binary { .. }
            | Op::BinaryScalar { .. }
            | Op::Unary { .. }
            | Op::Fill { .. }
            | Op::Reduce { .. }
            | Op::MatMul { .. },
            _,
        ) => dtypes.iter().all(|&d| d == Float32) && p.out_dtype == Float32,
        _ => false,
    };
    let fits = p.out_shape.numel() > 0 && p.out_shape.rank() <= MAX_FUSED_RANK;
    if !caps.fuses || !operands || !fits {
        return Role::Alone;
    }
    match &p.op {
        Op::Where => Role::Elementwise,
        Op::Binary { .. }
        | Op::BinaryScalar { .. }
        | Op::Unary { .. }
        | Op::Fill { .. }
        | Op::Compare { .. }
        | Op::CompareScalar { .. }
        | Op::Cast { .. } => Role::Elementwise,
        Op::Reduce {
            op: ReduceOp::Sum | ReduceOp::Prod | ReduceOp::Max | ReduceOp::Min,
            axis,
        } => {
            let input = p.inputs[0].shape.dims();
            let keeps_axis = input.len() == p.out_shape.rank()
                && input[*axis] > 1
                && keep(input, *axis) == p.out_shape.dims();
            if keeps_axis {
                Role::Reduce { axis: *axis }
            } else {
                Role::Alone
            }
        }
        Op::MatMul { .. } => Role::MatMul,
        _ => Role::Alone,
    }
}

/// A fusion group: members in program order, the iteration shape, and the
/// axis its reductions run along.
#[derive(Clone, Debug)]
pub(super) struct Group {
    pub members: Vec<usize>,
    pub shape: Shape,
    pub axis: Option<usize>,
}

/// How an op's result lies over a group's iteration shape.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Frame {
    /// The whole iteration shape.
    Full,
    /// One value per row, with the reduced axis kept at size 1.
    Keep,
    /// One value per row, with the reduced axis dropped.
    Drop,
}

fn keep(dims: &[usize], axis: usize) -> Vec<usize> {
    let mut d = dims.to_vec();
    d[axis] = 1;
    d
}

/// An operand's dims as the kernel indexes them (rank of the iteration shape,
/// size 1 where it broadcasts), given the frame of the op that reads it.
fn align(dims: &[usize], shape: &Shape, axis: Option<usize>, frame: Frame) -> Option<Vec<usize>> {
    let rank = shape.rank();
    match (frame, axis) {
        (Frame::Drop, Some(axis)) => {
            let mut d = vec![1; (rank - 1).checked_sub(dims.len())?];
            d.extend_from_slice(dims);
            d.insert(axis, 1);
            Some(d)
        }
        (Frame::Drop, None) => None,
        _ => {
            let mut d = vec![1; rank.checked_sub(dims.len())?];
            d.extend_from_slice(dims);
            Some(d)
        }
    }
}

/// The frame of elementwise op `p` in a group of `shape` reducing along `axis`.
fn frame_of(p: &Pending, shape: &Shape, axis: Option<usize>) -> Option<Frame> {
    let out = p.out_shape.dims();
    if out == shape.dims() {
        return Some(Frame::Full);
    }
    let axis = axis?;
    let mut dropped = shape.dims().to_vec();
    dropped.remove(axis);
    if out == keep(shape.dims(), axis) {
        Some(Frame::Keep)
    } else if out == dropped {
        Some(Frame::Drop)
    } else {
        None
    }
}

/// A group being filled by the planner.
struct Open {
    group: Group,
    /// Values made in the group, and whether each is one value per row.
    produced: HashMap<u64, bool>,
    /// External operands by buffer and aligned dims.
    external: HashSet<(u64, Vec<usize>)>,
    outputs: usize,
}

impl Open {
    fn new(shape: Shape, axis: Option<usize>) -> Open {
        Open {
            group: Group {
                members: Vec::new(),
                shape,
                axis,
            },
            produced: HashMap::new(),
            external: HashSet::new(),
            outputs: 0,
        }
    }

    /// The external operands `p` would add if it joined in `frame`.
    fn new_external(&self, p: &Pending, frame: Frame) -> Vec<(u64, Vec<usize>)> {
        let mut added = Vec::new();
        for x in &p.inputs {
            if self.produced.contains_key(&x.id) || x.constant.is_some() {
                continue;
            }
            let key = match align(x.shape.dims(), &self.group.shape, self.group.axis, frame) {
                Some(d) => (x.id, d),
                None => continue,
            };
            if !self.external.contains(&key) && !added.contains(&key) {
                added.push(key);
            }
        }
        added
    }

    /// Whether `p` may join, and in which frame: its operands made in the group
    /// must be read element for element (or row for row), never re-broadcast.
    fn place(&self, p: &Pending, role: Role) -> Option<Frame> {
        let shape = &self.group.shape;
        match role {
            Role::Elementwise => {
                let frame = frame_of(p, shape, self.group.axis)?;
                let reads_group = p.inputs.iter().any(|x| self.produced.contains_key(&x.id));
                if frame != Frame::Full && !reads_group {
                    return None;
                }
                for x in p.inputs.iter().filter(|x| x.constant.is_none()) {
                    let aligned = align(x.shape.dims(), shape, self.group.axis, frame)?;
                    if let Some(&per_row) = self.produced.get(&x.id) {
                        let want = match (per_row, self.group.axis) {
                            (true, Some(axis)) => keep(shape.dims(), axis),
                            _ => shape.dims().to_vec(),
                        };
                        if aligned != want {
                            return None;
                        }
                    }
                }
                Some(frame)
            }
            Role::Reduce { axis } => {
                let x = &p.inputs[0];
                let fits_axis = self.group.axis.is_none_or(|a| a == axis);
                let reads_full = self.produced.get(&x.id).is_none_or(|&per_row| !per_row);
                (fits_axis && reads_full && x.shape == *shape).then_some(Frame::Keep)
            }
            Role::MatMul | Role::Alone => None,
        }
    }

    fn join(&mut self, i: usize, p: &Pending, role: Role, frame: Frame, output: bool) {
        let operand_frame = match role {
            Role::Reduce { axis } => {
                self.group.axis = Some(axis);
                Frame::Full
            }
            _ => frame,
        };
        for key in self.new_external(p, operand_frame) {
            self.external.insert(key);
        }
        self.produced.insert(p.out, frame != Frame::Full);
        self.outputs += usize::from(output);
        self.group.members.push(i);
    }
}

/// Cuts `members` (pending ops in program order) into groups, in an order that
/// respects their data dependencies (pending values are immutable, so
/// independent ops may move): an op joins the first open group that can take
/// it within the buffer limit, a reduction may start a group, any other op is a
/// group of its own, emitted at once; a group is closed (emitted)
/// as soon as an op outside it reads one of its values.
pub(super) fn plan(
    pending: &[Pending],
    members: &[usize],
    caps: Caps,
    likely_output: &dyn Fn(usize) -> bool,
) -> Vec<Group> {
    let mut groups = Vec::new();
    let mut open: Vec<Open> = Vec::new();
    let target_of = |open: &[Open], p: &Pending, role: Role| {
        open.iter()
            .enumerate()
            .find_map(|(k, g)| g.place(p, role).map(|f| (k, f)))
    };
    for &i in members {
        let p = &pending[i];
        let role = role(p, caps);
        let target = target_of(&open, p, role).map(|(k, _)| k);
        // Groups this op reads from must run first (unless it joins them).
        let mut k = 0;
        let mut kept_target = target;
        while k < open.len() {
            let reads = p
                .inputs
                .iter()
                .any(|x| open[k].produced.contains_key(&x.id));
            if reads && Some(k) != kept_target {
                groups.push(open.remove(k).group);
                kept_target = kept_target.map(|t| if t > k { t - 1 } else { t });
            } else {
                k += 1;
            }
        }
        let output = likely_output(i);
        if let Some(k) = kept_target {
            let frame = open[k]
                .place(p, role)
                .expect("the target still takes the op");
            let operand_frame = if matches!(role, Role::Reduce { .. }) {
                Frame::Full
            } else {
                frame
            };
            let g = &open[k];
            let buffers = g.external.len()
                + g.new_external(p, operand_frame).len()
                + g.outputs
                + usize::from(output);
            if buffers <= MAX_FUSED_BUFFERS {
                open[k].join(i, p, role, frame, output);
                continue;
            }
            groups.push(open.remove(k).group);
        }
        let mut fresh = match role {
            Role::Elementwise => Open::new(p.out_shape.clone(), None),
            Role::Reduce { axis } => Open::new(p.inputs[0].shape.clone(), Some(axis)),
            Role::MatMul | Role::Alone => {
                groups.push(Group {
                    members: vec![i],
                    shape: p.out_shape.clone(),
                    axis: None,
                });
                continue;
            }
        };
        let frame = if matches!(role, Role::Reduce { .. }) {
            Frame::Keep
        } else {
            Frame::Full
        };
        fresh.join(i, p, role, frame, output);
        open.push(fresh);
    }
    groups.extend(open.into_iter().map(|g| g.group));
    groups
}

/// Of `later` groups (in the order they run), the one that can become matmul
/// `mm`'s epilogue: the first to read its product, if it is an elementwise
/// group over the product's shape reading it element for element. The caller
/// checks the merged kernel's buffers.
pub(super) fn epilogue_for<'g>(
    pending: &[Pending],
    mm: usize,
    later: impl Iterator<Item = &'g Group>,
    caps: Caps,
) -> Option<usize> {
    let p = &pending[mm];
    if role(p, caps) != Role::MatMul {
        return None;
    }
    for (k, g) in later.enumerate() {
        let reads = |i: &usize| pending[*i].inputs.iter().any(|x| x.id == p.out);
        if !g.members.iter().any(reads) {
            continue;
        }
        // The product may be read reshaped (a batch folded into rows comes
        // back as `[batch, rows, n]`): a flat index finds the same element.
        let elementwise = g.axis.is_none()
            && g.shape.numel() == p.out_shape.numel()
            && g.members.iter().all(|&i| {
                let q = &pending[i];
                role(q, caps) == Role::Elementwise
                    && q.out_shape == g.shape
                    && q.inputs
                        .iter()
                        .filter(|x| x.id == p.out)
                        .all(|x| x.shape == g.shape)
            });
        return elementwise.then_some(k);
    }
    None
}

/// The SSA program of a group, its external inputs (ids) and the members
/// whose values must be written.
pub(super) fn build_kernel(
    pending: &[Pending],
    group: &Group,
    needed: &dyn Fn(usize) -> bool,
) -> (FusedKernel, Vec<u64>, Vec<usize>) {
    let shape = &group.shape;
    let mut nodes = Vec::new();
    let mut node_of: HashMap<u64, usize> = HashMap::new();
    let mut input_of: HashMap<(u64, Vec<usize>), usize> = HashMap::new();
    // Inlined constants, one node per value (by its bits).
    let mut constant_of: HashMap<u64, usize> = HashMap::new();
    let mut inputs: Vec<FusedInput> = Vec::new();
    let mut external: Vec<u64> = Vec::new();
    let mut member_node = Vec::new();
    // Per node, whether it is one value per row.
    let mut per_row = Vec::new();
    for &i in &group.members {
        let p = &pending[i];
        let node = if let Op::MatMul {
            transpose_a,
            transpose_b,
        } = p.op
        {
            // Operands read whole: inputs without nodes of their own.
            let mut whole = |x: &super::PendingInput| {
                external.push(x.id);
                inputs.push(FusedInput {
                    shape: x.shape.clone(),
                    dtype: x.dtype,
                    layout: x.view,
                });
                inputs.len() - 1
            };
            FusedNode::MatMul {
                a: whole(&p.inputs[0]),
                b: whole(&p.inputs[1]),
                transpose_a,
                transpose_b,
            }
        } else {
            let frame = match p.op {
                Op::Reduce { .. } => Frame::Full,
                _ => frame_of(p, shape, group.axis).expect("a member lies over its group"),
            };
            let mut args = Vec::with_capacity(p.inputs.len());
            for x in &p.inputs {
                if let Some((value, _)) = x.constant {
                    let n = *constant_of.entry(value.to_bits()).or_insert_with(|| {
                        nodes.push(FusedNode::Const { value });
                        // Uniform over the group: valid in a row's epilogue too.
                        per_row.push(group.axis.is_some());
                        nodes.len() - 1
                    });
                    args.push(n);
                    continue;
                }
                if let Some(&n) = node_of.get(&x.id) {
                    args.push(n);
                    continue;
                }
                let dims = align(x.shape.dims(), shape, group.axis, frame)
                    .expect("a member's operands align with its group");
                let key = (x.id, dims.clone());
                let n = match input_of.get(&key) {
                    Some(&n) => n,
                    None => {
                        external.push(x.id);
                        inputs.push(FusedInput {
                            shape: Shape::new(dims.clone()),
                            dtype: x.dtype,
                            layout: None,
                        });
                        nodes.push(FusedNode::Input {
                            index: inputs.len() - 1,
                        });
                        per_row.push(group.axis.is_some_and(|a| dims[a] == 1));
                        input_of.insert(key, nodes.len() - 1);
                        nodes.len() - 1
                    }
                };
                args.push(n);
            }
            match &p.op {
                Op::Binary { op } => FusedNode::Binary {
                    op: *op,
                    a: args[0],
                    b: args[1],
                },
                Op::BinaryScalar {
                    op,
                    scalar,
                    scalar_on_left,
                } => FusedNode::Scalar {
                    op: *op,
                    x: args[0],
                    scalar: *scalar,
                    scalar_on_left: *scalar_on_left,
                },
                Op::Unary { op } => FusedNode::Unary {
                    op: *op,
                    x: args[0],
                },
                Op::Fill { value } => FusedNode::Const { value: *value },
                Op::Where => FusedNode::Where {
                    cond: args[0],
                    a: args[1],
                    b: args[2],
                },
                Op::Reduce { op, .. } => FusedNode::Reduce {
                    op: *op,
                    x: args[0],
                },
                Op::Compare { op } => FusedNode::Compare {
                    op: *op,
                    a: args[0],
                    b: args[1],
                },
                Op::CompareScalar { op, scalar } => FusedNode::CompareScalar {
                    op: *op,
                    x: args[0],
                    scalar: *scalar,
                },
                Op::Cast { to } => FusedNode::Cast {
                    x: args[0],
                    to: *to,
                },
                other => unreachable!("{other:?} is not fusible"),
            }
        };
        per_row.push(match p.op {
            Op::Reduce { .. } => true,
            Op::MatMul { .. } => false,
            _ => frame_of(p, shape, group.axis) != Some(Frame::Full),
        });
        nodes.push(node);
        node_of.insert(p.out, nodes.len() - 1);
        member_node.push((i, nodes.len() - 1));
    }
    let written: Vec<(usize, usize)> = member_node
        .into_iter()
        .filter(|(i, _)| needed(*i))
        .collect();
    let kernel = FusedKernel {
        shape: shape.clone(),
        dtype: DType::Float32,
        inputs,
        nodes,
        outputs: written.iter().map(|&(_, n)| n).collect(),
        reduce_axis: group.axis,
        per_row: if group.axis.is_some() {
            per_row
        } else {
            Vec::new()
        },
    };
    (
        kernel,
        external,
        written.into_iter().map(|(i, _)| i).collect(),
    )
}
