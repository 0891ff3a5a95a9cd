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
            Value::Instance(i) if self.is_exception_class(&i.class()) => {
                let message = self.str_of(&value).await?;
                let mut err = PyErr::new(&i.class().name, message);
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
        // Managers entered so far are exited (innermost first) however the block
        // ends, each seeing the exception on its way out and able to suppress it.
        let mut managers = Vec::new();
        let mut outcome = Ok(Flow::Normal);
        for item in &s.items {
            let entered = match self.eval(&item.context_expr).await {
                Ok(manager) => {
                    let entered = self
                        .enter_context(&manager)
                        .await
                        .map_err(|e| e.at(item.range()));
                    if entered.is_ok() {
                        managers.push(manager);
                    }
                    entered
                }
                Err(e) => Err(e),
            };
            let bound = match (entered, &item.optional_vars) {
                (Ok(value), Some(target)) => self.assign(target, value).await,
                (Ok(_), None) => Ok(()),
                (Err(e), _) => Err(e),
            };
            if let Err(e) = bound {
                outcome = Err(e);
                break;
            }
        }
        if outcome.is_ok() {
            outcome = self.exec_block(&s.body).await;
        }
        for manager in managers.iter().rev() {
            outcome = self.exit_context(manager, outcome).await;
        }
        outcome
    }

    async fn enter_context(&mut self, manager: &Value) -> PyResult<Value> {
        match manager {
            Value::TorchContext(mode) => {
                self.enter_torch_context(*mode);
                Ok(Value::None)
            }
            other => {
                let missing = || {
                    PyErr::type_error(format!(
                        "'{}' object does not support the context manager protocol",
                        other.type_name()
                    ))
                };
                let enter = self.get_attribute(other, "__enter__").await;
                if let Value::Instance(i) = other
                    && i.class().lookup("__exit__").is_none()
                {
                    return Err(missing());
                }
                let enter = enter.map_err(|_| missing())?;
                self.call(enter, Vec::new(), Vec::new()).await
            }
        }
    }

    /// `manager.__exit__(type, value, traceback)` as the block ends with
    /// `outcome`; a true result suppresses the exception. The traceback argument
    /// is `None`: tracebacks are not objects here.
    async fn exit_context(&mut self, manager: &Value, outcome: PyResult<Flow>) -> PyResult<Flow> {
        match manager {
            Value::TorchContext(_) => {
                self.exit_torch_context();
                outcome
            }
            // The sandbox's limits end the run; no Python code runs after them.
            _ if outcome.as_ref().is_err_and(|e| e.fatal) => outcome,
            other => {
                let exit = self.get_attribute(other, "__exit__").await?;
                let args = match &outcome {
                    Err(e) => {
                        let value = self.exception_value(e);
                        let class = match &value {
                            Value::Instance(i) => Value::Class(i.class()),
                            _ => Value::None,
                        };
                        vec![class, value, Value::None]
                    }
                    Ok(_) => vec![Value::None, Value::None, Value::None],
                };
                let suppress = self.call(exit, args, Vec::new()).await?;
                if outcome.is_err() && self.truth(&suppress).await? {
                    return Ok(Flow::Normal);
                }
                outcome
            }
        }
    }
}
