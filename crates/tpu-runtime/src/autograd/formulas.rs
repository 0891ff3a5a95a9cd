//! The derivative formulas: `GradFn`, one variant per differentiable op with
//! what the op saves for its backward, PyTorch's `grad_fn` name for each, and
//! each op's input gradients computed from its output gradient with ordinary
//! runtime ops. A new op's gradient is written here and nowhere else; the graph
//! engine in `autograd.rs` only records nodes and walks them.

use crate::runtime::{Runtime, RuntimeError};
use crate::tensor::{Device, Tensor};
use tpu_ir::{BinaryOp, CompareOp, DType, ReduceOp, ScalarKind, Shape, UnaryOp};

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
            } => match (op, scalar_on_left) {
                (BinaryOp::Add, _) => "AddBackward0".into(),
                (BinaryOp::Sub, false) => "SubBackward0".into(),
                (BinaryOp::Sub, true) => "RsubBackward1".into(),
                (BinaryOp::Mul, _) => "MulBackward0".into(),
                (BinaryOp::Div, _) => "DivBackward0".into(),
                (BinaryOp::Pow, false) => "PowBackward0".into(),
                (BinaryOp::Pow, true) => "PowBackward2".into(),
                (BinaryOp::Maximum | BinaryOp::Minimum, _) => "ClampBackward1".into(),
                (BinaryOp::Remainder, _) => "RemainderBackward0".into(),
                (BinaryOp::FloorDiv, _) => "DivBackward1".into(),
            },
            GradFn::Unary { op, .. } => {
                let name = op.name();
                let mut chars = name.chars();
                let first = chars.next().map(|c| c.to_ascii_uppercase());
                format!("{}{}Backward0", first.unwrap_or('X'), chars.as_str())
            }
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
        let summed = self.reduce_axes(ReduceOp::Sum, g, &axes, true).await?;
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
        Ok(match f {
            GradFn::Identity { .. } => vec![Some(g.clone())],
            GradFn::AddSub { a, b, sub } => {
                let ga = if wants(0) {
                    Some(self.sum_to(g, a).await?)
                } else {
                    None
                };
                let gb = if wants(1) {
                    let gb = self.sum_to(g, b).await?;
                    Some(if *sub {
                        self.unary(UnaryOp::Neg, &gb).await?
                    } else {
                        gb
                    })
                } else {
                    None
                };
                vec![ga, gb]
            }
            GradFn::Mul { a, b } => {
                let ga = if wants(0) {
                    let p = self.binary(BinaryOp::Mul, g, b).await?;
                    Some(self.sum_to(&p, &a.shape()).await?)
                } else {
                    None
                };
                let gb = if wants(1) {
                    let p = self.binary(BinaryOp::Mul, g, a).await?;
                    Some(self.sum_to(&p, &b.shape()).await?)
                } else {
                    None
                };
                vec![ga, gb]
            }
            GradFn::Div { a, b } => {
                let ga = if wants(0) {
                    let p = self.binary(BinaryOp::Div, g, b).await?;
                    Some(self.sum_to(&p, &a.shape()).await?)
                } else {
                    None
                };
                let gb = if wants(1) {
                    // -g * a / b^2
                    let q = self.binary(BinaryOp::Div, a, b).await?;
                    let q = self.binary(BinaryOp::Div, &q, b).await?;
                    let p = self.binary(BinaryOp::Mul, g, &q).await?;
                    let p = self.unary(UnaryOp::Neg, &p).await?;
                    Some(self.sum_to(&p, &b.shape()).await?)
                } else {
                    None
                };
                vec![ga, gb]
            }
            GradFn::Pow { a, b, out } => {
                let ga = if wants(0) {
                    // g * b * a^(b-1)
                    let bm1 = self
                        .binary_scalar(BinaryOp::Sub, b, 1.0, ScalarKind::Float, false)
                        .await?;
                    let p = self.binary(BinaryOp::Pow, a, &bm1).await?;
                    let p = self.binary(BinaryOp::Mul, &p, b).await?;
                    let p = self.binary(BinaryOp::Mul, g, &p).await?;
                    Some(self.sum_to(&p, &a.shape()).await?)
                } else {
                    None
                };
                let gb = if wants(1) {
                    let l = self.unary(UnaryOp::Log, a).await?;
                    let p = self.binary(BinaryOp::Mul, out, &l).await?;
                    let p = self.binary(BinaryOp::Mul, g, &p).await?;
                    Some(self.sum_to(&p, &b.shape()).await?)
                } else {
                    None
                };
                vec![ga, gb]
            }
            GradFn::Extremum { a, b, max } => {
                let (win, _) = if *max {
                    (CompareOp::Gt, ())
                } else {
                    (CompareOp::Lt, ())
                };
                let gt = self.compare(win, a, b).await?;
                let eq = self.compare(CompareOp::Eq, a, b).await?;
                let gt = self.cast(&gt, g.dtype()).await?;
                let eq = self.cast(&eq, g.dtype()).await?;
                let half = self
                    .binary_scalar(BinaryOp::Mul, &eq, 0.5, ScalarKind::Float, false)
                    .await?;
                let wa = self.binary(BinaryOp::Add, &gt, &half).await?;
                let ga = self.binary(BinaryOp::Mul, g, &wa).await?;
                let gb = self.binary(BinaryOp::Sub, g, &ga).await?;
                vec![
                    Some(self.sum_to(&ga, &a.shape()).await?),
                    Some(self.sum_to(&gb, &b.shape()).await?),
                ]
            }
            GradFn::Scalar {
                op,
                scalar,
                scalar_on_left,
                x,
                out,
            } => {
                let s = *scalar;
                let fl = ScalarKind::Float;
                let gx = match (op, scalar_on_left) {
                    (BinaryOp::Add, _) | (BinaryOp::Sub, false) | (BinaryOp::Remainder, false) => {
                        g.clone()
                    }
                    (BinaryOp::Sub, true) => self.unary(UnaryOp::Neg, g).await?,
                    (BinaryOp::Mul, _) => {
                        self.binary_scalar(BinaryOp::Mul, g, s, fl, false).await?
                    }
                    (BinaryOp::Div, false) => {
                        self.binary_scalar(BinaryOp::Div, g, s, fl, false).await?
                    }
                    (BinaryOp::Div, true) => {
                        // d(s/x) = -s/x^2 = -out/x
                        let q = self.binary(BinaryOp::Div, out, x).await?;
                        let q = self.unary(UnaryOp::Neg, &q).await?;
                        self.binary(BinaryOp::Mul, g, &q).await?
                    }
                    (BinaryOp::Pow, false) => {
                        if s == 0.0 {
                            self.binary_scalar(BinaryOp::Mul, g, 0.0, fl, false).await?
                        } else {
                            let p = self
                                .binary_scalar(BinaryOp::Pow, x, s - 1.0, fl, false)
                                .await?;
                            let p = self.binary_scalar(BinaryOp::Mul, &p, s, fl, false).await?;
                            self.binary(BinaryOp::Mul, g, &p).await?
                        }
                    }
                    (BinaryOp::Pow, true) => {
                        let p = self
                            .binary_scalar(BinaryOp::Mul, out, s.ln(), fl, false)
                            .await?;
                        self.binary(BinaryOp::Mul, g, &p).await?
                    }
                    (BinaryOp::Maximum | BinaryOp::Minimum, _) => {
                        let cmp = if *op == BinaryOp::Maximum {
                            CompareOp::Ge
                        } else {
                            CompareOp::Le
                        };
                        let keep = self.compare_scalar(cmp, x, s).await?;
                        let keep = self.cast(&keep, g.dtype()).await?;
                        self.binary(BinaryOp::Mul, g, &keep).await?
                    }
                    (BinaryOp::Remainder, true) | (BinaryOp::FloorDiv, _) => {
                        self.binary_scalar(BinaryOp::Mul, g, 0.0, fl, false).await?
                    }
                };
                vec![Some(gx)]
            }
            GradFn::Unary { op, x, out } => {
                let fl = ScalarKind::Float;
                let d = match op {
                    UnaryOp::Neg => return Ok(vec![Some(self.unary(UnaryOp::Neg, g).await?)]),
                    UnaryOp::Abs => self.unary(UnaryOp::Sign, x).await?,
                    UnaryOp::Relu => {
                        let m = self.compare_scalar(CompareOp::Gt, out, 0.0).await?;
                        self.cast(&m, g.dtype()).await?
                    }
                    UnaryOp::Exp => out.clone(),
                    UnaryOp::Log => {
                        return Ok(vec![Some(self.binary(BinaryOp::Div, g, x).await?)]);
                    }
                    UnaryOp::Sqrt => {
                        let two = self
                            .binary_scalar(BinaryOp::Mul, out, 2.0, fl, false)
                            .await?;
                        return Ok(vec![Some(self.binary(BinaryOp::Div, g, &two).await?)]);
                    }
                    UnaryOp::Tanh => {
                        let sq = self.binary(BinaryOp::Mul, out, out).await?;
                        self.binary_scalar(BinaryOp::Sub, &sq, 1.0, fl, true)
                            .await?
                    }
                    UnaryOp::Sigmoid => {
                        let one_minus = self
                            .binary_scalar(BinaryOp::Sub, out, 1.0, fl, true)
                            .await?;
                        self.binary(BinaryOp::Mul, out, &one_minus).await?
                    }
                    UnaryOp::Sin => self.unary(UnaryOp::Cos, x).await?,
                    UnaryOp::Cos => {
                        let s = self.unary(UnaryOp::Sin, x).await?;
                        self.unary(UnaryOp::Neg, &s).await?
                    }
                    UnaryOp::Erf => {
                        // 2/sqrt(pi) * exp(-x^2)
                        let sq = self.binary(BinaryOp::Mul, x, x).await?;
                        let n = self.unary(UnaryOp::Neg, &sq).await?;
                        let e = self.unary(UnaryOp::Exp, &n).await?;
                        let c = 2.0 / std::f64::consts::PI.sqrt();
                        self.binary_scalar(BinaryOp::Mul, &e, c, fl, false).await?
                    }
                    UnaryOp::Floor | UnaryOp::Ceil | UnaryOp::Round | UnaryOp::Sign => {
                        self.binary_scalar(BinaryOp::Mul, g, 0.0, fl, false).await?
                    }
                };
                vec![Some(self.binary(BinaryOp::Mul, g, &d).await?)]
            }
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
                let z = self.full(shape.clone(), 0.0, g.dtype(), g.device()).await?;
                let n = g.dims()[*axis];
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
                let z = self.full(shape.clone(), 0.0, g.dtype(), g.device()).await?;
                let w = self.select(&z, *axis, *index as i64)?;
                self.write(&w, g).await?;
                vec![Some(z)]
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
    /// `indices` (keepdim shape), 0 elsewhere.
    async fn one_hot_along(
        &mut self,
        x: &Tensor,
        axis: usize,
        indices: &Tensor,
    ) -> Result<Tensor, RuntimeError> {
        let n = x.dims()[axis];
        let mut shape = vec![1usize; x.rank()];
        shape[axis] = n;
        let positions = crate::data::HostData::I64((0..n as i64).collect());
        let ar = self
            .from_data(positions, Shape::new(shape), x.device())
            .await?;
        let hot = self.compare(CompareOp::Eq, &ar, indices).await?;
        self.cast(&hot, x.dtype()).await
    }
}
