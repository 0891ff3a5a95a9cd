//! The runtime's memory limits and bookkeeping: the largest tensor one
//! allocation may make, the most bytes all live tensors may hold, Debug mode's
//! HBM check against the chosen chip, and the release of buffers whose tensors
//! were dropped. Every allocation is checked here before anything is made.

use super::{Runtime, RuntimeError};
use crate::backend::{Backend, BufferId};
use crate::fusion::EagerMode;
use crate::tensor::{Device, Home, Tensor};
use tpu_ir::{DType, Shape};

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

impl Runtime {
    /// Buffers alive on the `tpu` backend, after freeing those already dropped.
    pub fn live_tpu_buffers(&mut self) -> usize {
        self.release_dropped();
        self.tpu.live_buffers()
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
        if self.live_bytes + bytes > self.live_limit {
            return Err(RuntimeError::OutOfMemoryTotal {
                shape: shape.dims().to_vec(),
                bytes: bytes as u128,
                live: self.live_bytes,
                limit: self.live_limit,
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
        if self.mode != EagerMode::Debug || device.is_host() {
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

    /// Bytes of every live buffer on the accelerator.
    pub fn live_accelerator_bytes(&mut self) -> usize {
        self.release_dropped();
        self.live
            .iter()
            .filter(|((home, _), _)| *home == Home::Accelerator)
            .map(|(_, &b)| b)
            .sum()
    }

    /// The bytes of the `tpu` tensors of each group, each storage counted
    /// once (in the first group that has it), and the bytes of every
    /// storage of the groups and of `also` that lives on the accelerator,
    /// which the caller takes out of the live total.
    pub(crate) fn memory_by_kind(
        &mut self,
        groups: &[&[Tensor]; 4],
        also: &[Tensor],
    ) -> ([usize; 4], usize) {
        let mut seen = std::collections::HashSet::new();
        let mut bytes = [0; 4];
        let mut on_accelerator = 0;
        let all = groups
            .iter()
            .enumerate()
            .flat_map(|(g, ts)| ts.iter().map(move |t| (Some(g), t)))
            .chain(also.iter().map(|t| (None, t)));
        for (group, t) in all {
            if t.device().is_host() || !seen.insert(t.storage_key().0) {
                continue;
            }
            let size = t.storage_key().1 * t.dtype().size_in_bytes();
            if let Some(g) = group {
                bytes[g] += size;
            }
            if t.home() == Home::Accelerator {
                on_accelerator += size;
            }
        }
        (bytes, on_accelerator)
    }

    /// Makes this runtime one of `ranks` that share `MAX_LIVE_BYTES`: each
    /// may hold an equal share, so all of them together stay within it.
    pub fn share_memory_budget(&mut self, ranks: usize) {
        self.live_limit = MAX_LIVE_BYTES / ranks.max(1);
    }

    /// Counts a new buffer against the live-byte limit until it is released.
    pub(crate) fn track(&mut self, home: Home, buffer: BufferId, bytes: usize) {
        self.live.insert((home, buffer), bytes);
        self.live_bytes += bytes;
    }
}
