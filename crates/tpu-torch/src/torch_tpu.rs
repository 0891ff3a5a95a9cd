//! The `torch_tpu` module's Rust part (`_tpu_torch_tpu`): the eager mode, an
//! explicit sync, the compilation cache's counters, and the simulated TPU.
//! `serve.rs` serves `torch_tpu` as a package over it, with `stablehlo` and
//! the `pallas` submodule.

#[rustpython_vm::pymodule]
pub(crate) mod _tpu_torch_tpu {
    use crate::runtime::with_runtime;
    use rustpython_vm::builtins::{PyDictRef, PyStr};
    use rustpython_vm::function::{FuncArgs, OptionalArg};
    use rustpython_vm::{PyObjectRef, PyResult, VirtualMachine};
    use tpu_runtime::EagerMode;

    #[pyfunction]
    fn set_eager_mode(mode: PyObjectRef, vm: &VirtualMachine) -> PyResult<()> {
        let Some(mode) = mode.downcast_ref::<PyStr>() else {
            return Err(vm.new_type_error(
                "set_eager_mode() takes a mode name: \"debug\", \"strict\" or \"fused\"",
            ));
        };
        let mode: EagerMode = mode
            .to_string()
            .parse()
            .map_err(|e: String| vm.new_value_error(e))?;
        with_runtime(vm, async |rt| rt.set_mode(mode))
    }

    #[pyfunction]
    fn get_eager_mode(vm: &VirtualMachine) -> PyResult<&'static str> {
        with_runtime(vm, async |rt| Ok(rt.mode().name()))
    }

    #[pyfunction]
    fn set_chip(
        spec: OptionalArg<PyObjectRef>,
        shape: OptionalArg<PyObjectRef>,
        vm: &VirtualMachine,
    ) -> PyResult<()> {
        let text = |v: OptionalArg<PyObjectRef>, default: &str| {
            match v {
            OptionalArg::Missing => Ok(default.to_owned()),
            OptionalArg::Present(v) => v.downcast_ref::<PyStr>().map(|s| s.to_string()).ok_or_else(|| {
                vm.new_type_error(
                    "set_chip() takes a chip (\"v5e\", or \"v5e:mxu_width=256\") and a slice shape (\"2x2\")",
                )
            }),
        }
        };
        let (spec, shape) = (text(spec, "")?, text(shape, "1")?);
        let (chip, slice) = tpu_device::device(&spec, &shape).map_err(|e| vm.new_value_error(e))?;
        with_runtime(vm, async |rt| {
            rt.set_run_device(chip, slice);
            Ok(())
        })
    }

    #[pyfunction]
    fn get_chip(vm: &VirtualMachine) -> PyResult<String> {
        with_runtime(vm, async |rt| {
            let (chip, slice) = rt.device();
            Ok(format!("{} {}", chip.id, slice.name()))
        })
    }

    #[pyfunction]
    fn sync(vm: &VirtualMachine) -> PyResult<()> {
        with_runtime(vm, async |rt| rt.sync())
    }

    #[pyfunction]
    fn cache_stats(vm: &VirtualMachine) -> PyResult<PyDictRef> {
        let stats = with_runtime(vm, async |rt| Ok(rt.cache_stats()))?;
        let dict = vm.ctx.new_dict();
        let counts = [
            ("hits", stats.hits),
            ("misses", stats.misses),
            ("entries", stats.entries as u64),
            ("persisted_hits", stats.persisted_hits),
            ("loaded", stats.loaded as u64),
            ("corrupt", stats.corrupt),
        ];
        for (k, n) in counts {
            dict.set_item(k, vm.ctx.new_int(n).into(), vm)?;
        }
        dict.set_item("compile_ms", vm.ctx.new_float(stats.compile_ms).into(), vm)?;
        Ok(dict)
    }

    /// `simulate_collective(kind, bytes, axes=(0,))`: one collective on the
    /// current slice, simulated link by link (simulated time). Returns its
    /// figures as a dict; the Report keeps its schedule.
    #[pyfunction]
    fn simulate_collective(args: FuncArgs, vm: &VirtualMachine) -> PyResult<PyDictRef> {
        const USAGE: &str = "simulate_collective(kind, bytes, axes=(0,)): kind like \"all-reduce\", bytes of the whole array, axes of the slice";
        let names = ["kind", "bytes", "axes"];
        if let Some(k) = args
            .kwargs
            .keys()
            .find(|k| !names.contains(&k.to_string().as_str()))
        {
            return Err(vm.new_type_error(format!(
                "simulate_collective() got an unexpected keyword argument '{k}'"
            )));
        }
        if args.args.len() > 3 {
            return Err(vm.new_type_error(USAGE));
        }
        let arg = |i: usize| {
            args.args
                .get(i)
                .or_else(|| args.kwargs.get(names[i]))
                .cloned()
        };
        let kind: tpu_device::CollectiveKind = match arg(0) {
            Some(k) if k.downcast_ref::<PyStr>().is_some() => k
                .downcast_ref::<PyStr>()
                .map(|s| s.to_string().parse())
                .expect("checked")
                .map_err(|e: String| vm.new_value_error(e))?,
            _ => return Err(vm.new_type_error(USAGE)),
        };
        let bytes = arg(1)
            .and_then(|v| crate::args::scalar_kind(&v, vm))
            .map(|(x, _)| x)
            .ok_or_else(|| vm.new_type_error(USAGE))?;
        let axis = |v: &PyObjectRef| {
            crate::args::as_int(v, vm)
                .and_then(|a| usize::try_from(a).ok())
                .ok_or_else(|| vm.new_type_error("axes must be axis indices, like (0, 1)"))
        };
        let axes: Vec<usize> = match arg(2) {
            None => vec![0],
            Some(v) => match crate::args::items(&v) {
                Some(items) => items.iter().map(axis).collect::<PyResult<_>>()?,
                None if crate::args::as_int(&v, vm).is_some() => vec![
                    usize::try_from(crate::args::as_int(&v, vm).expect("checked"))
                        .map_err(|_| vm.new_value_error(USAGE))?,
                ],
                None => return Err(vm.new_type_error(USAGE)),
            },
        };
        let request = tpu_device::Collective { kind, axes, bytes };
        let sim = with_runtime(vm, async |rt| rt.simulate_collective(&request))?;
        let dict = vm.ctx.new_dict();
        dict.set_item("kind", vm.ctx.new_str(kind.name()).into(), vm)?;
        dict.set_item(
            "simulated_us",
            vm.ctx.new_float(sim.simulated_us).into(),
            vm,
        )?;
        dict.set_item(
            "latency_bound",
            vm.ctx.new_bool(sim.latency_bound).into(),
            vm,
        )?;
        dict.set_item(
            "max_link_bytes",
            vm.ctx.new_float(sim.max_link_bytes).into(),
            vm,
        )?;
        let formula = sim
            .formula_us
            .map_or(vm.ctx.none(), |f| vm.ctx.new_float(f).into());
        dict.set_item("formula_us", formula, vm)?;
        dict.set_item("steps", vm.ctx.new_int(sim.steps.len()).into(), vm)?;
        Ok(dict)
    }
}

/// The body `torch_tpu` is served as: the Rust part, `stablehlo` (written
/// in Python, in the prelude's `torch/_compile.py`) and `pallas`, loaded when
/// first used, as it brings JAX's modules.
pub(crate) const BODY: &str = r#"from _tpu_torch_tpu import (
    set_eager_mode, get_eager_mode, sync, cache_stats, set_chip, get_chip,
    simulate_collective,
)


def stablehlo(fn, *example_inputs):
    import torch
    return torch._stablehlo(fn, *example_inputs)


def __getattr__(name):
    if name == "pallas":
        import importlib
        return importlib.import_module("torch_tpu.pallas")
    raise AttributeError(f"module 'torch_tpu' has no attribute '{name}'")
"#;
