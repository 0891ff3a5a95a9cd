//! Windows over a tensor, the pieces convolutions and pooling are built from:
//! `unfold` (a view, as in PyTorch: the windows along one dimension, each a new
//! last dimension), its gradient (`Op::UnfoldBackward`), and `pad` with a
//! constant (`Op::Pad`), whose gradient is a slice of the output's.

use crate::autograd::GradFn;
use crate::runtime::{Runtime, RuntimeError};
use crate::tensor::Tensor;
use tpu_ir::{Op, Shape};

impl Runtime {
    /// `tensor.unfold(dimension, size, step)`: a view whose `dimension` counts
    /// the windows and whose new last dimension runs along one window.
    pub fn unfold(
        &mut self,
        t: &Tensor,
        dimension: i64,
        size: i64,
        step: i64,
    ) -> Result<Tensor, RuntimeError> {
        let layout = t.layout();
        let rank = layout.shape.rank();
        let axis = super::normalize_axis(dimension, rank.max(1))?;
        let n = if rank == 0 {
            1
        } else {
            layout.shape.dims()[axis]
        };
        if size < 0 || size as usize > n {
            return Err(RuntimeError::Message(format!(
                "maximum size for tensor at dimension {axis} is {n} but size is {size}"
            )));
        }
        if step <= 0 {
            return Err(RuntimeError::Message(format!(
                "step is {step} but must be > 0"
            )));
        }
        let (size, step) = (size as usize, step as usize);
        let windows = (n - size) / step + 1;
        let (mut dims, mut strides) = (layout.shape.dims().to_vec(), layout.strides.clone());
        let along = if rank == 0 { 1 } else { strides[axis] };
        if rank > 0 {
            dims[axis] = windows;
            strides[axis] = along * step;
        }
        dims.push(size);
        strides.push(along);
        let grad_fn = GradFn::Unfold {
            shape: layout.shape.clone(),
            axis,
            size,
            step,
        };
        Ok(self.view_of(t, Shape::new(dims), strides, layout.offset, grad_fn))
    }

    /// The gradient of `unfold`: `g` (of the unfolded shape) summed back into
    /// `shape`.
    pub(crate) async fn unfold_backward(
        &mut self,
        g: &Tensor,
        shape: &Shape,
        axis: usize,
        size: usize,
        step: usize,
    ) -> Result<Tensor, RuntimeError> {
        let g = self.dense(g).await?;
        if shape.rank() == 0 {
            let dims: Vec<i64> = Vec::new();
            return self.reshape(&g, &dims).await;
        }
        let op = Op::UnfoldBackward { axis, size, step };
        self.dispatch_dense(op, &[&g], shape.clone(), g.dtype(), g.device())
            .await
    }

    /// `F.pad(t, ..., value=value)` with non-negative amounts: `before[d]`
    /// and `after[d]` elements of `value` around dimension `d`.
    pub async fn pad(
        &mut self,
        t: &Tensor,
        before: &[usize],
        after: &[usize],
        value: f64,
    ) -> Result<Tensor, RuntimeError> {
        let dims: Vec<usize> = t
            .dims()
            .iter()
            .enumerate()
            .map(|(d, &n)| before[d] + n + after[d])
            .collect();
        let shape = Shape::new(dims);
        crate::runtime::check_size(&shape, t.dtype())?;
        let x = self.dense(t).await?;
        let op = Op::Pad {
            before: before.to_vec(),
            after: after.to_vec(),
            value,
        };
        let saved_grad = self.set_grad_enabled(false);
        let out = self
            .dispatch_dense(op, &[&x], shape, t.dtype(), t.device())
            .await;
        self.set_grad_enabled(saved_grad);
        let out = out?;
        let grad_fn = GradFn::Pad {
            before: before.to_vec(),
            shape: t.shape(),
        };
        self.record(&out, grad_fn, &[t]);
        Ok(out)
    }

    /// `t` with `before` and `after` zeros around `axis` (`t` itself where
    /// both are 0): the gradient of a slice or a selection along `axis`.
    pub(crate) async fn pad_axis(
        &mut self,
        t: &Tensor,
        axis: usize,
        before: usize,
        after: usize,
    ) -> Result<Tensor, RuntimeError> {
        if before == 0 && after == 0 {
            return Ok(t.clone());
        }
        let mut around = (vec![0; t.rank()], vec![0; t.rank()]);
        around.0[axis] = before;
        around.1[axis] = after;
        self.pad(t, &around.0, &around.1, 0.0).await
    }

    /// The gradient of `pad`: the inner window of `g`, copied dense.
    pub(crate) async fn pad_backward(
        &mut self,
        g: &Tensor,
        before: &[usize],
        shape: &Shape,
    ) -> Result<Tensor, RuntimeError> {
        let mut inner = g.clone();
        for (axis, (&b, &n)) in before.iter().zip(shape.dims()).enumerate() {
            inner = self.slice(&inner, axis, Some(b as i64), Some((b + n) as i64), 1)?;
        }
        self.dense(&inner).await
    }
}
