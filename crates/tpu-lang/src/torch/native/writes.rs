//! `torch._C` in-place writes: `assign` (an out-of-place result written back
//! into a tensor's storage, after the runtime's cast check), `write` (`fill_`,
//! `copy_`, `zero_`: a value broadcast into a tensor), and `fill_random`
//! (`uniform_`, `normal_`), and `put` (a copy with values written or added at
//! flat positions: `scatter`, `index_add`, `bincount`).

use super::args::Args;
use super::{tensor, unknown};
use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::value::Value;
use tpu_ir::Shape;

impl Interpreter<'_> {
    /// Runs the primitive `a.name` names, one of the family in this file.
    pub(super) async fn native_writes(&mut self, mut a: Args<'_>) -> PyResult<Value> {
        let name = a.name;
        let rt = &mut *self.runtime;
        Ok(match name {
            "assign" => {
                let t = a.tensor(0)?;
                let result = match a.take(1) {
                    Value::Tensor(r) => r,
                    other => self.as_tensor(&other, Some(&t)).await?,
                };
                let rt = &mut *self.runtime;
                let result = if result.dtype() != t.dtype() {
                    tpu_runtime::Runtime::check_cast(result.dtype(), t.dtype())?;
                    rt.cast(&result, t.dtype()).await?
                } else {
                    result
                };
                let result = if result.device() == t.device() {
                    result
                } else {
                    rt.to_device(&result, t.device()).await?
                };
                rt.assign(&t, result).await?;
                tensor(t)
            }
            "write" => {
                let t = a.tensor(0)?;
                let v = a.get(1)?.clone();
                let v = self.as_tensor(&v, Some(&t)).await?;
                let rt = &mut *self.runtime;
                let v = rt.to_device(&v, t.device()).await?;
                Shape::broadcast(&t.shape(), &v.shape())
                    .ok()
                    .filter(|s| s.dims() == t.dims().as_slice())
                    .ok_or_else(|| {
                        PyErr::new(
                            "RuntimeError",
                            format!(
                                "The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton dimension {}",
                                t.dims().last().copied().unwrap_or(1),
                                v.dims().last().copied().unwrap_or(1),
                                t.rank().saturating_sub(1)
                            ),
                        )
                    })?;
                rt.write(&t, &v).await?;
                tensor(t)
            }
            "put" => {
                let base = a.tensor(0)?;
                let index = a.tensor(1)?;
                let v = a.get(2)?.clone();
                let v = self.as_tensor(&v, Some(&base)).await?;
                let accumulate = a.bool(3)?;
                tensor(self.runtime.put(&base, &index, &v, accumulate).await?)
            }
            "fill_random" => {
                let t = a.tensor(0)?;
                rt.fill_random(&t, a.bool(1)?, a.float(2)?, a.float(3)?)
                    .await?;
                tensor(t)
            }
            other => return Err(unknown(other)),
        })
    }
}
