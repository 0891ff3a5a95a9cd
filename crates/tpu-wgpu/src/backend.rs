//! `WgpuBackend`: buffers, pipelines and dispatch (which kernel an op runs, and
//! its parameters, come from `kernels/`). Each op is encoded and submitted
//! at once without waiting (the host runs ahead of the GPU); only a read waits, and
//! it waits by awaiting the buffer-mapping callback, never by spinning, because in a
//! browser that callback only fires after control returns to the event loop.
//!
//! wgpu reports validation and out-of-memory errors through a device callback that
//! panics by default; this backend installs its own handler and turns what it
//! records into `BackendError`s, so a bad kernel is an error and not a crash.

use crate::codegen;
use crate::kernels::{self, elementwise_grid, unsupported_dtype};
use crate::library;
use crate::pallas;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tpu_ir::{DType, FusedKernel, Op, Shape};
use tpu_runtime::{
    Backend, BackendError, BackendKind, BufferId, Dispatched, FusedDispatch, HostData, Operand,
    ReadFuture,
};
use wgpu::util::DeviceExt;

#[derive(Debug, thiserror::Error)]
pub enum WgpuInitError {
    #[error("no wgpu adapter is available: {0}")]
    NoAdapter(String),
    #[error("the wgpu adapter refused a device: {0}")]
    NoDevice(String),
}

pub struct WgpuBackend {
    device: wgpu::Device,
    queue: wgpu::Queue,
    info: wgpu::AdapterInfo,
    buffers: HashMap<u64, wgpu::Buffer>,
    next_id: u64,
    /// Compiled pipelines by kernel name; a name determines its WGSL source.
    pipelines: HashMap<String, wgpu::ComputePipeline>,
    device_error: Arc<Mutex<Option<String>>>,
    /// Tensor buffers released by dropped tensors, by size, for the next
    /// kernel that needs one that size (at most `POOL_BYTES` in all).
    pool: HashMap<u64, Vec<wgpu::Buffer>>,
    pooled_bytes: u64,
    /// The driver's pipeline cache (Vulkan natively), once started.
    pipeline_cache: Option<wgpu::PipelineCache>,
    /// Pallas kernels' block values (`pallas.rs`).
    scratch: Option<wgpu::Buffer>,
    /// The precompiled library compiling in the background (`library.rs`),
    /// once started.
    library: Option<library::Library>,
    /// Whether the last pipeline asked for came from the library.
    from_library: bool,
}

impl Drop for WgpuBackend {
    /// The library goes first: its thread stops and is joined before the
    /// device and the rest go.
    fn drop(&mut self) {
        self.library = None;
    }
}

/// The most bytes of released buffers kept for reuse.
const POOL_BYTES: u64 = 256 << 20;

impl WgpuBackend {
    pub async fn new() -> Result<Self, WgpuInitError> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle());
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                ..Default::default()
            })
            .await
            .map_err(|e| WgpuInitError::NoAdapter(e.to_string()))?;
        let info = adapter.get_info();
        // A driver-level pipeline cache where there is one: compiled pipelines
        // can then be persisted between runs (`tpu run --cache-dir`).
        let required_features = adapter.features() & wgpu::Features::PIPELINE_CACHE;
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("tpu-playground"),
                required_limits: adapter.limits(),
                required_features,
                ..Default::default()
            })
            .await
            .map_err(|e| WgpuInitError::NoDevice(e.to_string()))?;
        let device_error = Arc::new(Mutex::new(None));
        let sink = device_error.clone();
        device.on_uncaptured_error(Arc::new(move |error: wgpu::Error| {
            let mut slot = sink.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            slot.get_or_insert_with(|| error.to_string());
        }));
        Ok(WgpuBackend {
            device,
            queue,
            info,
            buffers: HashMap::new(),
            next_id: 0,
            pipelines: HashMap::new(),
            device_error,
            pool: HashMap::new(),
            pooled_bytes: 0,
            pipeline_cache: None,
            scratch: None,
            library: None,
            from_library: false,
        })
    }

    /// Starts compiling the precompiled library (`library.rs`) in the
    /// background: natively on a thread of its own (the device is shared),
    /// so a run starts at once and finds the pipelines done; in the browser
    /// it waits for `precompile`, which the worker calls while idle.
    pub fn start_precompiling(&mut self) {
        if self.library.is_none() {
            let cache = self.pipeline_cache.as_ref();
            self.library = Some(library::Library::start(&self.device, cache));
        }
    }

    /// A tensor buffer of `size` bytes: a released one of that size if the pool
    /// has one (kernels overwrite every element they own), else a new one.
    fn tensor_buffer(&mut self, size: u64) -> wgpu::Buffer {
        if let Some(b) = self.pool.get_mut(&size).and_then(Vec::pop) {
            self.pooled_bytes -= size;
            return b;
        }
        self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("tensor"),
            size,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    }

    /// Binds `resources` in order (binding 0, 1, ...) and dispatches `grid`.
    fn launch(
        &self,
        name: &str,
        pipeline: &wgpu::ComputePipeline,
        resources: Vec<wgpu::BindingResource<'_>>,
        grid: (u32, u32, u32),
    ) {
        let entries: Vec<wgpu::BindGroupEntry> = resources
            .into_iter()
            .enumerate()
            .map(|(i, resource)| wgpu::BindGroupEntry {
                binding: i as u32,
                resource,
            })
            .collect();
        let bind_group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(name),
            layout: &pipeline.get_bind_group_layout(0),
            entries: &entries,
        });
        let mut encoder = self.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.dispatch_workgroups(grid.0, grid.1, grid.2);
        }
        self.queue.submit([encoder.finish()]);
    }

    fn take_device_error(&self) -> Result<(), BackendError> {
        let mut slot = self
            .device_error
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        match slot.take() {
            Some(message) => Err(BackendError::Device(message)),
            None => Ok(()),
        }
    }

    fn insert(&mut self, buffer: wgpu::Buffer) -> BufferId {
        self.next_id += 1;
        self.buffers.insert(self.next_id, buffer);
        BufferId(self.next_id)
    }

    fn buffer(&self, id: BufferId) -> Result<&wgpu::Buffer, BackendError> {
        self.buffers
            .get(&id.0)
            .ok_or(BackendError::UnknownBuffer(id))
    }

    /// Bytes for `elements` floats, refusing sizes the adapter cannot bind rather
    /// than letting wgpu fail later. Zero-size bindings are invalid, so at least 4.
    fn storage_size(&self, elements: usize) -> Result<u64, BackendError> {
        let bytes = (elements.max(1) as u64) * 4;
        let limit = self.device.limits().max_storage_buffer_binding_size;
        if bytes > limit {
            return Err(BackendError::Device(format!(
                "out of memory: a tensor of {bytes} bytes exceeds the adapter's largest storage buffer ({limit} bytes)"
            )));
        }
        Ok(bytes)
    }

    /// A Pallas kernel: its output buffer starts as NaN (interpret mode's
    /// uninitialised value, which a block never written keeps), then one
    /// launch of its generated shader over the inputs, the output and, when
    /// its block values do not fit workgroup memory, a scratch buffer.
    fn execute_pallas(
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
        let out = self.tensor_buffer(size);
        let nan = vec![f32::NAN; out_shape.numel().max(1)];
        self.queue.write_buffer(&out, 0, bytemuck::cast_slice(&nan));
        let scratch = scratch_size.map(|size| self.pallas_scratch(size));
        let name = Op::Pallas {
            kernel: Box::new(kernel.clone()),
        }
        .kernel_name();
        let pipeline = self.pipeline(&name, || shader.source.clone());
        let mut resources = Vec::new();
        for input in inputs {
            resources.push(self.buffer(input.buffer)?.as_entire_binding());
        }
        resources.push(out.as_entire_binding());
        if let Some(scratch) = &scratch {
            resources.push(scratch.as_entire_binding());
        }
        self.launch(&name, &pipeline, resources, (shader.groups, 1, 1));
        self.take_device_error()?;
        Ok(Dispatched {
            buffer: self.insert(out),
            kernel: name,
            kernel_language: "WGSL",
        })
    }

    /// lavapipe's cap on an invocation's loop iterations, when this is lavapipe.
    fn loop_cap(&self) -> Option<u64> {
        self.info
            .name
            .contains("llvmpipe")
            .then_some(pallas::LAVAPIPE_LOOP_CAP)
    }

    /// The scratch buffer Pallas kernels keep their blocks in, grown to
    /// `size` bytes when a kernel needs more (launches run in queue order, so
    /// one buffer serves them all).
    fn pallas_scratch(&mut self, size: u64) -> wgpu::Buffer {
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

    fn pipeline(&mut self, name: &str, source: impl FnOnce() -> String) -> wgpu::ComputePipeline {
        self.from_library = false;
        if let Some(p) = self.pipelines.get(name) {
            return p.clone();
        }
        if let Some(p) = self.library.as_ref().and_then(|l| l.claim(name)) {
            self.pipelines.insert(name.to_string(), p.clone());
            self.from_library = true;
            return p;
        }
        let pipeline =
            library::compile(&self.device, name, &source(), self.pipeline_cache.as_ref());
        self.pipelines.insert(name.to_string(), pipeline.clone());
        pipeline
    }
}

impl Backend for WgpuBackend {
    fn kind(&self) -> BackendKind {
        BackendKind::Wgpu
    }

    fn label(&self) -> tpu_runtime::BackendLabel {
        crate::adapter_label(&self.info)
    }

    fn device_description(&self) -> String {
        let info = &self.info;
        let mut text = format!("{} ({:?}, {:?})", info.name, info.backend, info.device_type);
        if !info.driver.is_empty() {
            text.push_str(&format!(", driver {} {}", info.driver, info.driver_info));
        }
        text
    }

    fn upload(&mut self, data: &HostData) -> Result<BufferId, BackendError> {
        let HostData::F32(data) = data else {
            return Err(unsupported_dtype(data.dtype()));
        };
        self.storage_size(data.len())?;
        let contents: &[u8] = if data.is_empty() {
            &[0; 4]
        } else {
            bytemuck::cast_slice(data)
        };
        let buffer = self
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("tensor"),
                contents,
                usage: wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::COPY_SRC
                    | wgpu::BufferUsages::COPY_DST,
            });
        self.take_device_error()?;
        Ok(self.insert(buffer))
    }

    fn check(
        &self,
        op: &Op,
        inputs: &[Operand<'_>],
        out_shape: &Shape,
        out_dtype: DType,
    ) -> Result<(), BackendError> {
        if let Op::Pallas { kernel } = op {
            self.storage_size(out_shape.numel())?;
            return pallas::shader(kernel, self.loop_cap()).map(|_| ());
        }
        if let Some(d) = std::iter::once(out_dtype)
            .chain(inputs.iter().map(|i| i.dtype))
            .find(|&d| d != DType::Float32)
        {
            return Err(unsupported_dtype(d));
        }
        self.storage_size(out_shape.numel())?;
        kernels::launch(op, inputs, out_shape).map(|_| ())
    }

    fn supports_fused(&self) -> bool {
        true
    }

    fn start_precompiling(&mut self) {
        WgpuBackend::start_precompiling(self)
    }

    fn take_precompiled(&mut self) -> bool {
        std::mem::take(&mut self.from_library)
    }

    fn precompile(&mut self, max: usize) -> usize {
        let cache = self.pipeline_cache.as_ref();
        self.library
            .as_ref()
            .map_or(0, |l| l.compile_some(&self.device, cache, max))
    }

    fn op_source(&self, op: &Op) -> Option<String> {
        match op {
            // A Pallas call's WGSL is its own record's (`pallas_source`).
            Op::Pallas { .. } => None,
            // Asked only after `execute` ran `op`, so `launch` accepted it.
            _ => Some(kernels::source(op)),
        }
    }

    fn pallas_source(&self, kernel: &tpu_ir::PallasKernel) -> Option<String> {
        pallas::shader(kernel, self.loop_cap())
            .ok()
            .map(|s| s.source)
    }

    fn execute_fused(
        &mut self,
        kernel: &FusedKernel,
        inputs: &[BufferId],
    ) -> Result<FusedDispatch, BackendError> {
        let mut sizes = Vec::with_capacity(kernel.outputs.len());
        for j in 0..kernel.outputs.len() {
            sizes.push(self.storage_size(kernel.output_shape(j).numel())?);
        }
        let source = codegen::fused(kernel);
        // Named by its source: the same pattern at another size (or from
        // the precompiled library) finds its pipeline.
        let name = library::fused_name(&source);
        let pipeline = self.pipeline(&name, || source.clone());
        let params = codegen::fused_params(kernel);
        let params = self
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("params"),
                contents: bytemuck::cast_slice(&params),
                usage: wgpu::BufferUsages::UNIFORM,
            });
        let outs: Vec<wgpu::Buffer> = sizes.iter().map(|&s| self.tensor_buffer(s)).collect();
        {
            let mut resources = vec![params.as_entire_binding()];
            for &input in inputs {
                resources.push(self.buffer(input)?.as_entire_binding());
            }
            for out in &outs {
                resources.push(out.as_entire_binding());
            }
            self.launch(
                &name,
                &pipeline,
                resources,
                elementwise_grid(codegen::threads(kernel)),
            );
        }
        self.take_device_error()?;
        let buffers = outs.into_iter().map(|b| self.insert(b)).collect();
        Ok(FusedDispatch {
            buffers,
            source,
            kernel_language: "WGSL",
        })
    }

    fn execute(
        &mut self,
        op: &Op,
        inputs: &[Operand<'_>],
        out_shape: &Shape,
        out_dtype: DType,
    ) -> Result<Dispatched, BackendError> {
        if let Op::Pallas { kernel } = op {
            return self.execute_pallas(kernel, inputs, out_shape);
        }
        if let Some(d) = std::iter::once(out_dtype)
            .chain(inputs.iter().map(|i| i.dtype))
            .find(|&d| d != DType::Float32)
        {
            return Err(unsupported_dtype(d));
        }
        // Size first: a refused size must never reach the grid arithmetic of
        // `kernels::launch`.
        let size = self.storage_size(out_shape.numel())?;
        let launch = kernels::launch(op, inputs, out_shape)?;
        let name = op.kernel_name();
        let out = self.tensor_buffer(size);
        if out_shape.numel() > 0 {
            let pipeline = self.pipeline(&name, || kernels::source(op));
            let params = self
                .device
                .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("params"),
                    contents: bytemuck::cast_slice(&launch.params),
                    usage: wgpu::BufferUsages::STORAGE,
                });
            let mut resources = vec![params.as_entire_binding()];
            for input in inputs {
                resources.push(self.buffer(input.buffer)?.as_entire_binding());
            }
            resources.push(out.as_entire_binding());
            self.launch(&name, &pipeline, resources, launch.workgroups);
        }
        self.take_device_error()?;
        Ok(Dispatched {
            buffer: self.insert(out),
            kernel: name,
            kernel_language: "WGSL",
        })
    }

    fn read(&mut self, id: BufferId, dtype: DType, len: usize) -> ReadFuture<'_> {
        if dtype != DType::Float32 {
            return Box::pin(async move { Err(unsupported_dtype(dtype)) });
        }
        let source = match self.buffer(id) {
            Ok(b) => b,
            Err(e) => return Box::pin(async move { Err(e) }),
        };
        let size = source.size();
        let staging = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("readback"),
            size,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = self.device.create_command_encoder(&Default::default());
        encoder.copy_buffer_to_buffer(source, 0, &staging, 0, size);
        self.queue.submit([encoder.finish()]);
        let (sender, receiver) = futures_channel::oneshot::channel();
        staging
            .slice(..)
            .map_async(wgpu::MapMode::Read, move |result| {
                let _ = sender.send(result);
            });
        // Natively nothing drives callbacks but a poll; in a browser the event loop
        // does, and `poll` is a no-op there.
        let polled = self.device.poll(wgpu::PollType::wait_indefinitely());
        Box::pin(async move {
            polled.map_err(|e| BackendError::Device(e.to_string()))?;
            receiver
                .await
                .map_err(|_| BackendError::Device("the readback was cancelled".into()))?
                .map_err(|e| BackendError::Device(e.to_string()))?;
            self.take_device_error()?;
            let values = {
                let view = staging
                    .slice(..)
                    .get_mapped_range()
                    .map_err(|e| BackendError::Device(e.to_string()))?;
                let mut values = bytemuck::cast_slice::<u8, f32>(&view).to_vec();
                values.truncate(len);
                values
            };
            staging.unmap();
            Ok(HostData::F32(values))
        })
    }

    fn free(&mut self, buffer: BufferId) {
        if let Some(b) = self.buffers.remove(&buffer.0) {
            let size = b.size();
            if self.pooled_bytes + size <= POOL_BYTES {
                self.pooled_bytes += size;
                self.pool.entry(size).or_default().push(b);
            } else {
                b.destroy();
            }
        }
    }

    fn live_buffers(&self) -> usize {
        self.buffers.len()
    }

    fn driver_cache_key(&self) -> Option<String> {
        if !self
            .device
            .features()
            .contains(wgpu::Features::PIPELINE_CACHE)
        {
            return None;
        }
        wgpu::util::pipeline_cache_key(&self.info)
    }

    fn load_driver_cache(&mut self, data: &[u8]) {
        if self.driver_cache_key().is_none() || self.pipeline_cache.is_some() {
            return;
        }
        // SAFETY: wgpu checks the header it wrote (adapter, driver, version,
        // length) and falls back to an empty cache when it does not match; the
        // embedder passes only bytes whose checksum matches what
        // `driver_cache_data` returned.
        let cache = unsafe {
            self.device
                .create_pipeline_cache(&wgpu::PipelineCacheDescriptor {
                    label: Some("tpu-playground"),
                    data: (!data.is_empty()).then_some(data),
                    fallback: true,
                })
        };
        self.pipeline_cache = Some(cache);
    }

    fn driver_cache_data(&self) -> Option<Vec<u8>> {
        self.pipeline_cache.as_ref()?.get_data()
    }
}
