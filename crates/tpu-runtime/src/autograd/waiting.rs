//! Gradients waiting for their node. Each arriving gradient is added to
//! what waits, but for the gradients of slices and selections along one axis
//! of the same tensor (`split`, `chunk`, `unbind`, `x[:, a:b]` and `x[:, b:c]`,
//! `x[:, t]` for each `t`): those wait as their parts, and when the node runs
//! they are joined by one concatenation, with zeros between them where they
//! leave gaps, as PyTorch's `SplitBackward0` joins them, instead of each
//! padded with zeros to the whole and summed.

use super::{Node, Walk};
use crate::runtime::{Runtime, RuntimeError};
use crate::tensor::Tensor;
use std::rc::Rc;
use tpu_ir::{BinaryOp, Shape};

/// What waits for a node.
pub(super) enum Waiting {
    Dense(Tensor),
    /// Gradients of slices of a tensor of `shape` along `axis`, each with
    /// the position it starts at.
    Parts {
        shape: Shape,
        axis: usize,
        parts: Vec<(usize, Tensor)>,
    },
}

impl Runtime {
    /// Hands a slice node's gradient on to the node that made its input,
    /// as a part (`sends_parts` said it may).
    pub(super) async fn send_waiting(
        &mut self,
        walk: &mut Walk,
        node: &Node,
        g: Waiting,
    ) -> Result<(), RuntimeError> {
        let Some(Some(child)) = node.edges.borrow().first().cloned() else {
            return Err(RuntimeError::Message(
                "a slice's gradient has no node".into(),
            ));
        };
        let ckey = Rc::as_ptr(&child) as usize;
        let waiting = walk.pending.remove(&ckey);
        let sum = self.add_waiting(waiting, g).await?;
        walk.pending.insert(ckey, sum);
        Ok(())
    }

    /// `waiting` with gradient `g` added.
    pub(super) async fn add_waiting(
        &mut self,
        waiting: Option<Waiting>,
        g: Waiting,
    ) -> Result<Waiting, RuntimeError> {
        match (waiting, g) {
            (None, g) => Ok(g),
            (
                Some(Waiting::Parts {
                    shape,
                    axis,
                    mut parts,
                }),
                Waiting::Parts {
                    shape: s,
                    axis: a,
                    parts: more,
                },
            ) if s == shape && a == axis => {
                parts.extend(more);
                Ok(Waiting::Parts { shape, axis, parts })
            }
            (Some(w), g) => {
                let (w, g) = (self.settle(w).await?, self.settle(g).await?);
                Ok(Waiting::Dense(self.binary(BinaryOp::Add, &w, &g).await?))
            }
        }
    }

    /// The gradient `waiting` stands for, as one tensor.
    pub(super) async fn settle(&mut self, waiting: Waiting) -> Result<Tensor, RuntimeError> {
        let (shape, axis, mut parts) = match waiting {
            Waiting::Dense(g) => return Ok(g),
            Waiting::Parts { shape, axis, parts } => (shape, axis, parts),
        };
        let whole = shape.dims()[axis];
        parts.sort_by_key(|(start, _)| *start);
        let disjoint = parts
            .windows(2)
            .all(|w| w[0].0 + w[0].1.dims()[axis] <= w[1].0);
        if parts.len() == 1 || !disjoint {
            // One part is one padding; overlapping parts add up.
            let mut sum: Option<Tensor> = None;
            for (start, g) in parts {
                let after = whole - start - g.dims()[axis];
                let padded = self.pad_axis(&g, axis, start, after).await?;
                sum = Some(match sum {
                    Some(s) => self.binary(BinaryOp::Add, &s, &padded).await?,
                    None => padded,
                });
            }
            return sum.ok_or_else(|| RuntimeError::Message("no gradient parts".into()));
        }
        let (dtype, device) = (parts[0].1.dtype(), parts[0].1.device());
        let mut joined = Vec::with_capacity(parts.len() * 2 + 1);
        let mut at = 0;
        for (start, g) in parts {
            if start > at {
                joined.push(
                    self.zeros_along(&shape, axis, start - at, dtype, device)
                        .await?,
                );
            }
            at = start + g.dims()[axis];
            joined.push(g);
        }
        if at < whole {
            joined.push(
                self.zeros_along(&shape, axis, whole - at, dtype, device)
                    .await?,
            );
        }
        self.cat(&joined, axis as i64).await
    }

    /// Zeros shaped like `shape` but `n` long along `axis`.
    async fn zeros_along(
        &mut self,
        shape: &Shape,
        axis: usize,
        n: usize,
        dtype: tpu_ir::DType,
        device: crate::tensor::Device,
    ) -> Result<Tensor, RuntimeError> {
        let mut dims = shape.dims().to_vec();
        dims[axis] = n;
        self.full(Shape::new(dims), 0.0, dtype, device).await
    }
}

/// Whether a slice node's gradient `g` may wait as a part of its input's:
/// the input is made by a node (not a leaf, whose `.grad` takes a whole
/// gradient), keeps no `.grad` of its own, is not collected by
/// `autograd.grad`, and has the gradient's dtype.
pub(super) fn sends_parts(walk: &Walk, node: &Node, g: &Tensor) -> bool {
    let inputs = node.inputs.borrow();
    let edges = node.edges.borrow();
    match (inputs.as_slice(), edges.as_slice()) {
        ([Some(input)], [Some(_)]) => {
            walk.capture.is_none() && !input.grad_state().retains_grad && input.dtype() == g.dtype()
        }
        _ => false,
    }
}
