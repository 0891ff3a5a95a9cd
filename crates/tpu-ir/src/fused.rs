//! Fusion groups as data: a `FusedKernel` is a small SSA program evaluated once
//! per element of its iteration shape. Inputs are read with broadcasting;
//! several nodes may be written out (values that live on after the group).
//! Backends compile it (WGSL) or interpret it (the reference's single loop
//! nest); its `fingerprint` keys the compilation cache.

use crate::{BinaryOp, DType, Shape, UnaryOp};
use serde::{Deserialize, Serialize};

/// One value of the SSA program; operands are indices of earlier nodes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FusedNode {
    /// Element of kernel input `index`, read through broadcasting.
    Input {
        index: usize,
    },
    /// A constant (a fill).
    Const {
        value: f64,
    },
    Binary {
        op: BinaryOp,
        a: usize,
        b: usize,
    },
    /// An op with a Python number, which lives in the kernel's parameters (so
    /// that changing it does not change the code).
    Scalar {
        op: BinaryOp,
        x: usize,
        scalar: f64,
        scalar_on_left: bool,
    },
    Unary {
        op: UnaryOp,
        x: usize,
    },
}

/// A kernel input: its shape (broadcast to the kernel's) and dtype.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FusedInput {
    pub shape: Shape,
    pub dtype: DType,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FusedKernel {
    /// The iteration space: every node's value has this shape.
    pub shape: Shape,
    pub dtype: DType,
    pub inputs: Vec<FusedInput>,
    pub nodes: Vec<FusedNode>,
    /// Nodes written to output buffers, in order.
    pub outputs: Vec<usize>,
}

impl FusedKernel {
    /// The scalars in `Scalar` nodes, in node order: the kernel's runtime
    /// parameters.
    pub fn scalars(&self) -> Vec<f64> {
        self.nodes
            .iter()
            .filter_map(|n| match n {
                FusedNode::Scalar { scalar, .. } => Some(*scalar),
                FusedNode::Const { value } => Some(*value),
                _ => None,
            })
            .collect()
    }

    /// What determines the generated code: node structure, ranks, dtypes and
    /// the number of outputs; not the scalar values, which are parameters.
    /// Shapes are included as the compilation cache keys on them (a changed
    /// shape is a new entry, as in XLA).
    pub fn code_key(&self) -> String {
        let nodes: Vec<String> = self
            .nodes
            .iter()
            .map(|n| match n {
                FusedNode::Input { index } => format!("in{index}"),
                FusedNode::Const { .. } => "const".into(),
                FusedNode::Binary { op, a, b } => format!("{}({a},{b})", op.name()),
                FusedNode::Scalar {
                    op,
                    x,
                    scalar_on_left,
                    ..
                } => format!(
                    "{}s{}({x})",
                    op.name(),
                    if *scalar_on_left { "l" } else { "r" }
                ),
                FusedNode::Unary { op, x } => format!("{}({x})", op.name()),
            })
            .collect();
        let inputs: Vec<String> = self
            .inputs
            .iter()
            .map(|i| format!("{:?}{:?}", i.shape.dims(), i.dtype))
            .collect();
        format!(
            "{:?}|{:?}|{}|{}|{:?}",
            self.shape.dims(),
            self.dtype,
            inputs.join(","),
            nodes.join(";"),
            self.outputs
        )
    }

    /// A 64-bit FNV-1a hash of `code_key`, as 16 hex digits.
    pub fn fingerprint(&self) -> String {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in self.code_key().bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        format!("{h:016x}")
    }

    /// Evaluates the program for one element, given the inputs' values there
    /// (the reference semantics; float32 arithmetic as the unfused ops do).
    pub fn eval(&self, inputs: &[f32], scratch: &mut Vec<f32>) {
        scratch.clear();
        for node in &self.nodes {
            let v = match node {
                FusedNode::Input { index } => inputs[*index],
                FusedNode::Const { value } => *value as f32,
                FusedNode::Binary { op, a, b } => op.apply(scratch[*a], scratch[*b]),
                FusedNode::Scalar {
                    op,
                    x,
                    scalar,
                    scalar_on_left,
                } => {
                    let s = *scalar as f32;
                    if *scalar_on_left {
                        op.apply(s, scratch[*x])
                    } else {
                        op.apply(scratch[*x], s)
                    }
                }
                FusedNode::Unary { op, x } => op.apply(scratch[*x] as f64) as f32,
            };
            scratch.push(v);
        }
    }
}
