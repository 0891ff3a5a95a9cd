//! `torch._C` for the Report's sharding record: the user's current line (a
//! DTensor remembers where it was made) and the notes the prelude's
//! `torch.distributed.tensor` writes at the end of a rank's run, one per
//! DeviceMesh and one per DTensor the program's variables hold
//! (`note_sharding`, called by the run once the program has ended), and
//! FSDP's notes of what each chip holds at each phase (`dist_note_memory`).

use super::args::Args;
use super::unknown;
use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::value::Value;
use tpu_runtime::distributed::{MemoryPoint, MeshReport, ShardedTensor};

fn sizes(a: &Args<'_>, i: usize) -> PyResult<Vec<usize>> {
    Ok(a.ints(i)?.into_iter().map(|v| v.max(0) as usize).collect())
}

/// A list of tensors the prelude built (DTensors already unwrapped).
pub(super) fn tensors(value: &Value) -> PyResult<Vec<tpu_runtime::Tensor>> {
    let Value::List(items) = value else {
        return Err(PyErr::type_error("expected a list of tensors"));
    };
    items
        .borrow()
        .iter()
        .map(|v| match v {
            Value::Tensor(t) => Ok(t.clone()),
            other => Err(PyErr::type_error(format!(
                "expected a tensor, found {}",
                other.type_name()
            ))),
        })
        .collect()
}

pub(super) fn strings(value: &Value) -> PyResult<Vec<String>> {
    let items = match value {
        Value::List(l) => l.borrow().clone(),
        Value::Tuple(t) => t.to_vec(),
        _ => return Err(PyErr::type_error("expected a list of strings")),
    };
    items
        .into_iter()
        .map(|v| match v {
            Value::Str(s) => Ok(s.to_string()),
            other => Err(PyErr::type_error(format!(
                "expected a string, found {}",
                other.type_name()
            ))),
        })
        .collect()
}

impl Interpreter<'_> {
    /// Runs the primitive `a.name` names, one of the family in this file.
    pub(super) fn native_sharding(&mut self, a: Args<'_>) -> PyResult<Value> {
        match a.name {
            "user_line" => Ok(Value::Int(i64::from(self.watch.line))),
            // (shape, dim names or None, ranks)
            "dist_note_mesh" => {
                let dim_names = match a.get(1)? {
                    Value::None => None,
                    names => Some(strings(names)?),
                };
                self.runtime.note_mesh(MeshReport {
                    shape: sizes(&a, 0)?,
                    dim_names,
                    ranks: sizes(&a, 2)?,
                    torus_axes: Vec::new(),
                });
                Ok(Value::None)
            }
            // (name, line, mesh, placements, shape, local shape, offsets,
            // dtype, local bytes)
            "dist_note_dtensor" => {
                self.runtime.note_dtensor(ShardedTensor {
                    rank: 0,
                    name: a.str(0)?,
                    line: a.int(1)?.max(0) as u32,
                    mesh: a.int(2)?.max(0) as usize,
                    placements: strings(a.get(3)?)?,
                    shape: sizes(&a, 4)?,
                    local_shape: sizes(&a, 5)?,
                    offsets: sizes(&a, 6)?,
                    dtype: a.str(7)?,
                    local_bytes: a.int(8)?.max(0) as usize,
                });
                Ok(Value::None)
            }
            // (phase, module or None, optimiser steps, parameters,
            // gradients, optimiser state, gathered parameters, held)
            "dist_note_memory" => {
                let module = match a.get(1)? {
                    Value::None => None,
                    _ => Some(a.str(1)?),
                };
                let groups = [
                    tensors(a.get(3)?)?,
                    tensors(a.get(4)?)?,
                    tensors(a.get(5)?)?,
                    tensors(a.get(6)?)?,
                ];
                let held = tensors(a.get(7)?)?;
                let point = MemoryPoint {
                    phase: a.str(0)?,
                    module,
                    line: self.watch.line,
                    step: a.int(2)?.max(0) as u32,
                    ..MemoryPoint::default()
                };
                self.runtime.note_memory(
                    point,
                    [&groups[0], &groups[1], &groups[2], &groups[3]],
                    &held,
                );
                Ok(Value::None)
            }
            other => Err(unknown(other)),
        }
    }

    /// At the end of a run: if the program imported
    /// `torch.distributed.tensor`, its `_note_sharding` records the meshes
    /// and the DTensors the program's variables hold. A failure here is not
    /// the program's: it leaves the record empty.
    pub async fn note_sharding(&mut self) {
        let Some(Value::Module(m)) = self.modules.get("torch.distributed.tensor").cloned() else {
            return;
        };
        let Some(note) = m.attrs.borrow().get("_note_sharding").cloned() else {
            return;
        };
        let mut names: Vec<(String, Value)> = self
            .env
            .vars
            .borrow()
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        names.sort_by(|a, b| a.0.cmp(&b.0));
        let pairs = names
            .into_iter()
            .map(|(k, v)| Value::tuple(vec![Value::str(&k), v]))
            .collect();
        let _ = self.call(note, vec![Value::list(pairs)], Vec::new()).await;
    }
}
