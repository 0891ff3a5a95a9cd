//! Tensor indexing, `t[...]` and `t[...] = v`: the Python values of an index decoded into the
//! runtime's `IndexItem`s, then `Runtime::index` and `Runtime::index_put`.

use crate::args::{as_int, items, type_name};
use crate::runtime::with_runtime;
use crate::torch_c::_tpu_torch::{PyTensor, wrap};
use rustpython_vm::builtins::{PyBool, PyEllipsis, PyList, PyRange, PySlice, PyTuple};
use rustpython_vm::{AsObject, PyObjectRef, PyResult, TryFromObject, VirtualMachine};
use tpu_ir::Shape;
use tpu_runtime::{IndexItem, Tensor};

fn index_items(index: &PyObjectRef, vm: &VirtualMachine) -> PyResult<Vec<IndexItem>> {
    let values: Vec<PyObjectRef> = match index.downcast_ref::<PyTuple>() {
        Some(t) => t.as_slice().to_vec(),
        None => vec![index.clone()],
    };
    let mut out = Vec::with_capacity(values.len());
    for value in values {
        out.push(if vm.is_none(&value) {
            IndexItem::NewAxis
        } else if value.downcast_ref::<PyEllipsis>().is_some() {
            IndexItem::Ellipsis
        } else if value.downcast_ref::<PyBool>().is_some() {
            IndexItem::Bool(value.clone().try_to_bool(vm)?)
        } else if let Some(i) = as_int(&value, vm) {
            IndexItem::Int(i)
        } else if let Some(s) = value.downcast_ref::<PySlice>() {
            let bound = |v: Option<&PyObjectRef>| -> PyResult<Option<i64>> {
                match v {
                    None => Ok(None),
                    Some(v) if vm.is_none(v) => Ok(None),
                    Some(v) if v.downcast_ref::<PyTensor>().is_some() => {
                        // As PyTorch's `__index__`: a one-element integer tensor.
                        let t = v.downcast_ref::<PyTensor>().map(|t| t.tensor()).expect("checked");
                        if t.numel() != 1 || t.dtype().is_floating() || t.dtype() == tpu_ir::DType::Bool {
                            return Err(vm.new_type_error(
                                "only integer tensors of a single element can be converted to an index",
                            ));
                        }
                        match with_runtime(vm, async |rt| rt.item(&t).await)? {
                            tpu_runtime::Scalar::Int(n) => Ok(Some(n)),
                            tpu_runtime::Scalar::Float(x) => Ok(Some(x as i64)),
                            tpu_runtime::Scalar::Bool(b) => Ok(Some(i64::from(b))),
                        }
                    }
                    Some(v) => as_int(v, vm).map(Some).ok_or_else(|| {
                        vm.new_type_error(
                            "slice indices must be integers or None or have an __index__ method",
                        )
                    }),
                }
            };
            let step = bound(s.step.as_ref())?;
            let start = bound(s.start.as_ref())?;
            let stop = bound(Some(&s.stop))?;
            IndexItem::Slice { start, stop, step }
        } else if let Some(t) = value.downcast_ref::<PyTensor>() {
            IndexItem::Tensor(t.tensor())
        } else if value.downcast_ref::<PyList>().is_some()
            || value.downcast_ref::<PyRange>().is_some()
        {
            let elements: Vec<PyObjectRef> = match items(&value) {
                Some(e) => e,
                None => vm.extract_elements_with(&value, Ok)?,
            };
            let mut ints = Vec::with_capacity(elements.len());
            for v in &elements {
                ints.push(as_int(v, vm).ok_or_else(|| {
                    vm.new_not_implemented_error(format!(
                        "indexing with a list of {} is not supported",
                        type_name(v)
                    ))
                })?);
            }
            IndexItem::List(ints)
        } else if let Some(Ok(i)) = value
            .get_class_attr(vm.ctx.intern_str("__index__"))
            .map(|_| value.try_index(vm))
        {
            // An object with `__index__` (a user's `Epoch`) is an int here.
            IndexItem::Int(i64::try_from_object(vm, i.into())?)
        } else {
            return Err(vm.new_index_error(format!(
                "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got {})",
                type_name(&value)
            )));
        });
    }
    Ok(out)
}

/// `t[index]`.
pub(crate) fn get(t: Tensor, index: &PyObjectRef, vm: &VirtualMachine) -> PyResult {
    let items = index_items(index, vm)?;
    wrap(with_runtime(vm, async |rt| rt.index(&t, &items).await)?, vm)
}

/// `t[index] = value`.
pub(crate) fn set(
    t: Tensor,
    index: &PyObjectRef,
    value: &PyObjectRef,
    vm: &VirtualMachine,
) -> PyResult<()> {
    let items = index_items(index, vm)?;
    let value = match value.downcast_ref::<PyTensor>() {
        Some(v) => v.tensor(),
        None => {
            let (x, _) = crate::args::scalar_kind(value, vm).ok_or_else(|| {
                vm.new_type_error(format!(
                    "can't assign a {} to a {} tensor",
                    type_name(value),
                    t.dtype().torch_name()
                ))
            })?;
            let (dtype, device) = (t.dtype(), t.device());
            with_runtime(vm, async |rt| {
                rt.full(Shape::scalar(), x, dtype, device).await
            })?
        }
    };
    with_runtime(vm, async |rt| rt.index_put(&t, &items, &value).await)
}
