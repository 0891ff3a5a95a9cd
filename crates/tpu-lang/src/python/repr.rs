//! `str()` and `repr()` of every value, as CPython and PyTorch spell them:
//! shortest round-trip floats, quoted strings, containers (printing a container
//! that contains itself as `[...]`), exceptions, and tensors read back from the
//! device.

use crate::python::interp::{Boxed, Interpreter, PyResult};
use crate::python::value::{Value, float_repr, str_repr};

impl Interpreter<'_> {
    /// `str(value)`.
    pub async fn str_of(&mut self, value: &Value) -> PyResult<String> {
        match value {
            Value::Str(s) => Ok(s.to_string()),
            Value::Device(d) => Ok(d.to_string()),
            Value::Instance(i)
                if self.is_exception_class(&i.class()) && i.class().lookup("__str__").is_none() =>
            {
                match i.get("args") {
                    // `str(KeyError(k))` is `repr(k)`, as CPython prints a missing key.
                    Some(Value::Tuple(args))
                        if args.len() == 1
                            && i.class().is_subclass_of(&self.exceptions["KeyError"]) =>
                    {
                        self.repr_of(&args[0]).await
                    }
                    Some(Value::Tuple(args)) if args.len() == 1 => {
                        Box::pin(self.str_of(&args[0])).await
                    }
                    Some(Value::Tuple(args)) if args.is_empty() => Ok(String::new()),
                    Some(args) => self.repr_of(&args).await,
                    None => Ok(String::new()),
                }
            }
            Value::Instance(i) if i.class().lookup("__str__").is_some() => {
                let method = self.get_attribute(value, "__str__").await?;
                let s = self.call(method, Vec::new(), Vec::new()).await?;
                Box::pin(self.str_of(&s)).await
            }
            other => self.repr_of(other).await,
        }
    }

    /// `repr(value)`; tensors are read back from the device.
    pub fn repr_of<'a>(&'a mut self, value: &'a Value) -> Boxed<'a, String> {
        Box::pin(async move {
            Ok(match value {
                Value::None => "None".into(),
                Value::Bool(b) => if *b { "True" } else { "False" }.into(),
                Value::Int(i) => i.to_string(),
                Value::Float(f) => float_repr(*f),
                Value::Str(s) => str_repr(s),
                Value::List(items) => {
                    let Some(()) = self.enter_repr(value) else {
                        return Ok("[...]".into());
                    };
                    let items = items.borrow().clone();
                    let text = self.join_reprs(&items).await;
                    self.leave_repr();
                    format!("[{}]", text?)
                }
                Value::Tuple(items) => {
                    if items.len() == 1 {
                        format!("({},)", self.repr_of(&items[0]).await?)
                    } else {
                        format!("({})", self.join_reprs(items).await?)
                    }
                }
                Value::Dict(d) => {
                    let Some(()) = self.enter_repr(value) else {
                        return Ok("{...}".into());
                    };
                    let items = d.borrow().items().to_vec();
                    let mut parts = Vec::with_capacity(items.len());
                    let mut failure = None;
                    for (k, v) in &items {
                        match (self.repr_of(k).await, self.repr_of(v).await) {
                            (Ok(k), Ok(v)) => parts.push(format!("{k}: {v}")),
                            (Err(e), _) | (_, Err(e)) => {
                                failure = Some(e);
                                break;
                            }
                        }
                    }
                    self.leave_repr();
                    if let Some(e) = failure {
                        return Err(e);
                    }
                    format!("{{{}}}", parts.join(", "))
                }
                Value::Set(d) => {
                    let items = d.borrow().keys();
                    if items.is_empty() {
                        "set()".into()
                    } else {
                        format!("{{{}}}", self.join_reprs(&items).await?)
                    }
                }
                Value::Range(a, b, s) => {
                    if *s == 1 {
                        format!("range({a}, {b})")
                    } else {
                        format!("range({a}, {b}, {s})")
                    }
                }
                Value::Slice(parts) => format!(
                    "slice({}, {}, {})",
                    self.repr_of(&parts[0]).await?,
                    self.repr_of(&parts[1]).await?,
                    self.repr_of(&parts[2]).await?
                ),
                Value::Tensor(t) => self.tensor_repr(t).await?,
                Value::Size(dims) => tpu_ir::Shape::new(dims.to_vec()).to_string(),
                Value::Device(tpu_runtime::Device::Cpu) => "device(type='cpu')".into(),
                Value::Device(tpu_runtime::Device::Tpu(i)) => {
                    format!("device(type='tpu', index={i})")
                }
                Value::DType(d) => d.torch_name().to_string(),
                Value::Module(m) => format!("<module '{}'>", m.name),
                Value::Builtin(name) => match crate::python::builtins::type_name_of_builtin(name) {
                    Some(t) => format!("<class '{t}'>"),
                    None => format!(
                        "<built-in function {}>",
                        name.rsplit('.').next().unwrap_or(name)
                    ),
                },
                Value::NativeMethod(m) => {
                    format!("<built-in method {} of {} object>", m.1, m.0.type_name())
                }
                Value::Function(f) => format!("<function {}>", f.name),
                Value::BoundMethod(m) => format!("<bound method {}.{}>", m.0.type_name(), m.1.name),
                Value::Class(c) => format!("<class '__main__.{}'>", c.name),
                Value::Super(_) => "<super>".into(),
                Value::TorchContext(crate::python::value::TorchContext::ForkRng(_)) => {
                    "<contextlib._GeneratorContextManager object>".into()
                }
                Value::TorchContext(c) => {
                    format!("<torch.autograd.grad_mode.{} object>", c.name())
                }
                Value::Random(_) => "<random.Random object>".into(),
                Value::NotImplemented => "NotImplemented".into(),
                Value::Iterator(_) => "<iterator object>".into(),
                Value::Descriptor(_) => format!("<{} object>", value.builtin_type_name()),
                Value::Instance(i) => {
                    if self.is_exception_class(&i.class()) {
                        let args = i.get("args").unwrap_or(Value::tuple(vec![]));
                        let inner = match &args {
                            Value::Tuple(a) if a.len() == 1 => self.repr_of(&a[0]).await?,
                            Value::Tuple(a) => self.join_reprs(a).await?,
                            other => self.repr_of(other).await?,
                        };
                        format!("{}({inner})", i.class().name)
                    } else if i.class().lookup("__repr__").is_some() {
                        let method = self.get_attribute(value, "__repr__").await?;
                        let s = self.call(method, Vec::new(), Vec::new()).await?;
                        self.str_of(&s).await?
                    } else {
                        format!("<__main__.{} object>", i.class().name)
                    }
                }
            })
        })
    }

    /// Marks a container as being printed; `None` if it already is, which means
    /// it contains itself and prints as `[...]`, as in CPython.
    fn enter_repr(&mut self, value: &Value) -> Option<()> {
        let id = value.identity()?;
        if self.repr_stack.contains(&id) {
            return None;
        }
        self.repr_stack.push(id);
        Some(())
    }

    fn leave_repr(&mut self) {
        self.repr_stack.pop();
    }

    async fn join_reprs(&mut self, items: &[Value]) -> PyResult<String> {
        let mut parts = Vec::with_capacity(items.len());
        for item in items {
            parts.push(self.repr_of(item).await?);
        }
        Ok(parts.join(", "))
    }
}
