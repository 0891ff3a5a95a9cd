//! `torch._C` elementwise primitives: `unary`, `binary` and `compare` by op
//! name (the IR's own, through `from_name`), and `where`. A Python number
//! operand stays a scalar where the runtime takes one (`binary_scalar`,
//! `compare_scalar`) and otherwise becomes a 0-d tensor in the dtype
//! `crate::torch::scalars` gives it, so the runtime's type promotion sees
//! what PyTorch's would.

use super::args::Args;
use super::{tensor, unknown};
use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::value::Value;
use crate::torch::scalars::{scalar_dtype_beside, scalar_kind};
use tpu_ir::{BinaryOp, CompareOp, Shape, UnaryOp};
use tpu_runtime::{Device, Tensor};

impl Interpreter<'_> {
    /// Runs the primitive `a.name` names, one of the family in this file.
    pub(super) async fn native_elementwise(&mut self, a: Args<'_>) -> PyResult<Value> {
        let name = a.name;
        let rt = &mut *self.runtime;
        Ok(match name {
            "unary" => {
                let op_name = a.str(0)?;
                let op = UnaryOp::from_name(&op_name)
                    .ok_or_else(|| PyErr::not_implemented(format!("unary op {op_name}")))?;
                tensor(rt.unary(op, &a.tensor(1)?).await?)
            }
            "binary" => {
                let op_name = a.str(0)?;
                let op = BinaryOp::from_name(&op_name)
                    .ok_or_else(|| PyErr::not_implemented(format!("binary op {op_name}")))?;
                let (x, y) = (a.get(1)?.clone(), a.get(2)?.clone());
                return self.binary_values(op, &x, &y).await;
            }
            "compare" => {
                let op_name = a.str(0)?;
                let op = CompareOp::from_name(&op_name)
                    .ok_or_else(|| PyErr::not_implemented(format!("comparison {op_name}")))?;
                let (x, y) = (a.get(1)?.clone(), a.get(2)?.clone());
                match (&x, &y) {
                    (Value::Tensor(p), Value::Tensor(q)) => tensor(rt.compare(op, p, q).await?),
                    (Value::Tensor(p), s) => {
                        let (s, _) = scalar_kind(s).ok_or_else(|| {
                            PyErr::type_error(format!(
                                "{op_name}(): argument 'other' must be Tensor or a number"
                            ))
                        })?;
                        tensor(rt.compare_scalar(op, p, s).await?)
                    }
                    _ => {
                        return Err(PyErr::type_error(format!(
                            "{op_name}(): argument 'input' must be Tensor"
                        )));
                    }
                }
            }
            "where" => {
                let cond = a.tensor(0)?;
                let (x, y) = (a.get(1)?.clone(), a.get(2)?.clone());
                let like = match (&x, &y) {
                    (Value::Tensor(t), _) | (_, Value::Tensor(t)) => Some(t.clone()),
                    _ => None,
                };
                let device = like.as_ref().map_or(cond.device(), |t| t.device());
                let x = self.as_tensor(&x, like.as_ref()).await?;
                let y = self.as_tensor(&y, like.as_ref()).await?;
                let rt = &mut *self.runtime;
                let (x, y) = (
                    rt.to_device(&x, device).await?,
                    rt.to_device(&y, device).await?,
                );
                tensor(rt.where_(&cond, &x, &y).await?)
            }
            other => return Err(unknown(other)),
        })
    }

    /// `a op b` where either may be a Python number, as the operators and
    /// `torch.add`/`torch.maximum`/... compute it.
    pub async fn binary_values(&mut self, op: BinaryOp, a: &Value, b: &Value) -> PyResult<Value> {
        let unsupported = || {
            PyErr::type_error(format!(
                "{}(): unsupported operand types '{}' and '{}'",
                op.name(),
                a.type_name(),
                b.type_name()
            ))
        };
        Ok(tensor(match (a, b) {
            (Value::Tensor(x), Value::Tensor(y)) => self.runtime.binary(op, x, y).await?,
            (Value::Tensor(x), s) => {
                let (s, kind) = scalar_kind(s).ok_or_else(unsupported)?;
                self.runtime.binary_scalar(op, x, s, kind, false).await?
            }
            (s, Value::Tensor(y)) => {
                let (s, kind) = scalar_kind(s).ok_or_else(unsupported)?;
                self.runtime.binary_scalar(op, y, s, kind, true).await?
            }
            _ => return Err(unsupported()),
        }))
    }

    /// A tensor for `v`: itself, or a 0-d tensor for a Python number placed
    /// next to `like`.
    pub(super) async fn as_tensor(&mut self, v: &Value, like: Option<&Tensor>) -> PyResult<Tensor> {
        match v {
            Value::Tensor(t) => Ok(t.clone()),
            other => {
                let (x, kind) = scalar_kind(other).ok_or_else(|| {
                    PyErr::type_error(format!(
                        "expected a Tensor or a number, not {}",
                        other.type_name()
                    ))
                })?;
                let dtype = scalar_dtype_beside(kind, like.map(|t| t.dtype()));
                let device = like.map_or(Device::Cpu, |t| t.device());
                Ok(self.runtime.full(Shape::scalar(), x, dtype, device).await?)
            }
        }
    }
}
