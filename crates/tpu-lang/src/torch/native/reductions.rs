//! `torch._C` matrix products and reductions: `matmul`, `mm`, `bmm`, `sum`,
//! `prod`, `mean`, the extremum family (`max`/`min` with and without a dim,
//! `argmax`/`argmin`) and `cumsum`. Dims arrive as the prelude passed them and
//! are normalised here, with PyTorch's errors for out-of-range dims.

use super::args::{Args, axes, axis};
use super::{tensor, unknown};
use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::value::Value;
use tpu_ir::ReduceOp;

impl Interpreter<'_> {
    /// Runs the primitive `a.name` names, one of the family in this file.
    pub(super) async fn native_reductions(&mut self, a: Args<'_>) -> PyResult<Value> {
        let name = a.name;
        let rt = &mut *self.runtime;
        Ok(match name {
            "matmul" => tensor(rt.matmul(&a.tensor(0)?, &a.tensor(1)?).await?),
            "mm" | "bmm" => {
                let (x, y) = (a.tensor(0)?, a.tensor(1)?);
                let rank = if name == "mm" { 2 } else { 3 };
                if x.rank() != rank || y.rank() != rank {
                    let which = if x.rank() != rank { "self" } else { "mat2" };
                    let msg = if name == "mm" {
                        format!("{which} must be a matrix")
                    } else {
                        format!(
                            "batch{} must be a 3D tensor",
                            if x.rank() != rank { 1 } else { 2 }
                        )
                    };
                    return Err(PyErr::new("RuntimeError", msg));
                }
                tensor(rt.mm(&x, &y).await?)
            }
            "sum" | "prod" => {
                let t = a.tensor(0)?;
                let dims = a.opt_ints(1)?;
                let keepdim = a.bool(2)?;
                let op = if name == "sum" {
                    ReduceOp::Sum
                } else {
                    ReduceOp::Prod
                };
                match dims {
                    None if name == "sum" => tensor(rt.sum(&t).await?),
                    None => {
                        let flat = rt.flat(&t).await?;
                        let out = rt.reduce_axes(op, &flat, &[0], false).await?;
                        tensor(rt.reshape(&out, &[]).await?)
                    }
                    Some(ds) => {
                        let ax = axes(&t, &ds)?;
                        if t.rank() == 0 {
                            tensor(rt.reduce_axes(op, &t, &[], keepdim).await?)
                        } else {
                            tensor(rt.reduce_axes(op, &t, &ax, keepdim).await?)
                        }
                    }
                }
            }
            "mean" => {
                let t = a.tensor(0)?;
                let keepdim = a.bool(2)?;
                match a.opt_ints(1)? {
                    None => tensor(rt.mean(&t, None, false).await?),
                    Some(ds) => {
                        let ax = axes(&t, &ds)?;
                        tensor(rt.mean(&t, Some(&ax), keepdim).await?)
                    }
                }
            }
            "extremum_dim" => {
                let t = a.tensor(0)?;
                let d = axis(&t, a.int(1)?)?;
                let want_indices = match a.values.get(4) {
                    None => true,
                    Some(_) => a.bool(4)?,
                };
                let (v, i) = rt
                    .extremum_along(a.bool(3)?, &t, d, a.bool(2)?, want_indices)
                    .await?;
                Value::tuple(vec![tensor(v), i.map_or(Value::None, tensor)])
            }
            "extremum_all" => tensor(rt.extremum_all(a.bool(1)?, &a.tensor(0)?).await?),
            "arg_extremum" => {
                let t = a.tensor(0)?;
                let d = match a.get(1)? {
                    Value::None => None,
                    _ => Some(axis(&t, a.int(1)?)?),
                };
                tensor(rt.arg_extremum(a.bool(3)?, &t, d, a.bool(2)?).await?)
            }
            "cumsum" => {
                let t = a.tensor(0)?;
                let d = axis(&t, a.int(1)?)?;
                tensor(rt.cumsum(&t, d).await?)
            }
            other => return Err(unknown(other)),
        })
    }
}
