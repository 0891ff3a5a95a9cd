//! The dispatcher. Every tensor op from the language comes through here: shapes and
//! devices are checked (with PyTorch's error wording), the op goes to the backend of
//! the tensor's device, and an `OpRecord` is logged for the Report. `cpu` tensors
//! always run on the reference backend; `tpu` tensors run on the backend chosen at
//! start-up (wgpu when an adapter exists, the reference otherwise).

use crate::backend::{Backend, BackendError, BackendKind, BufferId};
use crate::data::{HostData, Scalar};
use crate::format::{self, HostTensor, PrintOptions};
use crate::reference::ReferenceBackend;
use crate::report::OpRecord;
use crate::tensor::{Device, Home, ReleaseQueue, Tensor};
use tpu_ir::{BinaryOp, CompareOp, DType, Op, ScalarKind, Shape, ShapeError, UnaryOp};

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
    #[error("expected both operands to have the same dtype, but got {} and {}", .0.torch_name(), .1.torch_name())]
    DTypeMismatch(DType, DType),
    #[error("a Tensor with {0} elements cannot be converted to Scalar")]
    NotAScalar(usize),
    #[error("{0}")]
    Backend(#[from] BackendError),
    #[error("{0}")]
    NotImplemented(String),
}

impl RuntimeError {
    /// The Python exception class a user sees for this error.
    pub fn python_kind(&self) -> &'static str {
        match self {
            RuntimeError::NotImplemented(_)
            | RuntimeError::Backend(BackendError::Unsupported { .. }) => "NotImplementedError",
            _ => "RuntimeError",
        }
    }
}

/// PyTorch's message for `-` with a bool operand.
const BOOL_SUBTRACTION: &str = "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.";

/// The largest tensor one allocation may make. Debug Eager will add the chosen
/// chip's HBM as a further limit; this one protects the host.
pub const MAX_TENSOR_BYTES: usize = 1 << 30;

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
    pub(crate) tpu: Box<dyn Backend>,
    pub(crate) release: ReleaseQueue,
    pub(crate) ops: Vec<OpRecord>,
    pub(crate) line: Option<u32>,
    print_options: PrintOptions,
    grad_enabled: bool,
    /// The default generator (`torch.manual_seed`), shared by `cpu` and `tpu`
    /// tensors so that seeded programs draw PyTorch's CPU stream on either device.
    pub generator: crate::rng::Generator,
}

impl Runtime {
    pub fn new(tpu: Box<dyn Backend>) -> Self {
        Runtime {
            host: ReferenceBackend::new(),
            tpu,
            release: ReleaseQueue::default(),
            ops: Vec::new(),
            line: None,
            print_options: PrintOptions::default(),
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

    /// `torch.set_grad_enabled`: returns the previous mode. Autograd itself is not
    /// built yet; the mode is kept so that `with torch.no_grad():` already works.
    pub fn set_grad_enabled(&mut self, enabled: bool) -> bool {
        std::mem::replace(&mut self.grad_enabled, enabled)
    }

    /// Returns the state a fresh Python process starts with: the default seed,
    /// gradients enabled. Called at the start of every run.
    pub fn reset_session_state(&mut self) {
        self.generator = crate::rng::Generator::default();
        self.grad_enabled = true;
    }

    /// The source line that subsequent ops are attributed to in the Report.
    pub fn set_line(&mut self, line: Option<u32>) {
        self.line = line;
    }

    pub fn take_ops(&mut self) -> Vec<OpRecord> {
        std::mem::take(&mut self.ops)
    }

    /// Buffers alive on the `tpu` backend, after freeing those already dropped.
    pub fn live_tpu_buffers(&mut self) -> usize {
        self.release_dropped();
        self.tpu.live_buffers()
    }

    pub(crate) fn backend(&mut self, home: Home) -> &mut dyn Backend {
        match home {
            Home::Host => &mut self.host,
            Home::Accelerator => self.tpu.as_mut(),
        }
    }

    /// Frees the buffers of every tensor dropped so far.
    pub fn collect_garbage(&mut self) {
        self.release_dropped();
    }

    pub(crate) fn release_dropped(&mut self) {
        let dropped: Vec<(Home, BufferId)> = self.release.borrow_mut().drain(..).collect();
        for (home, buffer) in dropped {
            self.backend(home).free(buffer);
        }
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

    /// `tensor.to(dtype)`: the same tensor when the dtype already matches.
    pub async fn cast(&mut self, t: &Tensor, to: DType) -> Result<Tensor, RuntimeError> {
        if t.dtype() == to {
            return Ok(t.clone());
        }
        self.dispatch(Op::Cast { to }, &[t], t.shape().clone(), to, t.device())
            .await
    }

    /// The dtype an arithmetic op computes in, given the promoted operand dtype:
    /// true division of integers is floating, and bool arithmetic is not built.
    fn arithmetic_dtype(op: BinaryOp, promoted: DType) -> Result<DType, RuntimeError> {
        match (op, promoted) {
            (BinaryOp::Div, DType::Int64 | DType::Bool) => Ok(DType::Float32),
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
        let out = Shape::broadcast(a.shape(), b.shape())?;
        if op == BinaryOp::Sub && (a.dtype() == DType::Bool || b.dtype() == DType::Bool) {
            return Err(RuntimeError::NotImplemented(BOOL_SUBTRACTION.into()));
        }
        let dtype = Self::arithmetic_dtype(op, DType::promote(a.dtype(), b.dtype()))?;
        let (a, b) = (self.cast(a, dtype).await?, self.cast(b, dtype).await?);
        self.dispatch(Op::Binary { op }, &[&a, &b], out, dtype, a.device())
            .await
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
        let a = self.cast(a, dtype).await?;
        let op = Op::BinaryScalar {
            op,
            scalar,
            scalar_on_left,
        };
        self.dispatch(op, &[&a], a.shape().clone(), dtype, a.device())
            .await
    }

    pub async fn matmul(&mut self, a: &Tensor, b: &Tensor) -> Result<Tensor, RuntimeError> {
        let (da, db) = (a.shape().dims(), b.shape().dims());
        if da.len() != 2 || db.len() != 2 {
            return Err(RuntimeError::NotImplemented(format!(
                "matmul of a {}-D and a {}-D tensor is not supported yet (only 2-D @ 2-D)",
                da.len(),
                db.len()
            )));
        }
        if da[1] != db[0] {
            return Err(ShapeError::MatMul {
                a: a.shape().clone(),
                b: b.shape().clone(),
            }
            .into());
        }
        if a.dtype() != b.dtype() {
            return Err(RuntimeError::DTypeMismatch(a.dtype(), b.dtype()));
        }
        let out = Shape::new([da[0], db[1]]);
        self.dispatch(Op::MatMul, &[a, b], out, a.dtype(), a.device())
            .await
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
        self.dispatch(
            Op::Unary { op },
            &[&t],
            t.shape().clone(),
            dtype,
            t.device(),
        )
        .await
    }

    /// `a < b` and the other comparisons, elementwise with broadcasting.
    pub async fn compare(
        &mut self,
        op: CompareOp,
        a: &Tensor,
        b: &Tensor,
    ) -> Result<Tensor, RuntimeError> {
        let out = Shape::broadcast(a.shape(), b.shape())?;
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
        self.dispatch(op, &[a], a.shape().clone(), DType::Bool, a.device())
            .await
    }

    /// `tensor.sum()`: integers and bools sum to int64, as in PyTorch.
    pub async fn sum(&mut self, a: &Tensor) -> Result<Tensor, RuntimeError> {
        let dtype = match a.dtype() {
            DType::Bool | DType::Int64 => DType::Int64,
            d => d,
        };
        let a = self.cast(a, dtype).await?;
        self.dispatch(Op::SumAll, &[&a], Shape::scalar(), dtype, a.device())
            .await
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

    /// `tensor.cpu()` and `tensor.to(device)`.
    pub async fn to_device(&mut self, t: &Tensor, device: Device) -> Result<Tensor, RuntimeError> {
        if t.device() == device {
            return Ok(t.clone());
        }
        let values = self.read(t).await?;
        self.from_data(values, t.shape().clone(), device).await
    }

    /// Reads a tensor's values back to the host: a materialisation point.
    pub async fn read(&mut self, t: &Tensor) -> Result<HostData, RuntimeError> {
        self.release_dropped();
        let buffer = t.buffer();
        let (dtype, n) = (t.dtype(), t.numel());
        Ok(self.backend(t.home()).read(buffer, dtype, n).await?)
    }

    /// `tensor.item()`.
    pub async fn item(&mut self, t: &Tensor) -> Result<Scalar, RuntimeError> {
        if t.numel() != 1 {
            return Err(RuntimeError::NotAScalar(t.numel()));
        }
        Ok(self.read(t).await?.scalar(0))
    }

    /// `repr(tensor)`, exactly as PyTorch prints it.
    pub async fn repr(&mut self, t: &Tensor) -> Result<String, RuntimeError> {
        let values = self.read(t).await?.to_f64();
        let host = HostTensor {
            values: &values,
            shape: t.shape().dims(),
            dtype: t.dtype(),
        };
        let device = match t.device() {
            Device::Cpu => None,
            d @ Device::Tpu(_) => Some(d.to_string()),
        };
        Ok(format::tensor_repr(
            &host,
            &[],
            device.as_deref(),
            &self.print_options,
        ))
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
            "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x2)"
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
