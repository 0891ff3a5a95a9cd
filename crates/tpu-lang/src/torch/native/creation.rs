//! `torch._C` creation primitives: `arange`, `linspace`, `eye`, `randint`,
//! `randperm` and `nonzero`. Each decodes its arguments and calls the runtime,
//! which computes the values as a logged op (or draws them from its generator)
//! and holds them to its memory limits.

use super::args::Args;
use super::{tensor, unknown};
use crate::python::interp::{Interpreter, PyResult};
use crate::python::value::Value;
use tpu_ir::{DType, IntOrFloat, Shape};

impl Interpreter<'_> {
    /// Runs the primitive `a.name` names, one of the family in this file.
    pub(super) async fn native_creation(&mut self, a: Args<'_>) -> PyResult<Value> {
        let rt = &mut *self.runtime;
        Ok(match a.name {
            "arange" => {
                let number = |i: usize| -> PyResult<IntOrFloat> {
                    Ok(match a.get(i)? {
                        Value::Int(n) => IntOrFloat::Int(*n),
                        _ => IntOrFloat::Float(a.float(i)?),
                    })
                };
                let (start, end, step) = (number(0)?, number(1)?, number(2)?);
                let (dtype, device) = (a.opt_dtype(3)?, a.device(4)?);
                tensor(rt.arange(start, end, step, dtype, device).await?)
            }
            "linspace" => {
                let (start, end, steps) = (a.float(0)?, a.float(1)?, a.int(2)?);
                let dtype = a.opt_dtype(3)?.unwrap_or(DType::Float32);
                let device = a.device(4)?;
                tensor(rt.linspace(start, end, steps, dtype, device).await?)
            }
            "eye" => {
                let n = a.int(0)?;
                let m = match a.get(1)? {
                    Value::None => n,
                    _ => a.int(1)?,
                };
                let dtype = a.opt_dtype(2)?.unwrap_or(DType::Float32);
                let device = a.device(3)?;
                tensor(rt.eye(n, m, dtype, device).await?)
            }
            "randint" => {
                let (low, high) = (a.int(0)?, a.int(1)?);
                let dims: Vec<usize> = a.ints(2)?.iter().map(|&d| d.max(0) as usize).collect();
                let dtype = a.opt_dtype(3)?.unwrap_or(DType::Int64);
                let device = a.device(4)?;
                tensor(
                    rt.randint(low, high, Shape::new(dims), dtype, device)
                        .await?,
                )
            }
            "randperm" => {
                let dtype = a.opt_dtype(1)?.unwrap_or(DType::Int64);
                let n = a.int(0)?;
                let device = a.device(2)?;
                tensor(rt.randperm(n, dtype, device).await?)
            }
            "nonzero" => tensor(rt.nonzero(&a.tensor(0)?).await?),
            other => return Err(unknown(other)),
        })
    }
}
