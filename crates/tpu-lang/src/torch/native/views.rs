//! `torch._C` views, layouts and copies: `view`, `reshape`, `permute`,
//! `transpose`, `expand`, `unsqueeze`, `squeeze`, `slice`, `select` (views that
//! share storage when the runtime can make one), `contiguous`, `clone`, `cat`,
//! `take`, `cast`, `to_device`, and the storage queries the prelude needs.

use super::args::{Args, axis};
use super::{tensor, unknown};
use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::value::Value;

impl Interpreter<'_> {
    /// Runs the primitive `a.name` names, one of the family in this file.
    pub(super) async fn native_views(&mut self, a: Args<'_>) -> PyResult<Value> {
        let name = a.name;
        let rt = &mut *self.runtime;
        Ok(match name {
            "view" => tensor(rt.view(&a.tensor(0)?, &a.ints(1)?)?),
            "reshape" => tensor(rt.reshape(&a.tensor(0)?, &a.ints(1)?).await?),
            "permute" => tensor(rt.permute(&a.tensor(0)?, &a.ints(1)?)?),
            "transpose" => tensor(rt.transpose(&a.tensor(0)?, a.int(1)?, a.int(2)?)?),
            "expand" => tensor(rt.expand(&a.tensor(0)?, &a.ints(1)?)?),
            "unfold" => tensor(rt.unfold(&a.tensor(0)?, a.int(1)?, a.int(2)?, a.int(3)?)?),
            "pad" => {
                let as_sizes = |v: Vec<i64>| v.into_iter().map(|p| p.max(0) as usize).collect();
                let before: Vec<usize> = as_sizes(a.ints(1)?);
                let after: Vec<usize> = as_sizes(a.ints(2)?);
                tensor(rt.pad(&a.tensor(0)?, &before, &after, a.float(3)?).await?)
            }
            "unsqueeze" => tensor(rt.unsqueeze(&a.tensor(0)?, a.int(1)?)?),
            "squeeze" => {
                let t = a.tensor(0)?;
                let dims = a.opt_ints(1)?;
                tensor(rt.squeeze(&t, dims.as_deref())?)
            }
            "contiguous" => tensor(rt.contiguous(&a.tensor(0)?).await?),
            "is_contiguous" => Value::Bool(a.tensor(0)?.is_contiguous()),
            "stride" => Value::tuple(
                a.tensor(0)?
                    .strides()
                    .into_iter()
                    .map(|s| Value::Int(s as i64))
                    .collect(),
            ),
            "storage_offset" => Value::Int(a.tensor(0)?.storage_offset() as i64),
            "data_ptr" => {
                let t = a.tensor(0)?;
                let (key, len) = t.storage_key();
                let item = t.dtype().size_in_bytes() as u64;
                let next = self.next_data_ptr;
                let base = *self.data_ptrs.entry(key).or_insert(next);
                if base == next {
                    self.next_data_ptr = next + (len as u64 * item).div_ceil(64).max(1) * 64;
                }
                Value::Int((base + t.storage_offset() as u64 * item) as i64)
            }
            "clone" => tensor(rt.clone_tensor(&a.tensor(0)?).await?),
            "slice" => {
                let t = a.tensor(0)?;
                let d = axis(&t, a.int(1)?)?;
                let opt = |v: &Value| v.as_int();
                let (start, stop) = (opt(a.get(2)?), opt(a.get(3)?));
                tensor(rt.slice(&t, d, start, stop, a.int(4)?)?)
            }
            "select" => {
                let t = a.tensor(0)?;
                let d = axis(&t, a.int(1)?)?;
                tensor(rt.select(&t, d, a.int(2)?)?)
            }
            "cat" => {
                let items = self.collect(a.get(0)?.clone()).await?;
                let mut ts = Vec::with_capacity(items.len());
                for (i, item) in items.into_iter().enumerate() {
                    match item {
                        Value::Tensor(t) => ts.push(t),
                        other => {
                            return Err(PyErr::type_error(format!(
                                "expected Tensor as element {i} in argument 0, but got {}",
                                other.type_name()
                            )));
                        }
                    }
                }
                tensor(self.runtime.cat(&ts, a.int(1)?).await?)
            }
            "take" => tensor(rt.take(&a.tensor(0)?, &a.tensor(1)?).await?),
            "cast" => {
                let t = a.tensor(0)?;
                match a.opt_dtype(1)? {
                    Some(d) => tensor(rt.cast(&t, d).await?),
                    None => tensor(t),
                }
            }
            "to_device" => {
                let t = a.tensor(0)?;
                let d = a.device(1)?;
                tensor(rt.to_device(&t, d).await?)
            }
            "same_storage" => Value::Bool(a.tensor(0)?.shares_storage(&a.tensor(1)?)),
            other => return Err(unknown(other)),
        })
    }
}
