//! The modules a program can import: `math`, and `torch` with its submodules.
//! Functions implemented in Rust appear as `Value::Builtin` entries named by their
//! qualified name (`math.sqrt`, `torch.ones`), which is how calls find them.

use crate::python::env::{Env, ScopeKind};
use crate::python::error::PyErr;
use crate::python::interp::{Boxed, Interpreter, PyResult};
use crate::python::source::SourceFile;
use crate::python::value::{Module, Value};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

const PRELUDE_TORCH: &str = include_str!("../torch/prelude/torch.py");
const PRELUDE_NN: &str = include_str!("../torch/prelude/nn.py");
const PRELUDE_FUNCTIONAL: &str = include_str!("../torch/prelude/functional.py");
const PRELUDE_UTILS: &str = include_str!("../torch/prelude/utils.py");
const PRELUDE_OPTIM: &str = include_str!("../torch/prelude/optim.py");

const MATH_FUNCTIONS: &[&str] = &[
    "math.sqrt",
    "math.exp",
    "math.log",
    "math.log2",
    "math.log10",
    "math.sin",
    "math.cos",
    "math.tan",
    "math.tanh",
    "math.atan",
    "math.atan2",
    "math.floor",
    "math.ceil",
    "math.isnan",
    "math.isinf",
    "math.isfinite",
    "math.fabs",
    "math.pow",
    "math.prod",
    "math.fsum",
    "math.gcd",
    "math.erf",
    "math.isclose",
];

fn module(name: &str, attrs: HashMap<String, Value>) -> Value {
    Value::Module(Rc::new(Module {
        name: name.to_string(),
        attrs: RefCell::new(attrs),
    }))
}

fn functions(list: &[&'static str]) -> HashMap<String, Value> {
    list.iter()
        .map(|q| {
            (
                q.rsplit('.').next().unwrap_or(q).to_string(),
                Value::Builtin(q),
            )
        })
        .collect()
}

impl Interpreter<'_> {
    /// `import name`: the module object, built once per run. `torch` and its
    /// submodules are Python (the prelude in `torch/prelude/`) on top of `torch._C`.
    pub fn import<'a>(&'a mut self, name: &'a str) -> Boxed<'a, Value> {
        Box::pin(async move {
            if let Some(m) = self.modules.get(name) {
                return Ok(m.clone());
            }
            let value = match name {
                "math" => {
                    let mut attrs = functions(MATH_FUNCTIONS);
                    for (k, v) in [
                        ("pi", std::f64::consts::PI),
                        ("e", std::f64::consts::E),
                        ("tau", std::f64::consts::TAU),
                        ("inf", f64::INFINITY),
                        ("nan", f64::NAN),
                    ] {
                        attrs.insert(k.to_string(), Value::Float(v));
                    }
                    module("math", attrs)
                }
                "torch_tpu" => module(
                    "torch_tpu",
                    functions(crate::torch::torch_tpu::TORCH_TPU_FUNCTIONS),
                ),
                "torch" => {
                    let mut attrs = crate::torch::module::torch_module_attributes();
                    let c = module("torch._C", functions(crate::torch::native::NATIVE_FUNCTIONS));
                    attrs.insert("_C".into(), c);
                    let torch = module("torch", attrs);
                    self.modules.insert("torch".into(), torch.clone());
                    self.exec_library(&torch, "torch.py", PRELUDE_TORCH).await?;
                    if let Value::Module(m) = &torch
                        && let Some(Value::Class(c)) = m.attrs.borrow().get("Tensor")
                    {
                        self.tensor_class = Some(c.clone());
                    }
                    for sub in [
                        "torch.nn",
                        "torch.nn.functional",
                        "torch.nn.utils",
                        "torch.optim",
                    ] {
                        self.import(sub).await?;
                    }
                    return Ok(torch);
                }
                "torch.nn" | "torch.nn.functional" | "torch.nn.utils" | "torch.optim" => {
                    let value = module(name, HashMap::new());
                    self.modules.insert(name.to_string(), value.clone());
                    let (parent, child) = name.rsplit_once('.').unwrap_or(("", name));
                    let parent = self.import(parent).await?;
                    self.set_attribute(&parent, child, value.clone())?;
                    let (file, source) = match name {
                        "torch.nn" => ("nn.py", PRELUDE_NN),
                        "torch.nn.functional" => ("functional.py", PRELUDE_FUNCTIONAL),
                        "torch.nn.utils" => ("utils.py", PRELUDE_UTILS),
                        _ => ("optim.py", PRELUDE_OPTIM),
                    };
                    self.exec_library(&value, file, source).await?;
                    if name == "torch.nn"
                        && let Value::Module(m) = &value
                        && let Some(Value::Class(c)) = m.attrs.borrow().get("Parameter")
                    {
                        self.parameter_class = Some(c.clone());
                    }
                    value
                }
                _ => {
                    return Err(PyErr::new(
                        "ModuleNotFoundError",
                        format!("No module named '{name}'"),
                    ));
                }
            };
            self.modules.insert(name.to_string(), value.clone());
            Ok(value)
        })
    }

    /// Runs a prelude file as the body of `module`, whose attributes it starts
    /// from and ends as (so Rust built-ins can be wrapped by Python ones).
    async fn exec_library(
        &mut self,
        module: &Value,
        file_name: &str,
        source: &str,
    ) -> PyResult<()> {
        let Value::Module(m) = module else {
            return Ok(());
        };
        let parsed = ruff_python_parser::parse_module(source).map_err(|e| {
            PyErr::new(
                "SystemError",
                format!("the runtime's {file_name} does not parse: {}", e.error),
            )
        })?;
        let mut file = SourceFile::new(&format!("<tpu-playground>/{file_name}"), source);
        file.is_library = true;
        let env = Env::new(ScopeKind::Module, None);
        for builtin in [
            "sum",
            "max",
            "min",
            "abs",
            "all",
            "any",
            "round",
            "len",
            "isinstance",
            "float",
            "int",
            "bool",
            "range",
            "list",
            "tuple",
            "sorted",
            "enumerate",
            "zip",
            "str",
            "repr",
            "type",
            "iter",
            "getattr",
            "setattr",
            "hasattr",
        ] {
            env.set(&format!("_py_{builtin}"), Value::Builtin(builtin));
        }
        for (k, v) in m.attrs.borrow().iter() {
            env.set(k, v.clone());
        }
        self.library_envs.push(env.clone());
        let outer_env = std::mem::replace(&mut self.env, env.clone());
        let outer_file = std::mem::replace(&mut self.file, Rc::new(file));
        let result = self.exec_block(&parsed.syntax().body).await;
        self.env = outer_env;
        self.file = outer_file;
        result?;
        let mut attrs = m.attrs.borrow_mut();
        for (k, v) in env.vars.borrow().iter() {
            attrs.insert(k.clone(), v.clone());
        }
        Ok(())
    }

    pub fn call_math(&mut self, name: &str, args: &[Value]) -> PyResult<Value> {
        let number = |i: usize| -> PyResult<f64> {
            args.get(i).and_then(Value::as_number).ok_or_else(|| {
                PyErr::type_error(format!(
                    "must be real number, not {}",
                    args.get(i).map_or("nothing".into(), |v| v.type_name())
                ))
            })
        };
        let domain = || PyErr::value_error("math domain error");
        Ok(match name {
            "sqrt" => {
                let x = number(0)?;
                if x < 0.0 {
                    return Err(domain());
                }
                Value::Float(x.sqrt())
            }
            "exp" => Value::Float(number(0)?.exp()),
            "log" => {
                let x = number(0)?;
                if x <= 0.0 {
                    return Err(domain());
                }
                match args.get(1) {
                    Some(_) => Value::Float(x.ln() / number(1)?.ln()),
                    None => Value::Float(x.ln()),
                }
            }
            "log2" => Value::Float(number(0)?.log2()),
            "log10" => Value::Float(number(0)?.log10()),
            "sin" => Value::Float(number(0)?.sin()),
            "cos" => Value::Float(number(0)?.cos()),
            "tan" => Value::Float(number(0)?.tan()),
            "tanh" => Value::Float(number(0)?.tanh()),
            "atan" => Value::Float(number(0)?.atan()),
            "atan2" => Value::Float(number(0)?.atan2(number(1)?)),
            "floor" | "ceil" => {
                if let Some(i) = args.first().and_then(Value::as_int) {
                    return Ok(Value::Int(i));
                }
                let x = number(0)?;
                if !x.is_finite() {
                    return Err(PyErr::new(
                        "OverflowError",
                        "cannot convert float infinity to integer",
                    ));
                }
                Value::Int(if name == "floor" { x.floor() } else { x.ceil() } as i64)
            }
            "isnan" => Value::Bool(number(0)?.is_nan()),
            "isinf" => Value::Bool(number(0)?.is_infinite()),
            "isfinite" => Value::Bool(number(0)?.is_finite()),
            "fabs" => Value::Float(number(0)?.abs()),
            "pow" => Value::Float(number(0)?.powf(number(1)?)),
            "erf" => Value::Float(tpu_ir::erf(number(0)?)),
            "gcd" => {
                let (mut a, mut b) = (
                    args.first().and_then(Value::as_int).unwrap_or(0).abs(),
                    args.get(1).and_then(Value::as_int).unwrap_or(0).abs(),
                );
                while b != 0 {
                    (a, b) = (b, a % b);
                }
                Value::Int(a)
            }
            "isclose" => {
                let (a, b) = (number(0)?, number(1)?);
                Value::Bool((a - b).abs() <= (1e-9 * a.abs().max(b.abs())).max(0.0))
            }
            _ => {
                return Err(PyErr::not_implemented(format!(
                    "math.{name}() needs an iterable; use sum() or a loop"
                )));
            }
        })
    }
}
