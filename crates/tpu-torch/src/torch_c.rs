//! `_tpu_torch`, the native module behind `torch._C` and the `torch` module's
//! Rust part: the tensor type, dtypes and devices, the ported primitives, and
//! what the served prelude bodies call (`rust_attributes`, `prelude_source`).

#[rustpython_vm::pymodule]
pub(crate) mod _tpu_torch {
    use crate::runtime::with_runtime;
    use rustpython_vm::builtins::{PyDictRef, PyStrRef, PyTypeRef};
    use rustpython_vm::common::hash::PyHash;
    use rustpython_vm::common::lock::PyMutex;
    use rustpython_vm::function::PyComparisonValue;
    use rustpython_vm::function::{FuncArgs, OptionalArg};
    use rustpython_vm::types::{Comparable, Constructor, Hashable, PyComparisonOp, Representable};
    use rustpython_vm::{
        AsObject, Py, PyObject, PyObjectRef, PyPayload, PyResult, TryFromObject, VirtualMachine,
    };
    use rustpython_vm::{FromArgs, pyclass};
    use std::cell::RefCell;
    use tpu_ir::{DType, ScalarKind, Shape};
    use tpu_runtime::{Device, Scalar, Tensor};

    /// RustPython-only Python run at the end of `torch`'s body: what the own
    /// interpreter does natively for tensors (operators, `torch.Size`).
    #[pyattr]
    const GLUE: &str = include_str!("../python/glue.py");

    /// The same for `torch.nn`: `Parameter` as a `torch.Tensor` subclass.
    #[pyattr]
    const GLUE_NN: &str = include_str!("../python/glue_nn.py");

    /// The same for `torch.random`: `fork_rng`.
    #[pyattr]
    const GLUE_RANDOM: &str = include_str!("../python/glue_random.py");

    thread_local! {
        /// `torch.Tensor`, once the prelude has defined it: the class native
        /// results are made as.
        static TENSOR_CLASS: RefCell<Option<PyTypeRef>> = const { RefCell::new(None) };
        /// `torch.nn.Parameter`, the class `_C.parameter` makes.
        static PARAMETER_CLASS: RefCell<Option<PyTypeRef>> = const { RefCell::new(None) };
    }

    thread_local! {
        /// One object per dtype, as in PyTorch (`x.dtype is torch.int32`).
        static DTYPES: RefCell<Vec<(DType, PyObjectRef)>> = const { RefCell::new(Vec::new()) };
    }

    /// The `torch.dtype` object of `dtype`.
    pub(crate) fn dtype_object(dtype: DType, vm: &VirtualMachine) -> PyObjectRef {
        DTYPES.with(|d| {
            let mut d = d.borrow_mut();
            if let Some((_, obj)) = d.iter().find(|(t, _)| *t == dtype) {
                return obj.clone();
            }
            let obj = PyDType(dtype).into_pyobject(vm);
            d.push((dtype, obj.clone()));
            obj
        })
    }

    /// Forgets the classes and objects of an earlier run's interpreter on
    /// this thread.
    pub(crate) fn reset_classes() {
        TENSOR_CLASS.with(|c| c.borrow_mut().take());
        PARAMETER_CLASS.with(|c| c.borrow_mut().take());
        DTYPES.with(|d| d.borrow_mut().clear());
    }

    /// The classes, dtype objects and seed of the run on this thread, taken
    /// off it while the run is parked (`ranks.rs`).
    #[cfg(target_arch = "wasm32")]
    pub(crate) struct Parked {
        tensor: Option<PyTypeRef>,
        parameter: Option<PyTypeRef>,
        dtypes: Vec<(DType, PyObjectRef)>,
        seed: u64,
    }

    #[cfg(target_arch = "wasm32")]
    pub(crate) fn park() -> Parked {
        Parked {
            tensor: TENSOR_CLASS.with(|c| c.borrow_mut().take()),
            parameter: PARAMETER_CLASS.with(|c| c.borrow_mut().take()),
            dtypes: DTYPES.with(|d| std::mem::take(&mut *d.borrow_mut())),
            seed: SEED.with(|s| s.replace(tpu_runtime::rng::DEFAULT_SEED)),
        }
    }

    #[cfg(target_arch = "wasm32")]
    pub(crate) fn resume(parked: Parked) {
        TENSOR_CLASS.with(|c| *c.borrow_mut() = parked.tensor);
        PARAMETER_CLASS.with(|c| *c.borrow_mut() = parked.parameter);
        DTYPES.with(|d| *d.borrow_mut() = parked.dtypes);
        SEED.with(|s| s.set(parked.seed));
    }

    /// A parameter tensor as a `torch.nn.Parameter`.
    pub(crate) fn wrap_parameter(tensor: Tensor, vm: &VirtualMachine) -> PyResult<PyObjectRef> {
        let class = PARAMETER_CLASS.with(|c| c.borrow().clone());
        wrap_as(
            tensor,
            class.or_else(|| TENSOR_CLASS.with(|c| c.borrow().clone())),
            vm,
        )
    }

    /// A runtime tensor as an object of `class` (the native type when none).
    fn wrap_as(
        tensor: Tensor,
        class: Option<PyTypeRef>,
        vm: &VirtualMachine,
    ) -> PyResult<PyObjectRef> {
        let payload = PyTensor {
            tensor: PyMutex::new(tensor),
        };
        Ok(match class {
            Some(class) => payload.into_ref_with_type(vm, class)?.into(),
            None => payload.into_pyobject(vm),
        })
    }

    /// The prelude's `torch.nn.Parameter`, the class parameters are made as.
    #[pyfunction]
    fn _set_parameter_class(class: PyTypeRef) {
        PARAMETER_CLASS.with(|c| *c.borrow_mut() = Some(class));
    }

    // ---- The tensor type ----

    /// `torch._C._TensorBase`: a runtime tensor. The prelude's `torch.Tensor`
    /// subclasses it.
    #[pyattr]
    #[pyclass(module = "torch._C", name = "_TensorBase")]
    #[derive(PyPayload)]
    pub struct PyTensor {
        tensor: PyMutex<Tensor>,
    }

    impl std::fmt::Debug for PyTensor {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("Tensor")
        }
    }

    impl PyTensor {
        pub(crate) fn tensor(&self) -> Tensor {
            self.tensor.lock().clone()
        }
    }

    /// A runtime tensor as a Python object of class `torch.Tensor`.
    pub(crate) fn wrap(tensor: Tensor, vm: &VirtualMachine) -> PyResult<PyObjectRef> {
        wrap_as(tensor, TENSOR_CLASS.with(|c| c.borrow().clone()), vm)
    }

    #[pyclass(flags(BASETYPE), with(Representable))]
    impl PyTensor {
        #[pygetset]
        fn dtype(zelf: &Py<Self>, vm: &VirtualMachine) -> PyObjectRef {
            dtype_object(zelf.tensor().dtype(), vm)
        }

        #[pygetset]
        fn device(zelf: &Py<Self>) -> PyDevice {
            PyDevice(zelf.tensor().device())
        }

        #[pygetset]
        fn ndim(zelf: &Py<Self>) -> usize {
            zelf.tensor().rank()
        }

        #[pygetset]
        fn requires_grad(zelf: &Py<Self>) -> bool {
            zelf.tensor().requires_grad()
        }

        #[pygetset(setter)]
        fn set_requires_grad(zelf: &Py<Self>, flag: bool, vm: &VirtualMachine) -> PyResult<()> {
            let t = zelf.tensor();
            with_runtime(vm, async |rt| rt.set_requires_grad(&t, flag))
        }

        #[pygetset]
        fn is_leaf(zelf: &Py<Self>) -> bool {
            zelf.tensor().is_leaf()
        }

        #[pygetset]
        fn grad(zelf: &Py<Self>, vm: &VirtualMachine) -> PyResult<PyObjectRef> {
            zelf.tensor()
                .grad()
                .map_or(Ok(vm.ctx.none()), |g| wrap(g, vm))
        }

        #[pygetset(setter)]
        fn set_grad(zelf: &Py<Self>, value: PyObjectRef, vm: &VirtualMachine) -> PyResult<()> {
            let t = zelf.tensor();
            if vm.is_none(&value) {
                t.set_grad(None);
                return Ok(());
            }
            match value.downcast_ref::<PyTensor>() {
                Some(g) => {
                    t.set_grad(Some(g.tensor()));
                    Ok(())
                }
                None => Err(vm.new_type_error(format!(
                    "assigned grad expected to be a Tensor or None but got grad of type {}",
                    value.class().name()
                ))),
            }
        }

        #[pygetset]
        fn data(zelf: &Py<Self>, vm: &VirtualMachine) -> PyResult<PyObjectRef> {
            let t = zelf.tensor();
            wrap(with_runtime(vm, async |rt| Ok(rt.detach(&t)))?, vm)
        }

        #[pygetset(setter)]
        fn set_data(zelf: &Py<Self>, value: PyObjectRef, vm: &VirtualMachine) -> PyResult<()> {
            let t = zelf.tensor();
            let v = value
                .downcast_ref::<PyTensor>()
                .map(|v| v.tensor())
                .ok_or_else(|| vm.new_type_error("Tensor.data must be a Tensor"))?;
            with_runtime(vm, async |rt| {
                rt.set_data(&t, &v);
                Ok(())
            })
        }

        /// The name of the node that made this tensor (`MulBackward0`), or
        /// None: the prelude makes `grad_fn` of it.
        #[pygetset]
        fn _grad_fn_name(zelf: &Py<Self>) -> Option<String> {
            zelf.tensor().grad_fn_name()
        }

        #[pymethod]
        fn _index(zelf: &Py<Self>, index: PyObjectRef, vm: &VirtualMachine) -> PyResult {
            crate::indexing::get(zelf.tensor(), &index, vm)
        }

        #[pymethod]
        fn _index_put(
            zelf: &Py<Self>,
            index: PyObjectRef,
            value: PyObjectRef,
            vm: &VirtualMachine,
        ) -> PyResult<()> {
            crate::indexing::set(zelf.tensor(), &index, &value, vm)
        }

        #[pymethod]
        fn dim(zelf: &Py<Self>) -> usize {
            zelf.tensor().rank()
        }

        #[pymethod]
        fn numel(zelf: &Py<Self>) -> usize {
            zelf.tensor().numel()
        }

        #[pymethod]
        fn _dims(zelf: &Py<Self>, vm: &VirtualMachine) -> PyObjectRef {
            let dims = zelf.tensor().dims();
            let items = dims.into_iter().map(|d| vm.ctx.new_int(d).into()).collect();
            vm.ctx.new_tuple(items).into()
        }

        #[pymethod]
        fn item(zelf: &Py<Self>, vm: &VirtualMachine) -> PyResult<PyObjectRef> {
            Self::_item_as(zelf, ".item()".into(), vm)
        }

        /// `item()`, the read named `reason` in the Report when the program
        /// asked for it (not the prelude): a condition, `.item()`.
        #[pymethod]
        fn _item_as(zelf: &Py<Self>, reason: String, vm: &VirtualMachine) -> PyResult<PyObjectRef> {
            let t = zelf.tensor();
            if t.device() == Device::Meta && t.numel() == 1 {
                return Err(vm.new_runtime_error("Tensor.item() cannot be called on meta tensors"));
            }
            let reason = crate::capture::sync_reason(&reason);
            let asked = crate::capture::asked_by_program(vm);
            let scalar = with_runtime(vm, async |rt| {
                if asked && let Some(reason) = reason {
                    rt.set_sync_reason(reason);
                }
                rt.item(&t).await
            })?;
            Ok(match scalar {
                Scalar::Float(x) => vm.ctx.new_float(x).into(),
                Scalar::Int(n) => vm.ctx.new_int(n).into(),
                Scalar::Bool(b) => vm.ctx.new_bool(b).into(),
            })
        }
    }

    impl Representable for PyTensor {
        fn repr_str(zelf: &Py<Self>, vm: &VirtualMachine) -> PyResult<String> {
            let t = zelf.tensor();
            with_runtime(vm, async |rt| {
                rt.set_sync_reason("print / repr");
                rt.repr(&t).await
            })
        }
    }

    // ---- dtypes and devices ----

    /// `torch.dtype`: `torch.float32` and the others.
    #[pyattr]
    #[pyclass(module = "torch", name = "dtype")]
    #[derive(Debug, PyPayload)]
    pub struct PyDType(pub DType);

    #[pyclass(with(Representable, Comparable, Hashable))]
    impl PyDType {
        #[pygetset]
        fn is_floating_point(zelf: &Py<Self>) -> bool {
            zelf.0.is_floating()
        }
    }

    impl Comparable for PyDType {
        fn cmp(
            zelf: &Py<Self>,
            other: &PyObject,
            op: PyComparisonOp,
            _vm: &VirtualMachine,
        ) -> PyResult<PyComparisonValue> {
            op.eq_only(|| {
                Ok(other
                    .downcast_ref::<Self>()
                    .map_or(PyComparisonValue::NotImplemented, |o| {
                        (o.0 == zelf.0).into()
                    }))
            })
        }
    }

    impl Hashable for PyDType {
        fn hash(zelf: &Py<Self>, _vm: &VirtualMachine) -> PyResult<PyHash> {
            Ok(zelf.0 as PyHash)
        }
    }

    impl Representable for PyDType {
        fn repr_str(zelf: &Py<Self>, _vm: &VirtualMachine) -> PyResult<String> {
            Ok(zelf.0.torch_name().to_owned())
        }
    }

    /// `torch.device`.
    #[pyattr]
    #[pyclass(module = "torch", name = "device")]
    #[derive(Debug, PyPayload)]
    pub struct PyDevice(pub Device);

    #[pyclass(with(Representable, Comparable, Constructor))]
    impl PyDevice {
        #[pymethod]
        fn __str__(zelf: &Py<Self>) -> String {
            zelf.0.to_string()
        }

        #[pygetset]
        fn index(zelf: &Py<Self>) -> Option<usize> {
            match zelf.0 {
                Device::Cpu | Device::Meta => None,
                Device::Tpu(i) => Some(i as usize),
            }
        }

        /// `with torch.device("meta"):` makes it the default device of the
        /// factories inside, as `torch.set_default_device` does.
        #[pymethod]
        fn __enter__(zelf: rustpython_vm::PyRef<Self>) -> rustpython_vm::PyRef<Self> {
            DEVICE_STACK.with(|s| s.borrow_mut().push(default_device()));
            DEFAULT_DEVICE.with(|d| d.set(zelf.0));
            zelf
        }

        #[pymethod]
        fn __exit__(_zelf: &Py<Self>, _args: FuncArgs) {
            let previous = DEVICE_STACK
                .with(|s| s.borrow_mut().pop())
                .unwrap_or(Device::Cpu);
            DEFAULT_DEVICE.with(|d| d.set(previous));
        }

        #[pygetset(name = "type")]
        fn kind(zelf: &Py<Self>) -> &'static str {
            match zelf.0 {
                Device::Cpu => "cpu",
                Device::Tpu(_) => "tpu",
                Device::Meta => "meta",
            }
        }
    }

    impl Comparable for PyDevice {
        fn cmp(
            zelf: &Py<Self>,
            other: &PyObject,
            op: PyComparisonOp,
            _vm: &VirtualMachine,
        ) -> PyResult<PyComparisonValue> {
            op.eq_only(|| {
                Ok(other
                    .downcast_ref::<Self>()
                    .map_or(PyComparisonValue::NotImplemented, |o| {
                        (o.0 == zelf.0).into()
                    }))
            })
        }
    }

    impl Representable for PyDevice {
        fn repr_str(zelf: &Py<Self>, _vm: &VirtualMachine) -> PyResult<String> {
            Ok(match zelf.0 {
                Device::Cpu => "device(type='cpu')".to_owned(),
                Device::Tpu(i) => format!("device(type='tpu', index={i})"),
                Device::Meta => "device(type='meta')".to_owned(),
            })
        }
    }

    /// `torch.device("tpu")`, `torch.device("tpu:0")`, `torch.device("tpu", 0)`,
    /// `torch.device("cpu")`, or another `torch.device`.
    impl Constructor for PyDevice {
        type Args = (PyObjectRef, OptionalArg<PyObjectRef>);

        fn py_new(
            _cls: &Py<rustpython_vm::builtins::PyType>,
            (kind, index): Self::Args,
            vm: &VirtualMachine,
        ) -> PyResult<Self> {
            let device = parse_device(&kind, vm)?;
            match index.into_option() {
                Some(i) if !vm.is_none(&i) => {
                    let n = crate::args::as_int(&i, vm)
                        .ok_or_else(|| vm.new_type_error("device(): index must be an int"))?;
                    match (device, n) {
                        (Device::Tpu(_), 0) => Ok(PyDevice(Device::Tpu(0))),
                        (Device::Cpu, _) => Ok(PyDevice(Device::Cpu)),
                        (Device::Meta, _) => Ok(PyDevice(Device::Meta)),
                        (_, n) => Err(vm.new_runtime_error(format!(
                            "tpu:{n} does not exist: this run has one TPU device, tpu:0"
                        ))),
                    }
                }
                _ => Ok(PyDevice(device)),
            }
        }
    }

    thread_local! {
        /// `torch.set_default_device`'s device (and `with torch.device(...)`'s),
        /// which factories given no device use.
        static DEFAULT_DEVICE: std::cell::Cell<Device> = const { std::cell::Cell::new(Device::Cpu) };
        static DEVICE_STACK: std::cell::RefCell<Vec<Device>> = const { std::cell::RefCell::new(Vec::new()) };
    }

    pub(crate) fn default_device() -> Device {
        DEFAULT_DEVICE.with(std::cell::Cell::get)
    }

    pub(crate) fn reset_default_device() {
        DEFAULT_DEVICE.with(|d| d.set(Device::Cpu));
        DEVICE_STACK.with(|s| s.borrow_mut().clear());
    }

    #[pyfunction]
    fn set_default_device(device: PyObjectRef, vm: &VirtualMachine) -> PyResult<()> {
        let device = if vm.is_none(&device) {
            Device::Cpu
        } else {
            parse_device(&device, vm)?
        };
        DEFAULT_DEVICE.with(|d| d.set(device));
        Ok(())
    }

    #[pyfunction]
    fn get_default_device() -> PyDevice {
        PyDevice(default_device())
    }

    /// `device="tpu"`, `"tpu:0"`, `"cpu"`, `"meta"`, a `torch.device` or None
    /// (the default device, `cpu` unless set).
    pub(crate) fn parse_device(value: &PyObjectRef, vm: &VirtualMachine) -> PyResult<Device> {
        if vm.is_none(value) {
            return Ok(default_device());
        }
        if let Some(d) = value.downcast_ref::<PyDevice>() {
            return Ok(d.0);
        }
        let Some(text) = value.downcast_ref::<rustpython_vm::builtins::PyStr>() else {
            return Err(vm.new_type_error(format!(
                "device must be a string or torch.device, not {}",
                value.class().name()
            )));
        };
        match text.to_string().as_str() {
            "cpu" => Ok(Device::Cpu),
            "tpu" | "tpu:0" => Ok(Device::Tpu(0)),
            "meta" => Ok(Device::Meta),
            other if other.starts_with("tpu:") => Err(vm.new_runtime_error(format!(
                "{other} does not exist: this run has one TPU device, tpu:0"
            ))),
            s @ ("cuda" | "mps" | "xla") => Err(vm.new_runtime_error(format!(
                "this runtime has no '{s}' device; use device=\"tpu\" (or \"cpu\")"
            ))),
            other => Err(vm.new_runtime_error(format!(
                "Expected one of cpu, tpu, meta device type at start of device string: {other}"
            ))),
        }
    }

    fn parse_dtype(value: &PyObjectRef, vm: &VirtualMachine) -> PyResult<Option<DType>> {
        if vm.is_none(value) {
            return Ok(None);
        }
        value
            .downcast_ref::<PyDType>()
            .map(|d| Some(d.0))
            .ok_or_else(|| vm.new_type_error("dtype must be a torch.dtype"))
    }

    // ---- What the served prelude calls ----

    /// The Rust attributes module `name` starts from.
    #[pyfunction]
    fn rust_attributes(name: PyStrRef, vm: &VirtualMachine) -> PyResult<PyDictRef> {
        let attrs = vm.ctx.new_dict();
        if name.to_string() == "torch" {
            for &(n, dtype) in crate::prelude::TORCH_DTYPES {
                attrs.set_item(n, dtype_object(dtype, vm), vm)?;
            }
            let module = vm.import("_tpu_torch", 0)?;
            attrs.set_item("_C", module.clone(), vm)?;
            for &n in crate::prelude::RUST_TORCH_NAMES {
                attrs.set_item(n, module.get_attr(n, vm)?, vm)?;
            }
        }
        Ok(attrs)
    }

    /// A prelude file's source, by its path under `prelude/`.
    #[pyfunction]
    fn prelude_source(path: PyStrRef, vm: &VirtualMachine) -> PyResult<&'static str> {
        crate::prelude::prelude_source(path.as_ref())
            .ok_or_else(|| vm.new_import_error(format!("no prelude file {path}"), path))
    }

    /// Whether PyTorch 2.15 has `namespace.name` (or the submodule of that
    /// name), which this project lacks.
    #[pyfunction]
    fn _lacks(namespace: PyStrRef, name: PyStrRef) -> bool {
        let (namespace, name) = (namespace.to_string(), name.to_string());
        crate::prelude::is_pytorch_name(&namespace, &name)
            || crate::prelude::is_missing_submodule(&format!("{namespace}.{name}"))
    }

    /// The marshalled code of a prelude file, if compiled before.
    #[pyfunction]
    fn _code_get(filename: PyStrRef, source: PyStrRef, vm: &VirtualMachine) -> PyObjectRef {
        match crate::code_cache::get(filename.as_ref(), source.as_ref()) {
            Some(bytes) => vm.ctx.new_bytes(bytes.to_vec()).into(),
            None => vm.ctx.none(),
        }
    }

    /// Keeps the marshalled code of a prelude file.
    #[pyfunction]
    fn _code_put(filename: PyStrRef, source: PyStrRef, code: rustpython_vm::builtins::PyBytesRef) {
        crate::code_cache::put(filename.as_ref(), source.as_ref(), code.as_bytes().to_vec());
    }

    /// Names the next read in the Report (`.cpu()`), if it is the program's.
    #[pyfunction]
    fn _sync_reason(reason: String, vm: &VirtualMachine) -> PyResult<()> {
        let Some(reason) = crate::capture::sync_reason(&reason) else {
            return Err(vm.new_value_error(format!("unknown read {reason:?}")));
        };
        if crate::capture::asked_by_program(vm) {
            with_runtime(vm, async |rt| {
                rt.set_sync_reason(reason);
                Ok(())
            })?;
        }
        Ok(())
    }

    /// The built-in `print` once torch is imported: a graph break while a
    /// compiled function is captured, then CPython's `print` (kept as
    /// `_py_print` by the glue).
    #[pyfunction]
    fn _print(args: FuncArgs, vm: &VirtualMachine) -> PyResult {
        crate::capture::print_break(&args.args, vm)?;
        vm.import("_tpu_torch", 0)?
            .get_attr("_py_print", vm)?
            .call(args, vm)
    }

    /// The prelude's `torch.Tensor`, the class native results are made as.
    #[pyfunction]
    fn _set_tensor_class(class: PyTypeRef) {
        TENSOR_CLASS.with(|c| *c.borrow_mut() = Some(class));
    }

    /// `torch._C.NAME`, made on first use; a name no primitive has is a
    /// `NotImplementedError` naming it.
    #[pyfunction]
    fn __getattr__(name: PyStrRef, vm: &VirtualMachine) -> PyResult {
        let text = name.to_string();
        if text.starts_with("__") {
            return Err(
                vm.new_attribute_error(format!("module 'torch._C' has no attribute '{name}'"))
            );
        }
        if let Some(ported) = crate::natives::ported(&text) {
            // Made on first use, then kept on the module.
            let function = vm.new_function(ported, move |args: FuncArgs, vm: &VirtualMachine| {
                crate::natives::call(ported, args.args, vm)
            });
            vm.import("_tpu_torch", 0)?
                .set_attr(ported, function.clone(), vm)?;
            return Ok(function.into());
        }
        Err(vm.new_not_implemented_error(format!(
            "torch._C.{name} is not supported yet (no primitive of this playground has that name)"
        )))
    }

    // ---- The `torch` module's Rust part ----

    #[derive(FromArgs)]
    struct FullArgs {
        #[pyarg(any)]
        size: PyObjectRef,
        #[pyarg(any)]
        fill_value: PyObjectRef,
        #[pyarg(named, default)]
        dtype: Option<PyObjectRef>,
        #[pyarg(named, default)]
        device: Option<PyObjectRef>,
        #[pyarg(named, default)]
        requires_grad: OptionalArg<bool>,
    }

    /// `torch.full(size, fill_value, *, dtype=None, device=None,
    /// requires_grad=False)`.
    #[pyfunction]
    fn full(args: FullArgs, vm: &VirtualMachine) -> PyResult<PyObjectRef> {
        let dims: Vec<isize> = Vec::try_from_object(vm, args.size)?;
        if let Some(&n) = dims.iter().find(|&&d| d < 0) {
            let all: Vec<String> = dims.iter().map(ToString::to_string).collect();
            return Err(vm.new_runtime_error(format!(
                "Trying to create tensor with negative dimension {n}: [{}]",
                all.join(", ")
            )));
        }
        let shape = Shape(dims.iter().map(|&d| d as usize).collect());
        let (value, kind) = scalar(&args.fill_value, vm)?;
        let dtype = match args.dtype.as_ref() {
            Some(d) => parse_dtype(d, vm)?,
            None => None,
        }
        .unwrap_or(match kind {
            ScalarKind::Bool => DType::Bool,
            ScalarKind::Int => DType::Int64,
            ScalarKind::Float => DType::Float32,
        });
        let device = match args.device.as_ref() {
            Some(d) => parse_device(d, vm)?,
            None => default_device(),
        };
        let requires_grad = args.requires_grad.unwrap_or(false);
        let t = with_runtime(vm, async |rt| {
            let t = rt.full(shape, value, dtype, device).await?;
            if requires_grad {
                rt.set_requires_grad(&t, true)?;
            }
            Ok(t)
        })?;
        wrap(t, vm)
    }

    /// A Python number as the runtime's scalar: its value and kind.
    fn scalar(obj: &PyObjectRef, vm: &VirtualMachine) -> PyResult<(f64, ScalarKind)> {
        crate::args::scalar_kind(obj, vm)
            .ok_or_else(|| vm.new_type_error("full(): argument 'fill_value' must be a number"))
    }

    /// The dtype a Python number of this kind gets as a tensor of its own.
    pub(crate) fn python_scalar_dtype(kind: ScalarKind) -> DType {
        match kind {
            ScalarKind::Bool => DType::Bool,
            ScalarKind::Int => DType::Int64,
            ScalarKind::Float => DType::Float32,
        }
    }

    thread_local! {
        /// The last `torch.manual_seed`, for `torch.initial_seed()`.
        static SEED: std::cell::Cell<u64> = const { std::cell::Cell::new(tpu_runtime::rng::DEFAULT_SEED) };
    }

    pub(crate) fn reset_seed() {
        SEED.with(|s| s.set(tpu_runtime::rng::DEFAULT_SEED));
    }

    pub(crate) fn current_seed() -> u64 {
        SEED.with(std::cell::Cell::get)
    }

    pub(crate) fn set_seed(seed: u64) {
        SEED.with(|s| s.set(seed));
    }

    #[pyfunction]
    fn manual_seed(seed: PyObjectRef, vm: &VirtualMachine) -> PyResult<()> {
        let seed = crate::args::as_int(&seed, vm)
            .ok_or_else(|| vm.new_type_error("manual_seed(): argument 'seed' must be int"))?;
        SEED.with(|s| s.set(seed as u64));
        with_runtime(vm, async |rt| {
            rt.generator = tpu_runtime::rng::Generator::new(seed as u64);
            Ok(())
        })
    }

    #[pyfunction]
    fn initial_seed() -> u64 {
        SEED.with(std::cell::Cell::get)
    }

    #[pyfunction]
    fn is_tensor(obj: PyObjectRef) -> bool {
        obj.downcast_ref::<PyTensor>().is_some()
    }

    #[derive(FromArgs)]
    struct FactoryArgs {
        #[pyarg(named, default)]
        dtype: Option<PyObjectRef>,
        #[pyarg(named, default)]
        device: Option<PyObjectRef>,
        #[pyarg(named, default)]
        requires_grad: OptionalArg<bool>,
        #[pyarg(named, default)]
        generator: Option<PyObjectRef>,
    }

    impl FactoryArgs {
        fn parse(&self, vm: &VirtualMachine) -> PyResult<(Option<DType>, Device)> {
            let dtype = match &self.dtype {
                Some(d) => parse_dtype(d, vm)?,
                None => None,
            };
            let device = match &self.device {
                Some(d) => parse_device(d, vm)?,
                None => default_device(),
            };
            Ok((dtype, device))
        }

        fn finish(&self, t: Tensor, vm: &VirtualMachine) -> PyResult<PyObjectRef> {
            if self.requires_grad.unwrap_or(false) {
                if !t.dtype().is_floating() {
                    return Err(vm.new_runtime_error(
                        "Only Tensors of floating point and complex dtype can require gradients",
                    ));
                }
                with_runtime(vm, async |rt| rt.set_requires_grad(&t, true))?;
            }
            wrap(t, vm)
        }
    }

    /// `ones(2, 3)`, `ones((2, 3))` or `ones(torch.Size([2, 3]))` as a shape.
    fn shape_of(sizes: &[PyObjectRef], function: &str, vm: &VirtualMachine) -> PyResult<Shape> {
        let dims: Vec<PyObjectRef> = match sizes {
            [one] => crate::args::items(one).unwrap_or_else(|| vec![one.clone()]),
            _ => sizes.to_vec(),
        };
        let mut shape = Vec::with_capacity(dims.len());
        let text: Vec<String> = dims
            .iter()
            .map(|d| crate::args::as_int(d, vm).map_or("?".into(), |n| n.to_string()))
            .collect();
        for d in &dims {
            match crate::args::as_int(d, vm) {
                Some(n) if n >= 0 => shape.push(n as usize),
                Some(n) => {
                    return Err(vm.new_runtime_error(format!(
                        "Trying to create tensor with negative dimension {n}: [{}]",
                        text.join(", ")
                    )));
                }
                None => {
                    return Err(vm.new_type_error(format!(
                        "{function}(): argument 'size' must be tuple of ints, but found element of type {}",
                        d.class().name()
                    )));
                }
            }
        }
        Ok(Shape(shape))
    }

    fn random_factory(name: &str, sizes: FuncArgs, vm: &VirtualMachine) -> PyResult<PyObjectRef> {
        let FuncArgs {
            args: mut positional,
            mut kwargs,
        } = sizes;
        // The sizes may come as `size=`: `torch.empty(size=(2, 3))`.
        if let Some(size) = kwargs.swap_remove("size") {
            if !positional.is_empty() {
                return Err(vm.new_type_error(format!(
                    "{name}() received an invalid combination of arguments: the sizes were given twice"
                )));
            }
            positional = vec![size];
        }
        let options: FactoryArgs = FuncArgs {
            args: Vec::new(),
            kwargs,
        }
        .bind(vm)?;
        // A torch.Generator given: its engine swapped in for the draw.
        let handle = match options.generator.as_ref().filter(|g| !vm.is_none(g)) {
            Some(g) => {
                let handle = g.get_attr("_handle", vm).map_err(|_| {
                    vm.new_type_error(format!(
                        "{name}(): argument 'generator' must be torch.Generator, not {}",
                        g.class().name()
                    ))
                })?;
                Some(crate::args::as_int(&handle, vm).unwrap_or(-1))
            }
            None => None,
        };
        let (dtype, device) = options.parse(vm)?;
        let shape = shape_of(&positional, name, vm)?;
        let dtype = dtype.unwrap_or(DType::Float32);
        if let Some(h) = handle {
            crate::generators::swap_with_default(h, vm)?;
        }
        let drawn = random_draw(name, shape, dtype, device, vm);
        if let Some(h) = handle {
            crate::generators::swap_with_default(h, vm)?;
        }
        options.finish(drawn?, vm)
    }

    fn random_draw(
        name: &str,
        shape: Shape,
        dtype: DType,
        device: Device,
        vm: &VirtualMachine,
    ) -> PyResult<Tensor> {
        Ok(match name {
            // `empty` is uninitialised memory in PyTorch; zeros here.
            "empty" => with_runtime(vm, async |rt| rt.full(shape, 0.0, dtype, device).await)?,
            _ if dtype.is_floating() => {
                let normal = name == "randn";
                with_runtime(vm, async |rt| rt.random(shape, normal, dtype, device).await)?
            }
            _ => {
                return Err(vm.new_runtime_error(format!(
                    "\"{name}\" not implemented for '{}'",
                    dtype.torch_name().trim_start_matches("torch.")
                )));
            }
        })
    }

    #[pyfunction]
    fn rand(args: FuncArgs, vm: &VirtualMachine) -> PyResult<PyObjectRef> {
        random_factory("rand", args, vm)
    }

    #[pyfunction]
    fn randn(args: FuncArgs, vm: &VirtualMachine) -> PyResult<PyObjectRef> {
        random_factory("randn", args, vm)
    }

    #[pyfunction]
    fn empty(args: FuncArgs, vm: &VirtualMachine) -> PyResult<PyObjectRef> {
        random_factory("empty", args, vm)
    }

    /// `torch.tensor(data, *, dtype=None, device=None, requires_grad=False)`.
    #[pyfunction]
    fn tensor(args: FuncArgs, vm: &VirtualMachine) -> PyResult<PyObjectRef> {
        let mut positional = args.args.clone();
        if positional.len() != 1 {
            return Err(vm.new_type_error("tensor() missing required argument 'data'"));
        }
        let data = positional.remove(0);
        let complex_dtype = args.kwargs.get("dtype").is_some_and(|d| {
            d.downcast_ref::<PyDType>().is_none()
                && d.get_attr("is_complex", vm)
                    .is_ok_and(|v| v.try_to_bool(vm).unwrap_or(false))
        });
        if complex_dtype {
            return complex_tensor(args, vm);
        }
        let options: FactoryArgs = FuncArgs {
            args: Vec::new(),
            kwargs: args.kwargs.clone(),
        }
        .bind(vm)?;
        let (dtype, device) = options.parse(vm)?;
        let (mut shape, mut values) = (Vec::new(), Vec::new());
        if let Err(e) = crate::factories::flatten(&data, &mut shape, 0, &mut values, vm) {
            // Python complex numbers make a complex tensor (the prelude's
            // `_complex.py`); looked for only when the data is not real.
            return if contains_complex(&data) {
                complex_tensor(args, vm)
            } else {
                Err(e)
            };
        }
        let host = crate::factories::host_data(&values, dtype);
        let t = with_runtime(vm, async |rt| {
            rt.from_data(host, Shape(shape), device).await
        })?;
        options.finish(t, vm)
    }

    /// `torch.tensor` of complex data or with a complex dtype: the prelude's.
    fn complex_tensor(args: FuncArgs, vm: &VirtualMachine) -> PyResult<PyObjectRef> {
        vm.import("torch", 0)?
            .get_attr("_complex_tensor", vm)?
            .call(args, vm)
    }

    /// Whether `data` (a number or nested lists and tuples) holds a Python
    /// complex number.
    fn contains_complex(data: &PyObjectRef) -> bool {
        use rustpython_vm::builtins::{PyComplex, PyList, PyTuple};
        if data.downcast_ref::<PyComplex>().is_some() {
            return true;
        }
        if let Some(list) = data.downcast_ref::<PyList>() {
            return list.borrow_vec().iter().any(contains_complex);
        }
        data.downcast_ref::<PyTuple>()
            .is_some_and(|t| t.as_slice().iter().any(contains_complex))
    }
}
