//! `torch._C`'s autograd primitives: the backward walk, whose `torch.autograd.Function` nodes
//! call back into Python between runtime steps (the runtime is borrowed per
//! step, never across the call), and the parameter, grad and data state.

use crate::args::{Args, items, type_name};
use crate::runtime::with_runtime;
use crate::torch_c::_tpu_torch::{PyTensor, wrap};
use rustpython_vm::{PyObjectRef, PyResult};
use std::rc::Rc;
use tpu_runtime::{Tensor, Walk, WalkStep};

/// A `torch.autograd.Function`'s backward, as the node's payload.
struct PyBackward(PyObjectRef);

pub(crate) const PORTED: &[&str] = &[
    "detach",
    "detach_",
    "backward",
    "autograd_grad",
    "custom_grad_node",
    "set_grad_enabled",
    "is_grad_enabled",
    "retain_grad",
    "rename_grad_fn",
    "set_data",
    "parameter",
    "is_parameter",
    "version",
    "grad",
    "set_grad",
];

fn opt_tensor(v: &PyObjectRef) -> Option<Tensor> {
    v.downcast_ref::<PyTensor>().map(|t| t.tensor())
}

/// Runs a walk to its end, calling custom nodes' Python backward between
/// steps; returns the captured gradients.
fn drive(mut walk: Walk, a: &Args<'_>) -> PyResult<Vec<Option<Tensor>>> {
    let vm = a.vm;
    let result = (|| -> PyResult<()> {
        loop {
            let step = with_runtime(vm, async |rt| rt.walk_next(&mut walk).await)?;
            let (node, payload, grad) = match step {
                WalkStep::Done => return Ok(()),
                WalkStep::Custom {
                    node,
                    payload,
                    grad,
                } => (node, payload, grad),
            };
            let Some(callable) = payload.downcast_ref::<PyBackward>() else {
                return Err(vm.new_runtime_error("an autograd node of another interpreter"));
            };
            let result = callable.0.call((wrap(grad, vm)?,), vm)?;
            let list = items(&result).unwrap_or_else(|| vec![result.clone()]);
            let mut grads = Vec::new();
            for item in list {
                if vm.is_none(&item) {
                    grads.push(None);
                } else if let Some(t) = opt_tensor(&item) {
                    grads.push(Some(t));
                } else {
                    return Err(vm.new_type_error(format!(
                        "expected a Tensor or None as a gradient, found {}",
                        type_name(&item)
                    )));
                }
            }
            with_runtime(vm, async |rt| {
                rt.walk_deliver(&mut walk, &node, grads).await
            })?;
        }
    })();
    let grads = with_runtime(vm, async |rt| Ok(rt.walk_finish(walk)))?;
    result.map(|()| grads)
}

pub(crate) fn call(a: &Args<'_>) -> PyResult {
    let vm = a.vm;
    let none = || Ok(vm.ctx.none());
    match a.name {
        "detach" => {
            let t = a.tensor(0)?;
            wrap(with_runtime(vm, async |rt| Ok(rt.detach(&t)))?, vm)
        }
        "detach_" => {
            let t = a.tensor(0)?;
            with_runtime(vm, async |rt| {
                rt.detach_in_place(&t);
                Ok(())
            })?;
            Ok(a.values[0].clone())
        }
        "backward" => {
            let t = a.tensor(0)?;
            let g = a.get(1)?;
            let grad = if vm.is_none(g) {
                None
            } else {
                Some(opt_tensor(g).ok_or_else(|| {
                    vm.new_type_error(format!(
                        "backward(): argument 'gradient' must be Tensor, not {}",
                        type_name(g)
                    ))
                })?)
            };
            let retain = a.bool(2)?;
            let walk = with_runtime(vm, async |rt| rt.walk_start(&t, grad, retain, None).await)?;
            drive(walk, a)?;
            none()
        }
        "autograd_grad" => {
            let root = a.tensor(0)?;
            let seed = opt_tensor(a.get(1)?);
            let mut inputs = Vec::new();
            for item in items(a.get(2)?).unwrap_or_default() {
                inputs.push(opt_tensor(&item).ok_or_else(|| {
                    vm.new_type_error(format!(
                        "grad(): inputs must be Tensors, not {}",
                        type_name(&item)
                    ))
                })?);
            }
            let retain = a.bool(3)?;
            let walk = with_runtime(vm, async |rt| {
                rt.walk_start(&root, seed, retain, Some(&inputs)).await
            })?;
            let grads = drive(walk, a)?;
            let out: PyResult<Vec<PyObjectRef>> = grads
                .into_iter()
                .map(|g| g.map_or(Ok(vm.ctx.none()), |t| wrap(t, vm)))
                .collect();
            Ok(vm.ctx.new_tuple(out?).into())
        }
        "custom_grad_node" => {
            let out = a.tensor(0)?;
            let inputs: Vec<Tensor> = items(a.get(1)?)
                .unwrap_or_default()
                .iter()
                .filter_map(opt_tensor)
                .collect();
            let name = a.str(2)?;
            let payload: Rc<dyn std::any::Any> = Rc::new(PyBackward(a.get(3)?.clone()));
            let alias = with_runtime(vm, async |rt| {
                let alias = rt.detach(&out);
                let refs: Vec<&Tensor> = inputs.iter().collect();
                rt.record_custom(&alias, &refs, name, payload);
                Ok(alias)
            })?;
            wrap(alias, vm)
        }
        "set_grad_enabled" => {
            let flag = a.bool(0)?;
            let was = with_runtime(vm, async |rt| Ok(rt.set_grad_enabled(flag)))?;
            Ok(vm.ctx.new_bool(was).into())
        }
        "is_grad_enabled" => {
            let on = with_runtime(vm, async |rt| Ok(rt.grad_enabled()))?;
            Ok(vm.ctx.new_bool(on).into())
        }
        "retain_grad" => {
            let t = a.tensor(0)?;
            with_runtime(vm, async |rt| rt.retain_grad(&t))?;
            none()
        }
        "rename_grad_fn" => {
            a.tensor(0)?.rename_grad_fn(&a.str(1)?);
            none()
        }
        "set_data" => {
            let (t, v) = (a.tensor(0)?, a.tensor(1)?);
            with_runtime(vm, async |rt| {
                rt.set_data(&t, &v);
                Ok(())
            })?;
            none()
        }
        "parameter" => {
            let t = a.tensor(0)?;
            let requires_grad = a.bool(1)?;
            let p = with_runtime(vm, async |rt| {
                let p = rt.detach(&t);
                p.mark_parameter();
                if !requires_grad {
                    rt.set_requires_grad(&p, false)?;
                }
                Ok(p)
            })?;
            crate::torch_c::_tpu_torch::wrap_parameter(p, vm)
        }
        "is_parameter" => Ok(vm.ctx.new_bool(a.tensor(0)?.is_parameter()).into()),
        "version" => Ok(vm.ctx.new_int(a.tensor(0)?.version()).into()),
        "grad" => a.tensor(0)?.grad().map_or(none(), |g| wrap(g, vm)),
        "set_grad" => {
            let t = a.tensor(0)?;
            let g = a.get(1)?;
            if vm.is_none(g) {
                t.set_grad(None);
            } else if let Some(g) = opt_tensor(g) {
                t.set_grad(Some(g));
            } else {
                return Err(vm.new_type_error(format!(
                    "assigned grad expected to be a Tensor or None but got grad of type {}",
                    type_name(g)
                )));
            }
            none()
        }
        other => Err(vm.new_not_implemented_error(format!(
            "torch._C.{other} is not supported yet (no primitive of this playground has that name)"
        ))),
    }
}
