//! `torch._C` for `torch.distributed` (the prelude's `torch/distributed/`
//! builds PyTorch's API on these): the rank's seat
//! in the run's world, groups, and collectives and messages as work handles
//! that `dist_wait` completes. A wait blocks this rank's thread until the
//! others have arrived (`ranks.rs` passes the turn on meanwhile); if the run
//! is stopped meanwhile (a deadlock, a failed rank), the wait ends in
//! `DistStopped`, a `BaseException` that `except Exception` does not catch,
//! so the rank unwinds and the run reports the cause once, for every rank.
//!
//! Also the DTensor hook: a primitive given an instance of a tensor class
//! that defines `__tpu_dispatch__` calls that instead, with the primitive's
//! name and its arguments as a list (as a `__torch_dispatch__` subclass
//! computes below autograd in PyTorch).

use crate::args::{Args, items};
use crate::capture::tensors;
use crate::runtime::with_runtime;
use crate::torch_c::_tpu_torch::PyTensor;
use rustpython_vm::{PyObjectRef, PyResult, VirtualMachine};
use tpu_runtime::distributed::{CollectiveCall, ReduceOp};

/// The primitives of this family.
pub(crate) const PORTED: &[&str] = &[
    "dist_seat",
    "dist_set_initialized",
    "dist_is_initialized",
    "dist_new_group",
    "dist_group_ranks",
    "dist_collective",
    "dist_send",
    "dist_recv",
    "dist_wait",
    "dist_is_completed",
    "spawn_world",
];

/// The exception a stopped rank's wait ends in; the run drops it from the
/// rank's Report (the run's deadlock or failure is reported once).
pub(crate) const STOPPED: &str = "DistStopped";

/// The `__tpu_dispatch__` of the first argument (or list element, for
/// `cat`'s list) whose class defines one.
pub(crate) fn dispatch_override(
    values: &[PyObjectRef],
    vm: &VirtualMachine,
) -> Option<PyObjectRef> {
    let of = |v: &PyObjectRef| {
        if v.downcast_ref::<PyTensor>().is_some() {
            return None;
        }
        v.class().get_attr(vm.ctx.intern_str("__tpu_dispatch__"))
    };
    values.iter().find_map(|v| match items(v) {
        Some(list) => list.iter().find_map(of),
        None => of(v),
    })
}

fn not_initialized(vm: &VirtualMachine) -> rustpython_vm::builtins::PyBaseExceptionRef {
    vm.new_value_error(
        "Default process group has not been initialized, please make sure to call init_process_group.",
    )
}

fn splits(a: &Args<'_>, i: usize) -> PyResult<Vec<usize>> {
    Ok(a.opt_ints(i)?
        .unwrap_or_default()
        .into_iter()
        .map(|s| s.max(0) as usize)
        .collect())
}

/// Runs primitive `a.name` of this family.
pub(crate) fn call(a: &Args<'_>) -> PyResult {
    let vm = a.vm;
    let int = |n: usize| -> PyResult { Ok(vm.ctx.new_int(n).into()) };
    match a.name {
        "spawn_world" => crate::spawn::spawn_world(a),
        // Whether this process is one rank of several (launched with
        // `--nproc-per-node`), and its rank and the world's size.
        "dist_seat" => {
            let seat = with_runtime(vm, async |rt| {
                Ok(rt.world_seat().map(|s| (s.rank, s.world.borrow().nproc())))
            })?;
            Ok(match seat {
                Some((rank, n)) => vm
                    .ctx
                    .new_tuple(vec![vm.ctx.new_int(rank).into(), vm.ctx.new_int(n).into()])
                    .into(),
                None => vm.ctx.none(),
            })
        }
        "dist_set_initialized" => {
            let on = a.bool(0)?;
            with_runtime(vm, async |rt| {
                if let Some(seat) = rt.world_seat() {
                    seat.world.borrow_mut().set_initialized(seat.rank, on);
                }
                Ok(())
            })?;
            Ok(vm.ctx.none())
        }
        "dist_is_initialized" => {
            let on = with_runtime(vm, async |rt| {
                Ok(rt
                    .world_seat()
                    .is_some_and(|s| s.world.borrow().is_initialized(s.rank)))
            })?;
            Ok(vm.ctx.new_bool(on).into())
        }
        "dist_new_group" => {
            let ranks: Vec<usize> = a.ints(0)?.into_iter().map(|r| r.max(0) as usize).collect();
            let id = with_runtime(vm, async |rt| {
                Ok(rt
                    .world_seat()
                    .map(|seat| seat.world.borrow_mut().new_group(seat.rank, ranks)))
            })?
            .ok_or_else(|| not_initialized(vm))?
            .map_err(|e| vm.new_value_error(e))?;
            int(id)
        }
        "dist_group_ranks" => {
            let group = a.int(0)?.max(0) as usize;
            let ranks = with_runtime(vm, async |rt| {
                Ok(rt
                    .world_seat()
                    .map(|seat| seat.world.borrow().group(group).map(<[usize]>::to_vec)))
            })?
            .ok_or_else(|| not_initialized(vm))?
            .ok_or_else(|| vm.new_value_error("unknown process group"))?;
            let items = ranks
                .into_iter()
                .map(|r| vm.ctx.new_int(r).into())
                .collect();
            Ok(vm.ctx.new_list(items).into())
        }
        // (name, kind, group, input or None, outputs, op, src, input splits,
        // output splits, cause[, tensors whose gradients it reduces]) to a
        // work handle.
        "dist_collective" => {
            let fname = a.str(0)?;
            let kind = a.str(1)?;
            let group = a.int(2)?.max(0) as usize;
            let input = if a.is_none(3) {
                None
            } else {
                Some(a.tensor(3)?)
            };
            let outputs = tensors(a.get(4)?, vm)?;
            let op = a.str(5)?;
            let op = ReduceOp::from_name(&op)
                .ok_or_else(|| vm.new_value_error(format!("unknown ReduceOp {op}")))?;
            let src = a.int(6)?.max(0) as usize;
            let row = input
                .as_ref()
                .map_or(1, |t| t.dims().iter().skip(1).product::<usize>());
            let call = match kind.as_str() {
                "all_reduce" => CollectiveCall::AllReduce { op },
                "broadcast" => CollectiveCall::Broadcast { src },
                "all_gather" => CollectiveCall::AllGather,
                "reduce_scatter" => CollectiveCall::ReduceScatter { op },
                "all_to_all" => CollectiveCall::AllToAll {
                    input_splits: splits(a, 7)?,
                    output_splits: splits(a, 8)?,
                    row,
                },
                "barrier" => CollectiveCall::Barrier,
                other => {
                    return Err(vm.new_not_implemented_error(format!("collective {other}")));
                }
            };
            let cause = if a.is_none(9) { None } else { Some(a.str(9)?) };
            // The tensors whose gradients this collective reduces (DDP's
            // bucket): it starts where backward made the last of them.
            let params = match a.values.get(10) {
                Some(v) if !vm.is_none(v) => Some(tensors(v, vm)?),
                _ => None,
            };
            let work = with_runtime(vm, async |rt| {
                let ready = params
                    .as_ref()
                    .and_then(|ps| ps.iter().map(|p| rt.grad_ready(p)).max().flatten());
                rt.dist_collective(group, &fname, call, input.as_ref(), outputs, (cause, ready))
                    .await
            })?;
            int(work)
        }
        "dist_send" => {
            let t = a.tensor(0)?;
            let (dst, tag) = (a.int(1)?.max(0) as usize, a.int(2)?);
            let work = with_runtime(vm, async |rt| rt.dist_send(&t, dst, tag).await)?;
            int(work)
        }
        "dist_recv" => {
            let t = a.tensor(0)?;
            let src = if a.is_none(1) {
                None
            } else {
                Some(a.int(1)?.max(0) as usize)
            };
            let tag = a.int(2)?;
            let work = with_runtime(vm, async |rt| rt.dist_recv(t, src, tag))?;
            int(work)
        }
        "dist_wait" => {
            let work = a.int(0)?.max(0) as usize;
            let outcome = crate::runtime::with_runtime_raw(vm, async |rt| {
                let result = rt.dist_wait(work).await;
                let aborted = rt
                    .world_seat()
                    .is_some_and(|s| s.world.borrow().is_aborted());
                (result, aborted)
            })?;
            match outcome {
                (Ok(Some(src)), _) => int(src),
                (Ok(None), _) => Ok(vm.ctx.none()),
                (Err(e), true) => {
                    let class = vm.import("_tpu_torch", 0)?.get_attr(STOPPED, vm)?;
                    let class = class
                        .downcast::<rustpython_vm::builtins::PyType>()
                        .map_err(|_| vm.new_system_error("DistStopped is not a class"))?;
                    Err(vm.new_exception_msg(class, e.to_string().into()))
                }
                (Err(e), false) => Err(crate::runtime::runtime_error(vm, &e)),
            }
        }
        "dist_is_completed" => {
            let work = a.int(0)?.max(0) as usize;
            let done = with_runtime(vm, async |rt| Ok(rt.dist_is_completed(work)))?;
            Ok(vm.ctx.new_bool(done).into())
        }
        other => Err(vm.new_not_implemented_error(format!("torch._C.{other}"))),
    }
}
