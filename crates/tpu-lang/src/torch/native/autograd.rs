//! `torch._C` autograd state: `backward`, `requires_grad_`, `retain_grad`,
//! grad mode, the `.grad` slot, `detach`, `.data` replacement, `nn.Parameter`
//! marking, and `rename_grad_fn`, which gives a composite written in the
//! prelude the `grad_fn` name PyTorch prints for it.

use super::args::Args;
use super::{tensor, unknown};
use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::value::Value;

/// What a `torch.autograd.Function`'s node calls in backward: the prelude's
/// callable, which takes the output's gradient and returns one gradient (or
/// `None`) per tensor input of the node.
struct PyBackward(Value);

impl Interpreter<'_> {
    /// Runs a backward pass to its end, calling the program's backward of
    /// every `torch.autograd.Function` node on the way; gradient mode is
    /// restored whatever happens.
    async fn drive_walk(
        &mut self,
        mut walk: tpu_runtime::Walk,
    ) -> PyResult<Vec<Option<tpu_runtime::Tensor>>> {
        let result = self.walk_steps(&mut walk).await;
        let grads = self.runtime.walk_finish(walk);
        result.map(|()| grads)
    }

    async fn walk_steps(&mut self, walk: &mut tpu_runtime::Walk) -> PyResult<()> {
        loop {
            let (node, payload, grad) = match self.runtime.walk_next(walk).await? {
                tpu_runtime::WalkStep::Done => return Ok(()),
                tpu_runtime::WalkStep::Custom {
                    node,
                    payload,
                    grad,
                } => (node, payload, grad),
            };
            let Some(callable) = payload.downcast_ref::<PyBackward>() else {
                return Err(PyErr::new(
                    "RuntimeError",
                    "an autograd node of another interpreter",
                ));
            };
            let result = self
                .call(callable.0.clone(), vec![Value::Tensor(grad)], Vec::new())
                .await?;
            let mut grads = Vec::new();
            for item in self.collect(result).await? {
                grads.push(match item {
                    Value::None => None,
                    Value::Tensor(t) => Some(t),
                    other => {
                        return Err(PyErr::type_error(format!(
                            "expected a Tensor or None as a gradient, found {}",
                            other.type_name()
                        )));
                    }
                });
            }
            self.runtime.walk_deliver(walk, &node, grads).await?;
        }
    }

    /// Runs the primitive `a.name` names, one of the family in this file.
    pub(super) async fn native_autograd(&mut self, a: Args<'_>) -> PyResult<Value> {
        let name = a.name;
        let rt = &mut *self.runtime;
        Ok(match name {
            "detach" => tensor(rt.detach(&a.tensor(0)?)),
            "backward" => {
                let t = a.tensor(0)?;
                let grad = match a.get(1)? {
                    Value::None => None,
                    Value::Tensor(g) => Some(g.clone()),
                    other => {
                        return Err(PyErr::type_error(format!(
                            "backward(): argument 'gradient' must be Tensor, not {}",
                            other.type_name()
                        )));
                    }
                };
                let walk = rt.walk_start(&t, grad, a.bool(2)?, None).await?;
                self.drive_walk(walk).await?;
                Value::None
            }
            // `torch.autograd.grad`'s pass: (output, seed or None, inputs,
            // retain_graph) to a tuple of gradients, `None` where unreached.
            "autograd_grad" => {
                let root = a.tensor(0)?;
                let seed = match a.get(1)? {
                    Value::Tensor(g) => Some(g.clone()),
                    _ => None,
                };
                let mut inputs = Vec::new();
                for item in self.collect(a.get(2)?.clone()).await? {
                    match item {
                        Value::Tensor(t) => inputs.push(t),
                        other => {
                            return Err(PyErr::type_error(format!(
                                "grad(): inputs must be Tensors, not {}",
                                other.type_name()
                            )));
                        }
                    }
                }
                let retain = a.bool(3)?;
                let walk = self
                    .runtime
                    .walk_start(&root, seed, retain, Some(&inputs))
                    .await?;
                let grads = self.drive_walk(walk).await?;
                Value::tuple(
                    grads
                        .into_iter()
                        .map(|g| g.map_or(Value::None, Value::Tensor))
                        .collect(),
                )
            }
            // `torch.autograd.Function.apply`: (output, tensor inputs, name,
            // backward callable) to an alias of the output whose node calls
            // the callable with the output's gradient.
            "custom_grad_node" => {
                let out = a.tensor(0)?;
                let mut inputs = Vec::new();
                for item in self.collect(a.get(1)?.clone()).await? {
                    if let Value::Tensor(t) = item {
                        inputs.push(t);
                    }
                }
                let alias = self.runtime.detach(&out);
                let refs: Vec<&tpu_runtime::Tensor> = inputs.iter().collect();
                let payload = std::rc::Rc::new(PyBackward(a.get(3)?.clone()));
                self.runtime
                    .record_custom(&alias, &refs, a.str(2)?, payload);
                tensor(alias)
            }
            "requires_grad_" => {
                let t = a.tensor(0)?;
                // The factories' `requires_grad=True` (`Tensor.requires_grad_`
                // checks first, with its own wording).
                if a.bool(1)? && !t.dtype().is_floating() {
                    return Err(PyErr::new(
                        "RuntimeError",
                        "Only Tensors of floating point and complex dtype can require gradients",
                    ));
                }
                rt.set_requires_grad(&t, a.bool(1)?)?;
                tensor(t)
            }
            "set_grad_enabled" => Value::Bool(rt.set_grad_enabled(a.bool(0)?)),
            "is_grad_enabled" => Value::Bool(rt.grad_enabled()),
            "retain_grad" => {
                rt.retain_grad(&a.tensor(0)?)?;
                Value::None
            }
            "detach_" => {
                let t = a.tensor(0)?;
                rt.detach_in_place(&t);
                tensor(t)
            }
            "rename_grad_fn" => {
                a.tensor(0)?.rename_grad_fn(&a.str(1)?);
                Value::None
            }
            "set_data" => {
                let (t, v) = (a.tensor(0)?, a.tensor(1)?);
                rt.set_data(&t, &v);
                Value::None
            }
            "parameter" => {
                let t = rt.detach(&a.tensor(0)?);
                t.mark_parameter();
                if !a.bool(1)? {
                    rt.set_requires_grad(&t, false)?;
                }
                tensor(t)
            }
            "is_parameter" => Value::Bool(a.tensor(0)?.is_parameter()),
            "grad" => a.tensor(0)?.grad().map_or(Value::None, tensor),
            "set_grad" => {
                let t = a.tensor(0)?;
                match a.get(1)? {
                    Value::None => t.set_grad(None),
                    Value::Tensor(g) => t.set_grad(Some(g.clone())),
                    other => {
                        return Err(PyErr::type_error(format!(
                            "assigned grad expected to be a Tensor or None but got grad of type {}",
                            other.type_name()
                        )));
                    }
                }
                Value::None
            }
            other => return Err(unknown(other)),
        })
    }
}
