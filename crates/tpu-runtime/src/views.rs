//! Views. A view (`reshape` of a contiguous tensor, `permute`, `expand`,
//! slicing, `select`, `unsqueeze`, `detach`) is a new shape, strides and offset
//! over the same storage: no op runs, as in PyTorch. Ops that need dense
//! operands get them from `dense`, which copies a view through one `Strided`
//! op. Writes through views, `cat`, and the gather and scatters of advanced
//! indexing live in `views/writes.rs`; the index expressions that use them
//! (`t[...]`, `t[...] = v`) in `views/index.rs`; `unfold` and `pad`, which
//! convolutions and pooling are built from, in `views/windows.rs`.

use crate::autograd::GradFn;
use crate::runtime::{Runtime, RuntimeError};
use crate::tensor::{Layout, Tensor};
use tpu_ir::{Op, Shape};

mod index;
mod windows;
mod writes;
pub use index::IndexItem;

/// The whole storage behind `layout`, as a dense 1-D tensor.
fn whole_storage(layout: &Layout) -> Tensor {
    Tensor::from_layout(Layout {
        shape: Shape::new([layout.storage.len()]),
        strides: vec![1],
        offset: 0,
        ..layout.clone()
    })
}

/// The storage position of every element of `layout`, in row-major order.
pub(crate) fn positions(layout: &Layout) -> Vec<i64> {
    let dims = layout.shape.dims();
    let mut out = Vec::with_capacity(layout.shape.numel());
    if dims.contains(&0) {
        return out;
    }
    let mut index = vec![0usize; dims.len()];
    loop {
        let p: usize = layout.offset
            + index
                .iter()
                .zip(&layout.strides)
                .map(|(i, s)| i * s)
                .sum::<usize>();
        out.push(p as i64);
        let mut axis = dims.len();
        loop {
            if axis == 0 {
                return out;
            }
            axis -= 1;
            index[axis] += 1;
            if index[axis] < dims[axis] {
                break;
            }
            index[axis] = 0;
        }
    }
}

/// PyTorch's rule for which reshapes can be views of a strided tensor
/// (`computeStride` in ATen): each run of old dimensions that merges or splits
/// must be contiguous within itself.
fn view_strides(old: &[usize], old_strides: &[usize], new: &[usize]) -> Option<Vec<usize>> {
    let numel: usize = old.iter().product();
    if numel == 0 || old.is_empty() {
        return Some(Shape::new(new).strides());
    }
    let mut out = vec![0usize; new.len()];
    let mut view_d = new.len() as isize - 1;
    let mut chunk_base_stride = *old_strides.last()?;
    let mut tensor_numel = 1usize;
    let mut view_numel = 1usize;
    for tensor_d in (0..old.len()).rev() {
        tensor_numel *= old[tensor_d];
        let boundary = tensor_d == 0
            || (old[tensor_d - 1] != 1
                && old_strides[tensor_d - 1] != tensor_numel * chunk_base_stride);
        if boundary {
            while view_d >= 0 && (view_numel < tensor_numel || new[view_d as usize] == 1) {
                out[view_d as usize] = view_numel * chunk_base_stride;
                view_numel *= new[view_d as usize];
                view_d -= 1;
            }
            if view_numel != tensor_numel {
                return None;
            }
            if tensor_d > 0 {
                chunk_base_stride = old_strides[tensor_d - 1];
                tensor_numel = 1;
                view_numel = 1;
            }
        }
    }
    if view_d != -1 {
        return None;
    }
    Some(out)
}

/// Resolves a `-1` in a requested shape and checks the element count, with
/// PyTorch's messages.
pub fn infer_shape(requested: &[i64], numel: usize) -> Result<Vec<usize>, RuntimeError> {
    let invalid = || {
        RuntimeError::Message(format!(
            "shape '[{}]' is invalid for input of size {numel}",
            requested
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ))
    };
    let mut unknown = None;
    let mut known = 1usize;
    for (i, &d) in requested.iter().enumerate() {
        if d == -1 {
            if unknown.is_some() {
                return Err(RuntimeError::Message(
                    "only one dimension can be inferred".into(),
                ));
            }
            unknown = Some(i);
        } else if d < 0 {
            return Err(RuntimeError::Message(format!(
                "invalid shape dimension {d}"
            )));
        } else {
            known = known.checked_mul(d as usize).ok_or_else(invalid)?;
        }
    }
    let mut dims: Vec<usize> = requested.iter().map(|&d| d.max(0) as usize).collect();
    match unknown {
        Some(i) => {
            if known == 0 || !numel.is_multiple_of(known) {
                return Err(invalid());
            }
            dims[i] = numel / known;
        }
        None if known != numel => return Err(invalid()),
        None => {}
    }
    Ok(dims)
}

/// A dimension index that may count from the end, checked against `rank` with
/// PyTorch's message.
pub fn normalize_axis(axis: i64, rank: usize) -> Result<usize, RuntimeError> {
    let r = rank.max(1) as i64;
    let a = if axis < 0 { axis + r } else { axis };
    if a < 0 || a >= r {
        return Err(RuntimeError::Index(format!(
            "Dimension out of range (expected to be in range of [{}, {}], but got {axis})",
            -r,
            r - 1
        )));
    }
    Ok(a as usize)
}

impl Runtime {
    /// A new tensor object over `t`'s storage, recording `grad_fn` when `t`
    /// takes part in autograd.
    fn view_of(
        &mut self,
        t: &Tensor,
        shape: Shape,
        strides: Vec<usize>,
        offset: usize,
        grad_fn: GradFn,
    ) -> Tensor {
        let mut layout = t.layout();
        layout.shape = shape;
        layout.strides = strides;
        layout.offset = offset;
        let out = Tensor::from_layout(layout);
        self.record(&out, grad_fn, &[t]);
        out
    }

    /// A dense copy of a view; `t` itself when it is already dense.
    pub(crate) async fn dense(&mut self, t: &Tensor) -> Result<Tensor, RuntimeError> {
        if t.is_dense() {
            return Ok(t.clone());
        }
        self.strided_copy(t).await
    }

    /// A new dense tensor with `t`'s values: one `Strided` op over its storage.
    async fn strided_copy(&mut self, t: &Tensor) -> Result<Tensor, RuntimeError> {
        let layout = t.layout();
        let storage = whole_storage(&layout);
        let op = Op::Strided {
            offset: layout.offset,
            strides: layout.strides.clone(),
        };
        self.dispatch_dense(op, &[&storage], layout.shape, layout.dtype, layout.device)
            .await
    }

    /// `tensor.contiguous()`: itself when already contiguous, else a copy.
    pub async fn contiguous(&mut self, t: &Tensor) -> Result<Tensor, RuntimeError> {
        if t.is_contiguous() {
            return Ok(t.clone());
        }
        self.clone_tensor(t).await
    }

    /// `tensor.clone()`: a dense copy with its own storage.
    pub async fn clone_tensor(&mut self, t: &Tensor) -> Result<Tensor, RuntimeError> {
        let out = self.strided_copy(t).await?;
        self.record(
            &out,
            GradFn::Identity {
                name: "CloneBackward0",
            },
            &[t],
        );
        Ok(out)
    }

    /// `tensor.view(shape)`: fails where PyTorch's view fails.
    pub fn view(&mut self, t: &Tensor, requested: &[i64]) -> Result<Tensor, RuntimeError> {
        let dims = infer_shape(requested, t.numel())?;
        let layout = t.layout();
        let strides = view_strides(layout.shape.dims(), &layout.strides, &dims).ok_or_else(|| {
            RuntimeError::Message("view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.".into())
        })?;
        let grad_fn = GradFn::Reshape {
            shape: layout.shape.clone(),
            name: "ViewBackward0",
        };
        Ok(self.view_of(t, Shape::new(dims), strides, layout.offset, grad_fn))
    }

    /// `tensor.reshape(shape)`: a view when one exists, else a copy.
    pub async fn reshape(&mut self, t: &Tensor, requested: &[i64]) -> Result<Tensor, RuntimeError> {
        match self.view(t, requested) {
            Ok(v) => Ok(v),
            Err(RuntimeError::Message(_)) => {
                let copy = self.clone_tensor(t).await?;
                self.view(&copy, requested)
            }
            Err(e) => Err(e),
        }
    }

    pub fn permute(&mut self, t: &Tensor, perm: &[i64]) -> Result<Tensor, RuntimeError> {
        let rank = t.rank();
        if perm.len() != rank {
            return Err(RuntimeError::Message(format!(
                "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = {rank} is not equal to len(dims) = {}",
                perm.len()
            )));
        }
        let mut axes = Vec::with_capacity(rank);
        for &p in perm {
            let a = normalize_axis(p, rank)?;
            if axes.contains(&a) {
                return Err(RuntimeError::Message(
                    "permute(): duplicate dims are not allowed.".into(),
                ));
            }
            axes.push(a);
        }
        let layout = t.layout();
        let shape = Shape::new(
            axes.iter()
                .map(|&a| layout.shape.dims()[a])
                .collect::<Vec<_>>(),
        );
        let strides = axes.iter().map(|&a| layout.strides[a]).collect();
        let grad_fn = GradFn::Permute { perm: axes };
        Ok(self.view_of(t, shape, strides, layout.offset, grad_fn))
    }

    pub fn transpose(&mut self, t: &Tensor, a: i64, b: i64) -> Result<Tensor, RuntimeError> {
        let rank = t.rank();
        if rank == 0 {
            return Ok(t.clone());
        }
        let (a, b) = (normalize_axis(a, rank)?, normalize_axis(b, rank)?);
        let mut perm: Vec<i64> = (0..rank as i64).collect();
        perm.swap(a, b);
        let out = self.permute(t, &perm)?;
        out.rename_grad_fn("TransposeBackward0");
        Ok(out)
    }

    /// `tensor.expand(sizes)`: new leading dimensions and size-1 dimensions
    /// repeated through stride 0; `-1` keeps a size.
    pub fn expand(&mut self, t: &Tensor, sizes: &[i64]) -> Result<Tensor, RuntimeError> {
        let layout = t.layout();
        let old = layout.shape.dims();
        if sizes.len() < old.len() {
            return Err(RuntimeError::Message(format!(
                "expand({}{{[{}]}}, size=[{}]): the number of sizes provided ({}) must be greater or equal to the number of dimensions in the tensor ({})",
                "torch.FloatTensor",
                old.iter()
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                sizes
                    .iter()
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                sizes.len(),
                old.len()
            )));
        }
        let lead = sizes.len() - old.len();
        let mut dims = Vec::with_capacity(sizes.len());
        let mut strides = Vec::with_capacity(sizes.len());
        for (i, &s) in sizes.iter().enumerate() {
            if i < lead {
                if s < 0 {
                    return Err(RuntimeError::Message(format!(
                        "The expanded size of the tensor ({s}) isn't allowed in a leading, non-existing dimension {i}"
                    )));
                }
                dims.push(s as usize);
                strides.push(0);
                continue;
            }
            let (d, st) = (old[i - lead], layout.strides[i - lead]);
            if s == -1 || s as usize == d {
                dims.push(d);
                strides.push(st);
            } else if d == 1 && s >= 0 {
                dims.push(s as usize);
                strides.push(0);
            } else {
                return Err(RuntimeError::Message(format!(
                    "The expanded size of the tensor ({s}) must match the existing size ({d}) at non-singleton dimension {i}.  Target sizes: [{}].  Tensor sizes: [{}]",
                    sizes
                        .iter()
                        .map(|d| d.to_string())
                        .collect::<Vec<_>>()
                        .join(", "),
                    old.iter()
                        .map(|d| d.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
        }
        let shape = Shape::new(dims);
        crate::runtime::check_size(&shape, layout.dtype)?;
        let grad_fn = GradFn::Expand {
            shape: layout.shape.clone(),
        };
        Ok(self.view_of(t, shape, strides, layout.offset, grad_fn))
    }

    /// `t[..., start:stop:step, ...]` along `axis`, with Python's clamping of
    /// the bounds (already resolved against negative values by the caller or
    /// here).
    pub fn slice(
        &mut self,
        t: &Tensor,
        axis: usize,
        start: Option<i64>,
        stop: Option<i64>,
        step: i64,
    ) -> Result<Tensor, RuntimeError> {
        if step <= 0 {
            return Err(RuntimeError::Value("step must be greater than zero".into()));
        }
        let layout = t.layout();
        let n = layout.shape.dims()[axis] as i64;
        let clamp = |v: Option<i64>, default: i64| match v {
            None => default,
            Some(v) if v < 0 => (v + n).max(0),
            Some(v) => v.min(n),
        };
        let (start, stop) = (clamp(start, 0), clamp(stop, n));
        let len = if stop > start {
            ((stop - start) + step - 1) / step
        } else {
            0
        };
        let mut dims = layout.shape.dims().to_vec();
        dims[axis] = len as usize;
        let mut strides = layout.strides.clone();
        let offset = layout.offset + start as usize * layout.strides[axis];
        strides[axis] *= step as usize;
        let grad_fn = GradFn::Slice {
            shape: layout.shape.clone(),
            axis,
            start: start as usize,
            step: step as usize,
        };
        Ok(self.view_of(t, Shape::new(dims), strides, offset, grad_fn))
    }

    /// `t[..., i, ...]`: removes `axis`.
    pub fn select(&mut self, t: &Tensor, axis: usize, index: i64) -> Result<Tensor, RuntimeError> {
        let layout = t.layout();
        let n = layout.shape.dims()[axis] as i64;
        let i = if index < 0 { index + n } else { index };
        if i < 0 || i >= n {
            return Err(RuntimeError::Index(format!(
                "index {index} is out of bounds for dimension {axis} with size {n}"
            )));
        }
        let mut dims = layout.shape.dims().to_vec();
        dims.remove(axis);
        let mut strides = layout.strides.clone();
        let stride = strides.remove(axis);
        let offset = layout.offset + i as usize * stride;
        let grad_fn = GradFn::Select {
            shape: layout.shape.clone(),
            axis,
            index: i as usize,
        };
        Ok(self.view_of(t, Shape::new(dims), strides, offset, grad_fn))
    }

    pub fn unsqueeze(&mut self, t: &Tensor, axis: i64) -> Result<Tensor, RuntimeError> {
        let layout = t.layout();
        let axis = normalize_axis(axis, layout.shape.rank() + 1)?;
        let mut dims = layout.shape.dims().to_vec();
        let mut strides = layout.strides.clone();
        let stride = if axis < dims.len() {
            strides[axis] * dims[axis]
        } else {
            1
        };
        dims.insert(axis, 1);
        strides.insert(axis, stride);
        let grad_fn = GradFn::Reshape {
            shape: layout.shape.clone(),
            name: "UnsqueezeBackward0",
        };
        Ok(self.view_of(t, Shape::new(dims), strides, layout.offset, grad_fn))
    }

    /// `squeeze()` drops every size-1 dimension, `squeeze(d)` only `d` if it is 1.
    pub fn squeeze(&mut self, t: &Tensor, axes: Option<&[i64]>) -> Result<Tensor, RuntimeError> {
        let layout = t.layout();
        let rank = layout.shape.rank();
        let chosen: Vec<usize> = match axes {
            None => (0..rank).collect(),
            Some(list) => list
                .iter()
                .map(|&a| normalize_axis(a, rank))
                .collect::<Result<_, _>>()?,
        };
        let mut dims = Vec::new();
        let mut strides = Vec::new();
        for (i, (&d, &s)) in layout.shape.dims().iter().zip(&layout.strides).enumerate() {
            if d == 1 && chosen.contains(&i) {
                continue;
            }
            dims.push(d);
            strides.push(s);
        }
        let name = if axes.is_some() {
            "SqueezeBackward1"
        } else {
            "SqueezeBackward0"
        };
        let grad_fn = GradFn::Reshape {
            shape: layout.shape.clone(),
            name,
        };
        Ok(self.view_of(t, Shape::new(dims), strides, layout.offset, grad_fn))
    }

    /// A view of `t` as a flat 1-D tensor of its elements (a copy if needed).
    pub async fn flat(&mut self, t: &Tensor) -> Result<Tensor, RuntimeError> {
        self.reshape(t, &[-1]).await
    }

    /// `x.detach()` / `x.data`: the same storage, outside autograd.
    pub fn detach(&mut self, t: &Tensor) -> Tensor {
        Tensor::from_layout(t.layout())
    }
}
