//! Reads: a tensor's values back on the host (each read from the `tpu` device
//! a sync, recorded with its reason), `item()`, `repr()` with PyTorch's printing,
//! and copies between devices, which go through the host.

use super::{Runtime, RuntimeError};
use crate::autograd::GradFn;
use crate::data::{HostData, Scalar};
use crate::format::{self, HostTensor};
use crate::report::SyncRecord;
use crate::tensor::{Device, Home, Tensor};

impl Runtime {
    /// Names why the next read waits for the device (`item()`, `print`, ...).
    pub fn set_sync_reason(&mut self, reason: &'static str) {
        self.sync_reason = Some(reason);
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
        if t.device() == Device::Meta {
            return Err(RuntimeError::NotImplemented(
                "Cannot copy out of meta tensor; no data!".into(),
            ));
        }
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
        let reason = self
            .sync_reason
            .take()
            .unwrap_or("a value the host needs (an index, a mask, a host fallback)");
        let graph_break = self.capture_read(t, reason)?;
        if t.home() == Home::Accelerator {
            self.syncs.push(SyncRecord {
                rank: 0,
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
        if let Some(export) = graph_break {
            self.capture_after_break(t, export.then_some(&data));
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
        if t.device() == Device::Meta {
            return Ok(Self::meta_repr(t));
        }
        let values = self.read(t).await?.to_f64();
        let dims = t.dims();
        let host = HostTensor {
            values: &values,
            shape: &dims,
            dtype: t.dtype(),
        };
        let device = match t.device() {
            Device::Cpu => None,
            d => Some(d.to_string()),
        };
        if let Some((too_big, message)) = format::precision_error(&host, &self.print_options) {
            return Err(if too_big {
                RuntimeError::Value(message)
            } else {
                RuntimeError::Message(message)
            });
        }
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

    /// `repr` of a complex tensor held as its real and imaginary parts
    /// (`pairs`, whose last dimension is 2: `view_as_real`'s form).
    pub async fn complex_repr(
        &mut self,
        pairs: &Tensor,
        double: bool,
        suffixes: &[String],
    ) -> Result<String, RuntimeError> {
        let mut dims = pairs.dims();
        if dims.pop() != Some(2) {
            return Err(RuntimeError::Message(
                "a complex tensor's parts must have a last dimension of 2".into(),
            ));
        }
        let values = self.read(pairs).await?.to_f64();
        let (re, im): (Vec<f64>, Vec<f64>) = values.chunks(2).map(|p| (p[0], p[1])).unzip();
        let device = match pairs.device() {
            Device::Cpu => None,
            d => Some(d.to_string()),
        };
        Ok(format::complex_tensor_repr(
            &re,
            &im,
            &dims,
            double,
            suffixes,
            device.as_deref(),
            &self.print_options,
        ))
    }

    /// A meta tensor as PyTorch prints one: no values, its size instead
    /// (`tensor(..., device='meta', size=(2, 3), dtype=torch.int64)`).
    fn meta_repr(t: &Tensor) -> String {
        let dims = t.dims();
        let size = match dims.as_slice() {
            [one] => format!("({one},)"),
            _ => format!(
                "({})",
                dims.iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        let mut text = format!("tensor(..., device='meta', size={size}");
        if t.dtype() != tpu_ir::DType::Float32 {
            text += &format!(", dtype={}", t.dtype().torch_name());
        }
        if let Some(name) = t.grad_fn_name() {
            text += &format!(", grad_fn=<{name}>");
        } else if t.requires_grad() {
            text += ", requires_grad=True";
        }
        text.push(')');
        if t.is_parameter() {
            format!("Parameter containing:\n{text}")
        } else {
            text
        }
    }
}
