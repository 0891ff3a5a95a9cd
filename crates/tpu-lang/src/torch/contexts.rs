//! The torch API's context managers kept in Rust: `torch.no_grad()`,
//! `torch.enable_grad()`, `torch.inference_mode(mode)` and
//! `torch.random.fork_rng()`, each usable in `with` and as a decorator (called,
//! `@torch.no_grad()`, or bare on a function, `@torch.no_grad`, as PyTorch 2
//! accepts). What a block changes is saved on `torch_context_stack` when it is
//! entered and restored when it ends, however it ends. `torch.set_grad_enabled`
//! and anomaly detection are Python classes in the prelude (`torch/_reductions.py`,
//! `torch/autograd/__init__.py`), since they act when constructed.

use crate::python::builtins::Keywords;
use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::value::{Function, TorchContext, Value};
use std::cell::RefCell;
use std::rc::Rc;

/// What a torch context manager restores when its block ends.
pub enum SavedTorchState {
    Grad { enabled: bool, inference: bool },
    Rng(Box<tpu_runtime::rng::Generator>, u64),
    Nothing,
}

impl Interpreter<'_> {
    /// `torch.no_grad(...)` and its kin: the context object, or (given a
    /// function) that function decorated.
    pub(crate) async fn call_torch_context(
        &mut self,
        name: &str,
        args: Vec<Value>,
        mut kw: Keywords,
    ) -> PyResult<Value> {
        let mut args = args.into_iter();
        let context = match name {
            "is_inference_mode_enabled" => {
                kw.finish(name)?;
                return Ok(Value::Bool(self.inference_mode));
            }
            "no_grad" => TorchContext::NoGrad,
            "enable_grad" => TorchContext::EnableGrad,
            // Inference tensors are not modelled: `inference_mode(mode)` is the
            // grad mode it implies (off inside `inference_mode()`, on inside
            // `inference_mode(False)`, as ATen's `InferenceMode` guard sets it)
            // and the flag `torch.is_inference_mode_enabled()` reads.
            "inference_mode" => {
                let mode = kw.take("mode");
                kw.finish(name)?;
                match args.next().or(mode) {
                    None => TorchContext::InferenceMode(true),
                    Some(Value::Bool(on)) => TorchContext::InferenceMode(on),
                    Some(func) => {
                        let context = Value::TorchContext(TorchContext::InferenceMode(true));
                        return self.call(context, vec![func], Vec::new()).await;
                    }
                }
            }
            // `fork_rng(devices=None, enabled=True, ...)`: the CPU generator is
            // the only one here, so `devices` changes nothing.
            _ => {
                let _devices = args.next().or_else(|| kw.take("devices"));
                let enabled = args.next().or_else(|| kw.take("enabled"));
                kw.take("device_type");
                kw.finish("fork_rng")?;
                let enabled = match enabled {
                    None => true,
                    Some(v) => self.truth(&v).await?,
                };
                return Ok(Value::TorchContext(TorchContext::ForkRng(enabled)));
            }
        };
        match args.next() {
            None => Ok(Value::TorchContext(context)),
            Some(func) => {
                self.call(Value::TorchContext(context), vec![func], Vec::new())
                    .await
            }
        }
    }

    /// Entering `with context:`.
    pub(crate) fn enter_torch_context(&mut self, context: TorchContext) {
        let grad = |enabled: bool, inference: bool| SavedTorchState::Grad { enabled, inference };
        let saved = match context {
            TorchContext::NoGrad | TorchContext::EnableGrad => {
                let enabled = self
                    .runtime
                    .set_grad_enabled(context == TorchContext::EnableGrad);
                grad(enabled, self.inference_mode)
            }
            TorchContext::InferenceMode(on) => {
                let enabled = self.runtime.set_grad_enabled(!on);
                let inference = std::mem::replace(&mut self.inference_mode, on);
                grad(enabled, inference)
            }
            TorchContext::ForkRng(true) => {
                SavedTorchState::Rng(Box::new(self.runtime.generator.clone()), self.seed)
            }
            TorchContext::ForkRng(false) => SavedTorchState::Nothing,
        };
        self.torch_context_stack.push(saved);
    }

    /// Leaving the innermost `with` block of a torch context manager.
    pub(crate) fn exit_torch_context(&mut self) {
        match self.torch_context_stack.pop() {
            Some(SavedTorchState::Grad { enabled, inference }) => {
                self.runtime.set_grad_enabled(enabled);
                self.inference_mode = inference;
            }
            Some(SavedTorchState::Rng(generator, seed)) => {
                self.runtime.generator = *generator;
                self.seed = seed;
            }
            Some(SavedTorchState::Nothing) | None => {}
        }
    }

    /// `torch.no_grad()(func)`, which `@torch.no_grad()` does: the prelude's
    /// `_decorate_with_grad_mode` wraps `func` in `with mode:`, and the wrapper
    /// takes `func`'s name, as `functools.wraps` gives it in PyTorch.
    pub(crate) async fn decorate_with_grad_mode(
        &mut self,
        context: TorchContext,
        args: Vec<Value>,
    ) -> PyResult<Value> {
        let [func] = <[Value; 1]>::try_from(args).map_err(|args| {
            PyErr::type_error(format!(
                "{}.__call__() takes 1 positional argument but {} were given",
                context.name(),
                args.len()
            ))
        })?;
        let torch = self.import("torch").await?;
        let decorate = self
            .get_attribute(&torch, "_decorate_with_grad_mode")
            .await?;
        let wrapper = self
            .call(
                decorate,
                vec![Value::TorchContext(context), func.clone()],
                Vec::new(),
            )
            .await?;
        Ok(renamed_like(&wrapper, &func))
    }
}

/// `wrapper` under `wrapped`'s name, as `functools.update_wrapper` leaves it;
/// values that are not Python functions come back unchanged.
pub(crate) fn renamed_like(wrapper: &Value, wrapped: &Value) -> Value {
    let name = match wrapped {
        Value::Function(f) => f.name.clone(),
        Value::BoundMethod(m) => m.1.name.clone(),
        _ => return wrapper.clone(),
    };
    match wrapper {
        Value::Function(w) => Value::Function(Rc::new(Function {
            name,
            code: w.code.clone(),
            defaults: w.defaults.clone(),
            closure: w.closure.clone(),
            file: w.file.clone(),
            class: RefCell::new(std::rc::Weak::new()),
        })),
        other => other.clone(),
    }
}
