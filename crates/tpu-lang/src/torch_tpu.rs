//! The `torch_tpu` module: the device controls TorchTPU gives programs: the
//! eager mode, an explicit sync, the compilation cache's counters, and the
//! simulated TPU (generation, or a custom chip, and slice shape).

use crate::error::PyErr;
use crate::interp::{Interpreter, PyResult};
use crate::value::{Dict, HashKey, Value};
use std::cell::RefCell;
use std::rc::Rc;
use tpu_runtime::EagerMode;

pub const TORCH_TPU_FUNCTIONS: &[&str] = &[
    "torch_tpu.set_eager_mode",
    "torch_tpu.get_eager_mode",
    "torch_tpu.sync",
    "torch_tpu.cache_stats",
    "torch_tpu.set_chip",
    "torch_tpu.get_chip",
];

impl Interpreter<'_> {
    pub fn call_torch_tpu(&mut self, name: &str, args: &[Value]) -> PyResult<Value> {
        match name {
            "set_eager_mode" => {
                let Some(Value::Str(mode)) = args.first() else {
                    return Err(PyErr::type_error(
                        "set_eager_mode() takes a mode name: \"debug\", \"strict\" or \"fused\"",
                    ));
                };
                let mode: EagerMode = mode.parse().map_err(PyErr::value_error)?;
                self.runtime.set_mode(mode)?;
                Ok(Value::None)
            }
            "get_eager_mode" => Ok(Value::str(self.runtime.mode().name())),
            "set_chip" => {
                let text = |v: Option<&Value>, default: &str| match v {
                    None => Ok(default.to_string()),
                    Some(Value::Str(s)) => Ok(s.to_string()),
                    Some(_) => Err(PyErr::type_error(
                        "set_chip() takes a chip (\"v5e\", or \"v5e:mxu_width=256\") and a slice shape (\"2x2\")",
                    )),
                };
                let (spec, shape) = (text(args.first(), "")?, text(args.get(1), "1")?);
                let chip = tpu_device::chip::describe(&spec).map_err(PyErr::value_error)?;
                let slice = tpu_device::Slice::new(&chip, &shape)
                    .map_err(|e| PyErr::value_error(e.to_string()))?;
                self.runtime.set_run_device(chip, slice);
                Ok(Value::None)
            }
            "get_chip" => {
                let (chip, slice) = self.runtime.device();
                Ok(Value::str(&format!("{} {}", chip.id, slice.name())))
            }
            "sync" => {
                self.runtime.sync()?;
                Ok(Value::None)
            }
            "cache_stats" => {
                let stats = self.runtime.cache_stats();
                let mut dict = Dict::default();
                for (k, v) in [
                    ("hits", stats.hits as i64),
                    ("misses", stats.misses as i64),
                    ("entries", stats.entries as i64),
                    ("persisted_hits", stats.persisted_hits as i64),
                    ("loaded", stats.loaded as i64),
                    ("corrupt", stats.corrupt as i64),
                ] {
                    dict.insert(HashKey::Str(k.into()), Value::str(k), Value::Int(v));
                }
                dict.insert(
                    HashKey::Str("compile_ms".into()),
                    Value::str("compile_ms"),
                    Value::Float(stats.compile_ms),
                );
                Ok(Value::Dict(Rc::new(RefCell::new(dict))))
            }
            other => Err(PyErr::not_implemented(format!("torch_tpu.{other}()"))),
        }
    }
}
