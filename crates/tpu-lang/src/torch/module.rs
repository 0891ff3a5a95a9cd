//! The `torch` module's Rust part: its dtypes and devices, the factories whose
//! argument parsing is Rust (`torch.full`, `torch.tensor` with its nested data,
//! the seeded random functions), the torch context managers (whose `with` and decorator
//! forms are in `contexts`), and the elementwise functions
//! that are also Rust tensor methods. Every other torch function is Python in
//! the prelude's `torch` package (`crates/tpu-lang/prelude/torch/`), which runs on top of this module (and never redefines a
//! name registered here). Tensor methods and operators live in `tensor`; nothing
//! here computes tensor values itself.

use crate::python::builtins::Keywords;
use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::value::Value;
use crate::torch::scalars::{python_scalar_dtype, scalar_kind};
use std::collections::HashMap;
use tpu_ir::{DType, ScalarKind, Shape};
use tpu_runtime::{Device, HostData, Tensor};

/// `torch`'s dtype names, aliases included.
pub const TORCH_DTYPES: &[(&str, DType)] = &[
    ("float32", DType::Float32),
    ("float", DType::Float32),
    ("float64", DType::Float64),
    ("double", DType::Float64),
    ("bfloat16", DType::BFloat16),
    ("int32", DType::Int32),
    ("int", DType::Int32),
    ("int64", DType::Int64),
    ("long", DType::Int64),
    ("bool", DType::Bool),
];

/// The `torch` functions written in Rust (the rest are the prelude's).
pub const TORCH_FUNCTIONS: &[&str] = &[
    "torch.full",
    "torch.tensor",
    "torch.device",
    "torch.no_grad",
    "torch.enable_grad",
    "torch.inference_mode",
    "torch.is_inference_mode_enabled",
    "torch.is_tensor",
    "torch.abs",
    "torch.neg",
    "torch.relu",
    "torch.exp",
    "torch.log",
    "torch.sqrt",
    "torch.tanh",
    "torch.sigmoid",
    "torch.sin",
    "torch.cos",
    "torch.manual_seed",
    "torch.initial_seed",
    "torch.rand",
    "torch.randn",
    "torch.empty",
    "torch.Size",
];

pub fn torch_module_attributes() -> HashMap<String, Value> {
    let mut attrs: HashMap<String, Value> = TORCH_FUNCTIONS
        .iter()
        .map(|q| {
            (
                q.trim_start_matches("torch.").to_string(),
                Value::Builtin(q),
            )
        })
        .collect();
    // `torch.Tensor`'s base (`prelude/torch/_tensor.py`): the native tensor
    // type on the new interpreter (crates/tpu-torch), `object` here.
    attrs.insert("_TensorBase".into(), Value::Builtin("object"));
    for &(name, dtype) in TORCH_DTYPES {
        attrs.insert(name.to_string(), Value::DType(dtype));
    }
    attrs
}

/// `device="tpu"`, `"tpu:0"`, `"cpu"` or a `torch.device`.
pub fn parse_device(value: &Value) -> PyResult<Device> {
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
    // The message for a negative size lists every size given.
    let dims_text: Vec<String> = dims
        .iter()
        .map(|d| {
            d.as_int()
                .map_or_else(|| "?".to_string(), |n| n.to_string())
        })
        .collect();
    let mut shape = Vec::with_capacity(dims.len());
    for d in dims {
        match d.as_int() {
            Some(n) if n >= 0 => shape.push(n as usize),
            Some(n) => {
                return Err(PyErr::new(
                    "RuntimeError",
                    format!(
                        "Trying to create tensor with negative dimension {n}: [{}]",
                        dims_text.join(", ")
                    ),
                ));
            }
            None => {
                return Err(PyErr::type_error(format!(
                    "{function}(): argument 'size' must be tuple of ints, but found element of type {}",
                    d.type_name()
                )));
            }
        }
    }
    Ok(Shape(shape))
}

/// Reads `dtype=`, `device=` and `requires_grad=` of a factory function.
fn factory_options(kw: &mut Keywords) -> PyResult<(Device, Option<DType>)> {
    let dtype = match kw.take("dtype") {
        None | Some(Value::None) => None,
        Some(Value::DType(d)) => Some(d),
        Some(other) => {
            return Err(PyErr::type_error(format!(
                "dtype must be a torch.dtype, not {}",
                other.type_name()
            )));
        }
    };
    let device = match kw.take("device") {
        None | Some(Value::None) => Device::Cpu,
        Some(v) => parse_device(&v)?,
    };
    Ok((device, dtype))
}

/// Flattens nested lists of numbers for `torch.tensor`, checking they are
/// rectangular; the leaves come back in row-major order.
fn flatten(
    value: &Value,
    shape: &mut Vec<usize>,
    depth: usize,
    out: &mut Vec<Value>,
) -> PyResult<()> {
    let items: Vec<Value> = match value {
        Value::List(l) => l.borrow().clone(),
        Value::Tuple(t) => t.to_vec(),
        Value::Float(_) | Value::Int(_) | Value::Bool(_) => {
            if depth < shape.len() {
                return Err(PyErr::value_error(format!(
                    "expected sequence of length {} at dim {depth} (got a number)",
                    shape[depth]
                )));
            }
            out.push(value.clone());
            return Ok(());
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
        return Err(PyErr::value_error(format!(
            "expected sequence of length {} at dim {depth} (got {})",
            shape[depth],
            items.len()
        )));
    }
    for item in &items {
        flatten(item, shape, depth + 1, out)?;
    }
    Ok(())
}

/// Python numbers as tensor data, in the dtype `torch.tensor` infers from the
/// widest kind among them (float32 for an empty list, as PyTorch gives), then
/// converted to `dtype`.
fn host_data(values: &[Value], dtype: Option<DType>) -> HostData {
    let kind = values
        .iter()
        .filter_map(|v| scalar_kind(v).map(|(_, kind)| kind))
        .max_by_key(|kind| match kind {
            ScalarKind::Bool => 0,
            ScalarKind::Int => 1,
            ScalarKind::Float => 2,
        })
        .unwrap_or(ScalarKind::Float);
    let data = match python_scalar_dtype(kind) {
        DType::Bool => HostData::Bool(
            values
                .iter()
                .map(|v| matches!(v, Value::Bool(true)))
                .collect(),
        ),
        DType::Int64 => HostData::I64(values.iter().map(|v| v.as_int().unwrap_or(0)).collect()),
        _ => HostData::F32(
            values
                .iter()
                .map(|v| v.as_number().unwrap_or(0.0) as f32)
                .collect(),
        ),
    };
    match dtype {
        // Python floats are doubles: round once, straight to the requested type.
        Some(DType::BFloat16) if kind == ScalarKind::Float => HostData::BF16(
            values
                .iter()
                .map(|v| tpu_runtime::data::f32_to_bf16(v.as_number().unwrap_or(0.0) as f32))
                .collect(),
        ),
        // A Python float is already a double: no float32 rounding on the way.
        Some(DType::Float64) if kind == ScalarKind::Float => HostData::F64(
            values
                .iter()
                .map(|v| v.as_number().unwrap_or(0.0))
                .collect(),
        ),
        Some(d) => data.cast(d),
        None => data,
    }
}

fn tensor_arg(args: &[Value], function: &str) -> PyResult<Tensor> {
    match args.first() {
        Some(Value::Tensor(t)) => Ok(t.clone()),
        _ => Err(PyErr::type_error(format!(
            "{function}(): argument 'input' must be Tensor"
        ))),
    }
}

impl Interpreter<'_> {
    pub async fn call_torch(
        &mut self,
        name: &str,
        mut args: Vec<Value>,
        kwargs: Vec<(String, Value)>,
    ) -> PyResult<Value> {
        let mut kw = Keywords(kwargs);
        let requires_grad = match kw.take("requires_grad") {
            None => false,
            Some(v) => matches!(v, Value::Bool(true) | Value::Int(1)),
        };
        let result = self.call_torch_inner(name, &mut args, kw).await?;
        if requires_grad && let Value::Tensor(t) = &result {
            if !t.dtype().is_floating() {
                return Err(PyErr::new(
                    "RuntimeError",
                    "Only Tensors of floating point and complex dtype can require gradients",
                ));
            }
            self.runtime.set_requires_grad(t, true)?;
        }
        Ok(result)
    }

    async fn call_torch_inner(
        &mut self,
        name: &str,
        args: &mut Vec<Value>,
        mut kw: Keywords,
    ) -> PyResult<Value> {
        let args = std::mem::take(args);
        let mut args = args;
        match name {
            "full" => {
                let (device, dtype) = factory_options(&mut kw)?;
                kw.finish(name)?;
                let [size, fill] = &args[..] else {
                    return Err(PyErr::type_error(
                        "full() missing required arguments: 'size' and 'fill_value'",
                    ));
                };
                // `full` takes its dtype from the fill value, as PyTorch does.
                let (value, kind) = scalar_kind(fill).ok_or_else(|| {
                    PyErr::type_error("full(): argument 'fill_value' must be a number")
                })?;
                let shape = parse_shape(std::slice::from_ref(size), name)?;
                let dtype = dtype.unwrap_or(python_scalar_dtype(kind));
                Ok(Value::Tensor(
                    self.runtime.full(shape, value, dtype, device).await?,
                ))
            }
            "tensor" => {
                let (device, dtype) = factory_options(&mut kw)?;
                kw.finish(name)?;
                let data = args.first().ok_or_else(|| {
                    PyErr::type_error("tensor() missing required argument 'data'")
                })?;
                let (mut shape, mut values) = (Vec::new(), Vec::new());
                flatten(data, &mut shape, 0, &mut values)?;
                let data = host_data(&values, dtype);
                Ok(Value::Tensor(
                    self.runtime.from_data(data, Shape(shape), device).await?,
                ))
            }
            "device" => {
                kw.finish(name)?;
                Ok(Value::Device(parse_device(
                    args.first().unwrap_or(&Value::None),
                )?))
            }
            "manual_seed" => {
                kw.finish(name)?;
                let seed = args.first().and_then(Value::as_int).ok_or_else(|| {
                    PyErr::type_error("manual_seed(): argument 'seed' must be int")
                })?;
                self.runtime.generator = tpu_runtime::rng::Generator::new(seed as u64);
                self.seed = seed as u64;
                Ok(Value::None)
            }
            "initial_seed" => Ok(Value::Int(self.seed as i64)),
            "rand" | "randn" | "empty" => {
                let (device, dtype) = factory_options(&mut kw)?;
                if !matches!(kw.take("generator"), None | Some(Value::None)) {
                    return Err(PyErr::not_implemented(
                        "generator= is not supported; the default generator is used",
                    ));
                }
                kw.finish(name)?;
                let shape = parse_shape(&args, name)?;
                let tensor = match name {
                    // `empty` is uninitialised memory in PyTorch; zeros here.
                    "empty" => {
                        let dtype = dtype.unwrap_or(DType::Float32);
                        self.runtime.full(shape, 0.0, dtype, device).await?
                    }
                    _ => match dtype.unwrap_or(DType::Float32) {
                        d if d.is_floating() => {
                            self.runtime
                                .random(shape, name == "randn", d, device)
                                .await?
                        }
                        d => {
                            return Err(PyErr::new(
                                "RuntimeError",
                                format!(
                                    "\"{name}\" not implemented for '{}'",
                                    d.torch_name().trim_start_matches("torch.")
                                ),
                            ));
                        }
                    },
                };
                Ok(Value::Tensor(tensor))
            }
            "no_grad"
            | "enable_grad"
            | "inference_mode"
            | "is_inference_mode_enabled"
            | "random.fork_rng" => self.call_torch_context(name, args, kw).await,
            // `torch.Size(sizes=())`: a tuple of non-negative ints.
            "Size" => {
                kw.finish("Size")?;
                let items = match args.into_iter().next() {
                    Some(v) => self.collect(v).await?,
                    None => Vec::new(),
                };
                let mut dims = Vec::with_capacity(items.len());
                for item in items {
                    match item {
                        Value::Int(n) if n >= 0 => dims.push(n as usize),
                        other => {
                            return Err(PyErr::type_error(format!(
                                "'{}' object cannot be interpreted as an integer",
                                other.type_name()
                            )));
                        }
                    }
                }
                Ok(Value::Size(dims.into()))
            }
            "is_tensor" => Ok(Value::Bool(match args.first() {
                Some(Value::Tensor(_)) => true,
                Some(Value::Instance(i)) => self
                    .tensor_class
                    .as_ref()
                    .is_some_and(|c| i.class().is_subclass_of(c)),
                _ => false,
            })),
            "matmul" | "sum" | "abs" | "neg" | "relu" | "exp" | "log" | "sqrt" | "tanh"
            | "sigmoid" | "sin" | "cos" => {
                // A Python tensor subclass (DTensor) runs its own method.
                if let Some(Value::Instance(_)) = args.first() {
                    let receiver = args.remove(0);
                    let method = self.get_attribute(&receiver, name).await?;
                    return self.call(method, args, kw.0).await;
                }
                let t = tensor_arg(&args, name)?;
                args.remove(0);
                let out = kw.take("out");
                let result = self.call_tensor_method(&t, name, args, kw.0).await?;
                match out {
                    None | Some(Value::None) => Ok(result),
                    Some(Value::Tensor(out)) => self.write_out(out, result).await,
                    Some(other) => Err(PyErr::type_error(format!(
                        "{name}(): argument 'out' must be Tensor, not {}",
                        other.type_name()
                    ))),
                }
            }
            _ => Err(PyErr::not_implemented(format!(
                "torch.{name}() is not supported yet"
            ))),
        }
    }

    /// The `out=` argument, as the prelude's `_out` writes it: the result
    /// written into `out` (after PyTorch's cast check) and `out` returned; an
    /// `out` of another shape is resized to the result's.
    async fn write_out(&mut self, out: Tensor, result: Value) -> PyResult<Value> {
        let Value::Tensor(r) = &result else {
            return Ok(result);
        };
        if out.dims() != r.dims() {
            tpu_runtime::Runtime::check_cast(r.dtype(), out.dtype())?;
            let r = self.runtime.cast(r, out.dtype()).await?;
            let r = self.runtime.to_device(&r, out.device()).await?;
            self.runtime.set_data(&out, &r);
            return Ok(Value::Tensor(out));
        }
        self.call_native("assign", vec![Value::Tensor(out), result])
            .await
    }
}
