//! `WgpuBackend`: buffers, pipelines and dispatch (which kernel an op runs, and
//! its parameters, come from `kernels/`; uploads and reads are in
//! `backend/transfer.rs`, Pallas launches in `backend/pallas_launch.rs`). Each op is recorded into the open
//! batch (`batch.rs`), which the queue is given when the program reads a
//! value; only a read waits, and it waits by awaiting the buffer-mapping
//! callback, never by spinning, because in a browser that callback only fires
//! after control returns to the event loop.
//!
//! wgpu reports validation and out-of-memory errors through a device callback that
//! panics by default; this backend installs its own handler and turns what it
//! records into `BackendError`s, so a bad kernel is an error and not a crash.

use crate::batch::{Batch, Kernel};
use crate::codegen;
use crate::kernels::{self, MatmulKernel, Variant};
use crate::library;
use crate::pallas;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tpu_ir::{DType, FusedKernel, Op, Shape};
use tpu_runtime::{
    Backend, BackendError, BackendKind, BufferId, Dispatched, FusedDispatch, HostData, Operand,
    ReadFuture,
};

mod pallas_launch;
mod transfer;

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
    /// Compiled kernels by name; a name determines its WGSL source.
    pipelines: HashMap<String, Kernel>,
    /// What is recorded and not yet submitted.
    batch: Batch,
    /// Readback buffers by size, for the next read of that size.
    staging: HashMap<u64, Vec<wgpu::Buffer>>,
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
    /// The kernel matmuls run on.
    matmul: MatmulKernel,
    /// The variant of the last op `execute` ran, for `op_source`.
    last_variant: Option<Variant>,
    /// The number the next op's launch gets, for its measured time.
    next_launch: u64,
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
        // can then be persisted between runs (`tpu run --cache-dir`). And
        // timestamps to measure each kernel (`timing.rs`), natively: Chrome
        // rounds WebGPU's timestamps to 100 us, longer than most kernels take.
        let mut wanted = wgpu::Features::PIPELINE_CACHE;
        let measure = std::env::var("TPU_GPU_TIMESTAMPS").as_deref() != Ok("0");
        if measure && info.backend != wgpu::Backend::BrowserWebGpu {
            wanted |=
                wgpu::Features::TIMESTAMP_QUERY | wgpu::Features::TIMESTAMP_QUERY_INSIDE_PASSES;
        }
        let required_features = adapter.features() & wanted;
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
        // The tiled matmul, faster on an H200, on lavapipe and on SwiftShader
        // in Chromium alike (docs/performance.md). `TPU_MATMUL=naive` or
        // `tiled` chooses, for measuring one against the other: natively when
        // the program runs, in a browser when the module is built.
        let chosen = std::env::var("TPU_MATMUL")
            .ok()
            .or(option_env!("TPU_MATMUL").map(String::from));
        let matmul = match chosen.as_deref() {
            Some("naive") => MatmulKernel::Naive,
            _ => MatmulKernel::Tiled,
        };
        Ok(WgpuBackend {
            matmul,
            last_variant: None,
            batch: Batch::new(&device, &queue),
            next_launch: 0,
            staging: HashMap::new(),
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

    /// Submits every launch on its own, as this backend did before it
    /// batched (for `tpu bench --dispatch`'s comparison), or not.
    pub fn set_submit_each(&mut self, each: bool) {
        self.batch.set_each(each);
    }

    /// Runs matmuls on `kernel` from now on (for `tpu bench --dispatch`).
    pub fn set_matmul_kernel(&mut self, kernel: MatmulKernel) {
        self.matmul = kernel;
    }

    /// Starts compiling the precompiled library (`library.rs`) in the
    /// background: natively on a thread of its own (the device is shared),
    /// so a run starts at once and finds the pipelines done; in the browser
    /// it waits for `precompile`, which the worker calls while idle.
    pub fn start_precompiling(&mut self) {
        if self.library.is_none() {
            let cache = self.pipeline_cache.as_ref();
            self.library = Some(library::Library::start(&self.device, cache, self.matmul));
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

    /// Records one launch of `kernel` (see `Batch::dispatch`) for the op
    /// numbered `launch`.
    #[allow(clippy::too_many_arguments)]
    fn launch(
        &mut self,
        launch: u64,
        name: &str,
        kernel: &Kernel,
        params: Option<&[u32]>,
        buffers: &[&wgpu::Buffer],
        grid: (u32, u32, u32),
    ) {
        let (device, queue) = (&self.device, &self.queue);
        self.batch
            .dispatch(device, queue, launch, name, kernel, params, buffers, grid);
    }

    /// The next op's launch number.
    fn number_launch(&mut self) -> u64 {
        self.next_launch += 1;
        self.next_launch
    }

    /// Stops measuring kernels (for `tpu bench --dispatch`, which measures
    /// the host's cost of a launch without the timestamps' share).
    pub fn set_measuring(&mut self, on: bool) {
        if !on {
            self.batch.timing = None;
        }
    }

    /// Whether kernels are measured on this device.
    pub fn measures(&self) -> bool {
        self.batch.timing.is_some()
    }

    /// Gives the queue what is recorded; an error wgpu raises then names
    /// the kernels the batch held.
    fn submit(&mut self) -> Result<(), BackendError> {
        let kernels = self.batch.submit(&self.queue);
        match self.take_device_error() {
            Err(BackendError::Device(message)) => {
                Err(BackendError::Device(Batch::attribute(message, &kernels)))
            }
            other => other,
        }
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

    fn pipeline(&mut self, name: &str, source: impl FnOnce() -> String) -> Kernel {
        self.from_library = false;
        if let Some(k) = self.pipelines.get(name) {
            return k.clone();
        }
        let kernel = match self.library.as_ref().and_then(|l| l.claim(name)) {
            Some(p) => {
                self.from_library = true;
                Kernel::new(p)
            }
            None => Kernel::new(library::compile(
                &self.device,
                name,
                &source(),
                self.pipeline_cache.as_ref(),
            )),
        };
        self.pipelines.insert(name.to_string(), kernel.clone());
        kernel
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
        self.upload_data(data)
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
        kernels::check_dtypes(op, inputs, out_dtype)?;
        self.storage_size_of(out_shape.numel(), out_dtype)?;
        let variant = Variant::of(self.matmul, inputs, out_dtype);
        kernels::launch_with(op, inputs, out_shape, variant).map(|_| ())
    }

    fn supports_fused(&self) -> bool {
        true
    }

    /// Fused kernels hold bools: read and written as u32 words, computed
    /// as 0.0 or 1.0 (`codegen.rs`).
    fn fuses_masks(&self) -> bool {
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
            .map_or(0, |l| l.compile_some(&self.device, &self.queue, cache, max))
    }

    fn op_source(&self, op: &Op) -> Option<String> {
        match op {
            // A Pallas call's WGSL is its own record's (`pallas_source`).
            Op::Pallas { .. } => None,
            // Asked only after `execute` ran `op`, so `launch` accepted it.
            _ => Some(kernels::source_with(
                op,
                self.last_variant
                    .unwrap_or_else(|| Variant::float(self.matmul)),
            )),
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
        let source = codegen::fused_with(kernel, self.matmul);
        // Named by its source: the same pattern at another size (or from
        // the precompiled library) finds its pipeline.
        let name = library::fused_name(&source);
        let pipeline = self.pipeline(&name, || source.clone());
        let params = codegen::fused_params(kernel);
        let outs: Vec<wgpu::Buffer> = sizes.iter().map(|&s| self.tensor_buffer(s)).collect();
        let mut buffers = Vec::with_capacity(inputs.len() + outs.len());
        for &input in inputs {
            buffers.push(self.buffer(input)?.clone());
        }
        buffers.extend(outs.iter().cloned());
        let buffers: Vec<&wgpu::Buffer> = buffers.iter().collect();
        let launch = self.number_launch();
        self.launch(
            launch,
            &name,
            &pipeline,
            Some(&params),
            &buffers,
            codegen::grid(kernel, self.matmul),
        );
        self.take_device_error()?;
        let buffers = outs.into_iter().map(|b| self.insert(b)).collect();
        Ok(FusedDispatch {
            buffers,
            source,
            kernel_language: "WGSL",
            launch: Some(launch),
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
        kernels::check_dtypes(op, inputs, out_dtype)?;
        // Size first: a refused size must never reach the grid arithmetic of
        // `kernels::launch`.
        let size = self.storage_size_of(out_shape.numel(), out_dtype)?;
        let variant = Variant::of(self.matmul, inputs, out_dtype);
        let launches = kernels::launch_with(op, inputs, out_shape, variant)?;
        let name = kernels::pipeline_name(op, variant);
        self.last_variant = Some(variant);
        let scratch = match kernels::scratch_words(op, inputs) {
            0 => None,
            words => Some(self.storage_size(words)?),
        };
        let out = self.tensor_buffer(size);
        let launch = self.number_launch();
        if out_shape.numel() > 0 {
            let pipeline = self.pipeline(&name, || kernels::source_with(op, variant));
            let mut buffers = Vec::with_capacity(inputs.len() + 2);
            for input in inputs {
                buffers.push(self.buffer(input.buffer)?.clone());
            }
            buffers.push(out.clone());
            buffers.extend(scratch.map(|size| self.kernel_scratch(size)));
            let buffers: Vec<&wgpu::Buffer> = buffers.iter().collect();
            for phase in &launches {
                self.launch(
                    launch,
                    &name,
                    &pipeline,
                    Some(&phase.params),
                    &buffers,
                    phase.workgroups,
                );
            }
        }
        self.take_device_error()?;
        Ok(Dispatched {
            buffer: self.insert(out),
            kernel: name,
            kernel_language: "WGSL",
            launch: Some(launch),
        })
    }

    fn read(&mut self, id: BufferId, dtype: DType, len: usize) -> ReadFuture<'_> {
        self.read_data(id, dtype, len)
    }

    fn free(&mut self, buffer: BufferId) {
        if let Some(b) = self.buffers.remove(&buffer.0) {
            let size = b.size();
            // Not destroyed when the pool is full: the open batch may still
            // use it, and wgpu frees a dropped buffer once nothing does.
            if self.pooled_bytes + size <= POOL_BYTES {
                self.pooled_bytes += size;
                self.pool.entry(size).or_default().push(b);
            }
        }
    }

    fn live_buffers(&self) -> usize {
        self.buffers.len()
    }

    fn submissions(&self) -> u64 {
        self.batch.submissions()
    }

    /// A launch still in the open batch is submitted first; natively the
    /// queue is then waited for (in a browser a readback arrives from the
    /// event loop, and one not yet there is reported unmeasured).
    fn measured(&mut self, launch: u64) -> Option<tpu_runtime::Measured> {
        let pending = self.batch.timing.as_ref()?.is_pending(launch);
        if pending {
            self.submit().ok()?;
        }
        let timing = self.batch.timing.as_mut()?;
        if let Some(m) = timing.claim(launch) {
            return Some(m);
        }
        if !timing.waiting() {
            return None;
        }
        self.device.poll(wgpu::PollType::wait_indefinitely()).ok()?;
        self.batch.timing.as_mut()?.claim(launch)
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
