//! Indexing, `t[...]` and `t[...] = v`, with NumPy's rules as PyTorch
//! implements them. Ints, slices, `None` and `...` make a view; index tensors,
//! lists and bool masks ("advanced" indices) then gather from that view (through
//! `take`) or scatter into it (through `write_elements`), the advanced
//! dimensions replacing the indexed ones in place when they are adjacent and
//! moving to the front when they are not. The positions an advanced index
//! reads are computed here, on the host, and held to the runtime's limits.

use crate::data::HostData;
use crate::runtime::{Runtime, RuntimeError};
use crate::tensor::Tensor;
use tpu_ir::{DType, Shape};

/// One item of an index expression, as the language hands it over.
#[derive(Clone, Debug)]
pub enum IndexItem {
    /// `t[2]`: selects one position, removing the dimension.
    Int(i64),
    /// `t[a:b:c]`, each bound optional.
    Slice {
        start: Option<i64>,
        stop: Option<i64>,
        step: Option<i64>,
    },
    /// `None`: a new dimension of size 1.
    NewAxis,
    /// `...`: as many full slices as the other items leave.
    Ellipsis,
    /// A Python bool, which PyTorch takes as a new axis; not supported yet.
    Bool(bool),
    /// An index tensor (int64 or int32), or a bool mask over as many
    /// dimensions as it has.
    Tensor(Tensor),
    /// A list (or tuple, or range) of ints: an index tensor written in Python.
    List(Vec<i64>),
}

/// One advanced index: the dimension of the basic view it indexes, and its
/// values (negative ones already wrapped) with their shape.
struct Advanced {
    dim: usize,
    values: Vec<i64>,
    shape: Vec<usize>,
}

/// The basic view of an index expression and the advanced indices still to apply.
struct Plan {
    view: Tensor,
    advanced: Vec<Advanced>,
}

fn index_error(message: String) -> RuntimeError {
    RuntimeError::Index(message)
}

fn joined(dims: &[usize]) -> String {
    dims.iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl Runtime {
    /// `t[items]`: a view when every item is basic, else a gather from it.
    pub async fn index(&mut self, t: &Tensor, items: &[IndexItem]) -> Result<Tensor, RuntimeError> {
        let plan = self.plan_index(t, items).await?;
        if plan.advanced.is_empty() {
            return Ok(plan.view);
        }
        let (shape, positions) = self.advanced_positions(&plan.view, &plan.advanced)?;
        let index = self.index_beside(positions, shape, &plan.view).await?;
        self.take(&plan.view, &index).await
    }

    /// `t[items] = value`: `value` is moved to `t`'s device, must broadcast to
    /// the indexed shape, and is written into `t`'s storage.
    pub async fn index_put(
        &mut self,
        t: &Tensor,
        items: &[IndexItem],
        value: &Tensor,
    ) -> Result<(), RuntimeError> {
        let plan = self.plan_index(t, items).await?;
        let value = self.to_device(value, t.device()).await?;
        let (target_shape, positions) = if plan.advanced.is_empty() {
            (plan.view.shape(), None)
        } else {
            let (shape, positions) = self.advanced_positions(&plan.view, &plan.advanced)?;
            (shape, Some(positions))
        };
        // Without advanced indices the value is expanded to the view's shape,
        // and a mismatch is `expand`'s error.
        if positions.is_none() && value.rank() <= target_shape.rank() {
            let offset = target_shape.rank() - value.rank();
            let value_dims = value.dims();
            for i in (0..value.rank()).rev() {
                let (want, have) = (target_shape.dims()[i + offset], value_dims[i]);
                if have != 1 && have != want {
                    return Err(RuntimeError::Message(format!(
                        "The expanded size of the tensor ({want}) must match the existing size ({have}) at non-singleton dimension {}.  Target sizes: [{}].  Tensor sizes: [{}]",
                        i + offset,
                        joined(target_shape.dims()),
                        joined(&value_dims)
                    )));
                }
            }
        }
        if Shape::broadcast(&target_shape, &value.shape())
            .map(|s| s != target_shape)
            .unwrap_or(true)
        {
            return Err(RuntimeError::Message(format!(
                "shape mismatch: value tensor of shape [{}] cannot be broadcast to indexing result of shape [{}]",
                joined(&value.dims()),
                joined(target_shape.dims())
            )));
        }
        match positions {
            None => self.write(&plan.view, &value).await,
            Some(positions) => {
                self.write_elements(&plan.view, &positions, target_shape, &value)
                    .await
            }
        }
    }

    /// Applies ints, slices, `None` and `...` as views; collects advanced indices.
    async fn plan_index(&mut self, t: &Tensor, items: &[IndexItem]) -> Result<Plan, RuntimeError> {
        // Dimensions each item consumes, to size the ellipsis.
        let mut consumed = 0usize;
        let mut ellipses = 0;
        for item in items {
            consumed += match item {
                IndexItem::NewAxis | IndexItem::Bool(_) => 0,
                IndexItem::Ellipsis => {
                    ellipses += 1;
                    0
                }
                IndexItem::Tensor(x) if x.dtype() == DType::Bool => x.rank().max(1),
                _ => 1,
            };
        }
        if ellipses > 1 {
            return Err(index_error(
                "an index can only have a single ellipsis ('...')".into(),
            ));
        }
        let rank = t.rank();
        if consumed > rank {
            return Err(index_error(format!(
                "too many indices for tensor of dimension {rank}"
            )));
        }
        let mut view = t.clone();
        let mut dim = 0usize;
        let mut advanced = Vec::new();
        // As PyTorch's `applySlicing`: a `:` over a whole dimension beside an
        // index that makes a view is no view of its own, so `x[:, t]` is one
        // `SelectBackward0` whose gradient goes straight to `x`'s node.
        let viewing =
            |item: &IndexItem| !matches!(item, IndexItem::Ellipsis | IndexItem::Slice { .. });
        let skips_full = items.iter().any(viewing);
        for item in items {
            match item {
                IndexItem::Slice {
                    start: None | Some(0),
                    stop,
                    step: None | Some(1),
                } if skips_full && stop.is_none_or(|s| s >= view.dims()[dim] as i64) => {
                    dim += 1;
                }
                IndexItem::NewAxis => {
                    view = self.unsqueeze(&view, dim as i64)?;
                    dim += 1;
                }
                IndexItem::Ellipsis => dim += rank - consumed,
                IndexItem::Int(i) => view = self.select(&view, dim, *i)?,
                IndexItem::Slice { start, stop, step } => {
                    view = self.slice(&view, dim, *start, *stop, step.unwrap_or(1))?;
                    dim += 1;
                }
                IndexItem::Bool(_) => {
                    return Err(RuntimeError::NotImplemented(
                        "indexing a tensor with a Python bool is not supported".into(),
                    ));
                }
                IndexItem::Tensor(x) if x.dtype() == DType::Bool => {
                    // A mask indexes as many dimensions as it has, through the
                    // coordinates of its true elements.
                    let dims = view.dims();
                    let mask_dims = x.dims();
                    for (k, &m) in mask_dims.iter().enumerate() {
                        if dims.get(dim + k) != Some(&m) {
                            return Err(index_error(format!(
                                "The shape of the mask [{}] at index {k} does not match the shape of the indexed tensor [{}] at index {}",
                                joined(&mask_dims),
                                joined(&dims),
                                dim + k
                            )));
                        }
                    }
                    self.set_sync_reason("a boolean mask: the output's size depends on the values");
                    let HostData::Bool(mask) = self.read(x).await? else {
                        unreachable!("a bool tensor reads as bools")
                    };
                    let trues: Vec<usize> = (0..mask.len()).filter(|&i| mask[i]).collect();
                    let strides = if mask_dims.is_empty() {
                        Vec::new()
                    } else {
                        Shape::new(mask_dims.clone()).strides()
                    };
                    for (k, stride) in strides.iter().enumerate() {
                        advanced.push(Advanced {
                            dim: dim + k,
                            values: trues
                                .iter()
                                .map(|&i| ((i / stride) % mask_dims[k]) as i64)
                                .collect(),
                            shape: vec![trues.len()],
                        });
                    }
                    dim += mask_dims.len();
                }
                IndexItem::Tensor(x) => {
                    if !x.dtype().is_integer() {
                        return Err(index_error(
                            "tensors used as indices must be long, int, byte or bool tensors"
                                .into(),
                        ));
                    }
                    let values = self.read(x).await?.as_i64().unwrap_or_default();
                    advanced.push(checked(&view, dim, values, x.dims())?);
                    dim += 1;
                }
                IndexItem::List(values) => {
                    let n = values.len();
                    advanced.push(checked(&view, dim, values.clone(), vec![n])?);
                    dim += 1;
                }
            }
        }
        Ok(Plan { view, advanced })
    }

    /// The result shape of the advanced indices and, for each result element,
    /// its row-major position in the basic view. The positions are an int64
    /// tensor of the result's shape, so they are held to the memory limits
    /// before they are computed.
    fn advanced_positions(
        &mut self,
        view: &Tensor,
        advanced: &[Advanced],
    ) -> Result<(Shape, Vec<i64>), RuntimeError> {
        let mut broadcast = Shape::scalar();
        for a in advanced {
            broadcast = Shape::broadcast(&broadcast, &Shape::new(a.shape.clone())).map_err(|_| {
                index_error(format!(
                    "shape mismatch: indexing tensors could not be broadcast together with shapes {}",
                    advanced
                        .iter()
                        .map(|a| format!("[{}]", joined(&a.shape)))
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })?;
        }
        let dims = view.dims();
        let view_strides = Shape::new(dims.clone()).strides();
        let adv_dims: Vec<usize> = advanced.iter().map(|a| a.dim).collect();
        let adjacent = adv_dims.windows(2).all(|w| w[1] == w[0] + 1);
        let rest: Vec<usize> = (0..dims.len()).filter(|d| !adv_dims.contains(d)).collect();
        let first = adv_dims[0];
        let (before, after): (Vec<usize>, Vec<usize>) = if adjacent {
            rest.iter().partition(|&&d| d < first)
        } else {
            (Vec::new(), rest.clone())
        };
        let b = broadcast.dims().to_vec();
        let mut out_dims: Vec<usize> = before.iter().map(|&d| dims[d]).collect();
        out_dims.extend(&b);
        out_dims.extend(after.iter().map(|&d| dims[d]));
        let out = Shape::new(out_dims);
        self.check_allocation(&out, DType::Int64)?;
        let n = out.numel();
        // Strides to read each index tensor at a broadcast coordinate.
        let index_strides: Vec<Vec<usize>> = advanced
            .iter()
            .map(|a| Shape::new(a.shape.clone()).broadcast_strides(&broadcast))
            .collect();
        let out_strides = out.strides();
        let mut positions = Vec::with_capacity(n);
        for flat in 0..n {
            let coord: Vec<usize> = out_strides
                .iter()
                .zip(out.dims())
                .map(|(s, d)| (flat / s) % d)
                .collect();
            let (pre, mid) = coord.split_at(before.len());
            let (bcoord, post) = mid.split_at(b.len());
            let mut p = 0usize;
            for (k, &d) in before.iter().enumerate() {
                p += pre[k] * view_strides[d];
            }
            for (k, &d) in after.iter().enumerate() {
                p += post[k] * view_strides[d];
            }
            for (a, strides) in advanced.iter().zip(&index_strides) {
                let at: usize = bcoord.iter().zip(strides).map(|(c, s)| c * s).sum();
                p += a.values[at] as usize * view_strides[a.dim];
            }
            positions.push(p as i64);
        }
        Ok((out, positions))
    }
}

/// An index's values checked against the size of `dim` and wrapped.
fn checked(
    view: &Tensor,
    dim: usize,
    mut values: Vec<i64>,
    shape: Vec<usize>,
) -> Result<Advanced, RuntimeError> {
    let size = view.dims()[dim] as i64;
    for v in values.iter_mut() {
        if *v < -size || *v >= size {
            return Err(index_error(format!(
                "index {v} is out of bounds for dimension {dim} with size {size}"
            )));
        }
        if *v < 0 {
            *v += size;
        }
    }
    Ok(Advanced { dim, values, shape })
}
