//! `torch._C`'s primitives, each a runtime call with PyTorch's messages.
//! `PORTED` lists them (with `autograd`'s, `capture`'s and `distributed`'s);
//! a name not there raises `NotImplementedError` naming it (`torch_c.rs`).

use crate::args::{Args, items, scalar_kind, type_name};
use crate::runtime::with_runtime;
use crate::torch_c::_tpu_torch::{PyTensor, wrap};
use rustpython_vm::{PyObjectRef, PyResult, VirtualMachine};
use tpu_ir::{BinaryOp, CompareOp, DType, IntOrFloat, ReduceOp, Shape, UnaryOp};
use tpu_runtime::{Device, Tensor};

/// The primitives ported so far.
pub(crate) const PORTED: &[&str] = &[
    // Elementwise.
    "unary",
    "binary",
    "compare",
    "where",
    // Products and reductions.
    "matmul",
    "mm",
    "bmm",
    "sum",
    "prod",
    "mean",
    "extremum_all",
    "cumsum",
    // Views, layouts and copies.
    "view",
    "reshape",
    "permute",
    "transpose",
    "expand",
    "unsqueeze",
    "squeeze",
    "contiguous",
    "is_contiguous",
    "clone",
    "slice",
    "select",
    "cat",
    "cast",
    "to_device",
    // Creation.
    "arange",
    "linspace",
    "eye",
    "randint",
    "randperm",
    // Autograd state (the rest of the family: `autograd::PORTED`).
    "requires_grad_",
    // Reads.
    "tolist",
    "stride",
    "storage_offset",
    "same_storage",
    "nonzero",
    // Writes.
    "assign",
    "write",
    "put",
    "fill_random",
    // More reductions.
    "extremum_dim",
    "arg_extremum",
    // Printing.
    "set_printoptions",
    "complex_repr",
    // More views.
    "unfold",
    "pad",
    "take",
    // Generators.
    "generator_new",
    "generator_seed",
    "generator_swap",
    "random_ints",
    "rng_save",
    "rng_restore",
    "rng_get_state",
    "rng_set_state",
];

fn tensor(t: Tensor, vm: &VirtualMachine) -> PyResult<PyObjectRef> {
    wrap(t, vm)
}

/// `name` as a ported primitive's static name.
pub(crate) fn ported(name: &str) -> Option<&'static str> {
    PORTED
        .iter()
        .chain(crate::autograd::PORTED)
        .chain(crate::capture::PORTED)
        .chain(crate::distributed::PORTED)
        .find(|&&p| p == name)
        .copied()
}

/// `assign(t, result)` where `result` is a temporary (`t.add_(x)` is
/// `assign(t, t.add(x))`): this call holds the only reference to it, so its
/// object is dropped here and its tensor handed on alone, and the runtime
/// gives its storage to `t` instead of copying it in. `values[1]` is then
/// `None`.
fn take_temporary(mut values: Vec<PyObjectRef>) -> (Vec<PyObjectRef>, Option<Tensor>) {
    let Some(result) = values.get(1) else {
        return (values, None);
    };
    if result.strong_count() != 1 {
        return (values, None);
    }
    let Some(tensor) = result.downcast_ref::<PyTensor>().map(|t| t.tensor()) else {
        return (values, None);
    };
    // Dropping the object drops its handle on the storage.
    values[1] = values[0].clone();
    (values, Some(tensor))
}

/// Runs primitive `name` on `values`.
pub(crate) fn call(name: &str, values: Vec<PyObjectRef>, vm: &VirtualMachine) -> PyResult {
    if let Some(handler) = crate::distributed::dispatch_override(&values, vm) {
        let args = vm.ctx.new_list(values);
        return handler.call((vm.ctx.new_str(name), args), vm);
    }
    let (values, temporary) = if name == "assign" {
        take_temporary(values)
    } else {
        (values, None)
    };
    let a = Args {
        name,
        values,
        vm,
        temporary: std::cell::Cell::new(temporary),
    };
    if crate::distributed::PORTED.contains(&name) {
        return crate::distributed::call(&a);
    }
    if crate::autograd::PORTED.contains(&name) {
        return crate::autograd::call(&a);
    }
    if crate::capture::PORTED.contains(&name) {
        return crate::capture::call(&a);
    }
    match name {
        "unary" | "binary" | "compare" | "where" => elementwise(&a),
        "matmul" | "mm" | "bmm" | "sum" | "prod" | "mean" | "extremum_all" | "cumsum" => {
            reductions(&a)
        }
        "arange" | "linspace" | "eye" | "randint" | "randperm" => creation(&a),
        "assign" | "write" | "put" | "fill_random" => writes(&a),
        "extremum_dim" | "arg_extremum" => extrema(&a),
        "set_printoptions" => crate::printing::set_printoptions(&a),
        "complex_repr" => crate::printing::complex_repr(&a),
        "generator_new" | "generator_seed" | "generator_swap" | "random_ints" | "rng_save"
        | "rng_restore" | "rng_get_state" | "rng_set_state" => crate::generators::call(&a),
        "stride" => {
            let strides = a.tensor(0)?.strides();
            let items = strides
                .into_iter()
                .map(|s| vm.ctx.new_int(s).into())
                .collect();
            Ok(vm.ctx.new_tuple(items).into())
        }
        "storage_offset" => Ok(vm.ctx.new_int(a.tensor(0)?.storage_offset()).into()),
        "same_storage" => Ok(vm
            .ctx
            .new_bool(a.tensor(0)?.shares_storage(&a.tensor(1)?))
            .into()),
        "nonzero" => {
            let t = a.tensor(0)?;
            tensor(with_runtime(vm, async |rt| rt.nonzero(&t).await)?, vm)
        }
        "tolist" => {
            let t = a.tensor(0)?;
            let asked = crate::capture::asked_by_program(vm);
            let data = with_runtime(vm, async |rt| {
                if asked {
                    rt.set_sync_reason(".tolist()");
                }
                rt.read(&t).await
            })?;
            Ok(nested_list(&data, &t.dims(), vm))
        }
        "requires_grad_" => {
            let t = a.tensor(0)?;
            let flag = a.bool(1)?;
            if flag && !t.dtype().is_floating() {
                return Err(vm.new_runtime_error(
                    "Only Tensors of floating point and complex dtype can require gradients",
                ));
            }
            with_runtime(vm, async |rt| rt.set_requires_grad(&t, flag))?;
            Ok(a.values[0].clone())
        }
        _ => views(&a),
    }
}

fn elementwise(a: &Args<'_>) -> PyResult {
    let vm = a.vm;
    match a.name {
        "unary" => {
            let op_name = a.str(0)?;
            let op = UnaryOp::from_name(&op_name)
                .ok_or_else(|| vm.new_not_implemented_error(format!("unary op {op_name}")))?;
            let t = a.tensor(1)?;
            tensor(with_runtime(vm, async |rt| rt.unary(op, &t).await)?, vm)
        }
        "binary" => {
            let op_name = a.str(0)?;
            let op = BinaryOp::from_name(&op_name)
                .ok_or_else(|| vm.new_not_implemented_error(format!("binary op {op_name}")))?;
            binary_values(op, a.get(1)?, a.get(2)?, vm)
        }
        "compare" => {
            let op_name = a.str(0)?;
            let op = CompareOp::from_name(&op_name)
                .ok_or_else(|| vm.new_not_implemented_error(format!("comparison {op_name}")))?;
            let p = a.tensor(1).map_err(|_| {
                vm.new_type_error(format!("{op_name}(): argument 'input' must be Tensor"))
            })?;
            let y = a.get(2)?;
            let out = match y.downcast_ref::<PyTensor>() {
                Some(q) => {
                    let q = q.tensor();
                    with_runtime(vm, async |rt| rt.compare(op, &p, &q).await)?
                }
                None => {
                    let (s, _) = scalar_kind(y, vm).ok_or_else(|| {
                        vm.new_type_error(format!(
                            "{op_name}(): argument 'other' must be Tensor or a number"
                        ))
                    })?;
                    with_runtime(vm, async |rt| rt.compare_scalar(op, &p, s).await)?
                }
            };
            tensor(out, vm)
        }
        "where" => {
            let cond = a.tensor(0)?;
            let (x, y) = (a.get(1)?, a.get(2)?);
            let as_t = |v: &PyObjectRef| v.downcast_ref::<PyTensor>().map(|t| t.tensor());
            let like = as_t(x).or_else(|| as_t(y));
            let device = like.as_ref().map_or(cond.device(), Tensor::device);
            let x = as_tensor(x, like.as_ref(), vm)?;
            let y = as_tensor(y, like.as_ref(), vm)?;
            let out = with_runtime(vm, async |rt| {
                let x = rt.to_device(&x, device).await?;
                let y = rt.to_device(&y, device).await?;
                rt.where_(&cond, &x, &y).await
            })?;
            tensor(out, vm)
        }
        other => Err(unknown(other, vm)),
    }
}

/// `a op b` where either may be a Python number.
pub(crate) fn binary_values(
    op: BinaryOp,
    a: &PyObjectRef,
    b: &PyObjectRef,
    vm: &VirtualMachine,
) -> PyResult {
    let unsupported = || {
        vm.new_type_error(format!(
            "{}(): unsupported operand types '{}' and '{}'",
            op.name(),
            type_name(a),
            type_name(b)
        ))
    };
    let (x, y) = (
        a.downcast_ref::<PyTensor>().map(|t| t.tensor()),
        b.downcast_ref::<PyTensor>().map(|t| t.tensor()),
    );
    let out = match (x, y) {
        (Some(x), Some(y)) => with_runtime(vm, async |rt| rt.binary(op, &x, &y).await)?,
        (Some(x), None) => {
            let (s, kind) = scalar_kind(b, vm).ok_or_else(unsupported)?;
            with_runtime(vm, async |rt| {
                rt.binary_scalar(op, &x, s, kind, false).await
            })?
        }
        (None, Some(y)) => {
            let (s, kind) = scalar_kind(a, vm).ok_or_else(unsupported)?;
            with_runtime(vm, async |rt| rt.binary_scalar(op, &y, s, kind, true).await)?
        }
        (None, None) => return Err(unsupported()),
    };
    tensor(out, vm)
}

/// A tensor for `v`: itself, or a 0-d tensor for a Python number placed
/// next to `like`.
fn as_tensor(v: &PyObjectRef, like: Option<&Tensor>, vm: &VirtualMachine) -> PyResult<Tensor> {
    if let Some(t) = v.downcast_ref::<PyTensor>() {
        return Ok(t.tensor());
    }
    let (x, kind) = scalar_kind(v, vm).ok_or_else(|| {
        vm.new_type_error(format!(
            "expected a Tensor or a number, not {}",
            type_name(v)
        ))
    })?;
    let dtype = match like {
        Some(t) => t.dtype().with_scalar(kind),
        None => crate::torch_c::_tpu_torch::python_scalar_dtype(kind),
    };
    let device = like.map_or(Device::Cpu, Tensor::device);
    with_runtime(vm, async |rt| {
        rt.full(Shape::scalar(), x, dtype, device).await
    })
}

fn reductions(a: &Args<'_>) -> PyResult {
    let vm = a.vm;
    let name = a.name;
    let out = match name {
        "matmul" => {
            let (x, y) = (a.tensor(0)?, a.tensor(1)?);
            with_runtime(vm, async |rt| rt.matmul(&x, &y).await)?
        }
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
                return Err(vm.new_runtime_error(msg));
            }
            with_runtime(vm, async |rt| rt.mm(&x, &y).await)?
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
            let ax = match &dims {
                Some(ds) => Some(a.axes(&t, ds)?),
                None => None,
            };
            with_runtime(vm, async |rt| match ax {
                None if op == ReduceOp::Sum => rt.sum(&t).await,
                None => {
                    let flat = rt.flat(&t).await?;
                    let out = rt.reduce_axes(op, &flat, &[0], false).await?;
                    rt.reshape(&out, &[]).await
                }
                Some(_) if t.rank() == 0 => rt.reduce_axes(op, &t, &[], keepdim).await,
                Some(ax) => rt.reduce_axes(op, &t, &ax, keepdim).await,
            })?
        }
        "mean" => {
            let t = a.tensor(0)?;
            let keepdim = a.bool(2)?;
            let ax = match a.opt_ints(1)? {
                Some(ds) => Some(a.axes(&t, &ds)?),
                None => None,
            };
            with_runtime(vm, async |rt| match ax {
                None => rt.mean(&t, None, false).await,
                Some(ax) => rt.mean(&t, Some(&ax), keepdim).await,
            })?
        }
        "extremum_all" => {
            let (t, max) = (a.tensor(0)?, a.bool(1)?);
            with_runtime(vm, async |rt| rt.extremum_all(max, &t).await)?
        }
        "cumsum" => {
            let t = a.tensor(0)?;
            let d = a.axis(&t, a.int(1)?)?;
            with_runtime(vm, async |rt| rt.cumsum(&t, d).await)?
        }
        other => return Err(unknown(other, vm)),
    };
    tensor(out, vm)
}

fn views(a: &Args<'_>) -> PyResult {
    let vm = a.vm;
    let out = match a.name {
        "view" => {
            let (t, dims) = (a.tensor(0)?, a.ints(1)?);
            with_runtime(vm, async |rt| rt.view(&t, &dims))?
        }
        "reshape" => {
            let (t, dims) = (a.tensor(0)?, a.ints(1)?);
            with_runtime(vm, async |rt| rt.reshape(&t, &dims).await)?
        }
        "permute" => {
            let (t, dims) = (a.tensor(0)?, a.ints(1)?);
            with_runtime(vm, async |rt| rt.permute(&t, &dims))?
        }
        "transpose" => {
            let (t, d0, d1) = (a.tensor(0)?, a.int(1)?, a.int(2)?);
            with_runtime(vm, async |rt| rt.transpose(&t, d0, d1))?
        }
        "expand" => {
            let (t, dims) = (a.tensor(0)?, a.ints(1)?);
            with_runtime(vm, async |rt| rt.expand(&t, &dims))?
        }
        "unsqueeze" => {
            let (t, d) = (a.tensor(0)?, a.int(1)?);
            with_runtime(vm, async |rt| rt.unsqueeze(&t, d))?
        }
        "squeeze" => {
            let (t, dims) = (a.tensor(0)?, a.opt_ints(1)?);
            with_runtime(vm, async |rt| rt.squeeze(&t, dims.as_deref()))?
        }
        "unfold" => {
            let (t, d, size, step) = (a.tensor(0)?, a.int(1)?, a.int(2)?, a.int(3)?);
            with_runtime(vm, async |rt| rt.unfold(&t, d, size, step))?
        }
        "pad" => {
            let t = a.tensor(0)?;
            let as_sizes =
                |v: Vec<i64>| -> Vec<usize> { v.into_iter().map(|p| p.max(0) as usize).collect() };
            let (before, after, value) = (as_sizes(a.ints(1)?), as_sizes(a.ints(2)?), a.float(3)?);
            with_runtime(vm, async |rt| rt.pad(&t, &before, &after, value).await)?
        }
        "take" => {
            let (t, i) = (a.tensor(0)?, a.tensor(1)?);
            with_runtime(vm, async |rt| rt.take(&t, &i).await)?
        }
        "contiguous" => {
            let t = a.tensor(0)?;
            with_runtime(vm, async |rt| rt.contiguous(&t).await)?
        }
        "is_contiguous" => return Ok(vm.ctx.new_bool(a.tensor(0)?.is_contiguous()).into()),
        "clone" => {
            let t = a.tensor(0)?;
            with_runtime(vm, async |rt| rt.clone_tensor(&t).await)?
        }
        "slice" => {
            let t = a.tensor(0)?;
            let d = a.axis(&t, a.int(1)?)?;
            let opt = |i: usize| -> PyResult<Option<i64>> {
                if a.is_none(i) {
                    Ok(None)
                } else {
                    a.int(i).map(Some)
                }
            };
            let (start, stop, step) = (opt(2)?, opt(3)?, a.int(4)?);
            with_runtime(vm, async |rt| rt.slice(&t, d, start, stop, step))?
        }
        "select" => {
            let t = a.tensor(0)?;
            let d = a.axis(&t, a.int(1)?)?;
            let i = a.int(2)?;
            with_runtime(vm, async |rt| rt.select(&t, d, i))?
        }
        "cat" => {
            let list = items(a.get(0)?).ok_or_else(|| {
                vm.new_type_error("cat(): argument 'tensors' must be a sequence of Tensors")
            })?;
            let mut ts = Vec::with_capacity(list.len());
            for (i, item) in list.iter().enumerate() {
                match item.downcast_ref::<PyTensor>() {
                    Some(t) => ts.push(t.tensor()),
                    None => {
                        return Err(vm.new_type_error(format!(
                            "expected Tensor as element {i} in argument 0, but got {}",
                            type_name(item)
                        )));
                    }
                }
            }
            let d = a.int(1)?;
            with_runtime(vm, async |rt| rt.cat(&ts, d).await)?
        }
        "cast" => {
            let t = a.tensor(0)?;
            match a.opt_dtype(1)? {
                Some(d) => with_runtime(vm, async |rt| rt.cast(&t, d).await)?,
                None => t,
            }
        }
        "to_device" => {
            let (t, d) = (a.tensor(0)?, a.device(1)?);
            with_runtime(vm, async |rt| rt.to_device(&t, d).await)?
        }
        other => return Err(unknown(other, vm)),
    };
    tensor(out, vm)
}

fn creation(a: &Args<'_>) -> PyResult {
    let vm = a.vm;
    let out = match a.name {
        "arange" => {
            let number = |i: usize| -> PyResult<IntOrFloat> {
                Ok(match crate::args::as_int(a.get(i)?, vm) {
                    Some(n)
                        if a.get(i)?
                            .downcast_ref::<rustpython_vm::builtins::PyBool>()
                            .is_none() =>
                    {
                        IntOrFloat::Int(n)
                    }
                    _ => IntOrFloat::Float(a.float(i)?),
                })
            };
            let (start, end, step) = (number(0)?, number(1)?, number(2)?);
            let (dtype, device) = (a.opt_dtype(3)?, a.device(4)?);
            with_runtime(vm, async |rt| {
                rt.arange(start, end, step, dtype, device).await
            })?
        }
        "linspace" => {
            let (start, end, steps) = (a.float(0)?, a.float(1)?, a.int(2)?);
            let dtype = a.opt_dtype(3)?.unwrap_or(DType::Float32);
            let device = a.device(4)?;
            with_runtime(vm, async |rt| {
                rt.linspace(start, end, steps, dtype, device).await
            })?
        }
        "eye" => {
            let n = a.int(0)?;
            let m = if a.is_none(1) { n } else { a.int(1)? };
            let dtype = a.opt_dtype(2)?.unwrap_or(DType::Float32);
            let device = a.device(3)?;
            with_runtime(vm, async |rt| rt.eye(n, m, dtype, device).await)?
        }
        "randint" => {
            let (low, high) = (a.int(0)?, a.int(1)?);
            let dims: Vec<usize> = a.ints(2)?.iter().map(|&d| d.max(0) as usize).collect();
            let dtype = a.opt_dtype(3)?.unwrap_or(DType::Int64);
            let device = a.device(4)?;
            with_runtime(vm, async |rt| {
                rt.randint(low, high, Shape::new(dims), dtype, device).await
            })?
        }
        "randperm" => {
            let dtype = a.opt_dtype(1)?.unwrap_or(DType::Int64);
            let n = a.int(0)?;
            let device = a.device(2)?;
            with_runtime(vm, async |rt| rt.randperm(n, dtype, device).await)?
        }
        other => return Err(unknown(other, vm)),
    };
    tensor(out, vm)
}

fn unknown(name: &str, vm: &VirtualMachine) -> rustpython_vm::builtins::PyBaseExceptionRef {
    vm.new_not_implemented_error(format!(
        "torch._C.{name} is not supported yet (no primitive of this playground has that name)"
    ))
}

/// Values read from a tensor as nested Python lists (a number for 0-d), as
/// `Tensor.tolist()` gives them.
fn nested_list(data: &tpu_runtime::HostData, dims: &[usize], vm: &VirtualMachine) -> PyObjectRef {
    use tpu_runtime::HostData;
    let leaf = |i: usize| -> PyObjectRef {
        match data {
            HostData::F32(v) => vm.ctx.new_float(f64::from(v[i])).into(),
            HostData::F64(v) => vm.ctx.new_float(v[i]).into(),
            HostData::BF16(v) => vm
                .ctx
                .new_float(f64::from(tpu_runtime::data::bf16_to_f32(v[i])))
                .into(),
            HostData::F16(v) => vm
                .ctx
                .new_float(f64::from(tpu_runtime::data::f16_to_f32(v[i])))
                .into(),
            HostData::U8(v) => vm.ctx.new_int(v[i]).into(),
            HostData::I32(v) => vm.ctx.new_int(v[i]).into(),
            HostData::I64(v) => vm.ctx.new_int(v[i]).into(),
            HostData::Bool(v) => vm.ctx.new_bool(v[i]).into(),
        }
    };
    fn build(
        dims: &[usize],
        offset: usize,
        leaf: &dyn Fn(usize) -> PyObjectRef,
        vm: &VirtualMachine,
    ) -> PyObjectRef {
        match dims.split_first() {
            None => leaf(offset),
            Some((&n, rest)) => {
                let stride: usize = rest.iter().product();
                let items = (0..n)
                    .map(|i| build(rest, offset + i * stride, leaf, vm))
                    .collect();
                vm.ctx.new_list(items).into()
            }
        }
    }
    build(dims, 0, &leaf, vm)
}

fn writes(a: &Args<'_>) -> PyResult {
    let vm = a.vm;
    let t = a.tensor(0)?;
    match a.name {
        "assign" => {
            let result = match a.temporary.take() {
                Some(result) => result,
                None => as_tensor(a.get(1)?, Some(&t), vm)?,
            };
            with_runtime(vm, async |rt| {
                let result = if result.dtype() != t.dtype() {
                    tpu_runtime::Runtime::check_cast(result.dtype(), t.dtype())?;
                    rt.cast(&result, t.dtype()).await?
                } else {
                    result
                };
                let result = if result.device() == t.device() {
                    result
                } else {
                    rt.to_device(&result, t.device()).await?
                };
                rt.assign(&t, result).await
            })?;
        }
        "write" => {
            let v = as_tensor(a.get(1)?, Some(&t), vm)?;
            let v = with_runtime(vm, async |rt| rt.to_device(&v, t.device()).await)?;
            let fits = Shape::broadcast(&t.shape(), &v.shape())
                .ok()
                .is_some_and(|s| s.dims() == t.dims().as_slice());
            if !fits {
                return Err(vm.new_runtime_error(format!(
                    "The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton dimension {}",
                    t.dims().last().copied().unwrap_or(1),
                    v.dims().last().copied().unwrap_or(1),
                    t.rank().saturating_sub(1)
                )));
            }
            with_runtime(vm, async |rt| rt.write(&t, &v).await)?;
        }
        "put" => {
            let index = a.tensor(1)?;
            let v = as_tensor(a.get(2)?, Some(&t), vm)?;
            let accumulate = a.bool(3)?;
            let out = with_runtime(vm, async |rt| rt.put(&t, &index, &v, accumulate).await)?;
            return tensor(out, vm);
        }
        _ => {
            let (normal, x, y) = (a.bool(1)?, a.float(2)?, a.float(3)?);
            with_runtime(vm, async |rt| rt.fill_random(&t, normal, x, y).await)?;
        }
    }
    Ok(a.values[0].clone())
}

fn extrema(a: &Args<'_>) -> PyResult {
    let vm = a.vm;
    let t = a.tensor(0)?;
    if a.name == "extremum_dim" {
        let d = a.axis(&t, a.int(1)?)?;
        let want_indices = if a.values.len() > 4 { a.bool(4)? } else { true };
        let (keepdim, max) = (a.bool(2)?, a.bool(3)?);
        let (v, i) = with_runtime(vm, async |rt| {
            rt.extremum_along(max, &t, d, keepdim, want_indices).await
        })?;
        let i = match i {
            Some(i) => tensor(i, vm)?,
            None => vm.ctx.none(),
        };
        return Ok(vm.ctx.new_tuple(vec![tensor(v, vm)?, i]).into());
    }
    let d = if a.is_none(1) {
        None
    } else {
        Some(a.axis(&t, a.int(1)?)?)
    };
    let (keepdim, max) = (a.bool(2)?, a.bool(3)?);
    tensor(
        with_runtime(vm, async |rt| rt.arg_extremum(max, &t, d, keepdim).await)?,
        vm,
    )
}
