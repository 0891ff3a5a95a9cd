//! The TPU device model. Everything here is simulated: figures come from
//! published sources (`chip.rs` names each one), and nothing is measured on
//! the machine the playground runs on.
//!
//! - `chip`: generations as presets, each figure with its source and an
//!   "uncertain" mark where sources disagree.
//! - `slice`: arrangements of chips (`4`, `2x2`, `4x4x4`, ...) with each
//!   generation's wraparound rules, and the ICI links between them.
//! - `collective`: collectives simulated link by link on a slice, step by
//!   step, with the scaling book's formulas beside them as a cross-check.
//! - `cost`: a kernel's simulated duration from a roofline of its work
//!   against the chip's MXU, VPU and HBM, with MXU-alignment hints.
//! - `timeline`: a run's kernels and syncs laid out on simulated lanes, and
//!   their export as Chrome Trace Event JSON.

pub mod chip;
pub mod collective;
pub mod cost;
pub mod slice;
pub mod timeline;

pub use chip::{Chip, Figure, Topology, Wrap};
pub use collective::{Collective, CollectiveKind, Simulation};
pub use slice::{Slice, SliceError};
