//! The derivative formulas: `GradFn`, one variant per differentiable op with
//! what the op saves for its backward, PyTorch's `grad_fn` name for each, and
//! each op's input gradients computed from its output gradient with ordinary
//! runtime ops. The elementwise ops' formulas, and which node each binary op
//! records, are in `formulas/elementwise.rs`. The graph engine in
//! `autograd.rs` only records nodes and walks them; an op's runtime entry
//! point records its node (`self.record(&out, GradFn::Pad { .. }, &[x])`),
//! as only it knows what to save.

use crate::runtime::{Runtime, RuntimeError};
use crate::tensor::{Device, Tensor};
use tpu_ir::{BinaryOp, CompareOp, DType, ReduceOp, Shape, UnaryOp};

mod elementwise;
use elementwise::{scalar_grad_name, unary_grad_name};

/// How to compute an op's input gradients from its output gradient, with what
/// the op saved for it. A saved output is a detached alias of the output (the
/// same storage, no `grad_fn`): saving the output object itself would make an
/// `Rc` cycle through its own node and leak every graph.
pub(crate) enum GradFn {
    /// Gradient passes through unchanged (clone, contiguous, `+` of one input).
    Identity {
        name: &'static str,
    },
    /// `a + b`, `a - b` with broadcasting: each gradient summed back to its shape.
    AddSub {
        a: Shape,
        b: Shape,
        sub: bool,
    },
    Mul {
        a: Tensor,
        b: Tensor,
    },
    Div {
        a: Tensor,
        b: Tensor,
    },
    Pow {
        a: Tensor,
        b: Tensor,
        out: Tensor,
    },
    /// `maximum`/`minimum` of two tensors: the gradient goes to the chosen
    /// operand, split in half on ties.
    Extremum {
        a: Tensor,
        b: Tensor,
        max: bool,
    },
    /// An op with a Python number.
    Scalar {
        op: BinaryOp,
        scalar: f64,
        scalar_on_left: bool,
        x: Tensor,
        out: Tensor,
    },
    Unary {
        op: UnaryOp,
        x: Tensor,
        out: Tensor,
    },
    Cast {
        from: DType,
    },
    ToDevice {
        from: Device,
    },
    /// `[.., m, k] @ [.., k, n]` of equal rank 2 or 3.
    MatMul {
        a: Tensor,
        b: Tensor,
    },
    SumAll {
        shape: Shape,
    },
    /// A reduction along `axis` (the output kept the axis with size 1).
    Reduce {
        op: ReduceOp,
        axis: usize,
        x: Tensor,
        out: Tensor,
        indices: Option<Tensor>,
    },
    /// `max()`/`min()` of all elements: the gradient is shared among the ties.
    ExtremumAll {
        x: Tensor,
        out: Tensor,
    },
    Cumsum {
        axis: usize,
    },
    /// `where(cond, a, b)`.
    Where {
        cond: Tensor,
        a: Shape,
        b: Shape,
    },
    Reshape {
        shape: Shape,
        name: &'static str,
    },
    Permute {
        perm: Vec<usize>,
    },
    Expand {
        shape: Shape,
    },
    Slice {
        shape: Shape,
        axis: usize,
        start: usize,
        step: usize,
    },
    Select {
        shape: Shape,
        axis: usize,
        index: usize,
    },
    Gather {
        shape: Shape,
        index: Tensor,
    },
    /// A node whose backward the program wrote (`torch.autograd.Function`):
    /// the walk stops at it and hands `payload` (the interpreter's callable)
    /// back to the caller, who runs it and delivers the input gradients.
    Custom {
        name: String,
        payload: std::rc::Rc<dyn std::any::Any>,
    },
    Cat {
        axis: usize,
        sizes: Vec<usize>,
    },
    /// `unfold(axis, size, step)` of a tensor of `shape`.
    Unfold {
        shape: Shape,
        axis: usize,
        size: usize,
        step: usize,
    },
    /// `F.pad` of a tensor of `shape` with `before` elements first.
    Pad {
        before: Vec<usize>,
        shape: Shape,
    },
}

impl GradFn {
    pub(super) fn default_name(&self) -> String {
        match self {
            GradFn::Identity { name } | GradFn::Reshape { name, .. } => (*name).into(),
            GradFn::AddSub { sub: false, .. } => "AddBackward0".into(),
            GradFn::AddSub { sub: true, .. } => "SubBackward0".into(),
            GradFn::Mul { .. } => "MulBackward0".into(),
            GradFn::Div { .. } => "DivBackward0".into(),
            GradFn::Pow { .. } => "PowBackward1".into(),
            GradFn::Extremum { max: true, .. } => "MaximumBackward0".into(),
            GradFn::Extremum { max: false, .. } => "MinimumBackward0".into(),
            GradFn::Scalar {
                op, scalar_on_left, ..
            } => scalar_grad_name(*op, *scalar_on_left).into(),
            GradFn::Unary { op, .. } => unary_grad_name(*op),
            GradFn::Cast { .. } | GradFn::ToDevice { .. } => "ToCopyBackward0".into(),
            GradFn::MatMul { a, .. } => {
                if a.rank() == 3 {
                    "BmmBackward0".into()
                } else {
                    "MmBackward0".into()
                }
            }
            GradFn::SumAll { .. } => "SumBackward0".into(),
            GradFn::Reduce { op, .. } => match op {
                ReduceOp::Sum => "SumBackward1".into(),
                ReduceOp::Prod => "ProdBackward1".into(),
                ReduceOp::Max => "MaxBackward0".into(),
                ReduceOp::Min => "MinBackward0".into(),
                ReduceOp::ArgMax | ReduceOp::ArgMin => "NotDifferentiable".into(),
            },
            GradFn::ExtremumAll { .. } => "MaxBackward1".into(),
            GradFn::Cumsum { .. } => "CumsumBackward0".into(),
            GradFn::Where { .. } => "WhereBackward0".into(),
            GradFn::Permute { .. } => "PermuteBackward0".into(),
            GradFn::Expand { .. } => "ExpandBackward0".into(),
            GradFn::Slice { .. } => "SliceBackward0".into(),
            GradFn::Select { .. } => "SelectBackward0".into(),
            GradFn::Gather { .. } => "IndexBackward0".into(),
            GradFn::Cat { .. } => "CatBackward0".into(),
            GradFn::Unfold { .. } => "UnfoldBackward0".into(),
            GradFn::Pad { .. } => "ConstantPadNdBackward0".into(),
            GradFn::Custom { name, .. } => name.clone(),
        }
    }

    /// The saved tensors this node's backward reads, given which inputs
    /// want a gradient (`wants`): those whose values an in-place write must
    /// not change before backward, as PyTorch's saved variables. Shapes and
    /// dtypes are not values; `Mul` reads `b` only for `a`'s gradient.
    pub(crate) fn reads(&self, wants: &[bool]) -> Vec<&Tensor> {
        let want = |i: usize| wants.get(i).copied().unwrap_or(false);
        let mut out = Vec::new();
        match self {
            GradFn::Mul { a, b } | GradFn::MatMul { a, b } => {
                if want(1) {
                    out.push(a);
                }
                if want(0) {
                    out.push(b);
                }
            }
            GradFn::Div { a, b } => {
                if want(1) {
                    out.push(a);
                }
                if want(0) || want(1) {
                    out.push(b);
                }
            }
            GradFn::Pow { a, b, out: o } => {
                out.push(a);
                out.push(b);
                if want(1) {
                    out.push(o);
                }
            }
            GradFn::Extremum { a, b, .. } => {
                out.push(a);
                out.push(b);
            }
            GradFn::Scalar {
                op,
                scalar_on_left,
                x,
                out: o,
                ..
            } => match (op, scalar_on_left) {
                (BinaryOp::Div, true) => {
                    out.push(x);
                    out.push(o);
                }
                (BinaryOp::Pow, false) | (BinaryOp::Maximum | BinaryOp::Minimum, _) => out.push(x),
                (BinaryOp::Pow, true) => out.push(o),
                _ => {}
            },
            GradFn::Unary { op, x, out: o } => match op {
                UnaryOp::Abs
                | UnaryOp::Log
                | UnaryOp::Sin
                | UnaryOp::Cos
                | UnaryOp::Erf
                | UnaryOp::Atan => out.push(x),
                UnaryOp::Relu
                | UnaryOp::Exp
                | UnaryOp::Sqrt
                | UnaryOp::Tanh
                | UnaryOp::Sigmoid
                | UnaryOp::Tan => out.push(o),
                UnaryOp::Neg | UnaryOp::Floor | UnaryOp::Ceil | UnaryOp::Round | UnaryOp::Sign => {}
            },
            GradFn::Reduce {
                op,
                x,
                out: o,
                indices,
                ..
            } => match op {
                ReduceOp::Prod => {
                    out.push(x);
                    out.push(o);
                }
                ReduceOp::Max | ReduceOp::Min => out.extend(indices.iter()),
                _ => {}
            },
            GradFn::ExtremumAll { x, out: o } => {
                out.push(x);
                out.push(o);
            }
            GradFn::Where { cond, .. } => out.push(cond),
            GradFn::Gather { index, .. } => out.push(index),
            _ => {}
        }
        out
    }

    /// Whether the node keeps tensors that a second backward would need.
    pub(super) fn saves_tensors(&self) -> bool {
        matches!(
            self,
            GradFn::Mul { .. }
                | GradFn::Div { .. }
                | GradFn::Pow { .. }
                | GradFn::Extremum { .. }
                | GradFn::Scalar { .. }
                | GradFn::Unary { .. }
                | GradFn::MatMul { .. }
                | GradFn::Reduce { .. }
                | GradFn::ExtremumAll { .. }
                | GradFn::Where { .. }
                | GradFn::Gather { .. }
                | GradFn::Custom { .. }
        )
    }
}

impl Runtime {
    /// Sums `g` over the dimensions that broadcasting added, back to `shape`.
    pub(crate) async fn sum_to(
        &mut self,
        g: &Tensor,
        shape: &Shape,
    ) -> Result<Tensor, RuntimeError> {
        if g.dims() == shape.dims() {
            return Ok(g.clone());
        }
        let gd = g.dims();
        let lead = gd.len() - shape.rank();
        let mut axes: Vec<usize> = (0..lead).collect();
        for (i, &d) in shape.dims().iter().enumerate() {
            if d == 1 && gd[lead + i] != 1 {
                axes.push(lead + i);
            }
        }
        // Neighbouring summed axes merged into one where `g`'s layout allows
        // it (a view): a bias's gradient over batch and tokens is one
        // reduction, not two kernels.
        let mut merged: Vec<i64> = Vec::new();
        let mut merged_axes: Vec<usize> = Vec::new();
        for (i, &d) in gd.iter().enumerate() {
            let summed = axes.contains(&i);
            match merged.last_mut() {
                Some(last) if summed && i > 0 && axes.contains(&(i - 1)) => *last *= d as i64,
                _ => {
                    if summed {
                        merged_axes.push(merged.len());
                    }
                    merged.push(d as i64);
                }
            }
        }
        let view = if merged_axes.len() < axes.len() {
            self.view(g, &merged).ok()
        } else {
            None
        };
        let summed = match view {
            Some(v) => {
                self.reduce_axes(ReduceOp::Sum, &v, &merged_axes, true)
                    .await?
            }
            None => self.reduce_axes(ReduceOp::Sum, g, &axes, true).await?,
        };
        let dims: Vec<i64> = shape.dims().iter().map(|&d| d as i64).collect();
        self.reshape(&summed, &dims).await
    }

    pub(super) async fn input_grads(
        &mut self,
        f: &GradFn,
        g: &Tensor,
        inputs: &[Option<Tensor>],
    ) -> Result<Vec<Option<Tensor>>, RuntimeError> {
        let wants = |i: usize| inputs.get(i).is_some_and(|t| t.is_some());
        let wanted = [wants(0), wants(1)];
        Ok(match f {
            GradFn::Identity { .. } => vec![Some(g.clone())],
            GradFn::AddSub { a, b, sub } => self.add_sub_grads(g, (a, b), *sub, wanted).await?,
            GradFn::Mul { a, b } => self.mul_grads(g, (a, b), wanted).await?,
            GradFn::Div { a, b } => self.div_grads(g, (a, b), wanted).await?,
            GradFn::Pow { a, b, out } => self.pow_grads(g, (a, b), out, wanted).await?,
            GradFn::Extremum { a, b, max } => self.extremum_grads(g, (a, b), *max).await?,
            GradFn::Scalar {
                op,
                scalar,
                scalar_on_left,
                x,
                out,
            } => {
                let op = (*op, *scalar, *scalar_on_left);
                vec![Some(self.scalar_grad(g, op, x, out).await?)]
            }
            GradFn::Unary { op, x, out } => vec![Some(self.unary_grad(g, *op, x, out).await?)],
            GradFn::Cast { from } => vec![Some(self.cast(g, *from).await?)],
            GradFn::ToDevice { from } => vec![Some(self.to_device(g, *from).await?)],
            GradFn::MatMul { a, b } => {
                // For an operand that is itself a transposed view (`w.t()` in
                // `F.linear`), the gradient is computed transposed (as the
                // operand is stored) and handed back as a transposed view, so
                // the view's own backward yields a dense gradient, no copy.
                let r = a.rank() as i64;
                let t = |rt: &mut Self, x: &Tensor| rt.transpose(x, r - 2, r - 1);
                let ga = if wants(0) {
                    Some(if crate::runtime::transposed_in_place(a).1 {
                        let gt = t(self, g)?;
                        let stored = self.matmul(b, &gt).await?;
                        t(self, &stored)?
                    } else {
                        let bt = t(self, b)?;
                        self.matmul(g, &bt).await?
                    })
                } else {
                    None
                };
                let gb = if wants(1) {
                    Some(if crate::runtime::transposed_in_place(b).1 {
                        let gt = t(self, g)?;
                        let stored = self.matmul(&gt, a).await?;
                        t(self, &stored)?
                    } else {
                        let at = t(self, a)?;
                        self.matmul(&at, g).await?
                    })
                } else {
                    None
                };
                vec![ga, gb]
            }
            GradFn::SumAll { shape } => {
                // A broadcast view: consumers that broadcast read it in place.
                let dims: Vec<i64> = shape.dims().iter().map(|&d| d as i64).collect();
                vec![Some(self.expand(g, &dims)?)]
            }
            GradFn::Reduce {
                op,
                axis,
                x,
                out,
                indices,
            } => {
                let dims: Vec<i64> = x.dims().iter().map(|&d| d as i64).collect();
                let gk = self.expand(g, &dims)?;
                let gx = match op {
                    ReduceOp::Sum => gk,
                    ReduceOp::Prod => {
                        let q = self.binary(BinaryOp::Div, out, x).await?;
                        self.binary(BinaryOp::Mul, &gk, &q).await?
                    }
                    ReduceOp::Max | ReduceOp::Min => {
                        let idx = indices.as_ref().expect("max/min along a dim save indices");
                        let hot = self.one_hot_along(x, *axis, idx).await?;
                        self.binary(BinaryOp::Mul, &gk, &hot).await?
                    }
                    ReduceOp::ArgMax | ReduceOp::ArgMin => {
                        return Ok(vec![None]);
                    }
                };
                vec![Some(gx)]
            }
            GradFn::ExtremumAll { x, out } => {
                let m = self.compare(CompareOp::Eq, x, out).await?;
                let m = self.cast(&m, g.dtype()).await?;
                let count = self.sum(&m).await?;
                let share = self.binary(BinaryOp::Div, g, &count).await?;
                vec![Some(self.binary(BinaryOp::Mul, &m, &share).await?)]
            }
            GradFn::Cumsum { axis } => vec![Some(self.cumsum_dir(g, *axis, true).await?)],
            GradFn::Where { cond, a, b } => {
                let zero = self
                    .full(Shape::scalar(), 0.0, g.dtype(), g.device())
                    .await?;
                let ga = self.where_(cond, g, &zero).await?;
                let gb = self.where_(cond, &zero, g).await?;
                vec![
                    Some(self.sum_to(&ga, a).await?),
                    Some(self.sum_to(&gb, b).await?),
                ]
            }
            GradFn::Reshape { shape, .. } => {
                let dims: Vec<i64> = shape.dims().iter().map(|&d| d as i64).collect();
                vec![Some(self.reshape(g, &dims).await?)]
            }
            GradFn::Permute { perm } => {
                let mut inverse = vec![0i64; perm.len()];
                for (i, &p) in perm.iter().enumerate() {
                    inverse[p] = i as i64;
                }
                vec![Some(self.permute(g, &inverse)?)]
            }
            GradFn::Expand { shape } => vec![Some(self.sum_to(g, shape).await?)],
            GradFn::Slice {
                shape,
                axis,
                start,
                step,
            } => {
                let n = g.dims()[*axis];
                if n > 0 && (*step == 1 || n == 1) {
                    // A run of the axis: `g` between zeros, one kernel (none
                    // where the slice is the whole axis, as `[:, :T]` often is).
                    let after = shape.dims()[*axis] - start - n;
                    return Ok(vec![Some(self.pad_axis(g, *axis, *start, after).await?)]);
                }
                let z = self.full(shape.clone(), 0.0, g.dtype(), g.device()).await?;
                let stop = start + n * step;
                let w = self.slice(
                    &z,
                    *axis,
                    Some(*start as i64),
                    Some(stop as i64),
                    *step as i64,
                )?;
                self.write(&w, g).await?;
                vec![Some(z)]
            }
            GradFn::Select { shape, axis, index } => {
                let g = self.unsqueeze(g, *axis as i64)?;
                let after = shape.dims()[*axis] - index - 1;
                vec![Some(self.pad_axis(&g, *axis, *index, after).await?)]
            }
            GradFn::Gather { shape, index } => {
                vec![Some(
                    self.scatter_add_zeros(shape.clone(), index, g, g.device())
                        .await?,
                )]
            }
            GradFn::Custom { .. } => {
                return Err(RuntimeError::Message(
                    "a torch.autograd.Function's backward runs in the interpreter's walk".into(),
                ));
            }
            GradFn::Cat { axis, sizes } => {
                let mut out = Vec::with_capacity(sizes.len());
                let mut at = 0usize;
                for &n in sizes {
                    let part = self.slice(g, *axis, Some(at as i64), Some((at + n) as i64), 1)?;
                    out.push(Some(self.dense(&part).await?));
                    at += n;
                }
                out
            }
            GradFn::Unfold {
                shape,
                axis,
                size,
                step,
            } => vec![Some(
                self.unfold_backward(g, shape, *axis, *size, *step).await?,
            )],
            GradFn::Pad { before, shape } => vec![Some(self.pad_backward(g, before, shape).await?)],
        })
    }

    /// A float mask of `x`'s shape with 1 where the index along `axis` equals
    /// `indices` (keepdim shape), 0 elsewhere. Positions are compared as
    /// `x`'s float dtype where it holds every one of them exactly (float32
    /// up to 2^24), so that the comparison joins the kernel that multiplies
    /// by the mask in Fused mode; as int64 otherwise.
    async fn one_hot_along(
        &mut self,
        x: &Tensor,
        axis: usize,
        indices: &Tensor,
    ) -> Result<Tensor, RuntimeError> {
        let n = x.dims()[axis];
        let mut shape = vec![1usize; x.rank()];
        shape[axis] = n;
        let exact = match x.dtype() {
            DType::Float32 => n <= 1 << 24,
            DType::Float64 => true,
            _ => false,
        };
        let (positions, indices) = if exact {
            let positions = crate::data::HostData::F64((0..n).map(|i| i as f64).collect());
            let indices = self.cast(indices, x.dtype()).await?;
            (positions.cast(x.dtype()), indices)
        } else {
            let positions = crate::data::HostData::I64((0..n as i64).collect());
            (positions, indices.clone())
        };
        let ar = self
            .from_data(positions, Shape::new(shape), x.device())
            .await?;
        let hot = self.compare(CompareOp::Eq, &ar, &indices).await?;
        self.cast(&hot, x.dtype()).await
    }
}
