//! Tensor objects in Python: attributes (`shape`, `dtype`, `device`), methods
//! (`sum`, `item`, `to`, `float`, the elementwise functions, ...), and the Python
//! operators with a tensor operand, each checked as PyTorch checks it and then
//! handed to the runtime's dispatcher.

use crate::python::builtins::Keywords;
use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::value::Value;
use crate::torch::module::parse_device;
use crate::torch::scalars::{scalar_kind, scalar_value};
use ruff_python_ast::{CmpOp, Operator, UnaryOp as PyUnaryOp};
use std::rc::Rc;
use tpu_ir::{BinaryOp, CompareOp, DType, UnaryOp};
use tpu_runtime::{Device, HostData, Scalar, Tensor};

/// Tensor methods implemented in Rust; the rest are Python in the prelude's
/// `torch.Tensor` class.
pub const TENSOR_METHODS: &[&str] = &[
    "item", "cpu", "to", "size", "dim", "numel", "tolist", "float", "long", "bool", "bfloat16",
    "double", "int", "abs", "neg", "relu", "exp", "log", "sqrt", "tanh", "sigmoid", "sin", "cos",
    "erf", "floor", "ceil", "sign",
];

impl Interpreter<'_> {
    pub async fn tensor_attribute(&mut self, t: &Tensor, name: &str) -> PyResult<Value> {
        Ok(match name {
            "shape" => Value::Size(t.dims().into()),
            "device" => Value::Device(t.device()),
            "dtype" => Value::DType(t.dtype()),
            "ndim" => Value::Int(t.rank() as i64),
            "is_leaf" => Value::Bool(t.is_leaf()),
            "requires_grad" => Value::Bool(t.requires_grad()),
            "grad" => t.grad().map_or(Value::None, Value::Tensor),
            // An object of a class named as PyTorch names the node
            // (`type(y.grad_fn).__name__ == "MulBackward0"`).
            "grad_fn" => match t.grad_fn_name() {
                None => Value::None,
                Some(n) => {
                    self.call_tensor_class("_grad_fn_object", vec![Value::str(&n)])
                        .await?
                }
            },
            "data" => Value::Tensor(self.runtime.detach(t)),
            "is_cuda" => Value::Bool(false),
            "T" | "mT" => {
                let rank = t.rank() as i64;
                // `x.T` is a permute in PyTorch (its `grad_fn` says so),
                // `x.mT` a transpose of the last two dimensions.
                if name == "mT" {
                    if rank < 2 {
                        return Err(PyErr::new(
                            "RuntimeError",
                            "tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.",
                        ));
                    }
                    Value::Tensor(self.runtime.transpose(t, rank - 2, rank - 1)?)
                } else {
                    let perm: Vec<i64> = (0..rank).rev().collect();
                    Value::Tensor(self.runtime.permute(t, &perm)?)
                }
            }
            _ => {
                if let Some(&m) = TENSOR_METHODS.iter().find(|&&m| m == name) {
                    return Ok(Value::NativeMethod(Rc::new((Value::Tensor(t.clone()), m))));
                }
                match self.tensor_class.as_ref().and_then(|c| c.lookup(name)) {
                    Some(Value::Function(f)) => {
                        Value::BoundMethod(Rc::new((Value::Tensor(t.clone()), f)))
                    }
                    Some(other) => other,
                    None if crate::torch::pytorch_names::is_pytorch_name("Tensor", name) => {
                        return Err(crate::torch::pytorch_names::not_supported("Tensor", name));
                    }
                    None => {
                        return Err(PyErr::new(
                            "AttributeError",
                            format!("'Tensor' object has no attribute '{name}'"),
                        ));
                    }
                }
            }
        })
    }

    pub fn set_tensor_attribute(&mut self, t: &Tensor, name: &str, value: Value) -> PyResult<()> {
        match (name, value) {
            ("requires_grad", v) => {
                let flag = matches!(v, Value::Bool(true));
                self.runtime.set_requires_grad(t, flag)?;
            }
            ("grad", Value::None) => t.set_grad(None),
            ("grad", Value::Tensor(g)) => t.set_grad(Some(g)),
            ("data", Value::Tensor(v)) => self.runtime.set_data(t, &v),
            (name, _) => {
                return Err(PyErr::new(
                    "AttributeError",
                    format!("setting Tensor.{name} is not supported"),
                ));
            }
        }
        Ok(())
    }

    pub async fn tensor_truth(&mut self, t: &Tensor) -> PyResult<bool> {
        if t.numel() != 1 {
            return Err(PyErr::new(
                "RuntimeError",
                "Boolean value of Tensor with more than one value is ambiguous",
            ));
        }
        if !self.file.is_library {
            // The prelude's own reads are not the program's graph breaks.
            self.runtime
                .set_sync_reason("a Python condition reads a tensor");
        }
        Ok(match self.runtime.item(t).await? {
            Scalar::Float(f) => f != 0.0,
            Scalar::Int(i) => i != 0,
            Scalar::Bool(b) => b,
        })
    }

    pub async fn tensor_item(&mut self, t: &Tensor) -> PyResult<Value> {
        if !self.file.is_library {
            self.runtime.set_sync_reason(".item()");
        }
        Ok(scalar_value(self.runtime.item(t).await?))
    }

    pub async fn tensor_repr(&mut self, t: &Tensor) -> PyResult<String> {
        self.runtime.set_sync_reason("print / repr");
        Ok(self.runtime.repr(t).await?)
    }

    pub async fn tensor_unary(&mut self, op: PyUnaryOp, t: &Tensor) -> PyResult<Value> {
        match op {
            PyUnaryOp::USub => Ok(Value::Tensor(self.runtime.unary(UnaryOp::Neg, t).await?)),
            PyUnaryOp::UAdd => Ok(Value::Tensor(t.clone())),
            PyUnaryOp::Invert if t.dtype() == DType::Bool => Ok(Value::Tensor(
                self.runtime.compare_scalar(CompareOp::Eq, t, 0.0).await?,
            )),
            PyUnaryOp::Invert => {
                self.call_tensor_class("bitwise_not", vec![Value::Tensor(t.clone())])
                    .await
            }
            _ => Err(PyErr::not_implemented(format!(
                "the unary {} operator on tensors is not supported yet",
                op.as_str()
            ))),
        }
    }

    pub async fn tensor_compare(&mut self, op: CmpOp, a: &Value, b: &Value) -> PyResult<Value> {
        let (cmp, flipped) = match op {
            CmpOp::Eq => (CompareOp::Eq, CompareOp::Eq),
            CmpOp::NotEq => (CompareOp::Ne, CompareOp::Ne),
            CmpOp::Lt => (CompareOp::Lt, CompareOp::Gt),
            CmpOp::LtE => (CompareOp::Le, CompareOp::Ge),
            CmpOp::Gt => (CompareOp::Gt, CompareOp::Lt),
            CmpOp::GtE => (CompareOp::Ge, CompareOp::Le),
            _ => {
                return Err(PyErr::not_implemented(format!(
                    "'{}' on tensors is not supported yet",
                    op.as_str()
                )));
            }
        };
        let result = match (a, b) {
            (Value::Tensor(x), Value::Tensor(y)) => self.runtime.compare(cmp, x, y).await?,
            (Value::Tensor(x), s) => match scalar_kind(s) {
                Some((v, _)) => self.runtime.compare_scalar(cmp, x, v).await?,
                None => return Ok(Value::Bool(op == CmpOp::NotEq)),
            },
            (s, Value::Tensor(y)) => match scalar_kind(s) {
                Some((v, _)) => self.runtime.compare_scalar(flipped, y, v).await?,
                None => return Ok(Value::Bool(op == CmpOp::NotEq)),
            },
            _ => unreachable!("called with a tensor operand"),
        };
        Ok(Value::Tensor(result))
    }

    /// `t += b` and the other augmented assignments: the result is computed
    /// out of place, cast back to `t`'s dtype (PyTorch refuses a float result
    /// into an integer tensor), and written into `t`'s storage.
    pub async fn tensor_inplace(&mut self, op: Operator, t: &Tensor, b: &Value) -> PyResult<Value> {
        let result = self.tensor_binary(op, &Value::Tensor(t.clone()), b).await?;
        let Value::Tensor(result) = result else {
            return Ok(result);
        };
        if result.dims() != t.dims() {
            return Err(PyErr::new(
                "RuntimeError",
                format!(
                    "output with shape [{}] doesn't match the broadcast shape [{}]",
                    t.dims()
                        .iter()
                        .map(|d| d.to_string())
                        .collect::<Vec<_>>()
                        .join(", "),
                    result
                        .dims()
                        .iter()
                        .map(|d| d.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
        tpu_runtime::Runtime::check_cast(result.dtype(), t.dtype())?;
        let result = self.runtime.cast(&result, t.dtype()).await?;
        self.runtime.assign(t, result).await?;
        Ok(Value::Tensor(t.clone()))
    }

    pub async fn call_tensor_method(
        &mut self,
        t: &Tensor,
        name: &str,
        args: Vec<Value>,
        kwargs: Vec<(String, Value)>,
    ) -> PyResult<Value> {
        let kw = Keywords(kwargs);
        let no_args = |args: &[Value]| -> PyResult<()> {
            kw.finish(name)?;
            if !args.is_empty() {
                return Err(PyErr::type_error(format!(
                    "{name}() takes no arguments ({} given)",
                    args.len()
                )));
            }
            Ok(())
        };
        match name {
            unary if UnaryOp::from_name(unary).is_some() => {
                no_args(&args)?;
                let op = UnaryOp::from_name(unary).expect("checked by the guard");
                Ok(Value::Tensor(self.runtime.unary(op, t).await?))
            }
            "item" => {
                no_args(&args)?;
                self.tensor_item(t).await
            }
            "cpu" => {
                no_args(&args)?;
                self.runtime.set_sync_reason(".cpu()");
                Ok(Value::Tensor(self.runtime.to_device(t, Device::Cpu).await?))
            }
            "to" => {
                let mut kw = kw;
                let dtype = match kw.take("dtype") {
                    Some(Value::DType(d)) => Some(d),
                    _ => None,
                };
                let target = match args.first().cloned().or_else(|| kw.take("device")) {
                    Some(t) => t,
                    None => match dtype {
                        Some(d) => Value::DType(d),
                        None => {
                            return Err(PyErr::type_error(
                                "to() received an invalid combination of arguments",
                            ));
                        }
                    },
                };
                kw.take("non_blocking");
                kw.take("copy");
                let (device, dtype) = match target {
                    Value::DType(d) => (t.device(), Some(d)),
                    // `x.to(other)`: other's dtype and device.
                    Value::Tensor(other) => (other.device(), Some(other.dtype())),
                    other => (
                        parse_device(&other)?,
                        dtype.or(args.get(1).and_then(|v| match v {
                            Value::DType(d) => Some(*d),
                            _ => None,
                        })),
                    ),
                };
                let moved = self.runtime.to_device(t, device).await?;
                let converted = match dtype {
                    Some(d) => self.runtime.cast(&moved, d).await?,
                    None => moved,
                };
                Ok(Value::Tensor(converted))
            }
            "size" => match args.first() {
                None => Ok(Value::Size(t.shape().dims().into())),
                Some(d) => {
                    let d = d
                        .as_int()
                        .ok_or_else(|| PyErr::type_error("size(): argument 'dim' must be int"))?;
                    let rank = t.shape().rank() as i64;
                    let axis = if d < 0 { d + rank } else { d };
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
            },
            "float" | "long" | "bool" | "bfloat16" | "double" | "int" => {
                no_args(&args)?;
                let dtype = match name {
                    "float" => DType::Float32,
                    "long" => DType::Int64,
                    "bool" => DType::Bool,
                    "bfloat16" => DType::BFloat16,
                    "double" => DType::Float64,
                    "int" => DType::Int32,
                    _ => unreachable!("the arm matches these names only"),
                };
                Ok(Value::Tensor(self.runtime.cast(t, dtype).await?))
            }
            "dim" => Ok(Value::Int(t.shape().rank() as i64)),
            "numel" => Ok(Value::Int(t.numel() as i64)),
            "tolist" => {
                no_args(&args)?;
                if !self.file.is_library {
                    self.runtime.set_sync_reason(".tolist()");
                }
                let values = self.runtime.read(t).await?;
                Ok(nest(&values, 0, t.shape().dims()))
            }
            _ => Err(PyErr::not_implemented(format!(
                "Tensor.{name}() is not supported yet"
            ))),
        }
    }

    /// A Python operator with at least one tensor operand.
    pub async fn tensor_binary(&mut self, op: Operator, a: &Value, b: &Value) -> PyResult<Value> {
        let unsupported = || crate::python::ops::unsupported_operands(op, a, b);
        if op == Operator::MatMult {
            return match (a, b) {
                (Value::Tensor(x), Value::Tensor(y)) => {
                    Ok(Value::Tensor(self.runtime.matmul(x, y).await?))
                }
                _ => Err(unsupported()),
            };
        }
        let both_bool = [a, b]
            .iter()
            .all(|v| matches!(v, Value::Tensor(t) if t.dtype() == DType::Bool));
        if matches!(op, Operator::BitAnd | Operator::BitOr | Operator::BitXor) && both_bool {
            return self.tensor_logical(op, a, b).await;
        }
        // Bitwise operators on integers (and bool with numbers) are compositions
        // in the prelude (`bitwise_and`, ...), which also give PyTorch's errors.
        let bitwise = match op {
            Operator::BitAnd => Some("bitwise_and"),
            Operator::BitOr => Some("bitwise_or"),
            Operator::BitXor => Some("bitwise_xor"),
            Operator::LShift => Some("bitwise_left_shift"),
            Operator::RShift => Some("bitwise_right_shift"),
            _ => None,
        };
        if let Some(name) = bitwise {
            return self
                .call_tensor_class(name, vec![a.clone(), b.clone()])
                .await;
        }
        let bin = match op {
            Operator::Add => BinaryOp::Add,
            Operator::Sub => BinaryOp::Sub,
            Operator::Mult => BinaryOp::Mul,
            Operator::Div => BinaryOp::Div,
            Operator::Pow => BinaryOp::Pow,
            Operator::FloorDiv => BinaryOp::FloorDiv,
            Operator::Mod => BinaryOp::Remainder,
            _ => {
                return Err(PyErr::not_implemented(format!(
                    "the {} operator on tensors is not supported yet",
                    op.as_str()
                )));
            }
        };
        if !matches!((a, b), (Value::Tensor(_), _) | (_, Value::Tensor(_))) {
            return Err(unsupported());
        }
        if scalar_kind(a).is_none() && !matches!(a, Value::Tensor(_))
            || scalar_kind(b).is_none() && !matches!(b, Value::Tensor(_))
        {
            return Err(unsupported());
        }
        self.binary_values(bin, a, b).await
    }

    /// Calls the prelude's `Tensor.<name>` (a Python function) with `args`.
    async fn call_tensor_class(&mut self, name: &str, args: Vec<Value>) -> PyResult<Value> {
        match self.tensor_class.as_ref().and_then(|c| c.lookup(name)) {
            Some(f) => self.call(f, args, Vec::new()).await,
            None => Err(PyErr::not_implemented(format!("Tensor.{name}"))),
        }
    }

    /// `&`, `|`, `^` on bool tensors (and bool numbers).
    async fn tensor_logical(&mut self, op: Operator, a: &Value, b: &Value) -> PyResult<Value> {
        let as_bool = |v: &Value| -> Option<Tensor> {
            match v {
                Value::Tensor(t) if t.dtype() == DType::Bool => Some(t.clone()),
                _ => None,
            }
        };
        let (Some(x), Some(y)) = (as_bool(a), as_bool(b)) else {
            return Err(PyErr::not_implemented(format!(
                "the {} operator is only supported on two bool tensors",
                op.as_str()
            )));
        };
        let (xi, yi) = (
            self.runtime.cast(&x, DType::Int64).await?,
            self.runtime.cast(&y, DType::Int64).await?,
        );
        let combined = match op {
            Operator::BitAnd => self.runtime.binary(BinaryOp::Mul, &xi, &yi).await?,
            Operator::BitOr => self.runtime.binary(BinaryOp::Add, &xi, &yi).await?,
            _ => {
                let s = self.runtime.binary(BinaryOp::Sub, &xi, &yi).await?;
                self.runtime.unary(UnaryOp::Abs, &s).await?
            }
        };
        Ok(Value::Tensor(
            self.runtime
                .compare_scalar(CompareOp::Ne, &combined, 0.0)
                .await?,
        ))
    }
}

/// Nested Python lists in the tensor's shape, as `tolist()` returns: floats,
/// ints or bools by dtype.
fn nest(values: &HostData, start: usize, dims: &[usize]) -> Value {
    match dims {
        [] => scalar_value(values.scalar(start)),
        [n, rest @ ..] => {
            let inner: usize = rest.iter().product();
            Value::list(
                (0..*n)
                    .map(|i| nest(values, start + i * inner, rest))
                    .collect(),
            )
        }
    }
}
