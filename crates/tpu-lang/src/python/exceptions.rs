//! The statements that manage failure and cleanup: `raise`, `try`/`except`/
//! `else`/`finally`, and `with` (including `torch.no_grad()`). Sandbox limits
//! (fuel, recursion) are fatal errors that `except` cannot catch.

use crate::python::error::PyErr;
use crate::python::interp::{Flow, Interpreter, PyResult};
use crate::python::value::Value;
use ruff_python_ast as ast;
use ruff_text_size::Ranged;

impl Interpreter<'_> {
    pub(crate) async fn raise(&mut self, s: &ast::StmtRaise) -> PyResult<PyErr> {
        let Some(exc) = &s.exc else {
            return Ok(PyErr::new("RuntimeError", "No active exception to reraise"));
        };
        let value = self.eval(exc).await?;
        let value = match value {
            Value::Class(c) => self.call(Value::Class(c), Vec::new(), Vec::new()).await?,
            v => v,
        };
        match &value {
            Value::Instance(i) if self.is_exception_class(&i.class) => {
                let message = match i.get("args") {
                    Some(Value::Tuple(args)) if args.len() == 1 => self.str_of(&args[0]).await?,
                    Some(Value::Tuple(args)) if args.is_empty() => String::new(),
                    Some(args) => self.repr_of(&args).await?,
                    None => String::new(),
                };
                let mut err = PyErr::new(&i.class.name, message);
                err.value = Some(value.clone());
                Ok(err)
            }
            other => Ok(PyErr::type_error(format!(
                "exceptions must derive from BaseException, not {}",
                other.type_name()
            ))),
        }
    }

    pub(crate) async fn try_stmt(&mut self, s: &ast::StmtTry) -> PyResult<Flow> {
        if s.is_star {
            return Err(PyErr::not_implemented("'except*' is not supported"));
        }
        let mut outcome = self.exec_block(&s.body).await;
        if let Err(err) = &outcome {
            if !err.fatal {
                let err = err.clone();
                for handler in &s.handlers {
                    let ast::ExceptHandler::ExceptHandler(h) = handler;
                    let matches = match &h.type_ {
                        None => true,
                        Some(t) => {
                            let filter = self.eval(t).await?;
                            self.exception_matches(&err, &filter)?
                        }
                    };
                    if matches {
                        if let Some(name) = &h.name {
                            let value = self.exception_value(&err);
                            self.env.set(name.as_str(), value);
                        }
                        outcome = self.exec_block(&h.body).await;
                        break;
                    }
                }
            }
        } else if let Ok(Flow::Normal) = outcome {
            outcome = self.exec_block(&s.orelse).await;
        }
        if !s.finalbody.is_empty() {
            match self.exec_block(&s.finalbody).await? {
                Flow::Normal => {}
                other => return Ok(other),
            }
        }
        outcome
    }

    pub(crate) async fn with_stmt(&mut self, s: &ast::StmtWith) -> PyResult<Flow> {
        if s.is_async {
            return Err(PyErr::not_implemented("'async with' is not supported"));
        }
        let mut managers = Vec::new();
        for item in &s.items {
            let manager = self.eval(&item.context_expr).await?;
            let entered = self
                .enter_context(&manager)
                .await
                .map_err(|e| e.at(item.range()))?;
            managers.push(manager);
            if let Some(target) = &item.optional_vars {
                self.assign(target, entered).await?;
            }
        }
        let outcome = self.exec_block(&s.body).await;
        for manager in managers.iter().rev() {
            self.exit_context(manager).await?;
        }
        outcome
    }

    async fn enter_context(&mut self, manager: &Value) -> PyResult<Value> {
        match manager {
            Value::GradMode(enabled) => {
                let previous = self.runtime.set_grad_enabled(*enabled);
                self.grad_mode_stack.push(previous);
                Ok(Value::None)
            }
            other => {
                let enter = self.get_attribute(other, "__enter__").await?;
                self.call(enter, Vec::new(), Vec::new()).await
            }
        }
    }

    async fn exit_context(&mut self, manager: &Value) -> PyResult<()> {
        match manager {
            Value::GradMode(_) => {
                let previous = self.grad_mode_stack.pop().unwrap_or(true);
                self.runtime.set_grad_enabled(previous);
                Ok(())
            }
            other => {
                let exit = self.get_attribute(other, "__exit__").await?;
                self.call(
                    exit,
                    vec![Value::None, Value::None, Value::None],
                    Vec::new(),
                )
                .await?;
                Ok(())
            }
        }
    }
}
