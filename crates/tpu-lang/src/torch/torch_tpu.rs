//! The `torch_tpu` module: the device controls TorchTPU gives programs: the
//! eager mode, an explicit sync, the compilation cache's counters, and the
//! simulated TPU (generation, or a custom chip, and slice shape).

use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::value::{Dict, HashKey, Value};
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
    "torch_tpu.simulate_collective",
    "torch_tpu.stablehlo",
];

impl Interpreter<'_> {
    pub fn call_torch_tpu(
        &mut self,
        name: &str,
        args: &[Value],
        kwargs: &[(String, Value)],
    ) -> PyResult<Value> {
        if name != "simulate_collective"
            && let Some((k, _)) = kwargs.first()
        {
            return Err(PyErr::type_error(format!(
                "torch_tpu.{name}() got an unexpected keyword argument '{k}'"
            )));
        }
        match name {
            "simulate_collective" => self.simulate_collective(args, kwargs),
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
                let (chip, slice) =
                    tpu_device::device(&spec, &shape).map_err(PyErr::value_error)?;
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
                let count = |n: u64| Value::Int(n as i64);
                Ok(dict_of(vec![
                    ("hits", count(stats.hits)),
                    ("misses", count(stats.misses)),
                    ("entries", count(stats.entries as u64)),
                    ("persisted_hits", count(stats.persisted_hits)),
                    ("loaded", count(stats.loaded as u64)),
                    ("corrupt", count(stats.corrupt)),
                    ("compile_ms", Value::Float(stats.compile_ms)),
                ]))
            }
            other => Err(PyErr::not_implemented(format!("torch_tpu.{other}()"))),
        }
    }
}

/// A dict with string keys, in order.
fn dict_of(pairs: Vec<(&str, Value)>) -> Value {
    let mut dict = Dict::default();
    for (k, v) in pairs {
        dict.insert(HashKey::Str(k.into()), Value::str(k), v);
    }
    Value::Dict(Rc::new(RefCell::new(dict)))
}

impl Interpreter<'_> {
    /// `torch_tpu.simulate_collective(kind, bytes, axes=(0,))`: one
    /// collective on the current slice, simulated link by link (simulated
    /// time). Returns its figures as a dict; the Report keeps its schedule.
    fn simulate_collective(
        &mut self,
        args: &[Value],
        kwargs: &[(String, Value)],
    ) -> PyResult<Value> {
        const USAGE: &str = "simulate_collective(kind, bytes, axes=(0,)): kind like \"all-reduce\", bytes of the whole array, axes of the slice";
        let names = ["kind", "bytes", "axes"];
        for (k, _) in kwargs {
            if !names.contains(&k.as_str()) {
                return Err(PyErr::type_error(format!(
                    "simulate_collective() got an unexpected keyword argument '{k}'"
                )));
            }
        }
        if args.len() > 3 {
            return Err(PyErr::type_error(USAGE));
        }
        let arg = |i: usize| {
            args.get(i)
                .or_else(|| kwargs.iter().find(|(k, _)| k == names[i]).map(|(_, v)| v))
        };
        let kind: tpu_device::CollectiveKind = match arg(0) {
            Some(Value::Str(k)) => k.parse().map_err(PyErr::value_error)?,
            _ => return Err(PyErr::type_error(USAGE)),
        };
        let bytes = arg(1)
            .and_then(|v| v.as_number())
            .ok_or_else(|| PyErr::type_error(USAGE))?;
        let axes: Vec<usize> = match arg(2) {
            None => vec![0],
            Some(Value::Int(a)) => {
                vec![usize::try_from(*a).map_err(|_| PyErr::value_error(USAGE))?]
            }
            Some(Value::Tuple(items)) => axis_list(items)?,
            Some(Value::List(items)) => axis_list(&items.borrow())?,
            Some(_) => return Err(PyErr::type_error(USAGE)),
        };
        let request = tpu_device::Collective { kind, axes, bytes };
        let sim = self.runtime.simulate_collective(&request)?;
        Ok(dict_of(vec![
            ("kind", Value::str(kind.name())),
            ("simulated_us", Value::Float(sim.simulated_us)),
            ("latency_bound", Value::Bool(sim.latency_bound)),
            ("max_link_bytes", Value::Float(sim.max_link_bytes)),
            (
                "formula_us",
                sim.formula_us.map_or(Value::None, Value::Float),
            ),
            ("steps", Value::Int(sim.steps.len() as i64)),
        ]))
    }
}

fn axis_list(items: &[Value]) -> PyResult<Vec<usize>> {
    items
        .iter()
        .map(|v| {
            v.as_int()
                .and_then(|a| usize::try_from(a).ok())
                .ok_or_else(|| PyErr::type_error("axes must be axis indices, like (0, 1)"))
        })
        .collect()
}
