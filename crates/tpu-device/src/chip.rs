//! TPU generations as presets. Every figure carries its source and whether
//! sources disagree about it ("uncertain"); `TPU_SPECS.md` in the project's
//! shared folder collects them. Sources: [O] official (Google Cloud TPU docs,
//! JAX's `tpu_info.py`), [SB] the scaling book ("How to Scale Your Model",
//! `tpus.md`), [T] third-party reporting.

use serde::Serialize;

/// A figure and where it comes from.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct Figure {
    pub value: f64,
    pub source: &'static str,
    /// Sources disagree, or only third parties report it.
    pub uncertain: bool,
}

const fn official(value: f64, source: &'static str) -> Figure {
    Figure {
        value,
        source,
        uncertain: false,
    }
}

const fn uncertain(value: f64, source: &'static str) -> Figure {
    Figure {
        value,
        source,
        uncertain: true,
    }
}

/// How a generation's chips connect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Topology {
    /// A mesh of `dims` axes (2 or 3), each at most `max_axis` chips (in
    /// some order), at most `max_chips` in all, with wraparound links as
    /// `wrap` says.
    Torus {
        dims: usize,
        max_axis: [usize; 3],
        max_chips: usize,
        wrap: Wrap,
    },
    /// A topology this model does not simulate (TPU 8i's "Boardfly").
    Unmodelled { name: &'static str },
}

/// Which axes of a slice have wraparound links (and so are rings).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case", tag = "rule", content = "multiple")]
pub enum Wrap {
    /// Each axis whose length is a multiple of this (v4: 4; v5e: 16).
    EachAxis(usize),
    /// Every axis, when every axis is a multiple of this: the slice is made
    /// of whole cubes (v5p: 4x4x4).
    WholeCubes(usize),
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "ChipPreset"))]
pub struct Chip {
    /// The preset's name, as `--chip` takes it: `v5e`, `tpu7x`, ...
    pub id: &'static str,
    pub name: &'static str,
    /// Peak dense bf16 FLOP/s per chip.
    pub bf16_flops: Figure,
    /// HBM capacity, bytes.
    pub hbm_bytes: Figure,
    /// HBM bandwidth, bytes per second.
    pub hbm_bandwidth: Figure,
    /// ICI bandwidth of one link in one direction, bytes per second.
    pub ici_link_bandwidth: Figure,
    /// ICI ports per chip.
    pub ici_ports: usize,
    /// Latency of one ICI hop, seconds.
    pub ici_hop_latency: Figure,
    pub topology: Topology,
    /// The MXU's width (128 or 256): matmul dimensions are padded to it.
    pub mxu_width: usize,
    /// MXUs per TensorCore.
    pub mxus_per_core: usize,
    pub tensor_cores: usize,
    pub sparse_cores: usize,
    /// VMEM per TensorCore, bytes.
    pub vmem_bytes: Figure,
    /// Host overhead of one kernel launch, seconds.
    pub launch_overhead: Figure,
    /// Host to chip bandwidth (PCIe), bytes per second.
    pub host_bandwidth: Figure,
    /// Figures changed from the preset (`mxu_width=256`): a custom chip.
    pub overrides: Vec<String>,
}

const GIB: f64 = 1024.0 * 1024.0 * 1024.0;
const MIB: f64 = 1024.0 * 1024.0;

const HOP: Figure = official(1e-6, "[SB] about 1 us per ICI hop");
const PCIE: Figure = official(1.6e10, "[SB] host to chip about 1.6e10 B/s (PCIe)");

const LAUNCH: Figure = uncertain(
    5e-6,
    "assumed: a few microseconds of host dispatch per kernel (no published figure)",
);

/// The presets, oldest first.
pub fn presets() -> Vec<Chip> {
    vec![
        Chip {
            id: "v4",
            name: "TPU v4",
            bf16_flops: official(275e12, "[O] 275 TFLOP/s bf16"),
            hbm_bytes: official(32.0 * GIB, "[O] 32 GiB HBM2"),
            hbm_bandwidth: official(1.2e12, "[O] 1,200 GB/s"),
            ici_link_bandwidth: official(4.5e10, "[SB] 4.5e10 B/s one-way per link"),
            ici_ports: 6,
            ici_hop_latency: HOP,
            topology: Topology::Torus {
                dims: 3,
                max_axis: [16, 16, 16],
                max_chips: 4096,
                wrap: Wrap::EachAxis(4),
            },
            mxu_width: 128,
            mxus_per_core: 4,
            tensor_cores: 2,
            sparse_cores: 0,
            vmem_bytes: official(16.0 * MIB, "[O] 16 MiB VMEM (+128 MiB CMEM)"),
            launch_overhead: LAUNCH,
            host_bandwidth: PCIE,
            overrides: Vec::new(),
        },
        Chip {
            id: "v5e",
            name: "TPU v5e",
            bf16_flops: official(197e12, "[O] 197 TFLOP/s bf16"),
            hbm_bytes: official(16e9, "[O] 16 GB HBM2"),
            hbm_bandwidth: uncertain(819e9, "[O] 819 GB/s (800 GiB/s elsewhere)"),
            ici_link_bandwidth: uncertain(
                5e10,
                "[O] 1,600 Gbps per chip over 4 ports = 5e10 B/s one-way (the scaling book gives 4.5e10)",
            ),
            ici_ports: 4,
            ici_hop_latency: HOP,
            topology: Topology::Torus {
                dims: 2,
                max_axis: [16, 16, 1],
                max_chips: 256,
                wrap: Wrap::EachAxis(16),
            },
            mxu_width: 128,
            mxus_per_core: 4,
            tensor_cores: 1,
            sparse_cores: 0,
            vmem_bytes: official(128.0 * MIB, "[O] 128 MiB VMEM"),
            launch_overhead: LAUNCH,
            host_bandwidth: PCIE,
            overrides: Vec::new(),
        },
        Chip {
            id: "v5p",
            name: "TPU v5p",
            bf16_flops: official(459e12, "[O] 459 TFLOP/s bf16"),
            hbm_bytes: official(95e9, "[O] 95 GB usable HBM"),
            hbm_bandwidth: uncertain(2.765e12, "[O] 2,765 GB/s ([SB] 2.8e12)"),
            ici_link_bandwidth: official(9e10, "[SB] 9e10 B/s one-way per link"),
            ici_ports: 6,
            ici_hop_latency: HOP,
            topology: Topology::Torus {
                dims: 3,
                max_axis: [16, 20, 28],
                max_chips: 8960,
                wrap: Wrap::WholeCubes(4),
            },
            mxu_width: 128,
            mxus_per_core: 4,
            tensor_cores: 2,
            sparse_cores: 4,
            vmem_bytes: official(64.0 * MIB, "[O] 64 MiB VMEM"),
            launch_overhead: LAUNCH,
            host_bandwidth: PCIE,
            overrides: Vec::new(),
        },
        Chip {
            id: "v6e",
            name: "TPU v6e (Trillium)",
            bf16_flops: official(918e12, "[O] 918 TFLOP/s bf16"),
            hbm_bytes: official(32e9, "[O] 32 GB HBM"),
            hbm_bandwidth: official(1.638e12, "[O] 1,638 GB/s"),
            ici_link_bandwidth: official(9e10, "[SB] 9e10 B/s one-way per link"),
            ici_ports: 4,
            ici_hop_latency: HOP,
            topology: Topology::Torus {
                dims: 2,
                max_axis: [16, 16, 1],
                max_chips: 256,
                // As v5e (assumed: the sources give the 16x16 pod only).
                wrap: Wrap::EachAxis(16),
            },
            mxu_width: 256,
            mxus_per_core: 2,
            tensor_cores: 1,
            sparse_cores: 2,
            vmem_bytes: official(128.0 * MIB, "[O] 128 MiB VMEM"),
            launch_overhead: LAUNCH,
            host_bandwidth: official(3.2e10, "[SB] host to chip about 3.2e10 B/s on v6e"),
            overrides: Vec::new(),
        },
        Chip {
            id: "tpu7x",
            name: "TPU7x (Ironwood)",
            bf16_flops: official(2307e12, "[O] 2,307 TFLOP/s bf16"),
            hbm_bytes: official(192.0 * GIB, "[O] 192 GiB HBM"),
            hbm_bandwidth: official(7.38e12, "[O] 7,380 GB/s"),
            ici_link_bandwidth: official(9e10, "[SB] 9e10 B/s one-way per link"),
            ici_ports: 6,
            ici_hop_latency: HOP,
            topology: Topology::Torus {
                dims: 3,
                // 9,216 chips per pod, e.g. 16x24x24.
                max_axis: [24, 24, 24],
                max_chips: 9216,
                // As v5p (assumed).
                wrap: Wrap::WholeCubes(4),
            },
            mxu_width: 256,
            mxus_per_core: 4,
            tensor_cores: 2,
            sparse_cores: 4,
            vmem_bytes: official(64.0 * MIB, "[O] 64 MiB VMEM"),
            launch_overhead: LAUNCH,
            host_bandwidth: PCIE,
            overrides: Vec::new(),
        },
        Chip {
            id: "tpu8t",
            name: "TPU 8t",
            // 12.6 PF is an fp4 figure [T]; no bf16 figure is published.
            bf16_flops: uncertain(
                3.15e15,
                "[T] 12.6 PFLOP/s fp4, taken as 3.15 PFLOP/s bf16 (a quarter; no bf16 figure published)",
            ),
            hbm_bytes: uncertain(216e9, "[T] 216 GB HBM"),
            hbm_bandwidth: uncertain(6.5e12, "[T] 6,500 GB/s"),
            ici_link_bandwidth: uncertain(
                1.8e11,
                "[O, blog] 2x the previous generation's 9e10 B/s",
            ),
            ici_ports: 6,
            ici_hop_latency: HOP,
            topology: Topology::Torus {
                dims: 3,
                max_axis: [24, 20, 20],
                max_chips: 9600,
                // As v5p (assumed).
                wrap: Wrap::WholeCubes(4),
            },
            mxu_width: 256,
            mxus_per_core: 4,
            tensor_cores: 2,
            sparse_cores: 4,
            vmem_bytes: uncertain(128.0 * MIB, "[T] 128 MB SRAM"),
            launch_overhead: LAUNCH,
            host_bandwidth: PCIE,
            overrides: Vec::new(),
        },
        Chip {
            id: "tpu8i",
            name: "TPU 8i",
            bf16_flops: uncertain(
                2.525e15,
                "[T] 10.1 PFLOP/s fp4, taken as 2.5 PFLOP/s bf16 (a quarter; no bf16 figure published)",
            ),
            hbm_bytes: official(288e9, "[O] 288 GB HBM"),
            hbm_bandwidth: uncertain(8.6e12, "[T] 8,600 GB/s"),
            ici_link_bandwidth: uncertain(1.8e11, "[T] 2x the previous generation's 9e10 B/s"),
            ici_ports: 6,
            ici_hop_latency: HOP,
            topology: Topology::Unmodelled {
                name: "Boardfly (1,024 chips, diameter 7 hops)",
            },
            mxu_width: 256,
            mxus_per_core: 4,
            tensor_cores: 2,
            sparse_cores: 4,
            vmem_bytes: official(384.0 * MIB, "[O] 384 MB on-chip SRAM"),
            launch_overhead: LAUNCH,
            host_bandwidth: PCIE,
            overrides: Vec::new(),
        },
    ]
}

/// The preset named `id` (case-insensitive; `7x` and `ironwood` name TPU7x).
pub fn preset(id: &str) -> Result<Chip, String> {
    let wanted = id.to_ascii_lowercase();
    let wanted = match wanted.as_str() {
        "7x" | "ironwood" => "tpu7x",
        "8t" => "tpu8t",
        "8i" => "tpu8i",
        "trillium" => "v6e",
        other => other,
    };
    presets()
        .into_iter()
        .find(|c| c.id == wanted)
        .ok_or_else(|| {
            let names: Vec<&str> = presets().iter().map(|c| c.id).collect();
            format!("unknown chip '{id}': expected one of {}", names.join(", "))
        })
}

/// A chip from a description: a preset's id, optionally followed by figures
/// that replace the preset's, as `v5e:mxu_width=256,hbm_bandwidth=1.6e12`.
/// The keys are the `Chip` fields that are numbers: `bf16_flops`,
/// `hbm_bytes`, `hbm_bandwidth`, `ici_link_bandwidth`, `ici_hop_latency`,
/// `launch_overhead`, `host_bandwidth`, `vmem_bytes` (SI units: FLOP/s,
/// bytes, bytes/s, seconds), and `mxu_width`, `mxus_per_core`,
/// `tensor_cores`, `sparse_cores`, `ici_ports`.
pub fn describe(spec: &str) -> Result<Chip, String> {
    let (base, changes) = match spec.split_once(':') {
        Some((base, changes)) => (base, changes),
        None => (spec, ""),
    };
    let mut chip = preset(base.trim())?;
    for change in changes.split(',').map(str::trim).filter(|c| !c.is_empty()) {
        let (key, value) = change.split_once('=').ok_or_else(|| {
            format!("cannot read '{change}': expected key=value, like mxu_width=256")
        })?;
        let (key, value) = (key.trim(), value.trim());
        let number: f64 = value
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite() && *v > 0.0)
            .ok_or_else(|| format!("{key} must be a positive number, not '{value}'"))?;
        let custom = Figure {
            value: number,
            source: "custom: given in the chip's description",
            uncertain: false,
        };
        let count = || {
            (number.fract() == 0.0 && number <= 4096.0)
                .then_some(number as usize)
                .ok_or_else(|| format!("{key} must be a whole number up to 4096, not '{value}'"))
        };
        match key {
            "bf16_flops" => chip.bf16_flops = custom,
            "hbm_bytes" => chip.hbm_bytes = custom,
            "hbm_bandwidth" => chip.hbm_bandwidth = custom,
            "ici_link_bandwidth" => chip.ici_link_bandwidth = custom,
            "ici_hop_latency" => chip.ici_hop_latency = custom,
            "launch_overhead" => chip.launch_overhead = custom,
            "host_bandwidth" => chip.host_bandwidth = custom,
            "vmem_bytes" => chip.vmem_bytes = custom,
            "mxu_width" => chip.mxu_width = count()?,
            "mxus_per_core" => chip.mxus_per_core = count()?,
            "tensor_cores" => chip.tensor_cores = count()?,
            "sparse_cores" => chip.sparse_cores = count()?,
            "ici_ports" => chip.ici_ports = count()?,
            other => {
                return Err(format!(
                    "unknown chip figure '{other}': expected bf16_flops, hbm_bytes, hbm_bandwidth, ici_link_bandwidth, ici_hop_latency, launch_overhead, host_bandwidth, vmem_bytes, mxu_width, mxus_per_core, tensor_cores, sparse_cores or ici_ports"
                ));
            }
        }
        chip.overrides.push(format!("{key}={value}"));
    }
    Ok(chip)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_found_by_its_id_and_has_sourced_figures() {
        for chip in presets() {
            assert_eq!(preset(chip.id).unwrap().id, chip.id);
            for f in [
                chip.bf16_flops,
                chip.hbm_bytes,
                chip.hbm_bandwidth,
                chip.ici_link_bandwidth,
            ] {
                assert!(f.value > 0.0 && !f.source.is_empty(), "{}", chip.id);
            }
        }
        assert!(
            preset("v9")
                .unwrap_err()
                .contains("expected one of v4, v5e")
        );
        assert_eq!(preset("Ironwood").unwrap().id, "tpu7x");
    }

    #[test]
    fn a_custom_chip_is_a_preset_with_figures_replaced() {
        let c = describe("v5e: mxu_width=256, hbm_bandwidth=1.6e12").unwrap();
        assert_eq!(c.mxu_width, 256);
        assert_eq!(c.hbm_bandwidth.value, 1.6e12);
        assert!(c.hbm_bandwidth.source.starts_with("custom"));
        assert_eq!(c.overrides, ["mxu_width=256", "hbm_bandwidth=1.6e12"]);
        assert_eq!(describe("v4").unwrap(), preset("v4").unwrap());
        assert!(
            describe("v5e:mxu_width")
                .unwrap_err()
                .contains("expected key=value")
        );
        assert!(
            describe("v5e:mxu_width=-1")
                .unwrap_err()
                .contains("positive number")
        );
        assert!(
            describe("v5e:mxu_width=1.5")
                .unwrap_err()
                .contains("whole number")
        );
        assert!(
            describe("v5e:warp=9")
                .unwrap_err()
                .contains("unknown chip figure 'warp'")
        );
    }
}
