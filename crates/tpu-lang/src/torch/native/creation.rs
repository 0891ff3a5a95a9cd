//! `torch._C` creation primitives whose values are computed on the host:
//! `arange`, `linspace`, `eye`, `randint`, `randperm`, and `nonzero` (which reads
//! its input back). Each builds host data and uploads it with `from_data`, after
//! checking its size against the runtime's memory limits, so these ops do not
//! appear in the Report's op log; moving them into the runtime as ops is the
//! next step of issue 11.

use super::args::Args;
use super::{tensor, unknown};
use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::value::Value;
use tpu_ir::{DType, Shape};
use tpu_runtime::HostData;

impl Interpreter<'_> {
    /// Runs the primitive `a.name` names, one of the family in this file.
    pub(super) async fn native_creation(&mut self, a: Args<'_>) -> PyResult<Value> {
        let rt = &mut *self.runtime;
        Ok(match a.name {
            "arange" => {
                let (start, end, step) = (a.get(0)?.clone(), a.get(1)?.clone(), a.get(2)?.clone());
                let all_int = [&start, &end, &step]
                    .iter()
                    .all(|v| matches!(v, Value::Int(_)));
                let (s, e, st) = (a.float(0)?, a.float(1)?, a.float(2)?);
                if st == 0.0 {
                    return Err(PyErr::new("RuntimeError", "step must be nonzero"));
                }
                if (st > 0.0 && e < s) || (st < 0.0 && e > s) {
                    return Err(PyErr::new(
                        "RuntimeError",
                        "upper bound and larger bound inconsistent with step sign",
                    ));
                }
                let count = ((e - s) / st).ceil().max(0.0);
                let dtype = a.opt_dtype(3)?.unwrap_or(if all_int {
                    DType::Int64
                } else {
                    DType::Float32
                });
                let device = a.device(4)?;
                let n = checked_len(rt, count, dtype)?;
                let data = if dtype == DType::Int64 && all_int {
                    let (s, st) = (start.as_int().unwrap_or(0), step.as_int().unwrap_or(1));
                    HostData::I64((0..n as i64).map(|i| s + i * st).collect())
                } else {
                    HostData::F32((0..n).map(|i| (s + st * i as f64) as f32).collect()).cast(dtype)
                };
                tensor(rt.from_data(data, Shape::new([n]), device).await?)
            }
            "linspace" => {
                let (s, e) = (a.float(0)?, a.float(1)?);
                let n = a.int(2)?;
                if n < 0 {
                    return Err(PyErr::new(
                        "RuntimeError",
                        "number of steps must be non-negative",
                    ));
                }
                let dtype = a.opt_dtype(3)?.unwrap_or(DType::Float32);
                let n = checked_len(rt, n as f64, dtype)?;
                let device = a.device(4)?;
                // PyTorch's CPU kernel: the first half steps up from `start`, the
                // second half down from `end`, in float32.
                let (sf, ef) = (s as f32, e as f32);
                let step = if n > 1 {
                    (ef - sf) / (n - 1) as f32
                } else {
                    0.0
                };
                let half = n / 2;
                let values: Vec<f32> = (0..n)
                    .map(|i| {
                        if i < half {
                            sf + step * i as f32
                        } else {
                            ef - step * (n - 1 - i) as f32
                        }
                    })
                    .collect();
                let data = HostData::F32(values).cast(dtype);
                tensor(rt.from_data(data, Shape::new([n]), device).await?)
            }
            "eye" => {
                let n = a.int(0)?.max(0) as usize;
                let m = match a.get(1)? {
                    Value::None => n,
                    _ => a.int(1)?.max(0) as usize,
                };
                let dtype = a.opt_dtype(2)?.unwrap_or(DType::Float32);
                let device = a.device(3)?;
                checked_len(rt, n as f64 * m as f64, DType::Float32)?;
                let values: Vec<f32> = (0..n * m)
                    .map(|i| if i / m == i % m { 1.0 } else { 0.0 })
                    .collect();
                let data = HostData::F32(values).cast(dtype);
                tensor(rt.from_data(data, Shape::new([n, m]), device).await?)
            }
            "randint" => {
                let (low, high) = (a.int(0)?, a.int(1)?);
                if high <= low {
                    return Err(PyErr::new(
                        "RuntimeError",
                        format!(
                            "random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
                        ),
                    ));
                }
                let dims: Vec<usize> = a.ints(2)?.iter().map(|&d| d.max(0) as usize).collect();
                let shape = Shape::new(dims);
                let dtype = a.opt_dtype(3)?.unwrap_or(DType::Int64);
                let device = a.device(4)?;
                match shape.checked_numel() {
                    Some(n) => checked_len(rt, n as f64, DType::Int64)?,
                    None => {
                        return Err(PyErr::new("RuntimeError", "randint: the size is too large"));
                    }
                };
                let values = rt.generator.randint(low, high, shape.numel());
                let data = HostData::I64(values).cast(dtype);
                tensor(rt.from_data(data, shape, device).await?)
            }
            "randperm" => {
                let dtype = a.opt_dtype(1)?.unwrap_or(DType::Int64);
                let n = checked_len(rt, a.int(0)?.max(0) as f64, DType::Int64)?;
                let device = a.device(2)?;
                let data = HostData::I64(rt.generator.randperm(n)).cast(dtype);
                tensor(rt.from_data(data, Shape::new([n]), device).await?)
            }
            "nonzero" => {
                let t = a.tensor(0)?;
                let values = rt.read(&t).await?.to_f64();
                let dims = t.dims();
                let mut coords = Vec::new();
                let mut count = 0;
                for (i, v) in values.iter().enumerate() {
                    if *v != 0.0 {
                        count += 1;
                        let mut c = vec![0i64; dims.len()];
                        let mut rest = i;
                        for d in (0..dims.len()).rev() {
                            c[d] = (rest % dims[d]) as i64;
                            rest /= dims[d];
                        }
                        coords.extend(c);
                    }
                }
                let shape = Shape::new([count, dims.len()]);
                tensor(
                    rt.from_data(HostData::I64(coords), shape, t.device())
                        .await?,
                )
            }
            other => return Err(unknown(other)),
        })
    }
}

/// A 1-D length computed from Python numbers, checked against the memory
/// limits before anything is allocated for it.
fn checked_len(rt: &mut tpu_runtime::Runtime, count: f64, dtype: DType) -> PyResult<usize> {
    if !count.is_finite() || count > (1u64 << 48) as f64 {
        return Err(PyErr::new(
            "RuntimeError",
            format!("a tensor of {count} elements is too large to allocate"),
        ));
    }
    let n = count as usize;
    rt.check_allocation(&Shape::new([n]), dtype)?;
    Ok(n)
}
