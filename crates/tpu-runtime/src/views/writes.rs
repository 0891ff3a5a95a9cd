//! Writes and scatters: in-place writes through views (`x[i] = v`, `copy_`,
//! the second half of `add_`), PyTorch's autograd and cast rules for them, `x.data = y`,
//! `torch.cat` (one scatter per input), and the flat gather `take` behind
//! advanced indexing with its scatter-add gradient. Each computes new values out
//! of place and then swaps them into the storage or scatters them into it, so
//! every view of the storage sees them.

use super::{normalize_axis, positions, whole_storage};
use crate::autograd::GradFn;
use crate::data::HostData;
use crate::runtime::{Runtime, RuntimeError};
use crate::tensor::{Device, Tensor};
use tpu_ir::{DType, MAX_CONCAT_PARTS, Op, Shape};

impl Runtime {
    /// `torch.cat(tensors, dim)`: one `Concat` of the inputs (cast to the
    /// promoted dtype, made dense), chained past `MAX_CONCAT_PARTS` of them.
    pub async fn cat(&mut self, tensors: &[Tensor], axis: i64) -> Result<Tensor, RuntimeError> {
        let Some(first) = tensors.first() else {
            return Err(RuntimeError::Message(
                "torch.cat(): expected a non-empty list of Tensors".into(),
            ));
        };
        // Legacy rule: 1-D empty tensors are skipped.
        let parts: Vec<&Tensor> = tensors
            .iter()
            .filter(|t| !(t.rank() == 1 && t.numel() == 0))
            .collect();
        let reference = parts.first().copied().unwrap_or(first);
        let rank = reference.rank();
        if rank == 0 {
            return Err(RuntimeError::Message(
                "zero-dimensional tensor (at position 0) cannot be concatenated".into(),
            ));
        }
        let axis = normalize_axis(axis, rank)?;
        let mut dtype = reference.dtype();
        let device = reference.device();
        let mut dims = reference.dims();
        dims[axis] = 0;
        for (i, t) in parts.iter().enumerate() {
            if t.rank() != rank {
                return Err(RuntimeError::Message(format!(
                    "Tensors must have same number of dimensions: got {rank} and {}",
                    t.rank()
                )));
            }
            for (d, (&a, &b)) in t.dims().iter().zip(reference.dims().iter()).enumerate() {
                if d != axis && a != b {
                    return Err(RuntimeError::Message(format!(
                        "Sizes of tensors must match except in dimension {axis}. Expected size {b} but got size {a} for tensor number {i} in the list."
                    )));
                }
            }
            if t.device() != device {
                return Err(RuntimeError::DeviceMismatch(device, t.device()));
            }
            dtype = DType::promote(dtype, t.dtype());
            dims[axis] += t.dims()[axis];
        }
        let shape = Shape::new(dims);
        let saved_grad = self.set_grad_enabled(false);
        let result = async {
            if parts.is_empty() || shape.numel() == 0 {
                return self.full(shape.clone(), 0.0, dtype, device).await;
            }
            let mut dense = Vec::with_capacity(parts.len());
            for t in &parts {
                let t = self.cast(t, dtype).await?;
                dense.push(self.dense(&t).await?);
            }
            self.concat(dense, axis).await
        }
        .await;
        self.set_grad_enabled(saved_grad);
        let out = result?;
        let sizes = parts.iter().map(|t| t.dims()[axis]).collect();
        let inputs: Vec<&Tensor> = parts.to_vec();
        self.record(&out, GradFn::Cat { axis, sizes }, &inputs);
        Ok(out)
    }

    /// Dense tensors of one dtype joined along `axis`, a `Concat` of at most
    /// `MAX_CONCAT_PARTS` at a time (its result the first part of the next).
    async fn concat(
        &mut self,
        mut parts: Vec<Tensor>,
        axis: usize,
    ) -> Result<Tensor, RuntimeError> {
        loop {
            let n = parts.len().min(MAX_CONCAT_PARTS);
            let first: Vec<Tensor> = parts.drain(..n).collect();
            let mut dims = first[0].dims();
            dims[axis] = first.iter().map(|t| t.dims()[axis]).sum();
            let op = Op::Concat { axis, parts: n };
            let refs: Vec<&Tensor> = first.iter().collect();
            let (dtype, device) = (first[0].dtype(), first[0].device());
            let joined = self
                .dispatch_dense(op, &refs, Shape::new(dims), dtype, device)
                .await?;
            if parts.is_empty() {
                return Ok(joined);
            }
            parts.insert(0, joined);
        }
    }

    /// A copy of the dense `base` with the elements `window` (a view of `base`)
    /// replaced by `value` broadcast to the window's shape.
    async fn scatter_into(
        &mut self,
        base: &Tensor,
        window: &Tensor,
        value: &Tensor,
    ) -> Result<Tensor, RuntimeError> {
        let dims: Vec<i64> = window.dims().iter().map(|&d| d as i64).collect();
        let value = self.cast(value, base.dtype()).await?;
        let value = self.expand(&value, &dims)?;
        let value = self.dense(&value).await?;
        let flat_base = whole_storage(&base.layout());
        let index = self
            .index_beside(positions(&window.layout()), window.shape(), &flat_base)
            .await?;
        let out = self
            .dispatch_dense(
                Op::Scatter { accumulate: false },
                &[&flat_base, &index, &value],
                flat_base.shape(),
                base.dtype(),
                base.device(),
            )
            .await?;
        // The new storage, read through base's layout.
        let mut layout = base.layout();
        layout.storage = out.layout().storage.clone();
        Ok(Tensor::from_layout(layout))
    }

    /// Writes `value` (broadcast and cast) into the elements of `target`, in its
    /// storage, so every view of that storage sees the new values: `x[i] = v`,
    /// `x.copy_(v)`, and the second half of every in-place op.
    pub async fn write(&mut self, target: &Tensor, value: &Tensor) -> Result<(), RuntimeError> {
        self.check_inplace(target, value)?;
        let saved_grad = self.set_grad_enabled(false);
        let result = if target.is_dense() {
            // The whole storage is replaced: one copy of the broadcast value
            // into a fresh buffer, then a swap.
            async {
                let dims: Vec<i64> = target.dims().iter().map(|&d| d as i64).collect();
                let v = self.cast(value, target.dtype()).await?;
                let v = self.expand(&v, &dims)?;
                self.clone_tensor(&v).await
            }
            .await
        } else {
            self.scatter_into(target, target, value).await
        };
        self.set_grad_enabled(saved_grad);
        let updated = result?;
        target.layout().storage.swap(&updated.layout().storage);
        Ok(())
    }

    /// `target[index] = value` for an advanced index: `elements` are positions
    /// in `target` read row-major, `shape` the shape `value` broadcasts to.
    pub async fn write_elements(
        &mut self,
        target: &Tensor,
        elements: &[i64],
        shape: Shape,
        value: &Tensor,
    ) -> Result<(), RuntimeError> {
        self.check_inplace(target, value)?;
        let layout = target.layout();
        let all = positions(&layout);
        let storage_positions: Vec<i64> = elements.iter().map(|&e| all[e as usize]).collect();
        let saved_grad = self.set_grad_enabled(false);
        let result = async {
            let dims: Vec<i64> = shape.dims().iter().map(|&d| d as i64).collect();
            let value = self.cast(value, layout.dtype).await?;
            let value = self.expand(&value, &dims)?;
            let value = self.dense(&value).await?;
            let flat = whole_storage(&layout);
            let index = self.index_beside(storage_positions, shape, &flat).await?;
            self.dispatch_dense(
                Op::Scatter { accumulate: false },
                &[&flat, &index, &value],
                flat.shape(),
                layout.dtype,
                layout.device,
            )
            .await
        }
        .await;
        self.set_grad_enabled(saved_grad);
        let updated = result?;
        layout.storage.swap(&updated.layout().storage);
        Ok(())
    }

    /// Replaces all of `target`'s values with those of a freshly computed
    /// `result` of the same shape and dtype (the second half of `add_`, `mul_`,
    /// ...): its buffer is swapped in when `target` covers its whole storage,
    /// else the values are scattered into the storage.
    pub async fn assign(&mut self, target: &Tensor, result: Tensor) -> Result<(), RuntimeError> {
        if self.grad_enabled() && (target.requires_grad() || result.requires_grad()) {
            return self.assign_recorded(target, &result).await;
        }
        if target.is_dense()
            && !result.shares_storage_with_any()
            && result.is_dense()
            && result.dtype() == target.dtype()
            && result.dims() == target.dims()
            && result.home() == target.home()
        {
            self.check_inplace(target, &result)?;
            target.layout().storage.swap(&result.layout().storage);
            return Ok(());
        }
        self.write(target, &result).await
    }

    /// An in-place op in an autograd graph (`out += identity`, `x.relu_()`):
    /// the result's values are copied into `target`'s storage, whose version
    /// moves on (so a node that saved the old values fails at backward with
    /// PyTorch's error instead of using the new ones), and `target` takes the
    /// result's node, whose edge to `target`'s old node was taken when it was
    /// recorded. A view's update would also rewrite its base's history
    /// (PyTorch's `CopySlices`), which is not modelled: that is refused.
    async fn assign_recorded(
        &mut self,
        target: &Tensor,
        result: &Tensor,
    ) -> Result<(), RuntimeError> {
        if target.requires_grad() && target.is_leaf() {
            return Err(RuntimeError::Message(
                "a leaf Variable that requires grad is being used in an in-place operation.".into(),
            ));
        }
        if !target.is_dense() {
            return Err(RuntimeError::NotImplemented(
                "in-place updates of a view of a tensor that is part of an autograd graph are not supported yet; write `x = x + y` instead of `x[...] += y`".into(),
            ));
        }
        let saved_grad = self.set_grad_enabled(false);
        let values = self.clone_tensor(result).await;
        self.set_grad_enabled(saved_grad);
        target.layout().storage.swap(&values?.layout().storage);
        let (requires_grad, grad_fn) = {
            let state = result.grad_state();
            (state.requires_grad, state.grad_fn.clone())
        };
        let mut state = target.grad_state();
        state.requires_grad = requires_grad;
        state.grad_fn = grad_fn;
        Ok(())
    }

    /// PyTorch's rule for in-place ops under autograd: a leaf that requires grad
    /// may only be updated under `no_grad`. Updates of other tensors in a graph
    /// are not tracked here, and are refused rather than silently wrong.
    pub(crate) fn check_inplace(
        &self,
        target: &Tensor,
        value: &Tensor,
    ) -> Result<(), RuntimeError> {
        if !self.grad_enabled() {
            return Ok(());
        }
        if target.requires_grad() && target.is_leaf() {
            return Err(RuntimeError::Message(
                "a leaf Variable that requires grad is being used in an in-place operation.".into(),
            ));
        }
        if target.requires_grad() || value.requires_grad() {
            return Err(RuntimeError::NotImplemented(
                "writing into a tensor that is part of an autograd graph (`x[i] = y`, `x.copy_(y)`) is not supported yet; build the result out of place (`torch.cat`, `torch.where`)".into(),
            ));
        }
        Ok(())
    }

    /// PyTorch's rule for writing a result into an existing tensor (`x += y`,
    /// `out=`): no float into an integer tensor, no number into a bool tensor.
    pub fn check_cast(from: DType, to: DType) -> Result<(), RuntimeError> {
        let kind = |d: DType| match d {
            DType::Bool => 0,
            d if d.is_integer() => 1,
            _ => 2,
        };
        if kind(from) > kind(to) {
            return Err(RuntimeError::Message(format!(
                "result type {} can't be cast to the desired output type {}",
                crate::scalar_type_name(from),
                crate::scalar_type_name(to)
            )));
        }
        Ok(())
    }

    /// `x.data = y` and `Module.to(device)`: the tensor object takes `value`'s
    /// values, shape and device, keeping its identity and autograd flags.
    pub fn set_data(&mut self, target: &Tensor, value: &Tensor) {
        target.set_layout(value.layout());
    }

    /// A flat gather `out[i] = t.flat[index[i]]` with autograd: the basis of
    /// advanced indexing and embedding lookups. `index` holds positions into
    /// `t` read as a dense row-major tensor, and is int64 of the output shape.
    pub async fn take(&mut self, t: &Tensor, index: &Tensor) -> Result<Tensor, RuntimeError> {
        let n = t.numel() as i64;
        let values = self.read(index).await?;
        if let HostData::I64(v) = &values
            && let Some(&bad) = v.iter().find(|&&i| i < 0 || i >= n)
        {
            return Err(RuntimeError::Index(format!(
                "index {bad} is out of bounds for size {n}"
            )));
        }
        let flat = whole_storage(&self.dense(t).await?.layout());
        let out = self
            .dispatch_dense(
                Op::Gather,
                &[&flat, index],
                index.shape(),
                t.dtype(),
                t.device(),
            )
            .await?;
        let grad_fn = GradFn::Gather {
            shape: t.shape(),
            index: index.clone(),
        };
        self.record(&out, grad_fn, &[t]);
        Ok(out)
    }

    /// `scatter_`, `index_add_`, `bincount`, `put`: a copy of `base` (read as a
    /// dense row-major tensor) with `values` written at the flat positions in
    /// `index`, or added there when `accumulate` (duplicates then add up). The
    /// values are cast to `base`'s dtype and broadcast to `index`'s shape. The
    /// copy records no gradient: PyTorch's scatter gradients are not modelled.
    pub async fn put(
        &mut self,
        base: &Tensor,
        index: &Tensor,
        values: &Tensor,
        accumulate: bool,
    ) -> Result<Tensor, RuntimeError> {
        let n = base.numel() as i64;
        let positions = self.read(index).await?;
        if let HostData::I64(v) = &positions
            && let Some(&bad) = v.iter().find(|&&i| i < 0 || i >= n)
        {
            return Err(RuntimeError::Index(format!(
                "index {bad} is out of bounds for dimension 0 with size {n}"
            )));
        }
        let saved_grad = self.set_grad_enabled(false);
        let result = async {
            let dims: Vec<i64> = index.dims().iter().map(|&d| d as i64).collect();
            let values = self.to_device(values, base.device()).await?;
            let values = self.cast(&values, base.dtype()).await?;
            let values = self.expand(&values, &dims)?;
            let values = self.dense(&values).await?;
            let index = self.dense(index).await?;
            let copy = self.clone_tensor(base).await?;
            let flat = whole_storage(&self.dense(&copy).await?.layout());
            let out = self
                .dispatch_dense(
                    Op::Scatter { accumulate },
                    &[&flat, &index, &values],
                    flat.shape(),
                    base.dtype(),
                    base.device(),
                )
                .await?;
            let mut layout = out.layout();
            layout.strides = base.shape().strides();
            layout.shape = base.shape();
            Ok(Tensor::from_layout(layout))
        }
        .await;
        self.set_grad_enabled(saved_grad);
        result
    }

    /// `zeros(shape).flat.index_add_(index, values)`: the gradient of `take`.
    pub(crate) async fn scatter_add_zeros(
        &mut self,
        shape: Shape,
        index: &Tensor,
        values: &Tensor,
        device: Device,
    ) -> Result<Tensor, RuntimeError> {
        let dtype = values.dtype();
        let zeros = self
            .full(Shape::new([shape.numel()]), 0.0, dtype, device)
            .await?;
        let values = self.dense(values).await?;
        let out = self
            .dispatch_dense(
                Op::Scatter { accumulate: true },
                &[&zeros, index, &values],
                zeros.shape(),
                dtype,
                device,
            )
            .await?;
        let mut layout = out.layout();
        layout.strides = shape.strides();
        layout.shape = shape;
        Ok(Tensor::from_layout(layout))
    }
}
