//! The Report's record of sharding: the DeviceMeshes a program made and the
//! DTensors each rank holds when it ends, for the page's Sharding view. The
//! prelude (`torch.distributed.tensor`) notes them through `torch._C` at the
//! end of a rank's run, with the program's variable names; here they are
//! collected per rank and merged into the world's part of the Report, each
//! mesh dimension tied to the torus axis its groups run along on the slice.
//! FSDP also notes, at each phase of each module (after its all-gather, after
//! its forward, at backward start, after its reduce-scatter, after an
//! optimiser step), what the rank's chip holds by kind, as PyTorch's
//! FSDPMemTracker reports it.

use serde::{Deserialize, Serialize};

/// A DeviceMesh: every rank makes the same ones, so rank 0's are reported.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MeshReport {
    pub shape: Vec<usize>,
    /// `mesh_dim_names`, when the program gave them.
    pub dim_names: Option<Vec<String>>,
    /// The mesh's ranks in row-major order.
    pub ranks: Vec<usize>,
    /// For each mesh dimension, the slice axis (`x`, `y`, `z`) along which
    /// every one of its groups lies, so its collectives use that axis's
    /// links; none where a group's chips differ in more than one axis.
    pub torus_axes: Vec<Option<String>>,
}

/// A DTensor one rank holds at the end of its run.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ShardedTensor {
    pub rank: usize,
    /// The program's variable, or a module's parameter path (`model.0.weight`).
    pub name: String,
    /// The user's line that made it.
    pub line: u32,
    /// An index into the meshes.
    pub mesh: usize,
    /// One per mesh dimension, as PyTorch prints them (`Shard(dim=0)`).
    pub placements: Vec<String>,
    /// The global shape, and this rank's block of it.
    pub shape: Vec<usize>,
    pub local_shape: Vec<usize>,
    pub offsets: Vec<usize>,
    pub dtype: String,
    pub local_bytes: usize,
}

/// What one rank's chip held at a phase of an FSDP run, in bytes by kind.
/// Every tensor is counted once, by its storage, and only `tpu` tensors count.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MemoryPoint {
    pub rank: usize,
    /// The phase: `after all-gather (forward)`, `after forward`,
    /// `backward start`, `after reduce-scatter`, `after optimizer step`.
    pub phase: String,
    /// The FSDP module (`0 (Linear)`), none for a whole-model phase.
    pub module: Option<String>,
    /// The user's line running at that moment.
    pub line: u32,
    /// Optimiser steps taken before this point (0 during the first step).
    pub step: u32,
    /// The rank's shards of the parameters.
    pub parameters: usize,
    /// Gradients: the sharded ones, and whole ones backward made that the
    /// reduce-scatter has not yet consumed.
    pub gradients: usize,
    pub optimizer_state: usize,
    /// Whole parameters an all-gather made that FSDP holds at this moment
    /// (freed by resharding, as PyTorch frees their storage).
    pub gathered_parameters: usize,
    /// Every other live buffer on the chip: activations saved for backward
    /// and temporaries (queued values in Fused mode included).
    pub other: usize,
}

/// What one rank noted.
#[derive(Clone, Debug, Default)]
pub struct ShardingNotes {
    pub meshes: Vec<MeshReport>,
    pub tensors: Vec<ShardedTensor>,
    pub memory: Vec<MemoryPoint>,
    /// Memory points past `MAX_MEMORY_POINTS`, counted but not kept.
    pub memory_dropped: usize,
}

/// The most memory points a rank keeps: a long training loop's first steps
/// show the pattern, and the Report stays small.
pub const MAX_MEMORY_POINTS: usize = 1000;

/// For each dimension of `mesh`, the one slice axis along which the chips
/// of each of its groups (ranks differing only in that coordinate) vary.
pub fn torus_axes(
    mesh: &MeshReport,
    chips: &[usize],
    slice: &tpu_device::Slice,
) -> Vec<Option<String>> {
    const NAMES: [&str; 3] = ["x", "y", "z"];
    let ndim = mesh.shape.len();
    let strides: Vec<usize> = (0..ndim)
        .map(|d| mesh.shape[d + 1..].iter().product())
        .collect();
    (0..ndim)
        .map(|d| {
            let mut axis: Option<usize> = None;
            for (i, &rank) in mesh.ranks.iter().enumerate() {
                // Each member compared with the next along dimension d.
                let coordinate = (i / strides[d]) % mesh.shape[d];
                if coordinate + 1 >= mesh.shape[d] {
                    continue;
                }
                let next = mesh.ranks[i + strides[d]];
                let (a, b) = (chips.get(rank)?, chips.get(next)?);
                let differ: Vec<usize> = (0..slice.axes())
                    .filter(|&x| slice.coord(*a, x) != slice.coord(*b, x))
                    .collect();
                match (differ.as_slice(), axis) {
                    ([x], None) => axis = Some(*x),
                    ([x], Some(y)) if *x == y => {}
                    _ => return None,
                }
            }
            axis.and_then(|x| NAMES.get(x)).map(|n| n.to_string())
        })
        .collect()
}
