//! Fusion groups as data: a `FusedKernel` is a small SSA program evaluated over
//! its iteration shape. Inputs are read with broadcasting; several nodes may be
//! written out (values that live on after the group). Three patterns share it:
//! - elementwise: every node is evaluated once per element;
//! - a row kernel (`reduce_axis` set): `Reduce` nodes reduce along that axis, and
//!   the nodes computed from reductions alone are constant along it (one value
//!   per row: the reductions' prologue and epilogue, softmax, layer norm);
//! - a matmul with its epilogue: one `MatMul` node, evaluated per output element,
//!   followed by elementwise nodes (bias, activation, residual, optimiser steps).
//!
//! Backends compile it (WGSL) or interpret it (the reference's loop nest); its
//! `fingerprint` keys the compilation cache.

use crate::{BinaryOp, CompareOp, DType, Op, ReduceOp, Shape, UnaryOp};
use serde::{Deserialize, Serialize};

/// A 64-bit FNV-1a hash of `key`, as 16 hex digits: the compilation cache's
/// fingerprint function.
pub fn fingerprint(key: &str) -> String {
    format!("{:016x}", fnv1a(key.as_bytes()))
}

/// The 64-bit FNV-1a hash of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

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
        #[serde(with = "any_f64")]
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
        #[serde(with = "any_f64")]
        scalar: f64,
        scalar_on_left: bool,
    },
    Unary {
        op: UnaryOp,
        x: usize,
    },
    /// `torch.where`: `a` where node `cond` (a bool, held as 0 or 1) is
    /// true, else `b`. Only backends that take bools in fused kernels get it
    /// (`Backend::fuses_masks`), as the three nodes below.
    Where {
        cond: usize,
        a: usize,
        b: usize,
    },
    /// Nodes `a` and `b` (both float32, or both bool) compared, into a bool
    /// held as 0 or 1: IEEE's comparisons, false beside a NaN but for `!=`.
    Compare {
        op: CompareOp,
        a: usize,
        b: usize,
    },
    /// Float32 node `x` compared with a Python number rounded to float32 (a
    /// kernel parameter, as a `Scalar` node's), into a bool.
    CompareScalar {
        op: CompareOp,
        x: usize,
        #[serde(with = "any_f64")]
        scalar: f64,
    },
    /// Node `x` converted between float32 and bool (`to`): a float is true
    /// unless it is zero (NaN is true), a bool is 0.0 or 1.0.
    Cast {
        x: usize,
        to: DType,
    },
    /// Node `x` reduced along the kernel's `reduce_axis` (sum, prod, max or
    /// min); the result is constant along that axis.
    Reduce {
        op: ReduceOp,
        x: usize,
    },
    /// The product of kernel inputs `a` and `b` (read whole, as `Op::MatMul`
    /// reads its operands, never broadcast) at this element: the kernel's
    /// shape has the product's elements in its row-major order (`[batch?, m,
    /// n]`, or a reshape of it).
    MatMul {
        a: usize,
        b: usize,
        transpose_a: bool,
        transpose_b: bool,
    },
}

/// A matmul node's operands (kernel input indices) and sizes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MatMulSpec {
    pub a: usize,
    pub b: usize,
    pub transpose_a: bool,
    pub transpose_b: bool,
    pub batch: usize,
    pub m: usize,
    pub k: usize,
    pub n: usize,
}

/// A kernel input: its shape (broadcast to the kernel's) and dtype.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FusedInput {
    pub shape: Shape,
    pub dtype: DType,
    /// For a matmul operand read in place from a strided view (the head
    /// transposes of attention), where its elements lie in the buffer; `None`
    /// for a dense operand of `shape`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<MatrixLayout>,
}

/// Where element `(batch, row, col)` of a matmul operand `[batch?, rows,
/// cols]` (as stored, before a transpose flag) lies in its buffer:
/// `offset + (batch / inner) * outer_stride + (batch % inner) * inner_stride +
/// row * row_stride + col * col_stride`. Two batch levels cover a view of
/// `[batch, heads, rows, cols]` read as `[batch * heads, rows, cols]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MatrixLayout {
    pub offset: usize,
    pub outer_stride: usize,
    pub inner: usize,
    pub inner_stride: usize,
    pub row_stride: usize,
    pub col_stride: usize,
}

impl MatrixLayout {
    /// A dense operand of `dims` (`[batch?, rows, cols]`, row-major).
    pub fn dense(dims: &[usize]) -> MatrixLayout {
        let (rows, cols) = (dims[dims.len() - 2], dims[dims.len() - 1]);
        MatrixLayout {
            offset: 0,
            outer_stride: rows * cols,
            inner: 1,
            inner_stride: 0,
            row_stride: cols,
            col_stride: 1,
        }
    }

    /// The layout of the strided view `offset`, `dims`, `strides` (an
    /// `Op::Strided` copy's source) read as a matmul operand of `operand`
    /// dims, if the view's last two dims are the operand's rows and columns
    /// and its leading dims fold into at most two batch levels.
    pub fn of_view(
        offset: usize,
        dims: &[usize],
        strides: &[usize],
        operand: &[usize],
    ) -> Option<MatrixLayout> {
        let (r, o) = (dims.len(), operand.len());
        if r < 2 || strides.len() != r || !(2..=3).contains(&o) {
            return None;
        }
        if dims[r - 2..] != operand[o - 2..] {
            return None;
        }
        let batch: usize = dims[..r - 2].iter().product();
        if batch != if o == 3 { operand[0] } else { 1 } {
            return None;
        }
        // Leading dims of size > 1, adjacent ones merged where contiguous.
        let mut levels: Vec<(usize, usize)> = Vec::new();
        for (&d, &s) in dims[..r - 2].iter().zip(strides) {
            if d == 1 {
                continue;
            }
            match levels.last_mut() {
                Some(last) if last.1 == s * d => *last = (last.0 * d, s),
                _ => levels.push((d, s)),
            }
        }
        let (outer_stride, inner, inner_stride) = match levels[..] {
            [] => (0, 1, 0),
            [(_, s)] => (s, 1, 0),
            [(_, s0), (d1, s1)] => (s0, d1, s1),
            _ => return None,
        };
        Some(MatrixLayout {
            offset,
            outer_stride,
            inner,
            inner_stride,
            row_stride: strides[r - 2],
            col_stride: strides[r - 1],
        })
    }

    /// Where batch entry `b` starts.
    pub fn batch_offset(&self, b: usize) -> usize {
        self.offset + (b / self.inner) * self.outer_stride + (b % self.inner) * self.inner_stride
    }
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
    /// The axis of `shape` that `Reduce` nodes reduce (a row kernel).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reduce_axis: Option<usize>,
    /// In a row kernel, per node, whether it is one value per row (a reduction,
    /// what is computed from reductions alone, an input of size 1 on the axis)
    /// rather than a row of values. Empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub per_row: Vec<bool>,
}

impl FusedKernel {
    /// The scalars in `Scalar` nodes, in node order: the kernel's runtime
    /// parameters.
    pub fn scalars(&self) -> Vec<f64> {
        self.nodes
            .iter()
            .filter_map(|n| match n {
                FusedNode::Scalar { scalar, .. } | FusedNode::CompareScalar { scalar, .. } => {
                    Some(*scalar)
                }
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
                FusedNode::Where { cond, a, b } => format!("where({cond},{a},{b})"),
                FusedNode::Compare { op, a, b } => format!("{}({a},{b})", op.name()),
                FusedNode::CompareScalar { op, x, .. } => format!("{}s({x})", op.name()),
                FusedNode::Cast { x, to } => format!("cast_{to:?}({x})"),
                FusedNode::Reduce { op, x } => format!("reduce_{}({x})", op.name()),
                FusedNode::MatMul {
                    a,
                    b,
                    transpose_a,
                    transpose_b,
                } => format!(
                    "matmul{}{}({a},{b})",
                    u8::from(*transpose_a),
                    u8::from(*transpose_b)
                ),
            })
            .collect();
        let inputs: Vec<String> = self
            .inputs
            .iter()
            .map(|i| match &i.layout {
                Some(l) => format!("{:?}{:?}{l:?}", i.shape.dims(), i.dtype),
                None => format!("{:?}{:?}", i.shape.dims(), i.dtype),
            })
            .collect();
        format!(
            "{:?}|{:?}|{}|{}|{:?}|{:?}{:?}",
            self.shape.dims(),
            self.dtype,
            inputs.join(","),
            nodes.join(";"),
            self.outputs,
            self.reduce_axis,
            self.per_row
        )
    }

    /// The compilation cache's key: `fingerprint(code_key)`.
    pub fn fingerprint(&self) -> String {
        fingerprint(&self.code_key())
    }

    /// Per node, its dtype: an input's, bool for a comparison, a cast's
    /// target, and the kernel's `dtype` for every other node (a `Where`
    /// takes its branches').
    pub fn node_dtypes(&self) -> Vec<DType> {
        let mut dtypes: Vec<DType> = Vec::with_capacity(self.nodes.len());
        for node in &self.nodes {
            let dtype = match node {
                FusedNode::Input { index } => self.inputs[*index].dtype,
                FusedNode::Compare { .. } | FusedNode::CompareScalar { .. } => DType::Bool,
                FusedNode::Cast { to, .. } => *to,
                FusedNode::Where { a, .. } => dtypes[*a],
                _ => self.dtype,
            };
            dtypes.push(dtype);
        }
        dtypes
    }

    /// The dtype of output `j`.
    pub fn output_dtype(&self, j: usize) -> DType {
        self.node_dtypes()[self.outputs[j]]
    }

    /// The nodes node `n` reads (not kernel inputs: an `Input` node reads
    /// none, a `MatMul` node its operands whole).
    pub fn operands(&self, n: usize) -> Vec<usize> {
        match self.nodes[n] {
            FusedNode::Binary { a, b, .. } | FusedNode::Compare { a, b, .. } => vec![a, b],
            FusedNode::Scalar { x, .. }
            | FusedNode::Unary { x, .. }
            | FusedNode::CompareScalar { x, .. }
            | FusedNode::Cast { x, .. }
            | FusedNode::Reduce { x, .. } => vec![x],
            FusedNode::Where { cond, a, b } => vec![cond, a, b],
            FusedNode::Input { .. } | FusedNode::Const { .. } | FusedNode::MatMul { .. } => {
                Vec::new()
            }
        }
    }

    /// Per node, whether it is one value per row (see `per_row`); all false
    /// for a kernel without a reduced axis.
    pub fn row_constant(&self) -> Vec<bool> {
        if self.reduce_axis.is_some() {
            self.per_row.clone()
        } else {
            vec![false; self.nodes.len()]
        }
    }

    /// `(rows, n, inner)` of a row kernel: the number of rows, the length of
    /// the reduced axis, and the product of the dims after it.
    pub fn row_dims(&self) -> Option<(usize, usize, usize)> {
        let axis = self.reduce_axis?;
        let dims = self.shape.dims();
        let n = dims[axis];
        let inner: usize = dims[axis + 1..].iter().product();
        Some((self.shape.numel() / n.max(1), n, inner))
    }

    /// The shape of output `j`: the kernel's, or with the reduced axis at size
    /// 1 for a row-constant node.
    pub fn output_shape(&self, j: usize) -> Shape {
        match self.reduce_axis {
            Some(axis) if self.per_row[self.outputs[j]] => {
                let mut dims = self.shape.dims().to_vec();
                dims[axis] = 1;
                Shape::new(dims)
            }
            _ => self.shape.clone(),
        }
    }

    /// The matmul node's operands and sizes, if there is one.
    pub fn matmul(&self) -> Option<MatMulSpec> {
        self.nodes.iter().find_map(|n| match *n {
            FusedNode::MatMul {
                a,
                b,
                transpose_a,
                transpose_b,
            } => {
                let (batch, m, k, n) = Op::matmul_dims(
                    self.inputs[a].shape.dims(),
                    self.inputs[b].shape.dims(),
                    transpose_a,
                    transpose_b,
                );
                Some(MatMulSpec {
                    a,
                    b,
                    transpose_a,
                    transpose_b,
                    batch,
                    m,
                    k,
                    n,
                })
            }
            _ => None,
        })
    }

    /// Where the elements of matmul operand `index` lie in its buffer.
    pub fn operand_layout(&self, index: usize) -> MatrixLayout {
        let input = &self.inputs[index];
        input
            .layout
            .unwrap_or_else(|| MatrixLayout::dense(input.shape.dims()))
    }

    /// Whether kernel input `index` is read whole by the matmul node rather
    /// than broadcast over the iteration shape.
    pub fn is_matmul_operand(&self, index: usize) -> bool {
        self.matmul()
            .is_some_and(|mm| mm.a == index || mm.b == index)
    }
}

#[cfg(test)]
mod tests {
    use super::MatrixLayout;

    #[test]
    fn a_head_transpose_reads_as_a_two_level_batch() {
        // q of `qkv.split(C, 2)` then `.view(B, T, H, D).transpose(1, 2)`:
        // [8, 4, 128, 64] over a [8, 128, 768] buffer, read as [32, 128, 64].
        let dims = [8, 4, 128, 64];
        let strides = [98304, 64, 768, 1];
        let l = MatrixLayout::of_view(256, &dims, &strides, &[32, 128, 64]).unwrap();
        assert_eq!((l.outer_stride, l.inner, l.inner_stride), (98304, 4, 64));
        assert_eq!((l.row_stride, l.col_stride), (768, 1));
        // Batch entry 5 is (batch 1, head 1).
        assert_eq!(l.batch_offset(5), 256 + 98304 + 64);
        // A contiguous view's leading dims merge into one level.
        let l = MatrixLayout::of_view(0, &[2, 3, 4, 5], &[60, 20, 5, 1], &[6, 4, 5]).unwrap();
        assert_eq!((l.outer_stride, l.inner), (20, 1));
        assert_eq!(l, MatrixLayout::dense(&[6, 4, 5]));
        // Rows that are not the view's last-but-one dim cannot be read so.
        assert_eq!(
            MatrixLayout::of_view(0, &[8, 128, 4, 64], &[32768, 64, 8192, 1], &[1024, 256]),
            None
        );
        // Three batch levels that do not merge are refused.
        assert_eq!(
            MatrixLayout::of_view(0, &[2, 3, 5, 4, 4], &[1000, 7, 100, 4, 1], &[30, 4, 4]),
            None
        );
    }
}

/// A float in JSON, which has no infinities or NaN (serde_json writes them as
/// `null`, and cannot read that back): finite ones as numbers, the rest as
/// the strings `"inf"`, `"-inf"` and `"nan"` (a causal mask's `-inf` fill,
/// in the precompiled library and the persisted cache).
mod any_f64 {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
        match *x {
            x if x.is_finite() => s.serialize_f64(x),
            x if x.is_nan() => s.serialize_str("nan"),
            x if x > 0.0 => s.serialize_str("inf"),
            _ => s.serialize_str("-inf"),
        }
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Written {
        Number(f64),
        Name(String),
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        match Written::deserialize(d)? {
            Written::Number(x) => Ok(x),
            Written::Name(name) => match name.as_str() {
                "inf" => Ok(f64::INFINITY),
                "-inf" => Ok(f64::NEG_INFINITY),
                "nan" => Ok(f64::NAN),
                _ => Err(serde::de::Error::custom(format!("not a float: {name}"))),
            },
        }
    }
}
