//! `torch._C`: the primitives the Python prelude (`torch/prelude/*.py`) builds the
//! torch API from. Each takes positional arguments already normalised by the
//! prelude's Python signatures (defaults, keywords, `*sizes`), so parsing here is
//! only type checking. Everything with a PyTorch name and signature lives in the
//! prelude; everything that computes lives in the runtime.

use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::value::Value;
use crate::torch::module::parse_device;
use crate::torch::scalars::{scalar_dtype_beside, scalar_kind};
use tpu_ir::{BinaryOp, CompareOp, DType, ReduceOp, Shape, UnaryOp};
use tpu_runtime::{Device, HostData, Tensor, normalize_axis};

/// Every primitive, by name, as `torch._C.<name>`.
pub const NATIVE_FUNCTIONS: &[&str] = &[
    "torch._C.unary",
    "torch._C.binary",
    "torch._C.compare",
    "torch._C.where",
    "torch._C.matmul",
    "torch._C.mm",
    "torch._C.bmm",
    "torch._C.sum",
    "torch._C.prod",
    "torch._C.mean",
    "torch._C.extremum_dim",
    "torch._C.extremum_all",
    "torch._C.arg_extremum",
    "torch._C.cumsum",
    "torch._C.view",
    "torch._C.reshape",
    "torch._C.permute",
    "torch._C.transpose",
    "torch._C.expand",
    "torch._C.unsqueeze",
    "torch._C.squeeze",
    "torch._C.contiguous",
    "torch._C.is_contiguous",
    "torch._C.clone",
    "torch._C.detach",
    "torch._C.slice",
    "torch._C.select",
    "torch._C.cat",
    "torch._C.take",
    "torch._C.nonzero",
    "torch._C.backward",
    "torch._C.requires_grad_",
    "torch._C.set_grad_enabled",
    "torch._C.is_grad_enabled",
    "torch._C.retain_grad",
    "torch._C.rename_grad_fn",
    "torch._C.assign",
    "torch._C.write",
    "torch._C.fill_random",
    "torch._C.set_data",
    "torch._C.parameter",
    "torch._C.is_parameter",
    "torch._C.arange",
    "torch._C.linspace",
    "torch._C.eye",
    "torch._C.randint",
    "torch._C.randperm",
    "torch._C.cast",
    "torch._C.to_device",
    "torch._C.same_storage",
    "torch._C.grad",
    "torch._C.set_grad",
];

/// Positional arguments with typed accessors that raise `TypeError`.
struct Args<'a> {
    name: &'a str,
    values: Vec<Value>,
}

impl Args<'_> {
    fn get(&self, i: usize) -> PyResult<&Value> {
        self.values
            .get(i)
            .ok_or_else(|| PyErr::type_error(format!("_C.{}() missing argument {i}", self.name)))
    }

    fn tensor(&self, i: usize) -> PyResult<Tensor> {
        match self.get(i)? {
            Value::Tensor(t) => Ok(t.clone()),
            other => Err(PyErr::type_error(format!(
                "{}(): argument 'input' (position {}) must be Tensor, not {}",
                self.name,
                i + 1,
                other.type_name()
            ))),
        }
    }

    fn int(&self, i: usize) -> PyResult<i64> {
        let v = self.get(i)?;
        v.as_int().ok_or_else(|| {
            PyErr::type_error(format!(
                "{}(): argument {} must be int, not {}",
                self.name,
                i + 1,
                v.type_name()
            ))
        })
    }

    fn float(&self, i: usize) -> PyResult<f64> {
        let v = self.get(i)?;
        match v {
            Value::Tensor(_) => Err(PyErr::type_error(format!(
                "{}(): argument {} must be a number, not Tensor",
                self.name,
                i + 1
            ))),
            _ => v.as_number().ok_or_else(|| {
                PyErr::type_error(format!(
                    "{}(): argument {} must be a number, not {}",
                    self.name,
                    i + 1,
                    v.type_name()
                ))
            }),
        }
    }

    fn bool(&self, i: usize) -> PyResult<bool> {
        Ok(match self.get(i)? {
            Value::Bool(b) => *b,
            Value::Int(n) => *n != 0,
            Value::None => false,
            other => {
                return Err(PyErr::type_error(format!(
                    "{}(): argument {} must be bool, not {}",
                    self.name,
                    i + 1,
                    other.type_name()
                )));
            }
        })
    }

    fn str(&self, i: usize) -> PyResult<String> {
        match self.get(i)? {
            Value::Str(s) => Ok(s.to_string()),
            other => Err(PyErr::type_error(format!(
                "{}(): argument {} must be str, not {}",
                self.name,
                i + 1,
                other.type_name()
            ))),
        }
    }

    /// An int, a sequence of ints, or `torch.Size`.
    fn ints(&self, i: usize) -> PyResult<Vec<i64>> {
        ints_of(self.get(i)?, self.name)
    }

    /// `None` or ints (a single int becomes a one-element list).
    fn opt_ints(&self, i: usize) -> PyResult<Option<Vec<i64>>> {
        match self.values.get(i) {
            None | Some(Value::None) => Ok(None),
            Some(v) => ints_of(v, self.name).map(Some),
        }
    }

    fn opt_dtype(&self, i: usize) -> PyResult<Option<DType>> {
        match self.values.get(i) {
            None | Some(Value::None) => Ok(None),
            Some(Value::DType(d)) => Ok(Some(*d)),
            Some(other) => Err(PyErr::type_error(format!(
                "{}(): argument 'dtype' must be torch.dtype, not {}",
                self.name,
                other.type_name()
            ))),
        }
    }

    fn device(&self, i: usize) -> PyResult<Device> {
        match self.values.get(i) {
            None | Some(Value::None) => Ok(Device::Cpu),
            Some(v) => parse_device(v),
        }
    }

    fn take(&mut self, i: usize) -> Value {
        std::mem::replace(&mut self.values[i], Value::None)
    }
}

/// An int, a list/tuple of ints, or a `torch.Size`, as dims.
pub fn ints_of(v: &Value, function: &str) -> PyResult<Vec<i64>> {
    let bad = |what: &Value| {
        PyErr::type_error(format!(
            "{function}(): argument 'size' must be tuple of ints, but found element of type {}",
            what.type_name()
        ))
    };
    let items: Vec<Value> = match v {
        Value::Int(n) => return Ok(vec![*n]),
        Value::Size(s) => return Ok(s.iter().map(|&d| d as i64).collect()),
        Value::Tuple(t) => t.to_vec(),
        Value::List(l) => l.borrow().clone(),
        other => return Err(bad(other)),
    };
    items
        .iter()
        .map(|x| match x {
            Value::Bool(_) => Err(bad(x)),
            _ => x.as_int().ok_or_else(|| bad(x)),
        })
        .collect()
}

fn binary_op(name: &str) -> Option<BinaryOp> {
    Some(match name {
        "add" => BinaryOp::Add,
        "sub" => BinaryOp::Sub,
        "mul" => BinaryOp::Mul,
        "div" => BinaryOp::Div,
        "pow" => BinaryOp::Pow,
        "maximum" => BinaryOp::Maximum,
        "minimum" => BinaryOp::Minimum,
        "floor_divide" => BinaryOp::FloorDiv,
        "remainder" => BinaryOp::Remainder,
        _ => return None,
    })
}

fn compare_op(name: &str) -> Option<CompareOp> {
    Some(match name {
        "eq" => CompareOp::Eq,
        "ne" => CompareOp::Ne,
        "lt" => CompareOp::Lt,
        "le" => CompareOp::Le,
        "gt" => CompareOp::Gt,
        "ge" => CompareOp::Ge,
        _ => return None,
    })
}

fn tensor(t: Tensor) -> Value {
    Value::Tensor(t)
}

impl Interpreter<'_> {
    /// `a op b` where either may be a Python number, as the operators and
    /// `torch.add`/`torch.maximum`/... compute it.
    pub async fn binary_values(&mut self, op: BinaryOp, a: &Value, b: &Value) -> PyResult<Value> {
        let unsupported = || {
            PyErr::type_error(format!(
                "{}(): unsupported operand types '{}' and '{}'",
                op.name(),
                a.type_name(),
                b.type_name()
            ))
        };
        Ok(tensor(match (a, b) {
            (Value::Tensor(x), Value::Tensor(y)) => self.runtime.binary(op, x, y).await?,
            (Value::Tensor(x), s) => {
                let (s, kind) = scalar_kind(s).ok_or_else(unsupported)?;
                self.runtime.binary_scalar(op, x, s, kind, false).await?
            }
            (s, Value::Tensor(y)) => {
                let (s, kind) = scalar_kind(s).ok_or_else(unsupported)?;
                self.runtime.binary_scalar(op, y, s, kind, true).await?
            }
            _ => return Err(unsupported()),
        }))
    }

    /// A tensor for `v`: itself, or a 0-d tensor for a Python number placed
    /// next to `like`.
    async fn as_tensor(&mut self, v: &Value, like: Option<&Tensor>) -> PyResult<Tensor> {
        match v {
            Value::Tensor(t) => Ok(t.clone()),
            other => {
                let (x, kind) = scalar_kind(other).ok_or_else(|| {
                    PyErr::type_error(format!(
                        "expected a Tensor or a number, not {}",
                        other.type_name()
                    ))
                })?;
                let dtype = scalar_dtype_beside(kind, like.map(|t| t.dtype()));
                let device = like.map_or(Device::Cpu, |t| t.device());
                Ok(self.runtime.full(Shape::scalar(), x, dtype, device).await?)
            }
        }
    }

    pub async fn call_native(&mut self, name: &str, values: Vec<Value>) -> PyResult<Value> {
        let mut a = Args { name, values };
        let rt = &mut *self.runtime;
        let axis = |t: &Tensor, d: i64| normalize_axis(d, t.rank()).map_err(PyErr::from);
        let axes = |t: &Tensor, ds: &[i64]| -> PyResult<Vec<usize>> {
            ds.iter()
                .map(|&d| normalize_axis(d, t.rank()).map_err(PyErr::from))
                .collect()
        };
        Ok(match name {
            "unary" => {
                let op_name = a.str(0)?;
                let op = UnaryOp::from_name(&op_name)
                    .ok_or_else(|| PyErr::not_implemented(format!("unary op {op_name}")))?;
                tensor(rt.unary(op, &a.tensor(1)?).await?)
            }
            "binary" => {
                let op_name = a.str(0)?;
                let op = binary_op(&op_name)
                    .ok_or_else(|| PyErr::not_implemented(format!("binary op {op_name}")))?;
                let (x, y) = (a.get(1)?.clone(), a.get(2)?.clone());
                return self.binary_values(op, &x, &y).await;
            }
            "compare" => {
                let op_name = a.str(0)?;
                let op = compare_op(&op_name)
                    .ok_or_else(|| PyErr::not_implemented(format!("comparison {op_name}")))?;
                let (x, y) = (a.get(1)?.clone(), a.get(2)?.clone());
                match (&x, &y) {
                    (Value::Tensor(p), Value::Tensor(q)) => tensor(rt.compare(op, p, q).await?),
                    (Value::Tensor(p), s) => {
                        let (s, _) = scalar_kind(s).ok_or_else(|| {
                            PyErr::type_error(format!(
                                "{op_name}(): argument 'other' must be Tensor or a number"
                            ))
                        })?;
                        tensor(rt.compare_scalar(op, p, s).await?)
                    }
                    _ => {
                        return Err(PyErr::type_error(format!(
                            "{op_name}(): argument 'input' must be Tensor"
                        )));
                    }
                }
            }
            "where" => {
                let cond = a.tensor(0)?;
                let (x, y) = (a.get(1)?.clone(), a.get(2)?.clone());
                let like = match (&x, &y) {
                    (Value::Tensor(t), _) | (_, Value::Tensor(t)) => Some(t.clone()),
                    _ => None,
                };
                let device = like.as_ref().map_or(cond.device(), |t| t.device());
                let x = self.as_tensor(&x, like.as_ref()).await?;
                let y = self.as_tensor(&y, like.as_ref()).await?;
                let rt = &mut *self.runtime;
                let (x, y) = (
                    rt.to_device(&x, device).await?,
                    rt.to_device(&y, device).await?,
                );
                tensor(rt.where_(&cond, &x, &y).await?)
            }
            "matmul" => tensor(rt.matmul(&a.tensor(0)?, &a.tensor(1)?).await?),
            "mm" | "bmm" => {
                let (x, y) = (a.tensor(0)?, a.tensor(1)?);
                let rank = if name == "mm" { 2 } else { 3 };
                if x.rank() != rank || y.rank() != rank {
                    let which = if x.rank() != rank { "self" } else { "mat2" };
                    let msg = if name == "mm" {
                        format!("{which} must be a matrix")
                    } else {
                        format!(
                            "batch{} must be a 3D tensor",
                            if x.rank() != rank { 1 } else { 2 }
                        )
                    };
                    return Err(PyErr::new("RuntimeError", msg));
                }
                tensor(rt.mm(&x, &y).await?)
            }
            "sum" | "prod" => {
                let t = a.tensor(0)?;
                let dims = a.opt_ints(1)?;
                let keepdim = a.bool(2)?;
                let op = if name == "sum" {
                    ReduceOp::Sum
                } else {
                    ReduceOp::Prod
                };
                match dims {
                    None if name == "sum" => tensor(rt.sum(&t).await?),
                    None => {
                        let flat = rt.flat(&t).await?;
                        let out = rt.reduce_axes(op, &flat, &[0], false).await?;
                        tensor(rt.reshape(&out, &[]).await?)
                    }
                    Some(ds) => {
                        let ax = axes(&t, &ds)?;
                        if t.rank() == 0 {
                            tensor(rt.reduce_axes(op, &t, &[], keepdim).await?)
                        } else {
                            tensor(rt.reduce_axes(op, &t, &ax, keepdim).await?)
                        }
                    }
                }
            }
            "mean" => {
                let t = a.tensor(0)?;
                let keepdim = a.bool(2)?;
                match a.opt_ints(1)? {
                    None => tensor(rt.mean(&t, None, false).await?),
                    Some(ds) => {
                        let ax = axes(&t, &ds)?;
                        tensor(rt.mean(&t, Some(&ax), keepdim).await?)
                    }
                }
            }
            "extremum_dim" => {
                let t = a.tensor(0)?;
                let d = axis(&t, a.int(1)?)?;
                let want_indices = match a.values.get(4) {
                    None => true,
                    Some(_) => a.bool(4)?,
                };
                let (v, i) = rt
                    .extremum_along(a.bool(3)?, &t, d, a.bool(2)?, want_indices)
                    .await?;
                Value::tuple(vec![tensor(v), i.map_or(Value::None, tensor)])
            }
            "extremum_all" => tensor(rt.extremum_all(a.bool(1)?, &a.tensor(0)?).await?),
            "arg_extremum" => {
                let t = a.tensor(0)?;
                let d = match a.get(1)? {
                    Value::None => None,
                    _ => Some(axis(&t, a.int(1)?)?),
                };
                tensor(rt.arg_extremum(a.bool(3)?, &t, d, a.bool(2)?).await?)
            }
            "cumsum" => {
                let t = a.tensor(0)?;
                let d = axis(&t, a.int(1)?)?;
                tensor(rt.cumsum(&t, d).await?)
            }
            "view" => tensor(rt.view(&a.tensor(0)?, &a.ints(1)?)?),
            "reshape" => tensor(rt.reshape(&a.tensor(0)?, &a.ints(1)?).await?),
            "permute" => tensor(rt.permute(&a.tensor(0)?, &a.ints(1)?)?),
            "transpose" => tensor(rt.transpose(&a.tensor(0)?, a.int(1)?, a.int(2)?)?),
            "expand" => tensor(rt.expand(&a.tensor(0)?, &a.ints(1)?)?),
            "unsqueeze" => tensor(rt.unsqueeze(&a.tensor(0)?, a.int(1)?)?),
            "squeeze" => {
                let t = a.tensor(0)?;
                let dims = a.opt_ints(1)?;
                tensor(rt.squeeze(&t, dims.as_deref())?)
            }
            "contiguous" => tensor(rt.contiguous(&a.tensor(0)?).await?),
            "is_contiguous" => Value::Bool(a.tensor(0)?.is_contiguous()),
            "clone" => tensor(rt.clone_tensor(&a.tensor(0)?).await?),
            "detach" => tensor(rt.detach(&a.tensor(0)?)),
            "slice" => {
                let t = a.tensor(0)?;
                let d = axis(&t, a.int(1)?)?;
                let opt = |v: &Value| v.as_int();
                let (start, stop) = (opt(a.get(2)?), opt(a.get(3)?));
                tensor(rt.slice(&t, d, start, stop, a.int(4)?)?)
            }
            "select" => {
                let t = a.tensor(0)?;
                let d = axis(&t, a.int(1)?)?;
                tensor(rt.select(&t, d, a.int(2)?)?)
            }
            "cat" => {
                let items = self.collect(a.get(0)?.clone()).await?;
                let mut ts = Vec::with_capacity(items.len());
                for (i, item) in items.into_iter().enumerate() {
                    match item {
                        Value::Tensor(t) => ts.push(t),
                        other => {
                            return Err(PyErr::type_error(format!(
                                "expected Tensor as element {i} in argument 0, but got {}",
                                other.type_name()
                            )));
                        }
                    }
                }
                tensor(self.runtime.cat(&ts, a.int(1)?).await?)
            }
            "take" => tensor(rt.take(&a.tensor(0)?, &a.tensor(1)?).await?),
            "nonzero" => {
                let t = a.tensor(0)?;
                let values = rt.read(&t).await?.to_f64();
                let dims = t.dims();
                let mut coords = Vec::new();
                let mut count = 0;
                for (i, v) in values.iter().enumerate() {
                    if *v != 0.0 {
                        count += 1;
                        let mut c = vec![0i64; dims.len()];
                        let mut rest = i;
                        for d in (0..dims.len()).rev() {
                            c[d] = (rest % dims[d]) as i64;
                            rest /= dims[d];
                        }
                        coords.extend(c);
                    }
                }
                let shape = Shape::new([count, dims.len()]);
                tensor(
                    rt.from_data(HostData::I64(coords), shape, t.device())
                        .await?,
                )
            }
            "backward" => {
                let t = a.tensor(0)?;
                let grad = match a.get(1)? {
                    Value::None => None,
                    Value::Tensor(g) => Some(g.clone()),
                    other => {
                        return Err(PyErr::type_error(format!(
                            "backward(): argument 'gradient' must be Tensor, not {}",
                            other.type_name()
                        )));
                    }
                };
                rt.backward(&t, grad, a.bool(2)?).await?;
                Value::None
            }
            "requires_grad_" => {
                let t = a.tensor(0)?;
                rt.set_requires_grad(&t, a.bool(1)?)?;
                tensor(t)
            }
            "set_grad_enabled" => Value::Bool(rt.set_grad_enabled(a.bool(0)?)),
            "is_grad_enabled" => Value::Bool(rt.grad_enabled()),
            "retain_grad" => {
                rt.retain_grad(&a.tensor(0)?)?;
                Value::None
            }
            "rename_grad_fn" => {
                a.tensor(0)?.rename_grad_fn(&a.str(1)?);
                Value::None
            }
            "assign" => {
                let t = a.tensor(0)?;
                let result = match a.take(1) {
                    Value::Tensor(r) => r,
                    other => self.as_tensor(&other, Some(&t)).await?,
                };
                let rt = &mut *self.runtime;
                let result = if result.dtype() != t.dtype() {
                    check_cast(result.dtype(), t.dtype())?;
                    rt.cast(&result, t.dtype()).await?
                } else {
                    result
                };
                let result = if result.device() == t.device() {
                    result
                } else {
                    rt.to_device(&result, t.device()).await?
                };
                rt.assign(&t, result).await?;
                tensor(t)
            }
            "write" => {
                let t = a.tensor(0)?;
                let v = a.get(1)?.clone();
                let v = self.as_tensor(&v, Some(&t)).await?;
                let rt = &mut *self.runtime;
                let v = rt.to_device(&v, t.device()).await?;
                Shape::broadcast(&t.shape(), &v.shape())
                    .ok()
                    .filter(|s| s.dims() == t.dims().as_slice())
                    .ok_or_else(|| {
                        PyErr::new(
                            "RuntimeError",
                            format!(
                                "The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton dimension {}",
                                t.dims().last().copied().unwrap_or(1),
                                v.dims().last().copied().unwrap_or(1),
                                t.rank().saturating_sub(1)
                            ),
                        )
                    })?;
                rt.write(&t, &v).await?;
                tensor(t)
            }
            "fill_random" => {
                let t = a.tensor(0)?;
                if !t.dtype().is_floating() {
                    return Err(PyErr::not_implemented(format!(
                        "random fills of {} tensors are not supported",
                        t.dtype().torch_name()
                    )));
                }
                rt.fill_random(&t, a.bool(1)?, a.float(2)?, a.float(3)?)
                    .await?;
                tensor(t)
            }
            "set_data" => {
                let (t, v) = (a.tensor(0)?, a.tensor(1)?);
                rt.set_data(&t, &v);
                Value::None
            }
            "parameter" => {
                let t = rt.detach(&a.tensor(0)?);
                t.mark_parameter();
                if !a.bool(1)? {
                    rt.set_requires_grad(&t, false)?;
                }
                tensor(t)
            }
            "is_parameter" => Value::Bool(a.tensor(0)?.is_parameter()),
            "arange" => {
                let (start, end, step) = (a.get(0)?.clone(), a.get(1)?.clone(), a.get(2)?.clone());
                let all_int = [&start, &end, &step]
                    .iter()
                    .all(|v| matches!(v, Value::Int(_)));
                let (s, e, st) = (a.float(0)?, a.float(1)?, a.float(2)?);
                if st == 0.0 {
                    return Err(PyErr::new("RuntimeError", "step must be nonzero"));
                }
                if (st > 0.0 && e < s) || (st < 0.0 && e > s) {
                    return Err(PyErr::new(
                        "RuntimeError",
                        "upper bound and larger bound inconsistent with step sign",
                    ));
                }
                let count = ((e - s) / st).ceil().max(0.0);
                let dtype = a.opt_dtype(3)?.unwrap_or(if all_int {
                    DType::Int64
                } else {
                    DType::Float32
                });
                let device = a.device(4)?;
                let n = checked_len(rt, count, dtype)?;
                let data = if dtype == DType::Int64 && all_int {
                    let (s, st) = (start.as_int().unwrap_or(0), step.as_int().unwrap_or(1));
                    HostData::I64((0..n as i64).map(|i| s + i * st).collect())
                } else {
                    HostData::F32((0..n).map(|i| (s + st * i as f64) as f32).collect()).cast(dtype)
                };
                tensor(rt.from_data(data, Shape::new([n]), device).await?)
            }
            "linspace" => {
                let (s, e) = (a.float(0)?, a.float(1)?);
                let n = a.int(2)?;
                if n < 0 {
                    return Err(PyErr::new(
                        "RuntimeError",
                        "number of steps must be non-negative",
                    ));
                }
                let dtype = a.opt_dtype(3)?.unwrap_or(DType::Float32);
                let n = checked_len(rt, n as f64, dtype)?;
                let device = a.device(4)?;
                // PyTorch's CPU kernel: the first half steps up from `start`, the
                // second half down from `end`, in float32.
                let (sf, ef) = (s as f32, e as f32);
                let step = if n > 1 {
                    (ef - sf) / (n - 1) as f32
                } else {
                    0.0
                };
                let half = n / 2;
                let values: Vec<f32> = (0..n)
                    .map(|i| {
                        if i < half {
                            sf + step * i as f32
                        } else {
                            ef - step * (n - 1 - i) as f32
                        }
                    })
                    .collect();
                let data = HostData::F32(values).cast(dtype);
                tensor(rt.from_data(data, Shape::new([n]), device).await?)
            }
            "eye" => {
                let n = a.int(0)?.max(0) as usize;
                let m = match a.get(1)? {
                    Value::None => n,
                    _ => a.int(1)?.max(0) as usize,
                };
                let dtype = a.opt_dtype(2)?.unwrap_or(DType::Float32);
                let device = a.device(3)?;
                checked_len(rt, n as f64 * m as f64, DType::Float32)?;
                let values: Vec<f32> = (0..n * m)
                    .map(|i| if i / m == i % m { 1.0 } else { 0.0 })
                    .collect();
                let data = HostData::F32(values).cast(dtype);
                tensor(rt.from_data(data, Shape::new([n, m]), device).await?)
            }
            "randint" => {
                let (low, high) = (a.int(0)?, a.int(1)?);
                if high <= low {
                    return Err(PyErr::new(
                        "RuntimeError",
                        format!(
                            "random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
                        ),
                    ));
                }
                let dims: Vec<usize> = a.ints(2)?.iter().map(|&d| d.max(0) as usize).collect();
                let shape = Shape::new(dims);
                let dtype = a.opt_dtype(3)?.unwrap_or(DType::Int64);
                let device = a.device(4)?;
                match shape.checked_numel() {
                    Some(n) => checked_len(rt, n as f64, DType::Int64)?,
                    None => {
                        return Err(PyErr::new("RuntimeError", "randint: the size is too large"));
                    }
                };
                let values = rt.generator.randint(low, high, shape.numel());
                let data = HostData::I64(values).cast(dtype);
                tensor(rt.from_data(data, shape, device).await?)
            }
            "randperm" => {
                let dtype = a.opt_dtype(1)?.unwrap_or(DType::Int64);
                let n = checked_len(rt, a.int(0)?.max(0) as f64, DType::Int64)?;
                let device = a.device(2)?;
                let data = HostData::I64(rt.generator.randperm(n)).cast(dtype);
                tensor(rt.from_data(data, Shape::new([n]), device).await?)
            }
            "cast" => {
                let t = a.tensor(0)?;
                match a.opt_dtype(1)? {
                    Some(d) => tensor(rt.cast(&t, d).await?),
                    None => tensor(t),
                }
            }
            "to_device" => {
                let t = a.tensor(0)?;
                let d = a.device(1)?;
                tensor(rt.to_device(&t, d).await?)
            }
            "same_storage" => Value::Bool(a.tensor(0)?.shares_storage(&a.tensor(1)?)),
            "grad" => a.tensor(0)?.grad().map_or(Value::None, tensor),
            "set_grad" => {
                let t = a.tensor(0)?;
                match a.get(1)? {
                    Value::None => t.set_grad(None),
                    Value::Tensor(g) => t.set_grad(Some(g.clone())),
                    other => {
                        return Err(PyErr::type_error(format!(
                            "assigned grad expected to be a Tensor or None but got grad of type {}",
                            other.type_name()
                        )));
                    }
                }
                Value::None
            }
            other => {
                return Err(PyErr::not_implemented(format!("torch._C.{other}")));
            }
        })
    }
}

/// A 1-D length computed from Python numbers, checked against the memory
/// limits before anything is allocated for it.
fn checked_len(rt: &mut tpu_runtime::Runtime, count: f64, dtype: DType) -> PyResult<usize> {
    if !count.is_finite() || count > (1u64 << 48) as f64 {
        return Err(PyErr::new(
            "RuntimeError",
            format!("a tensor of {count} elements is too large to allocate"),
        ));
    }
    let n = count as usize;
    rt.check_allocation(&Shape::new([n]), dtype)?;
    Ok(n)
}

/// PyTorch's rule for writing a result into an existing tensor: no float into
/// an integer tensor, no number into a bool tensor.
pub fn check_cast(from: DType, to: DType) -> PyResult<()> {
    let rank = |d: DType| match d {
        DType::Bool => 0,
        DType::Int64 => 1,
        _ => 2,
    };
    if rank(from) > rank(to) {
        return Err(PyErr::new(
            "RuntimeError",
            format!(
                "result type {} can't be cast to the desired output type {}",
                tpu_runtime::scalar_type_name(from),
                tpu_runtime::scalar_type_name(to)
            ),
        ));
    }
    Ok(())
}
