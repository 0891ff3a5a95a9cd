//! Where each op runs. `cpu` tensors run on the host reference. A `tpu` op runs on
//! the accelerator backend when that backend can hold every operand and has a
//! kernel for it; otherwise it falls back to the host reference, its operands
//! copied there, and its result stays on the host (a `tpu` tensor still, homed on
//! the host) until a later op can move it back. Every fallback is recorded in the
//! Report with its reason, so a program always runs and always says where.

use crate::backend::{BackendError, BufferId, Operand};
use crate::data::HostData;
use crate::fusion::EagerMode;
use crate::report::{NonFinite, OpRecord};
use crate::runtime::{Runtime, RuntimeError};
use crate::tensor::{Device, Home, Tensor};
use tpu_ir::{DType, Op, Shape};

/// An operand placed for one op: its buffer there, and whether it is a
/// temporary copy to free afterwards.
struct Placed {
    buffer: BufferId,
    temporary: bool,
}

impl Runtime {
    /// Runs `op` on dense operands: on the host for `cpu` tensors, on the
    /// accelerator for `tpu` tensors unless it lacks a kernel (then the host).
    pub(crate) async fn dispatch_dense(
        &mut self,
        op: Op,
        inputs: &[&Tensor],
        out_shape: Shape,
        out_dtype: DType,
        device: Device,
    ) -> Result<Tensor, RuntimeError> {
        self.check_hbm(&out_shape, out_dtype, device)?;
        self.check_allocation(&out_shape, out_dtype)?;
        for t in inputs {
            if t.device() != device {
                return Err(RuntimeError::DeviceMismatch(device, t.device()));
            }
        }
        if device.is_host() {
            return self
                .run_on(Home::Host, &op, inputs, out_shape, out_dtype, device, None)
                .await;
        }
        match self
            .run_on(
                Home::Accelerator,
                &op,
                inputs,
                out_shape.clone(),
                out_dtype,
                device,
                None,
            )
            .await
        {
            Err(RuntimeError::Backend(BackendError::Unsupported { what, .. })) => {
                let reason = format!(
                    "{} has no kernel for {what}",
                    self.tpu_backend_kind().name()
                );
                self.run_on(
                    Home::Host,
                    &op,
                    inputs,
                    out_shape,
                    out_dtype,
                    device,
                    Some(reason),
                )
                .await
            }
            other => other,
        }
    }

    /// Runs `op` on the host reference whatever the device, for an op whose
    /// operands were just read there (`nonzero`); a `tpu` op run this way is
    /// recorded as a fallback with `reason`.
    pub(crate) async fn dispatch_on_host(
        &mut self,
        op: Op,
        inputs: &[&Tensor],
        out_shape: Shape,
        out_dtype: DType,
        reason: &str,
    ) -> Result<Tensor, RuntimeError> {
        let device = inputs.first().map_or(Device::Cpu, |t| t.device());
        self.check_hbm(&out_shape, out_dtype, device)?;
        self.check_allocation(&out_shape, out_dtype)?;
        let fallback = (!device.is_host()).then(|| reason.to_string());
        self.run_on(
            Home::Host,
            &op,
            inputs,
            out_shape,
            out_dtype,
            device,
            fallback,
        )
        .await
    }

    /// An int64 index of `positions` the host computed, for an op on
    /// `beside`: homed on the host when `beside` is (a `tpu` tensor a host
    /// fallback made, such as any float64 one), so that the op, which runs
    /// there too, does not read the index back from the device it would
    /// otherwise have been uploaded to.
    pub(crate) async fn index_beside(
        &mut self,
        positions: Vec<i64>,
        shape: Shape,
        beside: &Tensor,
    ) -> Result<Tensor, RuntimeError> {
        let data = HostData::I64(positions);
        if beside.home() == Home::Host && !beside.device().is_host() {
            return self.host_copy(data, shape, beside.device());
        }
        self.from_data(data, shape, beside.device()).await
    }

    /// Values already on the host as a tensor of `device` homed there, for an
    /// op to run on without reading the device again.
    pub(crate) fn host_copy(
        &mut self,
        data: HostData,
        shape: Shape,
        device: Device,
    ) -> Result<Tensor, RuntimeError> {
        self.check_allocation(&shape, data.dtype())?;
        let buffer = self.host_upload(&data)?;
        self.track(
            Home::Host,
            buffer,
            data.len() * data.dtype().size_in_bytes(),
        );
        Ok(Tensor::new(
            shape,
            data.dtype(),
            device,
            Home::Host,
            buffer,
            self.release.clone(),
        ))
    }

    /// Runs `op` on the backend at `home`, copying operands there as needed.
    /// A fallback's operands on the accelerator are read back as syncs
    /// named `FALLBACK_READ`.
    #[allow(clippy::too_many_arguments)]
    async fn run_on(
        &mut self,
        home: Home,
        op: &Op,
        inputs: &[&Tensor],
        out_shape: Shape,
        out_dtype: DType,
        device: Device,
        fallback: Option<String>,
    ) -> Result<Tensor, RuntimeError> {
        let mut placed = Vec::with_capacity(inputs.len());
        for t in inputs {
            if fallback.is_some() && t.home() != home {
                // Named, so the summary groups these reads apart from the
                // program's own.
                self.set_sync_reason(FALLBACK_READ);
            }
            match self.place(t, home).await {
                Ok(p) => placed.push(p),
                Err(e) => {
                    self.free_temporaries(home, &placed);
                    return Err(e);
                }
            }
        }
        let shapes: Vec<Shape> = inputs.iter().map(|t| t.shape()).collect();
        let operands: Vec<Operand> = inputs
            .iter()
            .zip(&placed)
            .zip(&shapes)
            .map(|((t, p), shape)| Operand {
                buffer: p.buffer,
                shape,
                dtype: t.dtype(),
            })
            .collect();
        // A padded graph's op belongs to the program's op it stands for.
        let op_index = self.compiled.quiet_op.unwrap_or(self.ops.len());
        self.tpu.op_index = op_index;
        let backend = self.backend(home);
        let kind = backend.kind();
        let done = backend.execute(op, &operands, &out_shape, out_dtype);
        let work = crate::work::op_work(op, &operands, &out_shape, out_dtype);
        self.work_fuel += crate::work::op_fuel(&work);
        self.free_temporaries(home, &placed);
        let done = done?;
        self.track(
            home,
            done.buffer,
            out_shape.numel() * out_dtype.size_in_bytes(),
        );
        if home == Home::Host && !device.is_host() {
            // A `tpu` op the accelerator could not run is a kernel launch too
            // (on the host), so that kernel counts compare across backends.
            self.tpu.kernels.push(crate::report::KernelRecord {
                rank: 0,
                name: done.kernel.clone(),
                ops: vec![op_index],
                backend: kind,
                kernel_language: done.kernel_language.to_string(),
                fingerprint: None,
                cache_hit: None,
                cache_persisted: false,
                source: None,
                compile_ms: None,
                work,
                cost: None,
                measured: None,
                launch: None,
            });
        }
        // A padded graph's ops are not the program's: neither logged nor
        // captured nor checked one by one.
        let quiet = self.compiled.quiet_op.is_some();
        if !quiet {
            self.ops.push(OpRecord {
                rank: 0,
                name: op.aten_name(),
                op: op.clone(),
                input_shapes: inputs.iter().map(|t| t.shape().dims().to_vec()).collect(),
                output_shape: out_shape.dims().to_vec(),
                device: device.to_string(),
                backend: kind,
                kernel: done.kernel,
                kernel_language: done.kernel_language.to_string(),
                line: self.line,
                fallback,
                conv: match op {
                    Op::MatMul { .. } => self.conv.take(),
                    _ => None,
                },
            });
            if self.compiled.capture.is_some() {
                self.capture_op(op, inputs, ((home, done.buffer), &out_shape, out_dtype))
                    .await?;
            }
        }
        let out = Tensor::new(
            out_shape,
            out_dtype,
            device,
            home,
            done.buffer,
            self.release.clone(),
        );
        if self.mode == EagerMode::Debug && !device.is_host() && !self.is_capturing() && !quiet {
            self.debug_check(&out).await?;
        }
        Ok(out)
    }

    /// Debug mode: waits for the op and names the first one whose result holds
    /// a NaN or an infinity.
    async fn debug_check(&mut self, out: &Tensor) -> Result<(), RuntimeError> {
        if self.first_nonfinite.is_some() || !out.dtype().is_floating() {
            return Ok(());
        }
        let values = self.read_dense_quiet(out).await?.to_f64();
        let value = if values.iter().any(|v| v.is_nan()) {
            "nan"
        } else if values.iter().any(|v| v.is_infinite()) {
            "inf"
        } else {
            return Ok(());
        };
        let index = self.ops.len() - 1;
        let (name, line) = (self.ops[index].name.clone(), self.ops[index].line);
        let place = line.map_or(String::new(), |l| format!(" on line {l}"));
        self.first_nonfinite = Some(NonFinite {
            op: index,
            message: format!(
                "{name}{place} produced {value}: the first non-finite value in this run \
                 (Debug mode checks every op's result)."
            ),
            name,
            line,
            value: value.into(),
        });
        Ok(())
    }

    /// The operand's buffer at `home`: its own if it lives there, else a copy.
    async fn place(&mut self, t: &Tensor, home: Home) -> Result<Placed, RuntimeError> {
        if t.home() == home {
            return Ok(Placed {
                buffer: t.buffer(),
                temporary: false,
            });
        }
        let data = self.read_dense(t).await?;
        let buffer = self.backend(home).upload(&data)?;
        Ok(Placed {
            buffer,
            temporary: true,
        })
    }

    fn free_temporaries(&mut self, home: Home, placed: &[Placed]) {
        for p in placed.iter().filter(|p| p.temporary) {
            self.backend(home).free(p.buffer);
        }
    }

    /// `torch.tensor(data, device=...)`: host values placed on the device, or kept
    /// on the host for a `tpu` tensor whose dtype the accelerator cannot hold.
    pub async fn from_data(
        &mut self,
        data: HostData,
        shape: Shape,
        device: Device,
    ) -> Result<Tensor, RuntimeError> {
        self.check_hbm(&shape, data.dtype(), device)?;
        self.check_allocation(&shape, data.dtype())?;
        debug_assert_eq!(data.len(), shape.numel());
        let home = match device {
            Device::Cpu | Device::Meta => Home::Host,
            Device::Tpu(_) => Home::Accelerator,
        };
        let (home, buffer) = match self.backend(home).upload(&data) {
            Ok(b) => (home, b),
            Err(BackendError::Unsupported { .. }) => (Home::Host, self.host_upload(&data)?),
            Err(e) => return Err(e.into()),
        };
        self.track(home, buffer, data.len() * data.dtype().size_in_bytes());
        Ok(Tensor::new(
            shape,
            data.dtype(),
            device,
            home,
            buffer,
            self.release.clone(),
        ))
    }

    fn host_upload(&mut self, data: &HostData) -> Result<BufferId, RuntimeError> {
        Ok(self.backend(Home::Host).upload(data)?)
    }
}

/// The reason of a sync that reads a host fallback's operand.
pub(crate) const FALLBACK_READ: &str =
    "host fallback: an op with no accelerator kernel reads its operands";
