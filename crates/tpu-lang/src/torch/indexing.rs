//! Tensor indexing, `t[...]` and `t[...] = v`: the Python values of an index
//! expression decoded into the runtime's `IndexItem`s (lists collected, slice
//! bounds checked), then `Runtime::index` and `Runtime::index_put`, which plan
//! and run it with NumPy's rules as PyTorch implements them.

use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::value::Value;
use tpu_ir::Shape;
use tpu_runtime::{IndexItem, Tensor};

impl Interpreter<'_> {
    /// The items of an index expression (`t[a, b]` is the tuple `(a, b)`).
    async fn index_items(&mut self, index: &Value) -> PyResult<Vec<IndexItem>> {
        let values: Vec<Value> = match index {
            Value::Tuple(items) => items.to_vec(),
            other => vec![other.clone()],
        };
        let mut items = Vec::with_capacity(values.len());
        for value in values {
            items.push(match value {
                Value::None => IndexItem::NewAxis,
                Value::Builtin("Ellipsis") => IndexItem::Ellipsis,
                Value::Int(i) => IndexItem::Int(i),
                Value::Bool(b) => IndexItem::Bool(b),
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
                    let step = bound(&s[2], "step")?;
                    let (start, stop) = (bound(&s[0], "start")?, bound(&s[1], "stop")?);
                    IndexItem::Slice { start, stop, step }
                }
                Value::Tensor(x) => IndexItem::Tensor(x),
                list @ (Value::List(_) | Value::Tuple(_) | Value::Range(..)) => {
                    let elements = self.collect(list).await?;
                    let mut ints = Vec::with_capacity(elements.len());
                    for v in &elements {
                        match v {
                            Value::Int(i) => ints.push(*i),
                            other => {
                                return Err(PyErr::not_implemented(format!(
                                    "indexing with a list of {} is not supported",
                                    other.type_name()
                                )));
                            }
                        }
                    }
                    IndexItem::List(ints)
                }
                other => {
                    return Err(PyErr::new(
                        "IndexError",
                        format!(
                            "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got {})",
                            other.type_name()
                        ),
                    ));
                }
            });
        }
        Ok(items)
    }

    pub async fn tensor_get_item(&mut self, t: &Tensor, index: &Value) -> PyResult<Value> {
        let items = self.index_items(index).await?;
        Ok(Value::Tensor(self.runtime.index(t, &items).await?))
    }

    pub async fn tensor_set_item(
        &mut self,
        t: &Tensor,
        index: &Value,
        value: Value,
    ) -> PyResult<()> {
        let items = self.index_items(index).await?;
        let value = match value {
            Value::Tensor(v) => v,
            other => {
                let (x, _) = crate::torch::scalars::scalar_kind(&other).ok_or_else(|| {
                    PyErr::type_error(format!(
                        "can't assign a {} to a {} tensor",
                        other.type_name(),
                        t.dtype().torch_name()
                    ))
                })?;
                self.runtime
                    .full(Shape::scalar(), x, t.dtype(), t.device())
                    .await?
            }
        };
        self.runtime.index_put(t, &items, &value).await?;
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
