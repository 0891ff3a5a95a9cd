//! `torch._C` for `torch.compile` (the prelude's `torch/_compile.py`): a compiled
//! function's record, the capture of each call (`capture_begin`/`_end`,
//! `capture_abort` when the function raised), calls past the cache size
//! limit, and the parameter names guards are named by.

use super::args::Args;
use super::sharding::{strings, tensors};
use super::unknown;
use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::value::Value;

fn optional_str(a: &Args<'_>, i: usize) -> PyResult<Option<String>> {
    match a.get(i)? {
        Value::None => Ok(None),
        Value::Str(s) => Ok(Some(s.to_string())),
        other => Err(PyErr::type_error(format!(
            "expected a string or None, found {}",
            other.type_name()
        ))),
    }
}

impl Interpreter<'_> {
    /// Runs the primitive `a.name` names, one of the family in this file.
    pub(super) async fn native_compile(&mut self, a: Args<'_>) -> PyResult<Value> {
        match a.name {
            // (name, fullgraph, dynamic: True/False/None) -> id
            "compile_register" => {
                let dynamic = match a.get(2)? {
                    Value::None => None,
                    _ => Some(a.bool(2)?),
                };
                let id = self
                    .runtime
                    .compile_register(a.str(0)?, a.bool(1)?, dynamic);
                Ok(Value::Int(id as i64))
            }
            // (id, compile index, guards, reason or None, dynamic dims, the
            // names of the arguments' sizes, their values)
            "capture_begin" => {
                let guards = strings(a.get(2)?)?;
                let dynamic = strings(a.get(4)?)?;
                let sizes = strings(a.get(5)?)?.into_iter().zip(a.ints(6)?).collect();
                self.runtime
                    .capture_begin(
                        (a.int(0)?.max(0) as usize, a.int(1)?.max(0) as usize),
                        guards,
                        optional_str(&a, 3)?,
                        dynamic,
                        sizes,
                    )
                    .await?;
                Ok(Value::None)
            }
            // (returned tensors)
            "capture_end" => {
                let outputs = tensors(a.get(0)?)?;
                self.runtime.capture_end(&outputs).await?;
                Ok(Value::None)
            }
            "capture_abort" => {
                self.runtime.capture_abort();
                Ok(Value::None)
            }
            // (id, note or None)
            "compile_eager_call" => {
                self.runtime
                    .compile_eager_call(a.int(0)?.max(0) as usize, optional_str(&a, 1)?);
                Ok(Value::None)
            }
            // (reason, fullgraph error?) a break that reads no tensor
            "capture_break" => {
                let fullgraph = a.bool(1)?;
                self.runtime.capture_break(a.str(0)?, fullgraph).await?;
                Ok(Value::None)
            }
            "capture_pause" => {
                self.runtime.capture_pause()?;
                Ok(Value::None)
            }
            "capture_resume" => {
                self.runtime.capture_resume()?;
                Ok(Value::None)
            }
            "is_compiling" => Ok(Value::Bool(self.runtime.is_capturing())),
            // The StableHLO of the latest compile of function `id`, its
            // graphs in order (and why one does not lower).
            "compile_stablehlo" => {
                let id = a.int(0)?.max(0) as usize;
                let texts = self.runtime.compiled_stablehlo(id);
                Ok(Value::list(texts.iter().map(|t| Value::str(t)).collect()))
            }
            // () -> the input tensors of each graph of the call that ended last
            "capture_graphs" => Ok(Value::list(
                self.runtime
                    .last_graph_inputs()
                    .into_iter()
                    .map(|ts| Value::list(ts.into_iter().map(Value::Tensor).collect()))
                    .collect(),
            )),
            // (id, compile, graph, inputs) -> the graph's outputs, replayed
            "graph_replay" => {
                let inputs = tensors(a.get(3)?)?;
                let outputs = self
                    .runtime
                    .graph_replay(
                        a.int(0)?.max(0) as usize,
                        a.int(1)?.max(0) as usize,
                        a.int(2)?.max(0) as usize,
                        &inputs,
                    )
                    .await?;
                Ok(Value::list(
                    outputs.into_iter().map(Value::Tensor).collect(),
                ))
            }
            // (id) -> (graphs, [(reason, line)], ops) of its latest compile
            "compile_info" => {
                let (graphs, breaks, ops) = self.runtime.compile_info(a.int(0)?.max(0) as usize);
                let breaks = breaks
                    .into_iter()
                    .map(|(r, l)| {
                        Value::tuple(vec![
                            Value::str(&r),
                            l.map_or(Value::None, |l| Value::Int(i64::from(l))),
                        ])
                    })
                    .collect();
                Ok(Value::tuple(vec![
                    Value::Int(graphs as i64),
                    Value::list(breaks),
                    Value::Int(ops as i64),
                ]))
            }
            // (fn) -> its positional parameter names, for guards' names.
            "param_names" => {
                let f = match a.get(0)? {
                    Value::Function(f) => f.clone(),
                    Value::BoundMethod(m) => m.1.clone(),
                    _ => return Ok(Value::list(Vec::new())),
                };
                let mut names: Vec<Value> = Vec::new();
                if let Some(p) = f.parameters() {
                    for arg in p.posonlyargs.iter().chain(p.args.iter()) {
                        names.push(Value::str(arg.parameter.name.as_str()));
                    }
                }
                if matches!(a.get(0)?, Value::BoundMethod(_)) && !names.is_empty() {
                    names.remove(0);
                }
                Ok(Value::list(names))
            }
            other => Err(unknown(other)),
        }
    }
}
