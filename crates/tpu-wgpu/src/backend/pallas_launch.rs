//! Pallas kernels' launches: one generated shader per `pallas_call`, its
//! output starting as NaN, with a scratch buffer for block values that do
//! not fit workgroup memory (shared with the per-op kernels' scratch).

use super::WgpuBackend;
use crate::pallas;
use tpu_ir::{Op, Shape};
use tpu_runtime::{BackendError, Dispatched, Operand};
use wgpu::util::DeviceExt;

impl WgpuBackend {
    /// A Pallas kernel: its output buffer starts as NaN (interpret mode's
    /// uninitialised value, which a block never written keeps), then one
    /// launch of its generated shader over the inputs, the output and, when
    /// its block values do not fit workgroup memory, a scratch buffer.
    pub(super) fn execute_pallas(
        &mut self,
        kernel: &tpu_ir::PallasKernel,
        inputs: &[Operand<'_>],
        out_shape: &Shape,
    ) -> Result<Dispatched, BackendError> {
        let shader = pallas::shader(kernel, self.loop_cap())?;
        let size = self.storage_size(out_shape.numel())?;
        let scratch_size = (shader.scratch > 0)
            .then(|| self.storage_size(shader.scratch))
            .transpose()?;
        // A new buffer made with its contents: a queue write into a pooled
        // one would land before the kernels already recorded (`batch.rs`).
        let nan = vec![f32::NAN; (size / 4) as usize];
        let out = self
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("tensor"),
                contents: bytemuck::cast_slice(&nan),
                usage: wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::COPY_SRC
                    | wgpu::BufferUsages::COPY_DST,
            });
        let scratch = scratch_size.map(|size| self.pallas_scratch(size));
        let name = Op::Pallas {
            kernel: Box::new(kernel.clone()),
        }
        .kernel_name();
        let pipeline = self.pipeline(&name, || shader.source.clone());
        let mut buffers = Vec::new();
        for input in inputs {
            buffers.push(self.buffer(input.buffer)?.clone());
        }
        buffers.push(out.clone());
        buffers.extend(scratch);
        let buffers: Vec<&wgpu::Buffer> = buffers.iter().collect();
        let launch = self.number_launch();
        self.launch(
            launch,
            &name,
            &pipeline,
            None,
            &buffers,
            (shader.groups, 1, 1),
        );
        self.take_device_error()?;
        Ok(Dispatched {
            buffer: self.insert(out),
            kernel: name,
            kernel_language: "WGSL",
            launch: Some(launch),
        })
    }

    /// lavapipe's cap on an invocation's loop iterations, when this is lavapipe.
    pub(super) fn loop_cap(&self) -> Option<u64> {
        self.info
            .name
            .contains("llvmpipe")
            .then_some(pallas::LAVAPIPE_LOOP_CAP)
    }

    /// The scratch buffer a per-op kernel binds after its output (a
    /// scatter's marks; `kernels::scratch_words`), shared as `pallas_scratch`.
    pub(super) fn kernel_scratch(&mut self, size: u64) -> wgpu::Buffer {
        self.pallas_scratch(size)
    }

    /// The scratch buffer Pallas kernels keep their blocks in, grown to
    /// `size` bytes when a kernel needs more (launches run in queue order, so
    /// one buffer serves them all).
    pub(super) fn pallas_scratch(&mut self, size: u64) -> wgpu::Buffer {
        if let Some(b) = &self.scratch
            && b.size() >= size
        {
            return b.clone();
        }
        let b = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("pallas scratch"),
            size,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        self.scratch = Some(b.clone());
        b
    }
}
