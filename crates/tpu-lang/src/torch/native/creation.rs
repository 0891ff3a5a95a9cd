//! `torch._C` creation primitives: `arange`, `linspace`, `eye`, `randint`,
//! `randperm` and `nonzero`. Each decodes its arguments and calls the runtime,
//! which computes the values as a logged op (or draws them from its generator)
//! and holds them to its memory limits. Also the `torch.Generator` objects'
//! engines (`generator_*`: a draw with `generator=` swaps its engine in for the
//! default one and back) and `random_ints`, the draws of `Tensor.random_`.

use super::args::Args;
use super::{tensor, unknown};
use crate::python::interp::{Interpreter, PyResult};
use crate::python::value::Value;
use tpu_ir::{DType, IntOrFloat, Shape};
use tpu_runtime::rng::Generator;

/// The engine of the `torch.Generator` with this handle.
fn generator_slot(generators: &mut [Generator], handle: i64) -> PyResult<&mut Generator> {
    generators.get_mut(handle as usize).ok_or_else(|| {
        crate::python::error::PyErr::value_error(format!("no torch.Generator with handle {handle}"))
    })
}

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
            "generator_new" => {
                self.generators.push(Generator::default());
                Value::Int(self.generators.len() as i64 - 1)
            }
            "generator_seed" => {
                let (handle, seed) = (a.int(0)?, a.int(1)?);
                let engine = generator_slot(&mut self.generators, handle)?;
                *engine = Generator::new(seed as u64);
                Value::None
            }
            "generator_swap" => {
                let engine = generator_slot(&mut self.generators, a.int(0)?)?;
                std::mem::swap(engine, &mut self.runtime.generator);
                Value::None
            }
            "random_ints" => {
                let count = a.int(0)?.max(0) as usize;
                let low = a.int(1)?;
                let dtype = a.opt_dtype(3)?.unwrap_or(DType::Int64);
                let rng = &mut self.runtime.generator;
                let values: Vec<Value> = match a.get(2)? {
                    // `random_()` with no bounds: ATen's `uniform_int`, the
                    // draw modulo the dtype's largest exact integer plus one.
                    Value::None => (0..count)
                        .map(|_| {
                            let v = match dtype {
                                DType::Int64 => rng.random64() % (1u64 << 63),
                                DType::Float64 => rng.random64() % ((1u64 << 53) + 1),
                                DType::Float32 => rng.random() as u64 % ((1u64 << 24) + 1),
                                DType::Bool => rng.random() as u64 & 1,
                                _ => rng.random() as u64 % (1u64 << 31),
                            };
                            Value::Int(v as i64)
                        })
                        .collect(),
                    _ => {
                        let high = a.int(2)?;
                        if high <= low {
                            return Err(crate::python::error::PyErr::new(
                                "RuntimeError",
                                format!(
                                    "random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
                                ),
                            ));
                        }
                        rng.randint(low, high, count)
                            .into_iter()
                            .map(Value::Int)
                            .collect()
                    }
                };
                Value::list(values)
            }
            other => return Err(unknown(other)),
        })
    }
}
