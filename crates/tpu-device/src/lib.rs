//! The TPU device model. Everything here is simulated: figures come from
//! published sources (`chip.rs` names each one), and nothing is measured on
//! the machine the playground runs on.
//!
//! - `chip`: generations as presets, each figure with its source and an
//!   "uncertain" mark where sources disagree.
//! - `slice`: arrangements of chips (`4`, `2x2`, `4x4x4`, ...) with each
//!   generation's wraparound rules, and the ICI links between them.
//! - `collective`: collectives simulated link by link on a slice, step by
//!   step, with the scaling book's formulas beside them as a cross-check;
//!   `simulate_group` runs one over a single process group of any chips.
//! - `cost`: a kernel's simulated duration from a roofline of its work
//!   against the chip's MXU, VPU and HBM, with MXU-alignment hints.
//! - `timeline`: a run's kernels and syncs laid out on simulated lanes, and
//!   their export as Chrome Trace Event JSON; `build_world` lays out several
//!   ranks, one per chip, that meet in collectives.

pub mod chip;
pub mod collective;
pub mod cost;
pub mod slice;
pub mod timeline;

pub use chip::{Chip, Figure, Topology, Wrap};

/// The simulated TPU a description names: a chip (a preset's id, or a preset
/// with figures replaced, see `chip::describe`) and a slice shape of its
/// generation. The error says why either cannot be.
pub fn device(chip: &str, slice: &str) -> Result<(Chip, Slice), String> {
    let chip = chip::describe(chip)?;
    let slice = Slice::new(&chip, slice).map_err(|e| e.to_string())?;
    Ok((chip, slice))
}
pub use collective::{Collective, CollectiveKind, Simulation};
pub use slice::{IciLink, Slice, SliceError, SliceLayout};
