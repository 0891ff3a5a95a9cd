//! The constants of the ops that make tensors from nothing: `IntOrFloat`, the
//! exact-or-float bounds of `torch.arange`, and `RandomDraw`, what an
//! `Op::Random` drew. They live apart from `Op` so that the op list stays one
//! screen of variants.

use serde::{Deserialize, Serialize};

/// A Python number carried by an op, kept exact when it is an integer
/// (`torch.arange` counts in int64 from integer bounds).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(untagged)]
pub enum IntOrFloat {
    Int(i64),
    Float(f64),
}

impl IntOrFloat {
    pub fn as_f64(self) -> f64 {
        match self {
            IntOrFloat::Int(i) => i as f64,
            IntOrFloat::Float(x) => x,
        }
    }
}

/// What an `Op::Random` drew, with its parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(tag = "distribution", rename_all = "snake_case")]
pub enum RandomDraw {
    /// Uniform in `[low, high)`: `rand` and `uniform_`.
    Uniform { low: f64, high: f64 },
    /// Normal: `randn` and `normal_`.
    Normal { mean: f64, std: f64 },
    /// Integers in `[low, high)`: `randint`.
    Randint { low: i64, high: i64 },
    /// A permutation of `0..n`: `randperm`.
    Randperm,
}

impl RandomDraw {
    pub fn name(&self) -> &'static str {
        match self {
            RandomDraw::Uniform { .. } => "uniform",
            RandomDraw::Normal { .. } => "normal",
            RandomDraw::Randint { .. } => "randint",
            RandomDraw::Randperm => "randperm",
        }
    }

    /// PyTorch's in-place fills for the float draws (`rand` is
    /// `empty().uniform_()`), the factory's name for the integer ones.
    pub fn aten_name(&self) -> &'static str {
        match self {
            RandomDraw::Uniform { .. } => "aten::uniform_",
            RandomDraw::Normal { .. } => "aten::normal_",
            RandomDraw::Randint { .. } => "aten::randint",
            RandomDraw::Randperm => "aten::randperm",
        }
    }
}
