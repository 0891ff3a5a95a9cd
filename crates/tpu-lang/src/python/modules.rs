//! The modules a program can import: `math`, `time` (in `clock`), `random` (in
//! `random`), `copy` (in `copy_module`), `torch_tpu`, and `torch` with its submodules (built by
//! `crate::torch::prelude`).
//! Functions implemented in Rust appear as `Value::Builtin` entries named by their
//! qualified name (`math.sqrt`, `torch.full`), which is how calls find them.

use crate::python::error::PyErr;
use crate::python::interp::{Boxed, Interpreter, PyResult};
use crate::python::value::{Module, Value};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

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

pub(crate) fn module(name: &str, attrs: HashMap<String, Value>) -> Value {
    Value::Module(Rc::new(Module {
        name: name.to_string(),
        attrs: RefCell::new(attrs),
    }))
}

pub(crate) fn functions(list: &[&'static str]) -> HashMap<String, Value> {
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
    /// `import name`: the module object, built once per run. The modules
    /// written in Python (`torch` and its submodules over `torch._C`, `jax`, the
    /// standard library's) come from `crates/tpu-lang/prelude/` (`library`).
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
                "random" => self.random_module()?,
                "time" => module("time", functions(crate::python::clock::TIME_FUNCTIONS)),
                "copy" => module(
                    "copy",
                    functions(crate::python::copy_module::COPY_FUNCTIONS),
                ),
                "torch_tpu" => module(
                    "torch_tpu",
                    functions(crate::torch::torch_tpu::TORCH_TPU_FUNCTIONS),
                ),
                _ => return self.import_library(name).await,
            };
            self.modules.insert(name.to_string(), value.clone());
            Ok(value)
        })
    }

    /// `math.<name>(*args)`. `prod` and `fsum` consume an iterable; the rest
    /// take numbers.
    pub async fn call_math(&mut self, name: &str, args: &[Value]) -> PyResult<Value> {
        if matches!(name, "prod" | "fsum") {
            let items = self
                .collect(args.first().cloned().unwrap_or(Value::None))
                .await?;
            let numbers: Vec<f64> = items.iter().filter_map(Value::as_number).collect();
            if numbers.len() != items.len() {
                return Err(PyErr::type_error("must be real number"));
            }
            if name == "fsum" {
                return Ok(Value::Float(numbers.iter().sum()));
            }
            if items.iter().all(|v| v.as_int().is_some()) {
                let mut p: i64 = 1;
                for v in &items {
                    p = p.checked_mul(v.as_int().unwrap_or(1)).ok_or_else(|| {
                        PyErr::new("OverflowError", "integer result does not fit in 64 bits")
                    })?;
                }
                return Ok(Value::Int(p));
            }
            return Ok(Value::Float(numbers.iter().product()));
        }
        self.math_of_numbers(name, args)
    }

    fn math_of_numbers(&mut self, name: &str, args: &[Value]) -> PyResult<Value> {
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
