//! `torch._C` for `torch.distributed` (the prelude's `torch/distributed/__init__.py` builds
//! PyTorch's API on these): the rank's seat in the run's world, groups, and
//! collectives and messages as work handles that `dist_wait` completes. A
//! wait suspends this rank until the others have arrived; if the run is
//! stopped meanwhile (a deadlock, a failed rank), the wait ends in an error
//! no `except` catches, so the rank unwinds and the run reports the cause
//! once, for every rank.

use super::args::Args;
use super::unknown;
use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::value::Value;
use tpu_runtime::Tensor;
use tpu_runtime::distributed::{CollectiveCall, ReduceOp};

impl Interpreter<'_> {
    /// The world this rank is in, with its rank; a run of one process
    /// without `--nproc-per-node` has none.
    fn world_seat(&self) -> Option<tpu_runtime::WorldSeat> {
        self.runtime.world_seat().cloned()
    }

    /// A list argument of tensors.
    async fn tensors(&mut self, value: &Value) -> PyResult<Vec<Tensor>> {
        let mut out = Vec::new();
        for item in self.collect(value.clone()).await? {
            match item {
                Value::Tensor(t) => out.push(t),
                other => {
                    return Err(PyErr::type_error(format!(
                        "expected a list of tensors, found {}",
                        other.type_name()
                    )));
                }
            }
        }
        Ok(out)
    }

    fn optional_tensor(a: &Args<'_>, i: usize) -> PyResult<Option<Tensor>> {
        match a.get(i)? {
            Value::None => Ok(None),
            _ => a.tensor(i).map(Some),
        }
    }

    fn splits(a: &Args<'_>, i: usize) -> PyResult<Vec<usize>> {
        Ok(a.opt_ints(i)?
            .unwrap_or_default()
            .into_iter()
            .map(|s| s.max(0) as usize)
            .collect())
    }

    /// A runtime error from a wait: the stop of the run when it was
    /// stopped, the error itself otherwise.
    fn wait_error(&self, e: tpu_runtime::RuntimeError) -> PyErr {
        match self.world_seat() {
            Some(seat) if seat.world.borrow().is_aborted() => {
                PyErr::fatal(crate::ranks::STOPPED, e.to_string())
            }
            _ => PyErr::from(e),
        }
    }

    /// Runs the primitive `a.name` names, one of the family in this file.
    pub(super) async fn native_distributed(&mut self, a: Args<'_>) -> PyResult<Value> {
        let name = a.name;
        Ok(match name {
            // Whether this process is one rank of several (launched with
            // `--nproc-per-node`), and its rank and the world's size.
            "dist_seat" => match self.world_seat() {
                Some(seat) => {
                    let n = seat.world.borrow().nproc();
                    Value::Tuple(vec![Value::Int(seat.rank as i64), Value::Int(n as i64)].into())
                }
                None => Value::None,
            },
            "dist_set_initialized" => {
                if let Some(seat) = self.world_seat() {
                    seat.world
                        .borrow_mut()
                        .set_initialized(seat.rank, a.bool(0)?);
                }
                Value::None
            }
            "dist_is_initialized" => Value::Bool(
                self.world_seat()
                    .is_some_and(|s| s.world.borrow().is_initialized(s.rank)),
            ),
            "dist_new_group" => {
                let seat = self.world_seat().ok_or_else(not_initialized)?;
                let ranks = a.ints(0)?.into_iter().map(|r| r as usize).collect();
                let id = seat
                    .world
                    .borrow_mut()
                    .new_group(seat.rank, ranks)
                    .map_err(|e| PyErr::new("ValueError", e))?;
                Value::Int(id as i64)
            }
            "dist_group_ranks" => {
                let seat = self.world_seat().ok_or_else(not_initialized)?;
                let world = seat.world.borrow();
                let ranks = world
                    .group(a.int(0)? as usize)
                    .ok_or_else(|| PyErr::new("ValueError", "unknown process group"))?;
                Value::list(ranks.iter().map(|&r| Value::Int(r as i64)).collect())
            }
            // (name, kind, group, input or None, outputs, op, src, input
            // splits, output splits, cause[, tensors whose gradients it
            // reduces]) to a work handle.
            "dist_collective" => {
                let fname = a.str(0)?;
                let kind = a.str(1)?;
                let group = a.int(2)? as usize;
                let input = Self::optional_tensor(&a, 3)?;
                let outputs = self.tensors(a.get(4)?).await?;
                let op = a.str(5)?;
                let op = ReduceOp::from_name(&op)
                    .ok_or_else(|| PyErr::new("ValueError", format!("unknown ReduceOp {op}")))?;
                let src = a.int(6)?.max(0) as usize;
                let row = input.as_ref().map_or(1, |t| {
                    let dims = t.dims();
                    dims.iter().skip(1).product::<usize>()
                });
                let call = match kind.as_str() {
                    "all_reduce" => CollectiveCall::AllReduce { op },
                    "broadcast" => CollectiveCall::Broadcast { src },
                    "all_gather" => CollectiveCall::AllGather,
                    "reduce_scatter" => CollectiveCall::ReduceScatter { op },
                    "all_to_all" => CollectiveCall::AllToAll {
                        input_splits: Self::splits(&a, 7)?,
                        output_splits: Self::splits(&a, 8)?,
                        row,
                    },
                    "barrier" => CollectiveCall::Barrier,
                    other => return Err(unknown(other)),
                };
                let cause = match a.get(9)? {
                    Value::None => None,
                    _ => Some(a.str(9)?),
                };
                // The tensors whose gradients this collective reduces (DDP's
                // bucket): it starts where backward made the last of them.
                let ready = match a.values.get(10) {
                    Some(Value::None) | None => None,
                    Some(v) => {
                        let params = self.tensors(&v.clone()).await?;
                        params
                            .iter()
                            .map(|p| self.runtime.grad_ready(p))
                            .max()
                            .flatten()
                    }
                };
                let work = self
                    .runtime
                    .dist_collective(group, &fname, call, input.as_ref(), outputs, (cause, ready))
                    .await?;
                Value::Int(work as i64)
            }
            "dist_send" => {
                let t = a.tensor(0)?;
                let work = self
                    .runtime
                    .dist_send(&t, a.int(1)? as usize, a.int(2)?)
                    .await?;
                Value::Int(work as i64)
            }
            "dist_recv" => {
                let t = a.tensor(0)?;
                let src = match a.get(1)? {
                    Value::None => None,
                    _ => Some(a.int(1)? as usize),
                };
                Value::Int(self.runtime.dist_recv(t, src, a.int(2)?)? as i64)
            }
            "dist_wait" => {
                let work = a.int(0)? as usize;
                match self.runtime.dist_wait(work).await {
                    Ok(Some(src)) => Value::Int(src as i64),
                    Ok(None) => Value::None,
                    Err(e) => return Err(self.wait_error(e)),
                }
            }
            "dist_is_completed" => Value::Bool(self.runtime.dist_is_completed(a.int(0)? as usize)),
            other => return Err(unknown(other)),
        })
    }
}

/// PyTorch's error for a collective before `init_process_group`.
fn not_initialized() -> PyErr {
    PyErr::new(
        "ValueError",
        "Default process group has not been initialized, please make sure to call init_process_group.",
    )
}
