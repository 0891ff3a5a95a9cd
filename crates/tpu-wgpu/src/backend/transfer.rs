//! Moving tensors between the host and the device: buffer sizes the
//! adapter can bind, uploads, and reads through reused staging buffers.

use super::WgpuBackend;
use crate::kernels::{self, unsupported_dtype};
use tpu_ir::DType;
use tpu_runtime::data::{bf16_to_f32, f16_to_f32, f32_to_bf16, f32_to_f16};
use tpu_runtime::{BackendError, BufferId, HostData, ReadFuture};
use wgpu::util::DeviceExt;

/// Readback buffers kept per size, and the largest kept.
const STAGING_PER_SIZE: usize = 2;
const STAGING_MAX_BYTES: u64 = 16 << 20;

impl WgpuBackend {
    /// Bytes for `elements` floats, refusing sizes the adapter cannot bind rather
    /// than letting wgpu fail later. Zero-size bindings are invalid, so at least 4.
    pub(super) fn storage_size(&self, elements: usize) -> Result<u64, BackendError> {
        self.storage_size_of(elements, DType::Float32)
    }

    /// `storage_size` for elements of `dtype` (an int64 is two words).
    pub(super) fn storage_size_of(
        &self,
        elements: usize,
        dtype: DType,
    ) -> Result<u64, BackendError> {
        let bytes = (elements.max(1) as u64) * kernels::int64::element_bytes(dtype);
        let limit = self.device.limits().max_storage_buffer_binding_size;
        if bytes > limit {
            return Err(BackendError::Device(format!(
                "out of memory: a tensor of {bytes} bytes exceeds the adapter's largest storage buffer ({limit} bytes)"
            )));
        }
        Ok(bytes)
    }

    /// Keeps a readback buffer for the next read of its size (a few per
    /// size: a program reads the same few sizes again and again).
    pub(super) fn keep_staging(&mut self, staging: wgpu::Buffer) {
        let kept = self.staging.entry(staging.size()).or_default();
        if kept.len() < STAGING_PER_SIZE && staging.size() <= STAGING_MAX_BYTES {
            kept.push(staging);
        }
    }

    pub(super) fn upload_data(&mut self, data: &HostData) -> Result<BufferId, BackendError> {
        // A bool or a uint8 is one u32 word (`kernels/mask.rs`, `ints.rs`); a bfloat16 or float16
        // is the float32 of its value (`kernels/half.rs`).
        let words: Vec<u32>;
        let floats: Vec<f32>;
        let contents: &[u8] = match data {
            HostData::F32(values) => {
                self.storage_size(values.len())?;
                bytemuck::cast_slice(values)
            }
            HostData::Bool(values) => {
                self.storage_size(values.len())?;
                words = values.iter().map(|&b| u32::from(b)).collect();
                bytemuck::cast_slice(&words)
            }
            HostData::U8(values) => {
                self.storage_size(values.len())?;
                words = values.iter().map(|&b| u32::from(b)).collect();
                bytemuck::cast_slice(&words)
            }
            // An int64 is its two words, low first (`kernels/int64.rs`).
            HostData::I64(values) => {
                self.storage_size_of(values.len(), DType::Int64)?;
                bytemuck::cast_slice(values)
            }
            HostData::I32(values) => {
                self.storage_size(values.len())?;
                bytemuck::cast_slice(values)
            }
            HostData::BF16(values) => {
                self.storage_size(values.len())?;
                floats = values.iter().map(|&h| bf16_to_f32(h)).collect();
                bytemuck::cast_slice(&floats)
            }
            HostData::F16(values) => {
                self.storage_size(values.len())?;
                floats = values.iter().map(|&h| f16_to_f32(h)).collect();
                bytemuck::cast_slice(&floats)
            }
            other => return Err(unsupported_dtype(other.dtype())),
        };
        // An empty tensor still binds a whole element (an int64's two words).
        let contents = if contents.is_empty() {
            &[0; 8]
        } else {
            contents
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

    pub(super) fn read_data(&mut self, id: BufferId, dtype: DType, len: usize) -> ReadFuture<'_> {
        if dtype == DType::Float64 {
            return Box::pin(async move { Err(unsupported_dtype(dtype)) });
        }
        let source = match self.buffer(id) {
            Ok(b) => b,
            Err(e) => return Box::pin(async move { Err(e) }),
        };
        let source = source.clone();
        let size = source.size();
        let staging = match self.staging.get_mut(&size).and_then(Vec::pop) {
            Some(b) => b,
            None => self.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("readback"),
                size,
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }),
        };
        self.batch.copy(&self.device, &source, &staging, size);
        let submitted = self.submit();
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
            submitted?;
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
                let bytes = len * kernels::int64::element_bytes(dtype) as usize;
                let view = &view[..bytes.min(view.len())];
                match dtype {
                    DType::Int64 => HostData::I64(bytemuck::pod_collect_to_vec(view)),
                    DType::Int32 => HostData::I32(bytemuck::pod_collect_to_vec(view)),
                    DType::Bool => HostData::Bool(
                        bytemuck::cast_slice::<u8, u32>(view)
                            .iter()
                            .map(|&w| w != 0)
                            .collect(),
                    ),
                    DType::UInt8 => HostData::U8(
                        bytemuck::cast_slice::<u8, u32>(view)
                            .iter()
                            .map(|&w| w as u8)
                            .collect(),
                    ),
                    // Exact: the kernels stored values of the dtype.
                    DType::BFloat16 => HostData::BF16(
                        bytemuck::cast_slice::<u8, f32>(view)
                            .iter()
                            .map(|&x| f32_to_bf16(x))
                            .collect(),
                    ),
                    DType::Float16 => HostData::F16(
                        bytemuck::cast_slice::<u8, f32>(view)
                            .iter()
                            .map(|&x| f32_to_f16(x))
                            .collect(),
                    ),
                    _ => HostData::F32(bytemuck::cast_slice::<u8, f32>(view).to_vec()),
                }
            };
            staging.unmap();
            self.keep_staging(staging);
            Ok(values)
        })
    }
}
