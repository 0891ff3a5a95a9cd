//! Reductions along dimensions (`sum`, `prod`, `max`, `min`, `argmax`, `argmin`,
//! `mean`) and running sums. Each primitive reduces one axis and keeps it with
//! size 1; several axes reduce one after another, and `keepdim=False` is a view.

use crate::autograd::GradFn;
use crate::runtime::{Runtime, RuntimeError, scalar_type_name};
use crate::tensor::Tensor;
use tpu_ir::{BinaryOp, DType, Op, ReduceOp, ScalarKind, Shape};

impl Runtime {
    /// One axis of `t` reduced by `op`, keeping the axis with size 1. For max
    /// and min the indices are computed too (a second kernel) when the caller
    /// wants them or autograd will need them.
    async fn reduce_one(
        &mut self,
        op: ReduceOp,
        t: &Tensor,
        axis: usize,
        want_indices: bool,
    ) -> Result<(Tensor, Option<Tensor>), RuntimeError> {
        let mut dims = t.dims();
        if dims[axis] == 0 && op != ReduceOp::Sum && op != ReduceOp::Prod {
            return Err(RuntimeError::Index(format!(
                "{}(): Expected reduction dim {axis} to have non-zero size.",
                op.name()
            )));
        }
        dims[axis] = 1;
        let shape = Shape::new(dims);
        let dtype = match op {
            ReduceOp::ArgMax | ReduceOp::ArgMin => DType::Int64,
            ReduceOp::Sum | ReduceOp::Prod if !t.dtype().is_floating() => DType::Int64,
            _ => t.dtype(),
        };
        let input = if matches!(op, ReduceOp::Sum | ReduceOp::Prod) {
            self.cast(t, dtype).await?
        } else {
            t.clone()
        };
        let out = self
            .dispatch(
                Op::Reduce { op, axis },
                &[&input],
                shape.clone(),
                dtype,
                t.device(),
            )
            .await?;
        let indices_needed = want_indices || (self.grad_enabled() && t.requires_grad());
        let indices = match op {
            ReduceOp::Max | ReduceOp::Min if indices_needed => {
                let arg = if op == ReduceOp::Max {
                    ReduceOp::ArgMax
                } else {
                    ReduceOp::ArgMin
                };
                let ir = Op::Reduce { op: arg, axis };
                Some(
                    self.dispatch(ir, &[t], shape, DType::Int64, t.device())
                        .await?,
                )
            }
            _ => None,
        };
        if self.grad_enabled() && input.requires_grad() {
            let grad_fn = GradFn::Reduce {
                op,
                axis,
                x: input.clone(),
                out: self.detach(&out),
                indices: indices.clone(),
            };
            self.record(&out, grad_fn, &[&input]);
        }
        Ok((out, indices))
    }

    /// Reduces `axes` of `t` by `op` (Sum, Prod, Max or Min values).
    pub async fn reduce_axes(
        &mut self,
        op: ReduceOp,
        t: &Tensor,
        axes: &[usize],
        keepdim: bool,
    ) -> Result<Tensor, RuntimeError> {
        if t.rank() == 0 && !axes.is_empty() {
            // A 0-d tensor takes dim 0 (or -1), as PyTorch does: one element
            // along it, and the result stays 0-d, keepdim or not.
            let one = self.view(t, &[1])?;
            let out = self.reduce_one(op, &one, 0, false).await?.0;
            return self.view(&out, &[]);
        }
        let mut sorted = axes.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        let mut out = t.clone();
        for &axis in &sorted {
            out = self.reduce_one(op, &out, axis, false).await?.0;
        }
        if keepdim || sorted.is_empty() {
            return Ok(out);
        }
        let drop: Vec<i64> = sorted.iter().map(|&a| a as i64).collect();
        self.squeeze(&out, Some(&drop))
    }

    /// `max(dim)` / `min(dim)`: values and int64 indices (`amax` asks for the
    /// values alone, and its indices are only made if autograd needs them).
    pub async fn extremum_along(
        &mut self,
        max: bool,
        t: &Tensor,
        axis: usize,
        keepdim: bool,
        want_indices: bool,
    ) -> Result<(Tensor, Option<Tensor>), RuntimeError> {
        let op = if max { ReduceOp::Max } else { ReduceOp::Min };
        if t.rank() == 0 {
            let zero = self
                .full(Shape::scalar(), 0.0, DType::Int64, t.device())
                .await?;
            return Ok((t.clone(), Some(zero)));
        }
        let (values, indices) = self.reduce_one(op, t, axis, want_indices).await?;
        let indices = if want_indices { indices } else { None };
        if keepdim {
            return Ok((values, indices));
        }
        let a = [axis as i64];
        let indices = match indices {
            Some(i) => Some(self.squeeze(&i, Some(&a))?),
            None => None,
        };
        Ok((self.squeeze(&values, Some(&a))?, indices))
    }

    /// `argmax()` / `argmin()`, over all elements when `axis` is `None`.
    pub async fn arg_extremum(
        &mut self,
        max: bool,
        t: &Tensor,
        axis: Option<usize>,
        keepdim: bool,
    ) -> Result<Tensor, RuntimeError> {
        let op = if max {
            ReduceOp::ArgMax
        } else {
            ReduceOp::ArgMin
        };
        let all = axis.is_none() || t.rank() == 0;
        let dim_given = axis.is_some();
        let (input, axis) = match axis {
            Some(a) if !all => (t.clone(), a),
            _ => (self.flat(t).await?, 0),
        };
        if input.dims()[axis] == 0 {
            // Without a dim, PyTorch names the missing dim rather than dim 0.
            return Err(RuntimeError::Index(if dim_given {
                format!(
                    "{}(): Expected reduction dim {axis} to have non-zero size.",
                    op.name()
                )
            } else {
                format!(
                    "{}(): Expected reduction dim to be specified for input.numel() == 0.",
                    op.name()
                )
            }));
        }
        let mut dims = input.dims();
        dims[axis] = 1;
        let ir = Op::Reduce { op, axis };
        let out = self
            .dispatch(ir, &[&input], Shape::new(dims), DType::Int64, t.device())
            .await?;
        if all {
            let dims: Vec<i64> = if keepdim {
                vec![1; t.rank()]
            } else {
                Vec::new()
            };
            return self.reshape(&out, &dims).await;
        }
        if keepdim {
            return Ok(out);
        }
        self.squeeze(&out, Some(&[axis as i64]))
    }

    /// `tensor.sum()`: integers and bools sum to int64, as in PyTorch.
    pub async fn sum(&mut self, a: &Tensor) -> Result<Tensor, RuntimeError> {
        let dtype = match a.dtype() {
            DType::Bool | DType::UInt8 | DType::Int32 | DType::Int64 => DType::Int64,
            d => d,
        };
        let a = self.cast(a, dtype).await?;
        let out = self
            .dispatch(Op::SumAll, &[&a], Shape::scalar(), dtype, a.device())
            .await?;
        self.record(&out, GradFn::SumAll { shape: a.shape() }, &[&a]);
        Ok(out)
    }

    /// `max()` / `min()` of all elements, as a 0-d tensor.
    pub async fn extremum_all(&mut self, max: bool, t: &Tensor) -> Result<Tensor, RuntimeError> {
        if t.numel() == 0 {
            let name = if max { "max" } else { "min" };
            return Err(RuntimeError::Message(format!(
                "{name}(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument."
            )));
        }
        let saved = self.set_grad_enabled(false);
        let result = async {
            let flat = self.flat(t).await?;
            let op = if max { ReduceOp::Max } else { ReduceOp::Min };
            let ir = Op::Reduce { op, axis: 0 };
            let out = self
                .dispatch(ir, &[&flat], Shape::new([1]), t.dtype(), t.device())
                .await?;
            self.reshape(&out, &[]).await
        }
        .await;
        self.set_grad_enabled(saved);
        let out = result?;
        let grad_fn = GradFn::ExtremumAll {
            x: t.clone(),
            out: self.detach(&out),
        };
        self.record(&out, grad_fn, &[t]);
        if !max {
            out.rename_grad_fn("MinBackward1");
        }
        Ok(out)
    }

    /// `mean()` over all elements or over `axes`: floating dtypes only.
    pub async fn mean(
        &mut self,
        t: &Tensor,
        axes: Option<&[usize]>,
        keepdim: bool,
    ) -> Result<Tensor, RuntimeError> {
        // PyTorch raises this one as `NotImplementedError`.
        if !t.dtype().is_floating() {
            return Err(RuntimeError::NotImplemented(format!(
                "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: {}",
                scalar_type_name(t.dtype())
            )));
        }
        let (sum, count, name) = match axes {
            None => (self.sum(t).await?, t.numel(), "MeanBackward0"),
            Some(axes) => {
                // A 0-d tensor takes dim 0 (or -1) as PyTorch does, as one
                // element along it.
                let count = axes
                    .iter()
                    .map(|&a| t.dims().get(a).copied().unwrap_or(1))
                    .product();
                (
                    self.reduce_axes(ReduceOp::Sum, t, axes, keepdim).await?,
                    count,
                    "MeanBackward1",
                )
            }
        };
        let out = self
            .binary_scalar(BinaryOp::Div, &sum, count as f64, ScalarKind::Int, false)
            .await?;
        out.rename_grad_fn(name);
        Ok(out)
    }

    /// `cumsum(dim)`; integers and bools accumulate in int64.
    pub async fn cumsum(&mut self, t: &Tensor, axis: usize) -> Result<Tensor, RuntimeError> {
        let dtype = if t.dtype().is_floating() {
            t.dtype()
        } else {
            DType::Int64
        };
        let t = self.cast(t, dtype).await?;
        self.cumsum_dir(&t, axis, false).await
    }

    pub(crate) async fn cumsum_dir(
        &mut self,
        t: &Tensor,
        axis: usize,
        reverse: bool,
    ) -> Result<Tensor, RuntimeError> {
        if t.rank() == 0 {
            return Ok(t.clone());
        }
        let ir = Op::Cumsum { axis, reverse };
        let out = self
            .dispatch(ir, &[t], t.shape(), t.dtype(), t.device())
            .await?;
        self.record(&out, GradFn::Cumsum { axis }, &[t]);
        Ok(out)
    }
}
