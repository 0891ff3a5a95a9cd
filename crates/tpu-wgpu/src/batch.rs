//! The commands recorded since the last submission. Kernels are recorded into
//! one command encoder, in one compute pass, and the queue is given them all
//! at once when the program reads a value (or when the parameter arena is
//! full), so a launch costs a bind group and a few recorded commands instead
//! of an encoder, a buffer and a submission of its own. wgpu orders the
//! dispatches of a pass as the queue would (each dispatch is its own usage
//! scope, with the barriers it needs between them), so a buffer released and
//! reused within a batch is read and written in program order.
//!
//! Every kernel's `params` go into one arena buffer at an aligned offset,
//! written with one `write_buffer` just before the submission (a queue write
//! lands before the command buffers submitted with it). Nothing else here
//! writes a buffer through the queue: such a write would land before kernels
//! recorded earlier in the batch.
//!
//! Errors: wgpu reports most of a launch's mistakes when its bind group is
//! made (at once, so the backend names the op), and the rest (a dispatch the
//! pass refuses) when the batch is submitted; those name the kernels the
//! batch held.
//!
//! Where the device measures (`timing.rs`), each launch is bracketed by
//! timestamps, resolved at the end of its batch's encoder.

use crate::timing::{Bracket, Timing};
use std::num::NonZeroU64;

/// A compiled kernel: its pipeline and the layout of its bind group.
#[derive(Clone)]
pub(crate) struct Kernel {
    pub pipeline: wgpu::ComputePipeline,
    pub layout: wgpu::BindGroupLayout,
}

impl Kernel {
    pub(crate) fn new(pipeline: wgpu::ComputePipeline) -> Kernel {
        let layout = pipeline.get_bind_group_layout(0);
        Kernel { pipeline, layout }
    }
}

/// The arena's size: room for the parameters of 4,096 launches at the
/// largest offset alignment WebGPU allows (256 bytes).
const ARENA_BYTES: u64 = 1 << 20;

/// How many kernel names an error at submission lists.
const NAMED: usize = 8;

pub(crate) struct Batch {
    device: wgpu::Device,
    encoder: Option<wgpu::CommandEncoder>,
    pass: Option<wgpu::ComputePass<'static>>,
    /// The kernels recorded since the last submission, by name.
    kernels: Vec<String>,
    arena: wgpu::Buffer,
    /// The arena's contents for this batch, written at submission.
    params: Vec<u8>,
    align: usize,
    /// Submit after every launch, as this backend did before batching (for
    /// `tpu bench --dispatch`'s comparison).
    each: bool,
    submissions: u64,
    /// Timestamps around each launch, where the device has them.
    pub timing: Option<Timing>,
}

impl Batch {
    pub(crate) fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Batch {
        let limits = device.limits();
        let align = limits
            .min_storage_buffer_offset_alignment
            .max(limits.min_uniform_buffer_offset_alignment) as usize;
        let arena = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("params arena"),
            size: ARENA_BYTES,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::UNIFORM
                | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        Batch {
            device: device.clone(),
            timing: Timing::new(device, queue),
            encoder: None,
            pass: None,
            kernels: Vec::new(),
            arena,
            params: Vec::new(),
            align,
            each: false,
            submissions: 0,
        }
    }

    pub(crate) fn set_each(&mut self, each: bool) {
        self.each = each;
    }

    /// How many times this backend has submitted to the queue.
    pub(crate) fn submissions(&self) -> u64 {
        self.submissions
    }

    /// Reserves `words` in the arena for the next launch, submitting what is
    /// recorded first if the arena is full; returns their byte offset.
    fn reserve(&mut self, queue: &wgpu::Queue, words: &[u32]) -> u64 {
        let bytes = std::mem::size_of_val(words).max(4);
        let offset = self.params.len().next_multiple_of(self.align);
        if (offset + bytes) as u64 > ARENA_BYTES {
            self.submit(queue);
            return self.reserve(queue, words);
        }
        self.params.resize(offset, 0);
        self.params.extend_from_slice(bytemuck::cast_slice(words));
        self.params.resize(offset + bytes, 0);
        offset as u64
    }

    /// Records one launch of `kernel` on `grid`: its `params` (binding 0,
    /// from the arena) where it has them, then `buffers` (the next bindings,
    /// in order). The bind group is made here, so wgpu's complaints about it
    /// are raised at once, while the backend still knows the op. `launch`
    /// names the op's launch for its measured time (the dispatches of one op
    /// share it).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn dispatch(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        launch: u64,
        name: &str,
        kernel: &Kernel,
        params: Option<&[u32]>,
        buffers: &[&wgpu::Buffer],
        grid: (u32, u32, u32),
    ) {
        // Before the parameters are placed: a submission empties the arena,
        // and a launch must be recorded in the batch its parameters go with.
        if self.timing.as_ref().is_some_and(|t| !t.has_room()) {
            self.submit(queue);
        }
        let mut entries = Vec::with_capacity(buffers.len() + 1);
        if let Some(params) = params {
            let offset = self.reserve(queue, params);
            entries.push(wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer: &self.arena,
                    offset,
                    size: NonZeroU64::new((std::mem::size_of_val(params) as u64).max(4)),
                }),
            });
        }
        let first = entries.len() as u32;
        for (i, buffer) in buffers.iter().enumerate() {
            entries.push(wgpu::BindGroupEntry {
                binding: first + i as u32,
                resource: buffer.as_entire_binding(),
            });
        }
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(name),
            layout: &kernel.layout,
            entries: &entries,
        });
        let record = |pass: &mut wgpu::ComputePass<'_>| {
            pass.set_pipeline(&kernel.pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.dispatch_workgroups(grid.0, grid.1, grid.2);
        };
        match self.timing.as_ref().map(|t| t.bracket) {
            None => record(self.pass(device)),
            Some(Bracket::InsidePass) => {
                self.pass(device);
                let (Some(pass), Some(timing)) = (self.pass.as_mut(), self.timing.as_mut()) else {
                    unreachable!("the pass was just begun and timing checked")
                };
                let (begin, end) = timing.bracket_next(launch);
                pass.write_timestamp(timing.queries(), begin);
                record(pass);
                pass.write_timestamp(timing.queries(), end);
            }
            Some(Bracket::OwnPass) => {
                self.pass = None;
                let encoder = self
                    .encoder
                    .get_or_insert_with(|| device.create_command_encoder(&Default::default()));
                let timing = self.timing.as_mut().expect("checked above");
                let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: Some(name),
                    timestamp_writes: Some(timing.pass_writes(launch)),
                });
                record(&mut pass);
            }
        }
        self.kernels.push(name.to_string());
        if self.each {
            self.submit(queue);
        }
    }

    /// The open compute pass, begun on the open encoder if there is none.
    fn pass(&mut self, device: &wgpu::Device) -> &mut wgpu::ComputePass<'static> {
        if self.pass.is_none() {
            let encoder = self.encoder(device);
            let pass = encoder
                .begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: Some("kernels"),
                    timestamp_writes: None,
                })
                .forget_lifetime();
            self.pass = Some(pass);
        }
        self.pass.as_mut().expect("just begun")
    }

    fn encoder(&mut self, device: &wgpu::Device) -> &mut wgpu::CommandEncoder {
        self.encoder
            .get_or_insert_with(|| device.create_command_encoder(&Default::default()))
    }

    /// Records a copy after the kernels recorded so far (ending their pass).
    pub(crate) fn copy(
        &mut self,
        device: &wgpu::Device,
        source: &wgpu::Buffer,
        destination: &wgpu::Buffer,
        size: u64,
    ) {
        self.pass = None;
        self.encoder(device)
            .copy_buffer_to_buffer(source, 0, destination, 0, size);
    }

    /// Gives the queue everything recorded (after the arena's contents);
    /// returns the names of the kernels it held, for an error raised now.
    pub(crate) fn submit(&mut self, queue: &wgpu::Queue) -> Vec<String> {
        self.pass = None;
        let Some(encoder) = self.encoder.take() else {
            return Vec::new();
        };
        let mut encoder = encoder;
        if let Some(timing) = self.timing.as_mut() {
            timing.resolve(&self.device, &mut encoder);
        }
        if !self.params.is_empty() {
            queue.write_buffer(&self.arena, 0, &self.params);
            self.params.clear();
        }
        queue.submit([encoder.finish()]);
        if let Some(timing) = self.timing.as_mut() {
            timing.submitted();
        }
        self.submissions += 1;
        std::mem::take(&mut self.kernels)
    }

    /// `message`, naming the kernels a failed submission held.
    pub(crate) fn attribute(message: String, kernels: &[String]) -> String {
        match kernels {
            [] => message,
            [one] => format!("{message} (in kernel {one})"),
            many => {
                let mut names: Vec<&str> = many.iter().take(NAMED).map(String::as_str).collect();
                if many.len() > NAMED {
                    names.push("...");
                }
                format!(
                    "{message} (in one of the {} kernels launched since the last read: {})",
                    many.len(),
                    names.join(", ")
                )
            }
        }
    }
}
