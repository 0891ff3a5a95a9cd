//! The `torch` surface: module attributes (`torch.ones`, `torch.float32`), tensor
//! attributes and methods, and arithmetic between tensors and Python numbers. Each
//! function checks its arguments the way PyTorch does and then calls the runtime's
//! dispatcher; nothing here computes tensor values itself.

use crate::args::Args;
use crate::error::PyErr;
use crate::interp::{Interpreter, PyResult};
use crate::value::Value;
use ruff_python_ast::Operator;
use std::cell::RefCell;
use std::rc::Rc;
use tpu_ir::{BinaryOp, DType, Shape};
use tpu_runtime::{Device, Tensor};

const TORCH_FUNCTIONS: &[&str] = &["ones", "zeros", "full", "tensor", "matmul", "sum", "device"];

pub fn torch_attribute(name: &str) -> PyResult<Value> {
    if let Some(&f) = TORCH_FUNCTIONS.iter().find(|&&f| f == name) {
        // Leaked once per name: the set is fixed and tiny, and `Value::Builtin`
        // holds `&'static str` so that values stay cheap to clone.
        return Ok(Value::Builtin(qualified(f)));
    }
    let dtype = match name {
        "float32" | "float" => DType::Float32,
        "bfloat16" => DType::BFloat16,
        "int64" | "long" => DType::Int64,
        "bool" => DType::Bool,
        _ => {
            return Err(PyErr::new(
                "AttributeError",
                format!("module 'torch' has no attribute '{name}'"),
            ));
        }
    };
    Ok(Value::DType(dtype))
}

fn qualified(name: &str) -> &'static str {
    match name {
        "ones" => "torch.ones",
        "zeros" => "torch.zeros",
        "full" => "torch.full",
        "tensor" => "torch.tensor",
        "matmul" => "torch.matmul",
        "sum" => "torch.sum",
        _ => "torch.device",
    }
}

const TENSOR_METHODS: &[&str] = &[
    "sum", "item", "cpu", "to", "size", "dim", "numel", "tolist", "matmul", "add", "sub", "mul",
    "div",
];

pub fn tensor_attribute(t: &Tensor, name: &str) -> PyResult<Value> {
    Ok(match name {
        "shape" => Value::Size(t.shape().dims().into()),
        "device" => Value::Device(t.device()),
        "dtype" => Value::DType(t.dtype()),
        "ndim" => Value::Int(t.shape().rank() as i64),
        _ => match TENSOR_METHODS.iter().find(|&&m| m == name) {
            Some(&m) => Value::Method(t.clone(), m),
            None => {
                return Err(PyErr::new(
                    "AttributeError",
                    format!("'Tensor' object has no attribute '{name}'"),
                ));
            }
        },
    })
}

/// `device="tpu"`, `"tpu:0"`, `"cpu"` or a `torch.device`.
fn parse_device(value: &Value) -> PyResult<Device> {
    match value {
        Value::Device(d) => Ok(*d),
        Value::Str(s) => match s.as_ref() {
            "cpu" => Ok(Device::Cpu),
            "tpu" | "tpu:0" => Ok(Device::Tpu(0)),
            other if other.starts_with("tpu:") => Err(PyErr::new(
                "RuntimeError",
                format!("{other} does not exist: this run has one TPU device, tpu:0"),
            )),
            "cuda" | "mps" | "xla" => Err(PyErr::new(
                "RuntimeError",
                format!("this runtime has no '{s}' device; use device=\"tpu\" (or \"cpu\")"),
            )),
            other => Err(PyErr::new(
                "RuntimeError",
                format!("Expected one of cpu, tpu device type at start of device string: {other}"),
            )),
        },
        other => Err(PyErr::type_error(format!(
            "device must be a string or torch.device, not {}",
            other.type_name()
        ))),
    }
}

/// The shape arguments of `ones(2, 3)` or `ones((2, 3))`.
fn parse_shape(values: &[Value], function: &str) -> PyResult<Shape> {
    let dims: Vec<Value> = match values {
        [Value::Tuple(t)] => t.to_vec(),
        [Value::List(l)] => l.borrow().clone(),
        [Value::Size(s)] => s.iter().map(|&d| Value::Int(d as i64)).collect(),
        _ => values.to_vec(),
    };
    let mut shape = Vec::with_capacity(dims.len());
    for d in dims {
        match d {
            Value::Int(n) if n >= 0 => shape.push(n as usize),
            Value::Int(n) => {
                return Err(PyErr::new(
                    "RuntimeError",
                    format!(
                        "Trying to create tensor with negative dimension {n}: {values:?}",
                        values = shape_text(values)
                    ),
                ));
            }
            other => {
                return Err(PyErr::type_error(format!(
                    "{function}(): argument 'size' must be tuple of ints, but found element of type {}",
                    other.type_name()
                )));
            }
        }
    }
    Ok(Shape(shape))
}

fn shape_text(values: &[Value]) -> String {
    let parts: Vec<String> = values
        .iter()
        .map(|v| match v {
            Value::Int(i) => i.to_string(),
            other => other.type_name().to_string(),
        })
        .collect();
    format!("[{}]", parts.join(", "))
}

/// Checks `dtype=`, `device=` and `requires_grad=` of a factory function.
fn factory_options(args: &mut Args) -> PyResult<Device> {
    if let Some(dtype) = args.keyword("dtype") {
        match dtype {
            Value::None | Value::DType(DType::Float32) => {}
            Value::DType(d) => {
                return Err(PyErr::not_implemented(format!(
                    "{} tensors are not supported yet (only torch.float32)",
                    d.torch_name()
                )));
            }
            other => {
                return Err(PyErr::type_error(format!(
                    "dtype must be a torch.dtype, not {}",
                    other.type_name()
                )));
            }
        }
    }
    if let Some(rg) = args.keyword("requires_grad")
        && rg.truthy() == Some(true)
    {
        return Err(PyErr::not_implemented(
            "autograd (requires_grad=True) is not supported yet",
        ));
    }
    match args.keyword("device") {
        None | Some(Value::None) => Ok(Device::Cpu),
        Some(v) => parse_device(&v),
    }
}

/// Flattens nested lists of numbers for `torch.tensor`, checking they are rectangular.
fn flatten(
    value: &Value,
    shape: &mut Vec<usize>,
    depth: usize,
    out: &mut Vec<f32>,
) -> PyResult<bool> {
    let items: Vec<Value> = match value {
        Value::List(l) => l.borrow().clone(),
        Value::Tuple(t) => t.to_vec(),
        Value::Float(f) => {
            out.push(*f as f32);
            return Ok(true);
        }
        Value::Int(_) | Value::Bool(_) => {
            out.push(value.as_number().unwrap() as f32);
            return Ok(false);
        }
        other => {
            return Err(PyErr::type_error(format!(
                "new(): invalid data type '{}'",
                other.type_name()
            )));
        }
    };
    if shape.len() == depth {
        shape.push(items.len());
    } else if shape[depth] != items.len() {
        return Err(PyErr::new(
            "ValueError",
            format!(
                "expected sequence of length {} at dim {depth} (got {})",
                shape[depth],
                items.len()
            ),
        ));
    }
    let mut any_float = false;
    for item in &items {
        any_float |= flatten(item, shape, depth + 1, out)?;
    }
    Ok(any_float)
}

impl Interpreter<'_> {
    pub async fn call_torch(&mut self, name: &str, mut args: Args) -> PyResult<Value> {
        let short = name.trim_start_matches("torch.");
        match short {
            "ones" | "zeros" | "full" => {
                let device = factory_options(&mut args)?;
                args.finish(short, usize::MAX)?;
                let (shape_args, value) = if short == "full" {
                    let [size, fill] = &args.positional[..] else {
                        return Err(PyErr::type_error(
                            "full() missing required arguments: 'size' and 'fill_value'",
                        ));
                    };
                    let fill = fill.as_number().ok_or_else(|| {
                        PyErr::type_error("full(): argument 'fill_value' must be a number")
                    })?;
                    (std::slice::from_ref(size), fill)
                } else {
                    (
                        &args.positional[..],
                        if short == "ones" { 1.0 } else { 0.0 },
                    )
                };
                let shape = parse_shape(shape_args, short)?;
                Ok(Value::Tensor(self.runtime.full(
                    shape,
                    value as f32,
                    device,
                )?))
            }
            "tensor" => {
                let device = factory_options(&mut args)?;
                args.finish("tensor", 1)?;
                let data = args.positional.first().ok_or_else(|| {
                    PyErr::type_error("tensor() missing required argument 'data'")
                })?;
                let (mut shape, mut values) = (Vec::new(), Vec::new());
                let any_float = flatten(data, &mut shape, 0, &mut values)?;
                if !any_float && !values.is_empty() {
                    return Err(PyErr::not_implemented(
                        "integer tensors (torch.int64) are not supported yet; write 1.0 instead of 1",
                    ));
                }
                Ok(Value::Tensor(self.runtime.from_values(
                    &values,
                    Shape(shape),
                    device,
                )?))
            }
            "device" => {
                args.finish("device", 1)?;
                let spec = args.positional.first().cloned().unwrap_or(Value::None);
                Ok(Value::Device(parse_device(&spec)?))
            }
            "matmul" | "sum" => {
                let Some(Value::Tensor(t)) = args.positional.first().cloned() else {
                    return Err(PyErr::type_error(format!(
                        "{short}(): argument 'input' must be Tensor"
                    )));
                };
                args.positional.remove(0);
                self.call_method(&t, short, args).await
            }
            _ => Err(PyErr::not_implemented(format!(
                "{name}() is not supported yet"
            ))),
        }
    }

    pub async fn call_method(&mut self, t: &Tensor, name: &str, mut args: Args) -> PyResult<Value> {
        match name {
            "sum" => {
                args.finish("sum", 0)?;
                Ok(Value::Tensor(self.runtime.sum(t)?))
            }
            "item" => {
                args.finish("item", 0)?;
                Ok(Value::Float(self.runtime.item(t).await?))
            }
            "cpu" => {
                args.finish("cpu", 0)?;
                Ok(Value::Tensor(self.runtime.to_device(t, Device::Cpu).await?))
            }
            "to" => {
                let target = args
                    .get(0, "device")
                    .ok_or_else(|| PyErr::type_error("to() missing argument 'device'"))?;
                let device = match target {
                    Value::DType(DType::Float32) => return Ok(Value::Tensor(t.clone())),
                    Value::DType(d) => {
                        return Err(PyErr::not_implemented(format!(
                            "{} tensors are not supported yet",
                            d.torch_name()
                        )));
                    }
                    other => parse_device(&other)?,
                };
                Ok(Value::Tensor(self.runtime.to_device(t, device).await?))
            }
            "size" => {
                args.finish("size", 1)?;
                match args.positional.first() {
                    None => Ok(Value::Size(t.shape().dims().into())),
                    Some(Value::Int(d)) => {
                        let rank = t.shape().rank() as i64;
                        let axis = if *d < 0 { d + rank } else { *d };
                        if axis < 0 || axis >= rank {
                            return Err(PyErr::new(
                                "IndexError",
                                format!(
                                    "Dimension out of range (expected to be in range of [{}, {}], but got {d})",
                                    -rank,
                                    rank - 1
                                ),
                            ));
                        }
                        Ok(Value::Int(t.shape().dims()[axis as usize] as i64))
                    }
                    Some(v) => Err(PyErr::type_error(format!(
                        "size(): argument 'dim' must be int, not {}",
                        v.type_name()
                    ))),
                }
            }
            "dim" => Ok(Value::Int(t.shape().rank() as i64)),
            "numel" => Ok(Value::Int(t.numel() as i64)),
            "tolist" => {
                args.finish("tolist", 0)?;
                let values = self.runtime.read(t).await?;
                Ok(nest(&values, t.shape().dims()))
            }
            "matmul" | "add" | "sub" | "mul" | "div" => {
                args.finish(name, 1)?;
                let other = args.positional.first().cloned().ok_or_else(|| {
                    PyErr::type_error(format!("{name}() missing required argument 'other'"))
                })?;
                let op = match name {
                    "matmul" => Operator::MatMult,
                    "add" => Operator::Add,
                    "sub" => Operator::Sub,
                    "mul" => Operator::Mult,
                    _ => Operator::Div,
                };
                self.tensor_binary(op, &Value::Tensor(t.clone()), &other)
            }
            _ => Err(PyErr::not_implemented(format!(
                "Tensor.{name}() is not supported yet"
            ))),
        }
    }

    /// A Python operator with at least one tensor operand.
    pub fn tensor_binary(&mut self, op: Operator, a: &Value, b: &Value) -> PyResult<Value> {
        let unsupported = || crate::builtins::unsupported_operands(op, a, b);
        if op == Operator::MatMult {
            return match (a, b) {
                (Value::Tensor(x), Value::Tensor(y)) => {
                    Ok(Value::Tensor(self.runtime.matmul(x, y)?))
                }
                _ => Err(unsupported()),
            };
        }
        let bin = match op {
            Operator::Add => BinaryOp::Add,
            Operator::Sub => BinaryOp::Sub,
            Operator::Mult => BinaryOp::Mul,
            Operator::Div => BinaryOp::Div,
            _ => {
                return Err(PyErr::not_implemented(format!(
                    "the {} operator on tensors is not supported yet",
                    op.as_str()
                )));
            }
        };
        let result = match (a, b) {
            (Value::Tensor(x), Value::Tensor(y)) => self.runtime.binary(bin, x, y)?,
            (Value::Tensor(x), s) => {
                let s = s.as_number().ok_or_else(unsupported)?;
                self.runtime.binary_scalar(bin, x, s, false)?
            }
            (s, Value::Tensor(y)) => {
                let s = s.as_number().ok_or_else(unsupported)?;
                self.runtime.binary_scalar(bin, y, s, true)?
            }
            _ => return Err(unsupported()),
        };
        Ok(Value::Tensor(result))
    }
}

/// Nested Python lists of floats in the tensor's shape, as `tolist()` returns.
fn nest(values: &[f32], dims: &[usize]) -> Value {
    match dims {
        [] => Value::Float(values[0] as f64),
        [n, rest @ ..] => {
            let inner: usize = rest.iter().product();
            let items = (0..*n)
                .map(|i| nest(&values[i * inner..(i + 1) * inner], rest))
                .collect();
            Value::List(Rc::new(RefCell::new(items)))
        }
    }
}
