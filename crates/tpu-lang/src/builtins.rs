//! Python's built-in functions and operators on plain values: `print`, `len`,
//! `range`, arithmetic with Python's int/float rules, comparisons, `str`/`repr`,
//! attribute lookup and subscripts. Tensor operands are handed to `torch_api`.

use crate::args::Args;
use crate::error::PyErr;
use crate::interp::{Interpreter, PyResult};
use crate::value::{Value, float_repr, str_repr};
use ruff_python_ast::{CmpOp, Operator};
use std::cell::RefCell;
use std::rc::Rc;

const BUILTINS: &[&str] = &[
    "print", "len", "range", "float", "int", "str", "repr", "abs", "bool",
];

pub fn builtin(name: &str) -> Option<Value> {
    BUILTINS
        .iter()
        .find(|&&b| b == name)
        .map(|&b| Value::Builtin(b))
}

pub fn import(name: &str) -> PyResult<Value> {
    match name {
        "torch" => Ok(Value::Module("torch")),
        "math" => Ok(Value::Module("math")),
        _ => Err(PyErr::new(
            "ModuleNotFoundError",
            format!("No module named '{name}'"),
        )),
    }
}

pub fn attribute(base: &Value, name: &str) -> PyResult<Value> {
    match base {
        Value::Module("torch") => crate::torch_api::torch_attribute(name),
        Value::Module("math") => match name {
            "pi" => Ok(Value::Float(std::f64::consts::PI)),
            "e" => Ok(Value::Float(std::f64::consts::E)),
            "inf" => Ok(Value::Float(f64::INFINITY)),
            "nan" => Ok(Value::Float(f64::NAN)),
            _ => Err(PyErr::new(
                "AttributeError",
                format!("module 'math' has no attribute '{name}'"),
            )),
        },
        Value::Tensor(t) => crate::torch_api::tensor_attribute(t, name),
        other => Err(PyErr::new(
            "AttributeError",
            format!("'{}' object has no attribute '{name}'", other.type_name()),
        )),
    }
}

/// `base[index]` for sequences with an integer index.
pub fn subscript(base: &Value, index: &Value) -> PyResult<Value> {
    let items: Vec<Value> = match base {
        Value::List(l) => l.borrow().clone(),
        Value::Tuple(t) => t.to_vec(),
        Value::Size(s) => s.iter().map(|&d| Value::Int(d as i64)).collect(),
        Value::Tensor(_) => {
            return Err(PyErr::not_implemented(
                "tensor indexing is not supported yet",
            ));
        }
        other => {
            return Err(PyErr::type_error(format!(
                "'{}' object is not subscriptable",
                other.type_name()
            )));
        }
    };
    let Value::Int(i) = index else {
        return Err(PyErr::type_error(format!(
            "{} indices must be integers, not {}",
            base.type_name(),
            index.type_name()
        )));
    };
    let n = items.len() as i64;
    let j = if *i < 0 { i + n } else { *i };
    if j < 0 || j >= n {
        return Err(PyErr::new(
            "IndexError",
            format!("{} index out of range", base.type_name()),
        ));
    }
    Ok(items[j as usize].clone())
}

pub fn compare(op: CmpOp, a: &Value, b: &Value) -> PyResult<bool> {
    if let (Some(x), Some(y)) = (a.as_number(), b.as_number()) {
        return Ok(match op {
            CmpOp::Eq => x == y,
            CmpOp::NotEq => x != y,
            CmpOp::Lt => x < y,
            CmpOp::LtE => x <= y,
            CmpOp::Gt => x > y,
            CmpOp::GtE => x >= y,
            CmpOp::Is | CmpOp::IsNot | CmpOp::In | CmpOp::NotIn => {
                return Err(PyErr::not_implemented(format!(
                    "'{}' on numbers is not supported yet",
                    op.as_str()
                )));
            }
        });
    }
    match (op, a, b) {
        (CmpOp::Is, _, Value::None) => Ok(matches!(a, Value::None)),
        (CmpOp::IsNot, _, Value::None) => Ok(!matches!(a, Value::None)),
        (CmpOp::Eq, Value::Str(x), Value::Str(y)) => Ok(x == y),
        (CmpOp::NotEq, Value::Str(x), Value::Str(y)) => Ok(x != y),
        (_, Value::Tensor(_), _) | (_, _, Value::Tensor(_)) => Err(PyErr::not_implemented(
            "comparisons of tensors are not supported yet",
        )),
        _ => Err(PyErr::type_error(format!(
            "'{}' not supported between instances of '{}' and '{}'",
            op.as_str(),
            a.type_name(),
            b.type_name()
        ))),
    }
}

fn arithmetic(op: Operator, a: &Value, b: &Value) -> PyResult<Value> {
    let overflow = || PyErr::new("OverflowError", "integer result does not fit in 64 bits");
    let zero = || PyErr::new("ZeroDivisionError", "division by zero");
    if let (Value::Int(_) | Value::Bool(_), Value::Int(_) | Value::Bool(_)) = (a, b) {
        let (x, y) = (a.as_number().unwrap() as i64, b.as_number().unwrap() as i64);
        return Ok(match op {
            Operator::Add => Value::Int(x.checked_add(y).ok_or_else(overflow)?),
            Operator::Sub => Value::Int(x.checked_sub(y).ok_or_else(overflow)?),
            Operator::Mult => Value::Int(x.checked_mul(y).ok_or_else(overflow)?),
            Operator::Div if y == 0 => return Err(zero()),
            Operator::Div => Value::Float(x as f64 / y as f64),
            Operator::FloorDiv if y == 0 => return Err(zero()),
            Operator::FloorDiv => {
                Value::Int(x.div_euclid(y) - if y < 0 && x.rem_euclid(y) != 0 { 1 } else { 0 })
            }
            Operator::Mod if y == 0 => return Err(zero()),
            Operator::Mod => Value::Int(((x % y) + y) % y),
            Operator::Pow if y >= 0 => Value::Int(
                x.checked_pow(u32::try_from(y).map_err(|_| overflow())?)
                    .ok_or_else(overflow)?,
            ),
            Operator::Pow => Value::Float((x as f64).powf(y as f64)),
            _ => return Err(unsupported_operands(op, a, b)),
        });
    }
    if let (Some(x), Some(y)) = (a.as_number(), b.as_number()) {
        return Ok(Value::Float(match op {
            Operator::Add => x + y,
            Operator::Sub => x - y,
            Operator::Mult => x * y,
            Operator::Div if y == 0.0 => return Err(zero()),
            Operator::Div => x / y,
            Operator::FloorDiv if y == 0.0 => return Err(zero()),
            Operator::FloorDiv => (x / y).floor(),
            Operator::Mod if y == 0.0 => return Err(zero()),
            Operator::Mod => x - y * (x / y).floor(),
            Operator::Pow => x.powf(y),
            _ => return Err(unsupported_operands(op, a, b)),
        }));
    }
    match (op, a, b) {
        (Operator::Add, Value::Str(x), Value::Str(y)) => Ok(Value::str(&format!("{x}{y}"))),
        (Operator::Add, Value::List(x), Value::List(y)) => {
            let joined: Vec<Value> = x
                .borrow()
                .iter()
                .chain(y.borrow().iter())
                .cloned()
                .collect();
            Ok(Value::List(Rc::new(RefCell::new(joined))))
        }
        _ => Err(unsupported_operands(op, a, b)),
    }
}

pub fn unsupported_operands(op: Operator, a: &Value, b: &Value) -> PyErr {
    PyErr::type_error(format!(
        "unsupported operand type(s) for {}: '{}' and '{}'",
        op.as_str(),
        a.type_name(),
        b.type_name()
    ))
}

impl Interpreter<'_> {
    pub async fn binary(&mut self, op: Operator, a: Value, b: Value) -> PyResult<Value> {
        match (&a, &b) {
            (Value::Tensor(_), _) | (_, Value::Tensor(_)) => self.tensor_binary(op, &a, &b),
            _ => arithmetic(op, &a, &b),
        }
    }

    pub async fn call(&mut self, func: Value, mut args: Args) -> PyResult<Value> {
        match func {
            Value::Builtin(name) if name.starts_with("torch.") => self.call_torch(name, args).await,
            Value::Builtin(name) => self.call_builtin(name, &mut args).await,
            Value::Method(tensor, name) => self.call_method(&tensor, name, args).await,
            other => Err(PyErr::type_error(format!(
                "'{}' object is not callable",
                other.type_name()
            ))),
        }
    }

    async fn call_builtin(&mut self, name: &str, args: &mut Args) -> PyResult<Value> {
        match name {
            "print" => {
                let sep = match args.keyword("sep") {
                    None | Some(Value::None) => " ".to_string(),
                    Some(Value::Str(s)) => s.to_string(),
                    Some(v) => {
                        return Err(PyErr::type_error(format!(
                            "sep must be None or a string, not {}",
                            v.type_name()
                        )));
                    }
                };
                let end = match args.keyword("end") {
                    None | Some(Value::None) => "\n".to_string(),
                    Some(Value::Str(s)) => s.to_string(),
                    Some(v) => {
                        return Err(PyErr::type_error(format!(
                            "end must be None or a string, not {}",
                            v.type_name()
                        )));
                    }
                };
                args.finish("print", usize::MAX)?;
                let mut parts = Vec::with_capacity(args.positional.len());
                for value in args.positional.clone() {
                    parts.push(self.str_of(&value).await?);
                }
                self.stdout.push_str(&parts.join(&sep));
                self.stdout.push_str(&end);
                Ok(Value::None)
            }
            "len" => {
                args.finish("len", 1)?;
                let n = match args.positional.first() {
                    Some(Value::List(l)) => l.borrow().len(),
                    Some(Value::Tuple(t)) => t.len(),
                    Some(Value::Str(s)) => s.chars().count(),
                    Some(Value::Size(s)) => s.len(),
                    Some(Value::Tensor(t)) => match t.shape().dims().first() {
                        Some(&d) => d,
                        None => return Err(PyErr::type_error("len() of a 0-d tensor")),
                    },
                    Some(v) => {
                        return Err(PyErr::type_error(format!(
                            "object of type '{}' has no len()",
                            v.type_name()
                        )));
                    }
                    None => {
                        return Err(PyErr::type_error(
                            "len() takes exactly one argument (0 given)",
                        ));
                    }
                };
                Ok(Value::Int(n as i64))
            }
            "range" => {
                args.finish("range", 3)?;
                let ints: Vec<i64> = args
                    .positional
                    .iter()
                    .map(|v| match v {
                        Value::Int(i) => Ok(*i),
                        Value::Bool(b) => Ok(*b as i64),
                        v => Err(PyErr::type_error(format!(
                            "'{}' object cannot be interpreted as an integer",
                            v.type_name()
                        ))),
                    })
                    .collect::<PyResult<_>>()?;
                let (start, stop, step) = match ints[..] {
                    [stop] => (0, stop, 1),
                    [start, stop] => (start, stop, 1),
                    [start, stop, step] => (start, stop, step),
                    _ => {
                        return Err(PyErr::type_error(
                            "range expected at least 1 argument, got 0",
                        ));
                    }
                };
                if step == 0 {
                    return Err(PyErr::new("ValueError", "range() arg 3 must not be zero"));
                }
                let count = if step > 0 {
                    (stop - start + step - 1) / step
                } else {
                    (start - stop - step - 1) / -step
                };
                // Ranges are materialised as lists today; refuse ones that would
                // exhaust memory instead of trying.
                if count > 10_000_000 {
                    return Err(PyErr::not_implemented(
                        "ranges longer than 10,000,000 are not supported yet",
                    ));
                }
                let items = (0..count.max(0))
                    .map(|i| Value::Int(start + i * step))
                    .collect();
                Ok(Value::List(Rc::new(RefCell::new(items))))
            }
            "float" | "int" | "bool" | "abs" => {
                args.finish(name, 1)?;
                let value = args.positional.first().cloned().unwrap_or(Value::Int(0));
                let value = match value {
                    Value::Tensor(t) => Value::Float(self.runtime.item(&t).await?),
                    v => v,
                };
                match (name, &value) {
                    ("bool", v) => Ok(Value::Bool(self.truth(v).await?)),
                    ("abs", Value::Int(i)) => Ok(Value::Int(i.abs())),
                    ("abs", Value::Float(f)) => Ok(Value::Float(f.abs())),
                    ("float", v) if v.as_number().is_some() => {
                        Ok(Value::Float(v.as_number().unwrap()))
                    }
                    ("int", Value::Float(f)) if f.is_finite() => Ok(Value::Int(f.trunc() as i64)),
                    ("int", Value::Int(_) | Value::Bool(_)) => {
                        Ok(Value::Int(value.as_number().unwrap() as i64))
                    }
                    ("float", Value::Str(s)) => {
                        s.trim().parse::<f64>().map(Value::Float).map_err(|_| {
                            PyErr::new(
                                "ValueError",
                                format!("could not convert string to float: {}", str_repr(s)),
                            )
                        })
                    }
                    ("int", Value::Str(s)) => {
                        s.trim().parse::<i64>().map(Value::Int).map_err(|_| {
                            PyErr::new(
                                "ValueError",
                                format!("invalid literal for int() with base 10: {}", str_repr(s)),
                            )
                        })
                    }
                    _ => Err(PyErr::type_error(format!(
                        "{name}() argument must be a string or a real number, not '{}'",
                        value.type_name()
                    ))),
                }
            }
            "str" => {
                args.finish("str", 1)?;
                match args.positional.first().cloned() {
                    Some(v) => Ok(Value::str(&self.str_of(&v).await?)),
                    None => Ok(Value::str("")),
                }
            }
            "repr" => {
                args.finish("repr", 1)?;
                let v = args.positional.first().cloned().unwrap_or(Value::None);
                Ok(Value::str(&self.repr_of(&v).await?))
            }
            _ => Err(PyErr::not_implemented(format!(
                "{name}() is not supported yet"
            ))),
        }
    }

    /// `str(value)`.
    pub async fn str_of(&mut self, value: &Value) -> PyResult<String> {
        match value {
            Value::Str(s) => Ok(s.to_string()),
            Value::Device(d) => Ok(d.to_string()),
            other => self.repr_of(other).await,
        }
    }

    /// `repr(value)`; tensors are read back from the device.
    pub fn repr_of<'a>(
        &'a mut self,
        value: &'a Value,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = PyResult<String>> + 'a>> {
        Box::pin(async move {
            Ok(match value {
                Value::None => "None".into(),
                Value::Bool(b) => if *b { "True" } else { "False" }.into(),
                Value::Int(i) => i.to_string(),
                Value::Float(f) => float_repr(*f),
                Value::Str(s) => str_repr(s),
                Value::List(items) => {
                    let items = items.borrow().clone();
                    let mut parts = Vec::new();
                    for item in &items {
                        parts.push(self.repr_of(item).await?);
                    }
                    format!("[{}]", parts.join(", "))
                }
                Value::Tuple(items) => {
                    let mut parts = Vec::new();
                    for item in items.iter() {
                        parts.push(self.repr_of(item).await?);
                    }
                    if parts.len() == 1 {
                        format!("({},)", parts[0])
                    } else {
                        format!("({})", parts.join(", "))
                    }
                }
                Value::Tensor(t) => self.runtime.repr(t).await?,
                Value::Size(dims) => tpu_ir::Shape::new(dims.to_vec()).to_string(),
                Value::Device(tpu_runtime::Device::Cpu) => "device(type='cpu')".into(),
                Value::Device(tpu_runtime::Device::Tpu(i)) => {
                    format!("device(type='tpu', index={i})")
                }
                Value::DType(d) => d.torch_name().to_string(),
                Value::Module(name) => format!("<module '{name}'>"),
                Value::Builtin(name) => format!(
                    "<built-in function {}>",
                    name.rsplit('.').next().unwrap_or(name)
                ),
                Value::Method(_, name) => format!("<built-in method {name} of Tensor object>"),
            })
        })
    }
}
