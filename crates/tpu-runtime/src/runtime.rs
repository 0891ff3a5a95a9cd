//! The dispatcher. Every tensor op from the language comes through here: shapes and
//! devices are checked (with PyTorch's error wording), the op goes to the backend of
//! the tensor's device, and an `OpRecord` is logged for the Report. `cpu` tensors
//! always run on the reference backend; `tpu` tensors run on the backend chosen at
//! start-up (wgpu when an adapter exists, the reference otherwise).

use crate::autograd::GradFn;
use crate::backend::{Backend, BackendError, BackendKind, BufferId};
use crate::data::{HostData, Scalar};
use crate::format::{self, HostTensor, PrintOptions};
use crate::fusion::EagerMode;
use crate::reference::ReferenceBackend;
use crate::report::{CacheStats, NonFinite, OpRecord, SyncRecord};
use crate::tensor::{Device, Home, ReleaseQueue, Tensor};
use tpu_ir::{BinaryOp, CompareOp, DType, Op, ScalarKind, Shape, ShapeError, UnaryOp};

mod device;
mod matmul;
use device::default_device;
pub(crate) use matmul::transposed_in_place;

#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum RuntimeError {
    #[error("{0}")]
    Shape(#[from] ShapeError),
    #[error(
        "Expected all tensors to be on the same device, but found at least two devices, {0} and {1}!"
    )]
    DeviceMismatch(Device, Device),
    #[error(
        "out of memory: a tensor of shape {shape:?} needs {bytes} bytes; this runtime allows {limit} bytes per tensor"
    )]
    OutOfMemory {
        shape: Vec<usize>,
        bytes: u128,
        limit: usize,
    },
    #[error(
        "out of memory: a tensor of shape {shape:?} needs {bytes} bytes while {live} bytes are in use; this runtime allows {limit} bytes of tensors in all"
    )]
    OutOfMemoryTotal {
        shape: Vec<usize>,
        bytes: u128,
        live: usize,
        limit: usize,
    },
    #[error("expected m1 and m2 to have the same dtype, but got: {} != {}", c_type_name(*.0), c_type_name(*.1))]
    DTypeMismatch(DType, DType),
    #[error("a Tensor with {0} elements cannot be converted to Scalar")]
    NotAScalar(usize),
    #[error("{0}")]
    Backend(#[from] BackendError),
    #[error("{0}")]
    NotImplemented(String),
    /// Any other `RuntimeError` with PyTorch's message.
    #[error("{0}")]
    Message(String),
    /// An `IndexError` (index out of range).
    #[error("{0}")]
    Index(String),
    /// A `ValueError`.
    #[error("{0}")]
    Value(String),
    /// A `TypeError`.
    #[error("{0}")]
    Type(String),
}

impl RuntimeError {
    /// The Python exception class a user sees for this error.
    pub fn python_kind(&self) -> &'static str {
        match self {
            RuntimeError::NotImplemented(_)
            | RuntimeError::Backend(BackendError::Unsupported { .. }) => "NotImplementedError",
            RuntimeError::Index(_) => "IndexError",
            RuntimeError::Value(_) => "ValueError",
            RuntimeError::Type(_) => "TypeError",
            _ => "RuntimeError",
        }
    }
}

/// A broadcast view (`expand`: stride 0 where a size-1 dimension was
/// repeated) of a whole dense storage, as that storage with size 1 in those
/// dimensions: what a broadcasting kernel reads without a copy.
fn unexpanded(t: &Tensor) -> Option<Tensor> {
    if t.is_dense() {
        return None;
    }
    let layout = t.layout();
    let dims: Vec<usize> = layout
        .shape
        .dims()
        .iter()
        .zip(&layout.strides)
        .map(|(&d, &s)| if s == 0 { 1 } else { d })
        .collect();
    let base = Shape::new(dims);
    let expected = base.strides();
    let fits = layout.offset == 0
        && layout.storage.len() == base.numel()
        && base
            .dims()
            .iter()
            .zip(layout.strides.iter().zip(&expected))
            .all(|(&d, (&s, &e))| d == 1 || s == e);
    fits.then(|| {
        Tensor::from_layout(crate::tensor::Layout {
            strides: expected,
            shape: base,
            ..layout
        })
    })
}

/// The C++ type name PyTorch's messages use for a dtype (`float`, `long int`).
pub fn c_type_name(dtype: DType) -> &'static str {
    match dtype {
        DType::Float32 => "float",
        DType::BFloat16 => "c10::BFloat16",
        DType::Int64 => "long int",
        DType::Bool => "bool",
    }
}

/// The ScalarType name PyTorch's messages use (`Float`, `Long`).
pub fn scalar_type_name(dtype: DType) -> &'static str {
    match dtype {
        DType::Float32 => "Float",
        DType::BFloat16 => "BFloat16",
        DType::Int64 => "Long",
        DType::Bool => "Bool",
    }
}

/// PyTorch's message for `-` with a bool operand.
const BOOL_SUBTRACTION: &str = "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.";

/// The largest tensor one allocation may make. Debug Eager will add the chosen
/// chip's HBM as a further limit; this one protects the host.
pub const MAX_TENSOR_BYTES: usize = 1 << 30;

/// The most bytes all live tensors together may hold, so that a program cannot
/// exhaust the host (or the wasm address space) one legal tensor at a time.
#[cfg(not(target_arch = "wasm32"))]
pub const MAX_LIVE_BYTES: usize = 4 << 30;
#[cfg(target_arch = "wasm32")]
pub const MAX_LIVE_BYTES: usize = 3 << 29;

/// Refuses shapes whose storage would pass `MAX_TENSOR_BYTES`.
pub(crate) fn check_size(shape: &Shape, dtype: DType) -> Result<(), RuntimeError> {
    let bytes = shape
        .dims()
        .iter()
        .fold(dtype.size_in_bytes() as u128, |n, &d| {
            n.saturating_mul(d as u128)
        });
    if bytes > MAX_TENSOR_BYTES as u128 {
        return Err(RuntimeError::OutOfMemory {
            shape: shape.dims().to_vec(),
            bytes,
            limit: MAX_TENSOR_BYTES,
        });
    }
    Ok(())
}

pub struct Runtime {
    pub(crate) host: ReferenceBackend,
    pub(crate) tpu: crate::fusion::FusingBackend,
    pub(crate) release: ReleaseQueue,
    pub(crate) ops: Vec<OpRecord>,
    pub(crate) mode: EagerMode,
    pub(crate) syncs: Vec<SyncRecord>,
    /// Why the next read happens, set by the caller (`item()`, `print`, ...).
    sync_reason: Option<&'static str>,
    pub(crate) first_nonfinite: Option<NonFinite>,
    /// Bytes held by each live buffer, and their sum, for `MAX_LIVE_BYTES`.
    live: std::collections::HashMap<(Home, BufferId), usize>,
    live_bytes: usize,
    pub(crate) line: Option<u32>,
    print_options: PrintOptions,
    /// The simulated TPU: its chip and slice.
    device: (tpu_device::Chip, tpu_device::Slice),
    /// The one the embedder chose, which every run starts with.
    chosen_device: (tpu_device::Chip, tpu_device::Slice),
    /// Collectives simulated in this run.
    collectives: Vec<crate::report::CollectiveRecord>,
    grad_enabled: bool,
    /// The default generator (`torch.manual_seed`), shared by `cpu` and `tpu`
    /// tensors so that seeded programs draw PyTorch's CPU stream on either device.
    pub generator: crate::rng::Generator,
}

impl Runtime {
    pub fn new(tpu: Box<dyn Backend>) -> Self {
        Runtime {
            host: ReferenceBackend::new(),
            tpu: crate::fusion::FusingBackend::new(tpu),
            mode: EagerMode::Strict,
            syncs: Vec::new(),
            sync_reason: None,
            first_nonfinite: None,
            release: ReleaseQueue::default(),
            ops: Vec::new(),
            live: Default::default(),
            live_bytes: 0,
            line: None,
            print_options: PrintOptions::default(),
            device: default_device(),
            chosen_device: default_device(),
            collectives: Vec::new(),
            grad_enabled: true,
            generator: crate::rng::Generator::default(),
        }
    }

    pub fn tpu_backend_kind(&self) -> BackendKind {
        self.tpu.kind()
    }

    pub fn tpu_device_description(&self) -> String {
        self.tpu.device_description()
    }

    /// `torch.set_grad_enabled`: returns the previous mode.
    pub fn set_grad_enabled(&mut self, enabled: bool) -> bool {
        std::mem::replace(&mut self.grad_enabled, enabled)
    }

    pub fn grad_enabled(&self) -> bool {
        self.grad_enabled
    }

    /// Returns the state a fresh Python process starts with: the default seed,
    /// gradients enabled. Called at the start of every run.
    pub fn reset_session_state(&mut self) {
        self.generator = crate::rng::Generator::default();
        self.device = self.chosen_device.clone();
        self.collectives.clear();
        self.grad_enabled = true;
        self.syncs.clear();
        self.first_nonfinite = None;
        self.tpu.cache.begin_run();
    }

    /// The source line that subsequent ops are attributed to in the Report.
    pub fn set_line(&mut self, line: Option<u32>) {
        self.line = line;
    }

    pub fn take_ops(&mut self) -> Vec<OpRecord> {
        std::mem::take(&mut self.ops)
    }

    /// Fills the Report's execution fields at the end of a run: ops, kernels,
    /// syncs, cache counters, mode, Debug findings.
    pub fn finish_report(&mut self, report: &mut crate::Report) -> Result<(), RuntimeError> {
        self.tpu.flush()?;
        report.ops = std::mem::take(&mut self.ops);
        report.kernels = std::mem::take(&mut self.tpu.kernels);
        report.syncs = std::mem::take(&mut self.syncs);
        report.cache = self.tpu.cache.run_stats();
        report.mode = self.mode;
        report.first_nonfinite = self.first_nonfinite.take();
        report.collectives = std::mem::take(&mut self.collectives);
        self.simulate(report);
        Ok(())
    }

    pub fn mode(&self) -> EagerMode {
        self.mode
    }

    /// `torch_tpu.set_eager_mode`: leaving Fused runs what is pending first.
    pub fn set_mode(&mut self, mode: EagerMode) -> Result<(), RuntimeError> {
        self.tpu.set_deferring(mode == EagerMode::Fused)?;
        self.mode = mode;
        Ok(())
    }

    /// Gives the runtime a clock (milliseconds) so it can time compilations.
    /// The runtime never reads time by itself: wasm has no `Instant`, and the
    /// embedder knows the right clock (`std::time` natively, `Date.now()` in a
    /// browser).
    pub fn set_clock(&mut self, clock: Box<dyn Fn() -> f64>) {
        self.tpu.clock = Some(clock);
    }

    /// The compilation cache's counters for this run (`torch_tpu.cache_stats()`).
    pub fn cache_stats(&self) -> CacheStats {
        self.tpu.cache.run_stats()
    }

    /// Loads the compilation cache entries persisted by earlier sessions;
    /// each `Err` names one that could not be read (it is counted, and its
    /// kernel rebuilt).
    pub fn load_cache(&mut self, entries: Vec<Result<crate::CacheEntry, String>>) {
        self.tpu.cache.load(entries);
    }

    /// The compilation cache entries made since the last call, for the
    /// embedder to persist.
    pub fn take_cache_entries(&mut self) -> Vec<crate::CacheEntry> {
        self.tpu.cache.take_fresh()
    }

    /// The `tpu` backend's driver-level pipeline cache: the name it persists
    /// under, where the driver has one (see `Backend::driver_cache_key`).
    pub fn driver_cache_key(&self) -> Option<String> {
        self.tpu.driver_cache_key()
    }

    /// Starts the driver's pipeline cache from persisted bytes (before a run;
    /// empty bytes start an empty cache).
    pub fn load_driver_cache(&mut self, data: &[u8]) {
        self.tpu.load_driver_cache(data)
    }

    /// The driver's pipeline cache, to persist after a run.
    pub fn driver_cache_data(&self) -> Option<Vec<u8>> {
        self.tpu.driver_cache_data()
    }

    /// Names why the next read waits for the device (`item()`, `print`, ...).
    pub fn set_sync_reason(&mut self, reason: &'static str) {
        self.sync_reason = Some(reason);
    }

    /// `torch_tpu.sync()`: runs everything pending now.
    pub fn sync(&mut self) -> Result<(), RuntimeError> {
        self.tpu.flush()?;
        self.syncs.push(SyncRecord {
            reason: "torch_tpu.sync()".into(),
            line: self.line,
            after_kernels: self.tpu.kernels.len(),
            bytes: 0,
        });
        Ok(())
    }

    /// Buffers alive on the `tpu` backend, after freeing those already dropped.
    pub fn live_tpu_buffers(&mut self) -> usize {
        self.release_dropped();
        self.tpu.live_buffers()
    }

    pub(crate) fn backend(&mut self, home: Home) -> &mut dyn Backend {
        match home {
            Home::Host => &mut self.host,
            Home::Accelerator => &mut self.tpu,
        }
    }

    /// Frees the buffers of every tensor dropped so far.
    pub fn collect_garbage(&mut self) {
        self.release_dropped();
    }

    pub(crate) fn release_dropped(&mut self) {
        let dropped: Vec<(Home, BufferId)> = self.release.borrow_mut().drain(..).collect();
        for (home, buffer) in dropped {
            if let Some(bytes) = self.live.remove(&(home, buffer)) {
                self.live_bytes -= bytes;
            }
            self.backend(home).free(buffer);
        }
    }

    /// Checks that a new tensor of `shape` fits both the per-tensor and the
    /// total limit, before anything is allocated for it.
    pub fn check_allocation(&mut self, shape: &Shape, dtype: DType) -> Result<(), RuntimeError> {
        self.release_dropped();
        check_size(shape, dtype)?;
        let bytes = shape.numel() * dtype.size_in_bytes();
        if self.live_bytes + bytes > MAX_LIVE_BYTES {
            return Err(RuntimeError::OutOfMemoryTotal {
                shape: shape.dims().to_vec(),
                bytes: bytes as u128,
                live: self.live_bytes,
                limit: MAX_LIVE_BYTES,
            });
        }
        Ok(())
    }

    /// Debug mode: a `tpu` allocation that would take the device's buffers
    /// past the chip's HBM fails, naming the chip, before anything is made.
    pub(crate) fn check_hbm(
        &mut self,
        shape: &Shape,
        dtype: DType,
        device: Device,
    ) -> Result<(), RuntimeError> {
        if self.mode != EagerMode::Debug || device == Device::Cpu {
            return Ok(());
        }
        self.release_dropped();
        let bytes = shape
            .dims()
            .iter()
            .fold(dtype.size_in_bytes() as u128, |n, &d| {
                n.saturating_mul(d as u128)
            });
        let in_use: usize = self
            .live
            .iter()
            .filter(|((home, _), _)| *home == Home::Accelerator)
            .map(|(_, &b)| b)
            .sum();
        let chip = &self.device.0;
        let hbm = chip.hbm_bytes.value as u128;
        if in_use as u128 + bytes > hbm {
            return Err(RuntimeError::Message(format!(
                "out of memory on {device}: a tensor of shape {:?} needs {bytes} bytes with {in_use} in use, past the {:.0} GB of HBM of a {} chip",
                shape.dims(),
                chip.hbm_bytes.value / 1e9,
                chip.id
            )));
        }
        Ok(())
    }

    /// Counts a new buffer against `MAX_LIVE_BYTES` until it is released.
    pub(crate) fn track(&mut self, home: Home, buffer: BufferId, bytes: usize) {
        self.live.insert((home, buffer), bytes);
        self.live_bytes += bytes;
    }

    /// `torch.full(shape, value, dtype=...)`; `zeros` and `ones` are fills of 0 and 1.
    pub async fn full(
        &mut self,
        shape: Shape,
        value: f64,
        dtype: DType,
        device: Device,
    ) -> Result<Tensor, RuntimeError> {
        self.dispatch(Op::Fill { value }, &[], shape, dtype, device)
            .await
    }

    /// Runs `op` on dense copies of any strided views among `inputs`. Ops
    /// that broadcast their operands take an expanded view as the smaller
    /// tensor it expands, so `expand` never costs a copy there.
    pub(crate) async fn dispatch(
        &mut self,
        op: Op,
        inputs: &[&Tensor],
        out_shape: Shape,
        out_dtype: DType,
        device: Device,
    ) -> Result<Tensor, RuntimeError> {
        let broadcasts = matches!(op, Op::Binary { .. } | Op::Compare { .. } | Op::Where);
        let mut dense = Vec::with_capacity(inputs.len());
        for t in inputs {
            let unexpanded = if broadcasts { unexpanded(t) } else { None };
            match unexpanded {
                Some(u) => dense.push(u),
                None => dense.push(self.dense(t).await?),
            }
        }
        let refs: Vec<&Tensor> = dense.iter().collect();
        self.dispatch_dense(op, &refs, out_shape, out_dtype, device)
            .await
    }

    /// `tensor.to(dtype)`: the same tensor when the dtype already matches.
    pub async fn cast(&mut self, t: &Tensor, to: DType) -> Result<Tensor, RuntimeError> {
        if t.dtype() == to {
            return Ok(t.clone());
        }
        let out = self
            .dispatch(Op::Cast { to }, &[t], t.shape(), to, t.device())
            .await?;
        self.record(&out, GradFn::Cast { from: t.dtype() }, &[t]);
        Ok(out)
    }

    /// The dtype an arithmetic op computes in, given the promoted operand dtype:
    /// true division of integers is floating, and bool arithmetic is not built.
    fn arithmetic_dtype(op: BinaryOp, promoted: DType) -> Result<DType, RuntimeError> {
        match (op, promoted) {
            (BinaryOp::Div, DType::Int64 | DType::Bool) => Ok(DType::Float32),
            (BinaryOp::Maximum | BinaryOp::Minimum, DType::Bool) => Ok(DType::Bool),
            (_, DType::Bool) => Err(RuntimeError::NotImplemented(format!(
                "arithmetic ({}) on two bool tensors is not supported yet",
                op.name()
            ))),
            (_, d) => Ok(d),
        }
    }

    pub async fn binary(
        &mut self,
        op: BinaryOp,
        a: &Tensor,
        b: &Tensor,
    ) -> Result<Tensor, RuntimeError> {
        let out = Shape::broadcast(&a.shape(), &b.shape())?;
        if op == BinaryOp::Sub && (a.dtype() == DType::Bool || b.dtype() == DType::Bool) {
            return Err(RuntimeError::NotImplemented(BOOL_SUBTRACTION.into()));
        }
        if a.dtype() == DType::Bool
            && b.dtype() == DType::Bool
            && matches!(op, BinaryOp::Add | BinaryOp::Mul)
        {
            // On bools `+` is logical or and `*` logical and, as in PyTorch.
            let ai = self.cast(a, DType::Int64).await?;
            let bi = self.cast(b, DType::Int64).await?;
            let sum = self
                .dispatch(
                    Op::Binary { op },
                    &[&ai, &bi],
                    out,
                    DType::Int64,
                    a.device(),
                )
                .await?;
            return self.cast(&sum, DType::Bool).await;
        }
        let dtype = Self::arithmetic_dtype(op, DType::promote(a.dtype(), b.dtype()))?;
        let (a, b) = (self.cast(a, dtype).await?, self.cast(b, dtype).await?);
        let result = self
            .dispatch(Op::Binary { op }, &[&a, &b], out, dtype, a.device())
            .await?;
        if self.grad_enabled() && (a.requires_grad() || b.requires_grad()) {
            let grad_fn = match op {
                BinaryOp::Add | BinaryOp::Sub => Some(GradFn::AddSub {
                    a: a.shape(),
                    b: b.shape(),
                    sub: op == BinaryOp::Sub,
                }),
                BinaryOp::Mul => Some(GradFn::Mul {
                    a: a.clone(),
                    b: b.clone(),
                }),
                BinaryOp::Div => Some(GradFn::Div {
                    a: a.clone(),
                    b: b.clone(),
                }),
                BinaryOp::Pow => Some(GradFn::Pow {
                    a: a.clone(),
                    b: b.clone(),
                    out: self.detach(&result),
                }),
                BinaryOp::Maximum | BinaryOp::Minimum => Some(GradFn::Extremum {
                    a: a.clone(),
                    b: b.clone(),
                    max: op == BinaryOp::Maximum,
                }),
                BinaryOp::FloorDiv | BinaryOp::Remainder => None,
            };
            if let Some(f) = grad_fn {
                self.record(&result, f, &[&a, &b]);
            }
        }
        Ok(result)
    }

    pub async fn binary_scalar(
        &mut self,
        op: BinaryOp,
        a: &Tensor,
        scalar: f64,
        kind: ScalarKind,
        scalar_on_left: bool,
    ) -> Result<Tensor, RuntimeError> {
        if op == BinaryOp::Sub && (kind == ScalarKind::Bool || a.dtype() == DType::Bool) {
            return Err(RuntimeError::NotImplemented(BOOL_SUBTRACTION.into()));
        }
        let dtype = Self::arithmetic_dtype(op, a.dtype().with_scalar(kind))?;
        if op == BinaryOp::Pow && dtype == DType::Int64 && !scalar_on_left && scalar < 0.0 {
            return Err(RuntimeError::Message(
                "Integers to negative integer powers are not allowed.".into(),
            ));
        }
        let a = self.cast(a, dtype).await?;
        let ir = Op::BinaryScalar {
            op,
            scalar,
            scalar_on_left,
        };
        let out = self
            .dispatch(ir, &[&a], a.shape(), dtype, a.device())
            .await?;
        if self.grad_enabled() && a.requires_grad() {
            let grad_fn = GradFn::Scalar {
                op,
                scalar,
                scalar_on_left,
                x: a.clone(),
                out: self.detach(&out),
            };
            self.record(&out, grad_fn, &[&a]);
        }
        Ok(out)
    }

    /// `torch.exp(t)` and the other elementwise functions: integer inputs become
    /// float32 except for the functions that keep integers (`abs`, `neg`, `relu`).
    pub async fn unary(&mut self, op: UnaryOp, t: &Tensor) -> Result<Tensor, RuntimeError> {
        let dtype = match t.dtype() {
            DType::Bool if op == UnaryOp::Neg => {
                return Err(RuntimeError::NotImplemented(
                    "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.".into(),
                ));
            }
            DType::Int64 if op.keeps_integers() => DType::Int64,
            DType::Int64 | DType::Bool => DType::Float32,
            d => d,
        };
        let t = self.cast(t, dtype).await?;
        let out = self
            .dispatch(Op::Unary { op }, &[&t], t.shape(), dtype, t.device())
            .await?;
        if self.grad_enabled() && t.requires_grad() {
            let grad_fn = GradFn::Unary {
                op,
                x: t.clone(),
                out: self.detach(&out),
            };
            self.record(&out, grad_fn, &[&t]);
        }
        Ok(out)
    }

    /// `a < b` and the other comparisons, elementwise with broadcasting.
    pub async fn compare(
        &mut self,
        op: CompareOp,
        a: &Tensor,
        b: &Tensor,
    ) -> Result<Tensor, RuntimeError> {
        let out = Shape::broadcast(&a.shape(), &b.shape())?;
        let dtype = DType::promote(a.dtype(), b.dtype());
        let (a, b) = (self.cast(a, dtype).await?, self.cast(b, dtype).await?);
        self.dispatch(Op::Compare { op }, &[&a, &b], out, DType::Bool, a.device())
            .await
    }

    /// `x > 0` and the other comparisons with a Python number.
    pub async fn compare_scalar(
        &mut self,
        op: CompareOp,
        a: &Tensor,
        scalar: f64,
    ) -> Result<Tensor, RuntimeError> {
        let op = Op::CompareScalar { op, scalar };
        self.dispatch(op, &[a], a.shape(), DType::Bool, a.device())
            .await
    }

    /// `torch.where(cond, a, b)` with broadcasting of all three.
    pub async fn where_(
        &mut self,
        cond: &Tensor,
        a: &Tensor,
        b: &Tensor,
    ) -> Result<Tensor, RuntimeError> {
        if cond.dtype() != DType::Bool {
            return Err(RuntimeError::Message(format!(
                "where expected condition to be a boolean tensor, but got a tensor with dtype {}",
                scalar_type_name(cond.dtype())
            )));
        }
        let ab = Shape::broadcast(&a.shape(), &b.shape())?;
        let out = Shape::broadcast(&cond.shape(), &ab)?;
        let dtype = DType::promote(a.dtype(), b.dtype());
        let (a, b) = (self.cast(a, dtype).await?, self.cast(b, dtype).await?);
        let result = self
            .dispatch(Op::Where, &[cond, &a, &b], out, dtype, a.device())
            .await?;
        let grad_fn = GradFn::Where {
            cond: cond.clone(),
            a: a.shape(),
            b: b.shape(),
        };
        self.record(&result, grad_fn, &[&a, &b]);
        Ok(result)
    }

    /// `tensor.sum()`: integers and bools sum to int64, as in PyTorch.
    pub async fn sum(&mut self, a: &Tensor) -> Result<Tensor, RuntimeError> {
        let dtype = match a.dtype() {
            DType::Bool | DType::Int64 => DType::Int64,
            d => d,
        };
        let a = self.cast(a, dtype).await?;
        let out = self
            .dispatch(Op::SumAll, &[&a], Shape::scalar(), dtype, a.device())
            .await?;
        self.record(&out, GradFn::SumAll { shape: a.shape() }, &[&a]);
        Ok(out)
    }

    /// `torch.rand` (`normal` false) or `torch.randn` (true): values drawn on the
    /// host from the default generator, then placed on `device`.
    pub async fn random(
        &mut self,
        shape: Shape,
        normal: bool,
        device: Device,
    ) -> Result<Tensor, RuntimeError> {
        check_size(&shape, DType::Float32)?;
        let mut values = vec![0f32; shape.numel()];
        if normal {
            self.generator.fill_normal_f32(&mut values, 0.0, 1.0);
        } else {
            self.generator.fill_uniform_f32(&mut values, 0.0, 1.0);
        }
        self.from_data(HostData::F32(values), shape, device).await
    }

    /// `tensor.uniform_(a, b)` (`normal` false) or `tensor.normal_(mean, std)`:
    /// the generator's stream written into the tensor in place.
    pub async fn fill_random(
        &mut self,
        t: &Tensor,
        normal: bool,
        a: f64,
        b: f64,
    ) -> Result<(), RuntimeError> {
        let mut values = vec![0f32; t.numel()];
        if normal {
            self.generator.fill_normal_f32(&mut values, a, b);
        } else {
            self.generator.fill_uniform_f32(&mut values, a, b);
        }
        let data = HostData::F32(values).cast(t.dtype());
        let src = self.from_data(data, t.shape(), t.device()).await?;
        self.write(t, &src).await
    }

    /// `tensor.cpu()` and `tensor.to(device)`.
    pub async fn to_device(&mut self, t: &Tensor, device: Device) -> Result<Tensor, RuntimeError> {
        if t.device() == device {
            return Ok(t.clone());
        }
        let values = self.read(t).await?;
        let out = self.from_data(values, t.shape(), device).await?;
        self.record(&out, GradFn::ToDevice { from: t.device() }, &[t]);
        Ok(out)
    }

    /// Reads a tensor's values back to the host: a materialisation point.
    pub async fn read(&mut self, t: &Tensor) -> Result<HostData, RuntimeError> {
        let t = self.dense(t).await?;
        self.read_dense(&t).await
    }

    /// Reads a dense tensor's buffer without recording a sync (Debug mode's
    /// per-op wait, which is the mode's own behaviour rather than the program's).
    pub(crate) async fn read_dense_quiet(&mut self, t: &Tensor) -> Result<HostData, RuntimeError> {
        let buffer = t.buffer();
        let (dtype, n) = (t.dtype(), t.numel());
        Ok(self.backend(t.home()).read(buffer, dtype, n).await?)
    }

    /// Reads a dense tensor's buffer.
    pub(crate) async fn read_dense(&mut self, t: &Tensor) -> Result<HostData, RuntimeError> {
        debug_assert!(t.is_dense());
        self.release_dropped();
        if t.home() == Home::Accelerator {
            let reason = self
                .sync_reason
                .take()
                .unwrap_or("a value the host needs (an index, a mask, a host fallback)");
            self.syncs.push(SyncRecord {
                reason: reason.to_string(),
                line: self.line,
                after_kernels: 0,
                bytes: t.numel() * t.dtype().size_in_bytes(),
            });
        }
        let buffer = t.buffer();
        let (dtype, n) = (t.dtype(), t.numel());
        let data = self.backend(t.home()).read(buffer, dtype, n).await?;
        if t.home() == Home::Accelerator
            && let Some(sync) = self.syncs.last_mut()
        {
            // The read ran what was pending: the host waited for all of it.
            sync.after_kernels = self.tpu.kernels.len();
        }
        Ok(data)
    }

    /// `tensor.item()`.
    pub async fn item(&mut self, t: &Tensor) -> Result<Scalar, RuntimeError> {
        if t.numel() != 1 {
            return Err(RuntimeError::NotAScalar(t.numel()));
        }
        Ok(self.read(t).await?.scalar(0))
    }

    /// `repr(tensor)`, exactly as PyTorch prints it, with the autograd suffix
    /// (`grad_fn=<MulBackward0>` or `requires_grad=True`).
    pub async fn repr(&mut self, t: &Tensor) -> Result<String, RuntimeError> {
        let values = self.read(t).await?.to_f64();
        let dims = t.dims();
        let host = HostTensor {
            values: &values,
            shape: &dims,
            dtype: t.dtype(),
        };
        let device = match t.device() {
            Device::Cpu => None,
            d @ Device::Tpu(_) => Some(d.to_string()),
        };
        let mut extra = Vec::new();
        if let Some(name) = t.grad_fn_name() {
            extra.push(format!("grad_fn=<{name}>"));
        } else if t.requires_grad() {
            extra.push("requires_grad=True".to_string());
        }
        let text = format::tensor_repr(&host, &extra, device.as_deref(), &self.print_options);
        Ok(if t.is_parameter() {
            format!("Parameter containing:\n{text}")
        } else {
            text
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pollster::block_on;

    fn runtime() -> Runtime {
        Runtime::new(Box::new(ReferenceBackend::new()))
    }

    fn ones(rt: &mut Runtime, dims: &[usize], device: Device) -> Tensor {
        block_on(rt.full(Shape::new(dims), 1.0, DType::Float32, device)).unwrap()
    }

    #[test]
    fn dropped_tensors_free_their_buffers() {
        let mut rt = runtime();
        let a = ones(&mut rt, &[2, 2], Device::Tpu(0));
        let b =
            block_on(rt.binary_scalar(BinaryOp::Mul, &a, 2.0, ScalarKind::Float, false)).unwrap();
        assert_eq!(rt.live_tpu_buffers(), 2);
        drop(a);
        drop(b);
        assert_eq!(rt.live_tpu_buffers(), 0);
    }

    #[test]
    fn matmul_shape_mismatch_uses_pytorch_wording() {
        let mut rt = runtime();
        let a = ones(&mut rt, &[2, 3], Device::Tpu(0));
        let b = ones(&mut rt, &[4, 2], Device::Tpu(0));
        let err = block_on(rt.matmul(&a, &b)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "mm: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x2)"
        );
    }

    #[test]
    fn huge_tensors_are_refused_before_allocation() {
        let mut rt = runtime();
        let huge = Shape::new([1 << 40, 1 << 40]);
        let err = block_on(rt.full(huge, 0.0, DType::Float32, Device::Tpu(0))).unwrap_err();
        assert!(matches!(err, RuntimeError::OutOfMemory { .. }), "{err}");
        assert!(err.to_string().starts_with("out of memory"), "{err}");
    }

    #[test]
    fn mixing_devices_is_an_error() {
        let mut rt = runtime();
        let a = ones(&mut rt, &[2], Device::Tpu(0));
        let b = ones(&mut rt, &[2], Device::Cpu);
        let err = block_on(rt.binary(BinaryOp::Add, &a, &b)).unwrap_err();
        assert!(err.to_string().contains("tpu:0 and cpu"), "{err}");
    }

    #[test]
    fn cpu_copy_prints_without_a_device_suffix() {
        let mut rt = runtime();
        let a = block_on(rt.full(Shape::new([2]), 1.5, DType::Float32, Device::Tpu(0))).unwrap();
        let on_tpu = block_on(rt.repr(&a)).unwrap();
        let c = block_on(rt.to_device(&a, Device::Cpu)).unwrap();
        let on_cpu = block_on(rt.repr(&c)).unwrap();
        assert_eq!(on_tpu, "tensor([1.5000, 1.5000], device='tpu:0')");
        assert_eq!(on_cpu, "tensor([1.5000, 1.5000])");
    }
}
