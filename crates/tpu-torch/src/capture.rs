//! `torch._C` for `torch.compile` (the prelude's `torch/_compile.py` and
//! `torch/_dynamo/`), Pallas kernels, the convolution note, `data_ptr`, and
//! the Report's sharding notes.

use crate::args::{Args, items, type_name};
use crate::runtime::with_runtime;
use crate::torch_c::_tpu_torch::{PyTensor, wrap};
use rustpython_vm::builtins::PyStr;
use rustpython_vm::{PyObjectRef, PyResult, VirtualMachine};
use std::cell::RefCell;
use std::collections::HashMap;
use tpu_runtime::Tensor;
use tpu_runtime::distributed::{MemoryPoint, MeshReport, ShardedTensor};

/// The primitives of this family.
pub(crate) const PORTED: &[&str] = &[
    "compile_register",
    "capture_begin",
    "capture_end",
    "capture_abort",
    "compile_eager_call",
    "is_compiling",
    "compile_stablehlo",
    "param_names",
    "compile_info",
    "capture_graphs",
    "graph_replay",
    "capture_break",
    "capture_pause",
    "capture_resume",
    "pallas_call",
    "set_conv",
    "data_ptr",
    "user_line",
    "dist_note_mesh",
    "dist_note_dtensor",
    "dist_note_memory",
];

thread_local! {
    /// `data_ptr`'s addresses: each storage's base, given out in order of
    /// first use, 64-byte aligned, as an allocator would.
    static DATA_PTRS: RefCell<(HashMap<usize, u64>, u64)> = RefCell::new((HashMap::new(), 0));
    /// The program's own file, whose innermost frame names "the user's line".
    static MAIN_PATH: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Forgets the previous run's addresses and records the program's file.
pub(crate) fn reset(main_path: &str) {
    DATA_PTRS.with(|d| *d.borrow_mut() = (HashMap::new(), 0x7f00_0000_0000));
    MAIN_PATH.with(|p| *p.borrow_mut() = main_path.to_owned());
}

/// This run's addresses and file, taken off the thread while the run is
/// parked (`ranks.rs`).
#[cfg(target_arch = "wasm32")]
pub(crate) type Parked = ((HashMap<usize, u64>, u64), String);

#[cfg(target_arch = "wasm32")]
pub(crate) fn park() -> Parked {
    (
        DATA_PTRS.with(|d| std::mem::take(&mut *d.borrow_mut())),
        MAIN_PATH.with(|p| std::mem::take(&mut *p.borrow_mut())),
    )
}

#[cfg(target_arch = "wasm32")]
pub(crate) fn resume((data_ptrs, main_path): Parked) {
    DATA_PTRS.with(|d| *d.borrow_mut() = data_ptrs);
    MAIN_PATH.with(|p| *p.borrow_mut() = main_path);
}

fn usize_of(a: &Args<'_>, i: usize) -> PyResult<usize> {
    Ok(a.int(i)?.max(0) as usize)
}

fn optional_str(a: &Args<'_>, i: usize) -> PyResult<Option<String>> {
    if a.is_none(i) {
        Ok(None)
    } else {
        a.str(i).map(Some)
    }
}

/// A list of tensors the prelude built (DTensors already unwrapped).
pub(crate) fn tensors(v: &PyObjectRef, vm: &VirtualMachine) -> PyResult<Vec<Tensor>> {
    let list = items(v).ok_or_else(|| vm.new_type_error("expected a list of tensors"))?;
    list.iter()
        .map(|x| {
            x.downcast_ref::<PyTensor>()
                .map(|t| t.tensor())
                .ok_or_else(|| {
                    vm.new_type_error(format!("expected a tensor, found {}", type_name(x)))
                })
        })
        .collect()
}

fn strings(v: &PyObjectRef, vm: &VirtualMachine) -> PyResult<Vec<String>> {
    let list = items(v).ok_or_else(|| vm.new_type_error("expected a list of strings"))?;
    list.iter()
        .map(|x| {
            x.downcast_ref::<PyStr>()
                .map(|s| s.to_string())
                .ok_or_else(|| {
                    vm.new_type_error(format!("expected a string, found {}", type_name(x)))
                })
        })
        .collect()
}

fn sizes(a: &Args<'_>, i: usize) -> PyResult<Vec<usize>> {
    Ok(a.ints(i)?.into_iter().map(|v| v.max(0) as usize).collect())
}

fn tensor_list(ts: Vec<Tensor>, vm: &VirtualMachine) -> PyResult {
    let items = ts
        .into_iter()
        .map(|t| wrap(t, vm))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(vm.ctx.new_list(items).into())
}

/// The line the program's own file is at: its innermost frame on the stack
/// (0 when none is, as between runs).
pub(crate) fn user_line(vm: &VirtualMachine) -> u32 {
    MAIN_PATH.with(|main| {
        let main = main.borrow();
        let mut frame = vm.current_frame();
        while let Some(f) = frame {
            if f.f_code().source_path().to_str() == Some(main.as_str()) {
                return f.lineno().max(0) as u32;
            }
            frame = f.f_back(vm);
        }
        0
    })
}

/// The reads the Report names, as the runtime's static reasons.
pub(crate) fn sync_reason(reason: &str) -> Option<&'static str> {
    [
        ".item()",
        ".tolist()",
        ".cpu()",
        "a Python condition reads a tensor",
    ]
    .into_iter()
    .find(|&r| r == reason)
}

/// Whether the code asking for a read is the program's and not the
/// prelude's (whose reads are host steps, not the program's syncs or graph
/// breaks): the innermost frame outside this crate's glue is not a prelude
/// file.
pub(crate) fn asked_by_program(vm: &VirtualMachine) -> bool {
    let mut frame = vm.current_frame();
    while let Some(f) = frame {
        let code = f.f_code();
        let file = code.source_path().to_str().unwrap_or("");
        if !file.starts_with(crate::serve::GLUE_PREFIX) {
            return !file.starts_with(crate::serve::FILE_PREFIX)
                && !file.starts_with(crate::serve::MODULE_PREFIX);
        }
        frame = f.f_back(vm);
    }
    true
}

/// `print` while a compiled function is being captured: Dynamo cannot trace
/// it, so the graph breaks there, with Dynamo's reason.
pub(crate) fn print_break(args: &[PyObjectRef], vm: &VirtualMachine) -> PyResult<()> {
    let capturing = with_runtime(vm, async |rt| Ok(rt.is_capturing()))?;
    if !capturing {
        return Ok(());
    }
    let types: Vec<String> = args
        .iter()
        .map(|v| {
            if v.downcast_ref::<PyTensor>().is_some() {
                "'Tensor'".to_owned()
            } else {
                format!("'{}'", type_name(v))
            }
        })
        .collect();
    let types = types.join(", ");
    let reason = format!(
        "Failed to trace builtin operator\n  Explanation: Dynamo does not know how to trace builtin operator `print` with argument types [{types}] (has_kwargs False)\n  Hint: Avoid calling builtin `print` with argument types [{types}]. Consider using an equivalent alternative function/method to `print`."
    );
    with_runtime(vm, async |rt| rt.capture_break(reason, true).await)
}

/// At the end of a run: if the program imported `torch.distributed.tensor`,
/// its `_note_sharding` records the meshes and the DTensors the program's
/// variables hold, by name. A failure here is not the program's: it leaves
/// the record as it is.
pub(crate) fn note_sharding(vm: &VirtualMachine, globals: &rustpython_vm::builtins::PyDictRef) {
    let note = vm
        .sys_module
        .get_attr("modules", vm)
        .and_then(|m| m.get_item("torch.distributed.tensor", vm))
        .and_then(|m| m.get_attr("_note_sharding", vm));
    let Ok(note) = note else {
        return;
    };
    let mut names: Vec<(String, PyObjectRef)> = globals
        .into_iter()
        .filter_map(|(k, v)| Some((k.downcast_ref::<PyStr>()?.to_string(), v)))
        .collect();
    names.sort_by(|a, b| a.0.cmp(&b.0));
    let pairs = names
        .into_iter()
        .map(|(k, v)| vm.ctx.new_tuple(vec![vm.ctx.new_str(k).into(), v]).into())
        .collect();
    let _ = note.call((vm.ctx.new_list(pairs),), vm);
}

/// Runs primitive `a.name` of this family.
pub(crate) fn call(a: &Args<'_>) -> PyResult {
    let vm = a.vm;
    let none = || Ok(vm.ctx.none());
    match a.name {
        // (name, fullgraph, dynamic: True/False/None) -> id
        "compile_register" => {
            let name = a.str(0)?;
            let fullgraph = a.bool(1)?;
            let dynamic = if a.is_none(2) { None } else { Some(a.bool(2)?) };
            let id = with_runtime(vm, async |rt| {
                Ok(rt.compile_register(name, fullgraph, dynamic))
            })?;
            Ok(vm.ctx.new_int(id).into())
        }
        // (id, compile index, guards, reason or None, dynamic dims, the
        // names of the arguments' sizes, their values)
        "capture_begin" => {
            let key = (usize_of(a, 0)?, usize_of(a, 1)?);
            let guards = strings(a.get(2)?, vm)?;
            let reason = optional_str(a, 3)?;
            let dynamic = strings(a.get(4)?, vm)?;
            let sizes = strings(a.get(5)?, vm)?
                .into_iter()
                .zip(a.ints(6)?)
                .collect();
            with_runtime(vm, async |rt| {
                rt.capture_begin(key, guards, reason, dynamic, sizes).await
            })?;
            none()
        }
        "capture_end" => {
            let outputs = tensors(a.get(0)?, vm)?;
            with_runtime(vm, async |rt| rt.capture_end(&outputs).await)?;
            none()
        }
        "capture_abort" => {
            with_runtime(vm, async |rt| {
                rt.capture_abort();
                Ok(())
            })?;
            none()
        }
        // (id, note or None)
        "compile_eager_call" => {
            let id = usize_of(a, 0)?;
            let note = optional_str(a, 1)?;
            with_runtime(vm, async |rt| {
                rt.compile_eager_call(id, note);
                Ok(())
            })?;
            none()
        }
        // (reason, fullgraph error?) a break that reads no tensor
        "capture_break" => {
            let reason = a.str(0)?;
            let fullgraph = a.bool(1)?;
            with_runtime(vm, async |rt| rt.capture_break(reason, fullgraph).await)?;
            none()
        }
        "capture_pause" => {
            with_runtime(vm, async |rt| rt.capture_pause())?;
            none()
        }
        "capture_resume" => {
            with_runtime(vm, async |rt| rt.capture_resume())?;
            none()
        }
        "is_compiling" => {
            let capturing = with_runtime(vm, async |rt| Ok(rt.is_capturing()))?;
            Ok(vm.ctx.new_bool(capturing).into())
        }
        // The StableHLO of the latest compile of function `id`, its graphs
        // in order (and why one does not lower).
        "compile_stablehlo" => {
            let id = usize_of(a, 0)?;
            let texts = with_runtime(vm, async |rt| Ok(rt.compiled_stablehlo(id)))?;
            let items = texts.iter().map(|t| vm.ctx.new_str(t.as_str()).into());
            Ok(vm.ctx.new_list(items.collect()).into())
        }
        // () -> the input tensors of each graph of the call that ended last
        "capture_graphs" => {
            let graphs = with_runtime(vm, async |rt| Ok(rt.last_graph_inputs()))?;
            let lists = graphs
                .into_iter()
                .map(|ts| tensor_list(ts, vm))
                .collect::<PyResult<Vec<_>>>()?;
            Ok(vm.ctx.new_list(lists).into())
        }
        // (id, compile, graph, inputs) -> the graph's outputs, replayed
        "graph_replay" => {
            let (id, compile, graph) = (usize_of(a, 0)?, usize_of(a, 1)?, usize_of(a, 2)?);
            let inputs = tensors(a.get(3)?, vm)?;
            let outputs = with_runtime(vm, async |rt| {
                rt.graph_replay(id, compile, graph, &inputs).await
            })?;
            tensor_list(outputs, vm)
        }
        // (id) -> (graphs, [(reason, line)], ops) of its latest compile
        "compile_info" => {
            let id = usize_of(a, 0)?;
            let (graphs, breaks, ops) = with_runtime(vm, async |rt| Ok(rt.compile_info(id)))?;
            let breaks = breaks
                .into_iter()
                .map(|(reason, line)| {
                    let line = line.map_or(vm.ctx.none(), |l| vm.ctx.new_int(l).into());
                    vm.ctx
                        .new_tuple(vec![vm.ctx.new_str(reason).into(), line])
                        .into()
                })
                .collect();
            Ok(vm
                .ctx
                .new_tuple(vec![
                    vm.ctx.new_int(graphs).into(),
                    vm.ctx.new_list(breaks).into(),
                    vm.ctx.new_int(ops).into(),
                ])
                .into())
        }
        // (fn) -> its positional parameter names, for guards' names.
        "param_names" => param_names(a.get(0)?, vm),
        // (kernel JSON, tensors) -> the outputs of a kernel the prelude's
        // `jax.experimental.pallas` traced.
        "pallas_call" => {
            let text = a.str(0)?;
            let kernel: tpu_ir::PallasKernel = serde_json::from_str(&text).map_err(|e| {
                vm.new_system_error(format!("the traced Pallas kernel does not decode: {e}"))
            })?;
            let inputs = tensors(a.get(1)?, vm)?;
            let outputs = with_runtime(vm, async |rt| rt.pallas_call(kernel, &inputs).await)?;
            tensor_list(outputs, vm)
        }
        // [groups, taps, positions, in_channels, out_channels] per group, or None.
        "set_conv" => {
            let conv = a.opt_ints(0)?.map(|v| {
                let at = |i: usize| v.get(i).copied().unwrap_or(0).max(0) as usize;
                tpu_runtime::Conv {
                    groups: at(0),
                    taps: at(1),
                    positions: at(2),
                    in_channels: at(3),
                    out_channels: at(4),
                }
            });
            with_runtime(vm, async |rt| {
                rt.set_conv(conv);
                Ok(())
            })?;
            none()
        }
        "data_ptr" => {
            let t = a.tensor(0)?;
            let (key, len) = t.storage_key();
            let item = t.dtype().size_in_bytes() as u64;
            let base = DATA_PTRS.with(|d| {
                let (bases, next) = &mut *d.borrow_mut();
                *bases.entry(key).or_insert_with(|| {
                    let base = *next;
                    *next += (len as u64 * item).div_ceil(64).max(1) * 64;
                    base
                })
            });
            Ok(vm
                .ctx
                .new_int(base + t.storage_offset() as u64 * item)
                .into())
        }
        "user_line" => Ok(vm.ctx.new_int(user_line(vm)).into()),
        // (shape, dim names or None, ranks)
        "dist_note_mesh" => {
            let dim_names = if a.is_none(1) {
                None
            } else {
                Some(strings(a.get(1)?, vm)?)
            };
            let mesh = MeshReport {
                shape: sizes(a, 0)?,
                dim_names,
                ranks: sizes(a, 2)?,
                torus_axes: Vec::new(),
            };
            with_runtime(vm, async |rt| {
                rt.note_mesh(mesh);
                Ok(())
            })?;
            none()
        }
        // (name, line, mesh, placements, shape, local shape, offsets, dtype,
        // local bytes)
        "dist_note_dtensor" => {
            let note = ShardedTensor {
                rank: 0,
                name: a.str(0)?,
                line: a.int(1)?.max(0) as u32,
                mesh: usize_of(a, 2)?,
                placements: strings(a.get(3)?, vm)?,
                shape: sizes(a, 4)?,
                local_shape: sizes(a, 5)?,
                offsets: sizes(a, 6)?,
                dtype: a.str(7)?,
                local_bytes: usize_of(a, 8)?,
            };
            with_runtime(vm, async |rt| {
                rt.note_dtensor(note);
                Ok(())
            })?;
            none()
        }
        // (phase, module or None, optimiser steps, parameters, gradients,
        // optimiser state, gathered parameters, held)
        "dist_note_memory" => {
            let groups = [
                tensors(a.get(3)?, vm)?,
                tensors(a.get(4)?, vm)?,
                tensors(a.get(5)?, vm)?,
                tensors(a.get(6)?, vm)?,
            ];
            let held = tensors(a.get(7)?, vm)?;
            let point = MemoryPoint {
                phase: a.str(0)?,
                module: optional_str(a, 1)?,
                line: user_line(vm),
                step: a.int(2)?.max(0) as u32,
                ..MemoryPoint::default()
            };
            with_runtime(vm, async |rt| {
                rt.note_memory(
                    point,
                    [&groups[0], &groups[1], &groups[2], &groups[3]],
                    &held,
                );
                Ok(())
            })?;
            none()
        }
        other => Err(vm.new_not_implemented_error(format!("torch._C.{other}"))),
    }
}

/// A function's positional parameter names (a bound method's without its
/// first), from its code object, for guards' names.
fn param_names(f: &PyObjectRef, vm: &VirtualMachine) -> PyResult {
    let bound = f.get_attr("__self__", vm).is_ok() && f.get_attr("__func__", vm).is_ok();
    let function = if bound {
        f.get_attr("__func__", vm)?
    } else {
        f.clone()
    };
    let Ok(code) = function.get_attr("__code__", vm) else {
        return Ok(vm.ctx.new_list(Vec::new()).into());
    };
    let count = crate::args::as_int(&code.get_attr("co_argcount", vm)?, vm).unwrap_or(0);
    let names = items(&code.get_attr("co_varnames", vm)?).unwrap_or_default();
    let skip = usize::from(bound && count > 0);
    let names: Vec<PyObjectRef> = names
        .into_iter()
        .take(count.max(0) as usize)
        .skip(skip)
        .collect();
    Ok(vm.ctx.new_list(names).into())
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_name_is_routed() {
        for name in super::PORTED {
            assert!(crate::natives::ported(name).is_some(), "{name}");
        }
    }
}
