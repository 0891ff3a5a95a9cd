//! Tensor indexing, `t[...]` and `t[...] = v`, with NumPy's rules as PyTorch
//! implements them. Ints, slices, `None` and `...` make a view; index tensors,
//! lists and bool masks ("advanced" indices) then gather from that view into a
//! new tensor, the advanced dimensions replacing the indexed ones in place when
//! they are adjacent and moving to the front when they are not.

use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::value::Value;
use tpu_ir::{DType, Shape};
use tpu_runtime::{HostData, Tensor};

/// One advanced index: the dimension of the basic view it indexes, and its
/// int64 values (negative ones already wrapped) with their shape.
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

fn index_error(message: String) -> PyErr {
    PyErr::new("IndexError", message)
}

impl Interpreter<'_> {
    /// Applies ints, slices, `None` and `...` as views; collects advanced indices.
    async fn plan_index(&mut self, t: &Tensor, index: &Value) -> PyResult<Plan> {
        let items: Vec<Value> = match index {
            Value::Tuple(items) => items.to_vec(),
            other => vec![other.clone()],
        };
        // Dimensions each item consumes, to size the ellipsis.
        let mut consumed = 0usize;
        let mut ellipses = 0;
        for item in &items {
            consumed += match item {
                Value::None => 0,
                Value::Builtin("Ellipsis") => {
                    ellipses += 1;
                    0
                }
                Value::Tensor(x) if x.dtype() == DType::Bool => x.rank().max(1),
                Value::Bool(_) => 0,
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
        for item in items {
            match item {
                Value::None => {
                    view = self.runtime.unsqueeze(&view, dim as i64)?;
                    dim += 1;
                }
                Value::Builtin("Ellipsis") => dim += rank - consumed,
                Value::Int(i) => view = self.runtime.select(&view, dim, i)?,
                Value::Slice(s) => {
                    let bound = |v: &Value, what: &str| -> PyResult<Option<i64>> {
                        match v {
                            Value::None => Ok(None),
                            Value::Tensor(_) => Err(PyErr::not_implemented(format!(
                                "a tensor as a slice {what} is not supported; use .item()"
                            ))),
                            other => other.as_int().map(Some).ok_or_else(|| {
                                PyErr::type_error(
                                    "slice indices must be integers or None or have an __index__ method",
                                )
                            }),
                        }
                    };
                    let step = bound(&s[2], "step")?.unwrap_or(1);
                    let (start, stop) = (bound(&s[0], "start")?, bound(&s[1], "stop")?);
                    view = self.runtime.slice(&view, dim, start, stop, step)?;
                    dim += 1;
                }
                Value::Bool(_) => {
                    return Err(PyErr::not_implemented(
                        "indexing a tensor with a Python bool is not supported",
                    ));
                }
                Value::Tensor(x) if x.dtype() == DType::Bool => {
                    // A mask indexes as many dimensions as it has, through the
                    // coordinates of its true elements.
                    let dims = view.dims();
                    let mask_dims = x.dims();
                    for (k, &m) in mask_dims.iter().enumerate() {
                        if dims.get(dim + k) != Some(&m) {
                            return Err(index_error(format!(
                                "The shape of the mask [{}] at index {k} does not match the shape of the indexed tensor [{}] at index {}",
                                mask_dims
                                    .iter()
                                    .map(|d| d.to_string())
                                    .collect::<Vec<_>>()
                                    .join(", "),
                                dims.iter()
                                    .map(|d| d.to_string())
                                    .collect::<Vec<_>>()
                                    .join(", "),
                                dim + k
                            )));
                        }
                    }
                    let values = self.runtime.read(&x).await?;
                    let HostData::Bool(mask) = values else {
                        unreachable!("a bool tensor reads as bools")
                    };
                    let trues: Vec<usize> = (0..mask.len()).filter(|&i| mask[i]).collect();
                    let mut rest_strides = Shape::new(mask_dims.clone()).strides();
                    if mask_dims.is_empty() {
                        rest_strides = Vec::new();
                    }
                    for (k, stride) in rest_strides.iter().enumerate() {
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
                Value::Tensor(x) => {
                    if x.dtype() != DType::Int64 {
                        return Err(index_error(
                            "tensors used as indices must be long, int, byte or bool tensors"
                                .into(),
                        ));
                    }
                    let values = match self.runtime.read(&x).await? {
                        HostData::I64(v) => v,
                        _ => unreachable!("an int64 tensor reads as int64"),
                    };
                    advanced.push(self.advanced(&view, dim, values, x.dims())?);
                    dim += 1;
                }
                Value::List(_) | Value::Tuple(_) | Value::Range(..) => {
                    let items = self.collect(item.clone()).await?;
                    let mut values = Vec::with_capacity(items.len());
                    for v in &items {
                        match v {
                            Value::Int(i) => values.push(*i),
                            other => {
                                return Err(PyErr::not_implemented(format!(
                                    "indexing with a list of {} is not supported",
                                    other.type_name()
                                )));
                            }
                        }
                    }
                    let n = values.len();
                    advanced.push(self.advanced(&view, dim, values, vec![n])?);
                    dim += 1;
                }
                other => {
                    return Err(index_error(format!(
                        "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got {})",
                        other.type_name()
                    )));
                }
            }
        }
        Ok(Plan { view, advanced })
    }

    /// An index tensor's values checked against the size of `dim`, wrapped.
    fn advanced(
        &self,
        view: &Tensor,
        dim: usize,
        mut values: Vec<i64>,
        shape: Vec<usize>,
    ) -> PyResult<Advanced> {
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

    /// The result shape of the advanced indices and, for each result element,
    /// its row-major position in the basic view.
    fn advanced_positions(view: &Tensor, advanced: &[Advanced]) -> PyResult<(Shape, Vec<i64>)> {
        let mut broadcast = Shape::scalar();
        for a in advanced {
            broadcast = Shape::broadcast(&broadcast, &Shape::new(a.shape.clone())).map_err(|_| {
                index_error(format!(
                    "shape mismatch: indexing tensors could not be broadcast together with shapes {}",
                    advanced
                        .iter()
                        .map(|a| format!("[{}]", a.shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ")))
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
        let n = out.checked_numel().unwrap_or(usize::MAX);
        if n > 50_000_000 {
            return Err(PyErr::new(
                "MemoryError",
                format!("indexing would make {n} elements"),
            ));
        }
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

    pub async fn tensor_get_item(&mut self, t: &Tensor, index: &Value) -> PyResult<Value> {
        let plan = self.plan_index(t, index).await?;
        if plan.advanced.is_empty() {
            return Ok(Value::Tensor(plan.view));
        }
        let (shape, positions) = Self::advanced_positions(&plan.view, &plan.advanced)?;
        let index = self
            .runtime
            .from_data(HostData::I64(positions), shape, t.device())
            .await?;
        Ok(Value::Tensor(self.runtime.take(&plan.view, &index).await?))
    }

    pub async fn tensor_set_item(
        &mut self,
        t: &Tensor,
        index: &Value,
        value: Value,
    ) -> PyResult<()> {
        let plan = self.plan_index(t, index).await?;
        let value = match value {
            Value::Tensor(v) => v,
            other => {
                let (x, kind) = crate::torch::scalars::scalar_kind(&other).ok_or_else(|| {
                    PyErr::type_error(format!(
                        "can't assign a {} to a {} tensor",
                        other.type_name(),
                        t.dtype().torch_name()
                    ))
                })?;
                let _ = kind;
                self.runtime
                    .full(Shape::scalar(), x, t.dtype(), t.device())
                    .await?
            }
        };
        let value = self.runtime.to_device(&value, t.device()).await?;
        let target_shape = if plan.advanced.is_empty() {
            plan.view.shape()
        } else {
            Self::advanced_positions(&plan.view, &plan.advanced)?.0
        };
        if Shape::broadcast(&target_shape, &value.shape())
            .map(|s| s != target_shape)
            .unwrap_or(true)
        {
            return Err(PyErr::new(
                "RuntimeError",
                format!(
                    "shape mismatch: value tensor of shape [{}] cannot be broadcast to indexing result of shape [{}]",
                    value
                        .dims()
                        .iter()
                        .map(|d| d.to_string())
                        .collect::<Vec<_>>()
                        .join(", "),
                    target_shape
                        .dims()
                        .iter()
                        .map(|d| d.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
        if plan.advanced.is_empty() {
            self.runtime.write(&plan.view, &value).await?;
        } else {
            let (shape, positions) = Self::advanced_positions(&plan.view, &plan.advanced)?;
            self.runtime
                .write_elements(&plan.view, &positions, shape, &value)
                .await?;
        }
        Ok(())
    }

    /// `for row in tensor`: the views along the first dimension.
    pub async fn tensor_unbind(&mut self, t: &Tensor) -> PyResult<Vec<Value>> {
        if t.rank() == 0 {
            return Err(PyErr::type_error("iteration over a 0-d tensor"));
        }
        let n = t.dims()[0];
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            out.push(Value::Tensor(self.runtime.select(t, 0, i as i64)?));
        }
        Ok(out)
    }
}
