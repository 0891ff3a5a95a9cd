//! The per-kernel cost model: how long a chip would take for one kernel, from
//! a roofline of its work against the chip's peaks, plus launch overhead.
//!
//! - A matmul runs on the MXUs. Its utilisation is what padding loses: the
//!   contraction (`k`) and output (`n`) dimensions map onto the MXU's
//!   `width x width` array and are padded up to multiples of the width; the
//!   rows (`m`) stream through eight at a time (a vreg's sublanes) and are
//!   padded to multiples of 8. Time = FLOPs / (peak x utilisation).
//! - Elementwise work, reductions and everything else run on the VPU, whose
//!   peak this model takes as a sixteenth of the MXUs' (an assumption: no
//!   source gives a VPU figure). Such kernels are almost always bound by HBM.
//! - Gathers and scatters (and so embedding lookups) run on SparseCores where
//!   the chip has them, bound by HBM bandwidth; on chips without them, on the
//!   TensorCore's VPU.
//! - Bytes are what the kernel reads from and writes to HBM.
//!
//! The kernel takes the longer of its compute and memory time, plus the
//! chip's launch overhead. All of it is simulated time.

use crate::chip::Chip;
use serde::{Deserialize, Serialize};

/// What a kernel does, as the cost model needs it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct Work {
    /// `(batch, m, k, n)` of a matmul in the kernel.
    pub matmul: Option<[usize; 4]>,
    /// Floating-point operations besides the matmul's.
    pub vector_flops: f64,
    /// Bytes read from and written to HBM.
    pub hbm_bytes: f64,
    /// A gather or scatter (SparseCore work where the chip has them).
    pub sparse: bool,
    /// For a convolution's matmul: the convolution, which the MXU runs tap
    /// by tap (see `Conv`), costed as such instead of as `matmul`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub conv: Option<Conv>,
}

/// A convolution as a TPU's MXU runs it: at each of the `taps` kernel
/// positions (per group), every one of `positions` output positions (batch
/// times output pixels) is a row that contracts `in_channels` into
/// `out_channels`. XLA pads the channels to the MXU's width at every tap, so
/// a layer of 8 input channels uses 1/16 of a 128-wide array however large
/// its kernel.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct Conv {
    pub groups: usize,
    pub taps: usize,
    pub positions: usize,
    pub in_channels: usize,
    pub out_channels: usize,
}

/// Which unit of the chip runs a kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "CostUnit"))]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// The TensorCore's matrix units.
    Mxu,
    /// The TensorCore's vector unit.
    Vpu,
    SparseCore,
}

/// What bounds a kernel's simulated time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "CostBound"))]
#[serde(rename_all = "snake_case")]
pub enum Bound {
    Compute,
    Memory,
    Launch,
}

/// A kernel's simulated cost.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct Cost {
    pub unit: Unit,
    /// Simulated microseconds, launch overhead included.
    pub simulated_us: f64,
    pub compute_us: f64,
    pub memory_us: f64,
    pub bound: Bound,
    /// The host's launch overhead, included in `simulated_us`.
    pub launch_us: f64,
    /// For a matmul: the fraction of the MXU's work that is not padding.
    pub mxu_utilization: Option<f64>,
    /// For a matmul: its floating-point operations, `2 * batch * m * k * n`.
    #[serde(default)]
    pub matmul_flops: Option<f64>,
    /// Alignment advice ("a contraction dimension of 64 fills half of a
    /// 128-wide MXU").
    pub hints: Vec<String>,
}

/// The peak of the VPU, as a fraction of the MXUs' (assumed; see above).
pub const VPU_FRACTION: f64 = 1.0 / 16.0;

fn pad(x: usize, to: usize) -> usize {
    x.div_ceil(to).max(1) * to
}

/// The fraction of an MXU pass over `[m, k] @ [k, n]` that is real work.
pub fn mxu_utilization(width: usize, m: usize, k: usize, n: usize) -> f64 {
    if m == 0 || k == 0 || n == 0 {
        return 0.0;
    }
    (m * k * n) as f64 / (pad(m, 8) * pad(k, width) * pad(n, width)) as f64
}

/// How a dimension of `x` fills an MXU of `width`, as a phrase: "half",
/// "a quarter", "62%".
fn fill(x: usize, width: usize) -> String {
    let f = x as f64 / pad(x, width) as f64;
    match () {
        _ if (f - 0.5).abs() < 1e-9 => "half".into(),
        _ if (f - 0.25).abs() < 1e-9 => "a quarter".into(),
        _ => format!("{:.0}%", f * 100.0),
    }
}

pub fn kernel_cost(chip: &Chip, work: &Work) -> Cost {
    let peak = chip.bf16_flops.value;
    let hbm = chip.hbm_bandwidth.value;
    let launch_us = chip.launch_overhead.value * 1e6;
    let memory_us = work.hbm_bytes / hbm * 1e6;
    let vector_us = work.vector_flops / (peak * VPU_FRACTION) * 1e6;
    let mut hints = Vec::new();
    let (unit, compute_us, mxu_utilization, matmul_flops) = match (&work.conv, work.matmul) {
        (Some(conv), Some(_)) => {
            let w = chip.mxu_width;
            let (m, k, n) = (conv.positions, conv.in_channels, conv.out_channels);
            let utilization = mxu_utilization(w, m, k, n);
            let flops = 2.0 * (conv.groups * conv.taps * m * k * n) as f64;
            let mxu_us = if utilization > 0.0 {
                flops / (peak * utilization) * 1e6
            } else {
                0.0
            };
            for (what, x) in [("input", k), ("output", n)] {
                if x % w != 0 {
                    let per = if what == "input" {
                        " at each kernel tap"
                    } else {
                        ""
                    };
                    let (noun, verb) = if x == 1 {
                        ("channel", "fills")
                    } else {
                        ("channels", "fill")
                    };
                    hints.push(format!(
                        "{x} {what} {noun} {verb} {} of a {w}-wide MXU{per}; a multiple of {w} would use all of it",
                        fill(x, w)
                    ));
                }
            }
            if m % 8 != 0 {
                hints.push(format!(
                    "{m} output positions pad to {} (the MXU streams rows eight at a time)",
                    pad(m, 8)
                ));
            }
            (
                Unit::Mxu,
                mxu_us + vector_us,
                Some(utilization),
                Some(flops),
            )
        }
        (_, Some([batch, m, k, n])) => {
            let w = chip.mxu_width;
            let utilization = mxu_utilization(w, m, k, n);
            let flops = 2.0 * (batch * m * k * n) as f64;
            let mxu_us = if utilization > 0.0 {
                flops / (peak * utilization) * 1e6
            } else {
                0.0
            };
            for (what, x) in [("a contraction", k), ("an output", n)] {
                if x % w != 0 {
                    hints.push(format!(
                        "{what} dimension of {x} fills {} of a {w}-wide MXU; a multiple of {w} would use all of it",
                        fill(x, w)
                    ));
                }
            }
            if m % 8 != 0 {
                hints.push(format!(
                    "{m} rows pad to {} (the MXU streams rows eight at a time)",
                    pad(m, 8)
                ));
            }
            (
                Unit::Mxu,
                mxu_us + vector_us,
                Some(utilization),
                Some(flops),
            )
        }
        (_, None) if work.sparse && chip.sparse_cores > 0 => {
            (Unit::SparseCore, vector_us, None, None)
        }
        (_, None) => (Unit::Vpu, vector_us, None, None),
    };
    let body = compute_us.max(memory_us);
    let bound = if launch_us > body {
        Bound::Launch
    } else if compute_us >= memory_us {
        Bound::Compute
    } else {
        Bound::Memory
    };
    Cost {
        unit,
        simulated_us: body + launch_us,
        compute_us,
        memory_us,
        bound,
        launch_us,
        mxu_utilization,
        matmul_flops,
        hints,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chip::preset;

    #[test]
    fn padding_sets_the_mxu_utilisation() {
        assert_eq!(mxu_utilization(128, 256, 128, 128), 1.0);
        assert_eq!(mxu_utilization(128, 256, 64, 128), 0.5);
        assert_eq!(mxu_utilization(256, 256, 128, 256), 0.5);
        assert_eq!(mxu_utilization(128, 4, 128, 128), 0.5);
    }

    #[test]
    fn a_convolution_pads_its_channels_at_every_tap() {
        let v5e = preset("v5e").unwrap();
        // A 3x3 conv from 8 to 16 channels over 32 images of 12x12: im2col
        // makes it [4608, 72] @ [72, 16], but the MXU contracts the 8 input
        // channels tap by tap, each padded to 128.
        let conv = Conv {
            groups: 1,
            taps: 9,
            positions: 4608,
            in_channels: 8,
            out_channels: 16,
        };
        let work = Work {
            matmul: Some([1, 4608, 72, 16]),
            conv: Some(conv),
            ..Work::default()
        };
        let cost = kernel_cost(&v5e, &work);
        assert_eq!(cost.mxu_utilization, Some(8.0 / 128.0 * 16.0 / 128.0));
        assert_eq!(cost.matmul_flops, Some(2.0 * 4608.0 * 72.0 * 16.0));
        assert_eq!(
            cost.hints,
            [
                "8 input channels fill 6% of a 128-wide MXU at each kernel tap; a multiple of 128 would use all of it",
                "16 output channels fill 12% of a 128-wide MXU; a multiple of 128 would use all of it",
            ]
        );
        let plain = kernel_cost(&v5e, &Work { conv: None, ..work });
        assert!(cost.compute_us > plain.compute_us);
    }

    #[test]
    fn a_head_dimension_of_64_halves_the_mxu_and_says_so() {
        let v5e = preset("v5e").unwrap();
        // q @ k^T for 8 sequences, 4 heads, 128 tokens, head dimension 64.
        let qk = |hd: usize| Work {
            matmul: Some([32, 128, hd, 128]),
            hbm_bytes: 2.0 * (32 * 128 * hd * 2 + 32 * 128 * 128) as f64,
            ..Work::default()
        };
        let narrow = kernel_cost(&v5e, &qk(64));
        let wide = kernel_cost(&v5e, &qk(128));
        assert_eq!(narrow.mxu_utilization, Some(0.5));
        assert_eq!(wide.mxu_utilization, Some(1.0));
        assert_eq!(
            narrow.hints,
            [
                "a contraction dimension of 64 fills half of a 128-wide MXU; a multiple of 128 would use all of it"
            ]
        );
        assert!(wide.hints.is_empty());
        // Twice the work in the same MXU time: the narrow one wastes half.
        assert!((narrow.compute_us - wide.compute_us).abs() < 1e-9);
    }

    #[test]
    fn the_roofline_picks_compute_memory_or_launch() {
        let v5e = preset("v5e").unwrap();
        // A big square matmul is compute-bound: 2 * 4096^3 FLOPs at 197 TFLOP/s.
        let big = kernel_cost(
            &v5e,
            &Work {
                matmul: Some([1, 4096, 4096, 4096]),
                hbm_bytes: 3.0 * 4096.0 * 4096.0 * 2.0,
                ..Work::default()
            },
        );
        assert_eq!(big.bound, Bound::Compute);
        assert_eq!(big.matmul_flops, Some(2.0 * 4096f64.powi(3)));
        assert!((big.compute_us - 2.0 * 4096f64.powi(3) / 197e12 * 1e6).abs() < 1e-6);
        // An elementwise add of 64M floats is bound by HBM: 768 MB at 819 GB/s.
        let add = kernel_cost(
            &v5e,
            &Work {
                vector_flops: 64e6,
                hbm_bytes: 3.0 * 64e6 * 4.0,
                ..Work::default()
            },
        );
        assert_eq!((add.unit, add.bound), (Unit::Vpu, Bound::Memory));
        assert_eq!(add.matmul_flops, None);
        assert!((add.memory_us - 768e6 / 819e9 * 1e6).abs() < 1e-6);
        // A tiny op costs its launch.
        let tiny = kernel_cost(
            &v5e,
            &Work {
                vector_flops: 4.0,
                hbm_bytes: 48.0,
                ..Work::default()
            },
        );
        assert_eq!(tiny.bound, Bound::Launch);
    }

    #[test]
    fn gathers_go_to_sparsecores_where_there_are_some() {
        let gather = Work {
            hbm_bytes: 1e6,
            sparse: true,
            ..Work::default()
        };
        assert_eq!(
            kernel_cost(&preset("v5p").unwrap(), &gather).unit,
            Unit::SparseCore
        );
        assert_eq!(
            kernel_cost(&preset("v5e").unwrap(), &gather).unit,
            Unit::Vpu
        );
    }
}
