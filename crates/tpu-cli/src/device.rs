//! `tpu chips` and `tpu sim collective`: the device model from a terminal.
//! Everything these print is simulated from published figures (see
//! `tpu chips --json` for each figure's source), not measured.

use tpu_device::collective::{self, Collective, CollectiveKind};
use tpu_device::{Topology, chip};

/// `tpu chips`: the presets, one line each (or their full records as JSON).
pub fn chips(json: bool) -> Result<(), String> {
    let presets = chip::presets();
    if json {
        for c in &presets {
            println!("{}", serde_json::to_string(c).map_err(|e| e.to_string())?);
        }
        return Ok(());
    }
    println!(
        "{:<7} {:<20} {:>10} {:>9} {:>10} {:>12} {:>5}  {:<30} figures marked * are uncertain",
        "chip", "name", "bf16 TF/s", "HBM GB", "HBM GB/s", "ICI GB/s/link", "MXU", "topology"
    );
    for c in &presets {
        let mark = |f: tpu_device::Figure| if f.uncertain { "*" } else { " " };
        let topology = match c.topology {
            Topology::Torus {
                dims, max_chips, ..
            } => format!("{dims}-D torus, up to {max_chips} chips"),
            Topology::Unmodelled { name } => format!("{name} (not simulated)"),
        };
        println!(
            "{:<7} {:<20} {:>9.0}{} {:>8.0}{} {:>9.0}{} {:>11.0}{} {:>5}  {:<30}",
            c.id,
            c.name,
            c.bf16_flops.value / 1e12,
            mark(c.bf16_flops),
            c.hbm_bytes.value / 1e9,
            mark(c.hbm_bytes),
            c.hbm_bandwidth.value / 1e9,
            mark(c.hbm_bandwidth),
            c.ici_link_bandwidth.value / 1e9,
            mark(c.ici_link_bandwidth),
            format!("{}²", c.mxu_width),
            topology
        );
    }
    Ok(())
}

/// A byte count: a number (`1e9`, `4096`) with an optional suffix: k, M, G
/// (powers of 1000) or KiB, MiB, GiB (powers of 1024).
pub fn parse_bytes(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let (number, scale) = [
        ("KiB", 1024.0),
        ("MiB", 1024.0 * 1024.0),
        ("GiB", 1024.0 * 1024.0 * 1024.0),
        ("kB", 1e3),
        ("MB", 1e6),
        ("GB", 1e9),
        ("k", 1e3),
        ("M", 1e6),
        ("G", 1e9),
        ("B", 1.0),
    ]
    .iter()
    .find_map(|(suffix, scale)| t.strip_suffix(suffix).map(|n| (n, *scale)))
    .unwrap_or((t, 1.0));
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("cannot read '{text}' as a byte count (like 1e9, 64MiB or 4096)"))?;
    if !value.is_finite() || value < 0.0 {
        return Err(format!(
            "a byte count must be finite and at least 0, not '{text}'"
        ));
    }
    Ok(value * scale)
}

/// `tpu sim collective`: one collective simulated link by link, printed as
/// one JSON object (or a line of text).
pub fn sim_collective(
    chip_id: &str,
    shape: &str,
    axes: &str,
    kind: &str,
    bytes: &str,
    json: bool,
    schedule: bool,
) -> Result<(), String> {
    let (chip, slice) = tpu_device::device(chip_id, shape)?;
    let axes: Vec<usize> = axes
        .split(',')
        .map(|a| a.trim().parse::<usize>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("cannot read axes '{axes}': expected indices like 0,1"))?;
    let kind: CollectiveKind = kind.parse()?;
    let request = Collective {
        kind,
        axes,
        bytes: parse_bytes(bytes)?,
    };
    let mut sim = collective::simulate(&chip, &slice, &request).map_err(|e| e.to_string())?;
    if !schedule {
        sim.steps.clear();
        sim.link_bytes.clear();
    }
    if json {
        let mut value = serde_json::to_value(&sim).map_err(|e| e.to_string())?;
        value["chip"] = chip.id.into();
        value["slice"] = slice.name().into();
        value["wrap"] = serde_json::to_value(&slice.wrap).map_err(|e| e.to_string())?;
        println!("{value}");
    } else {
        println!(
            "{:?} of {} B over axes {:?} of a {} {} slice: {:.2} us simulated ({}), busiest link {:.0} B{}",
            sim.kind,
            sim.bytes,
            sim.axes,
            chip.name,
            slice.name(),
            sim.simulated_us,
            if sim.latency_bound {
                "latency-bound"
            } else {
                "bandwidth-bound"
            },
            sim.max_link_bytes,
            match sim.formula_us {
                Some(f) => format!("; scaling-book formula {f:.2} us"),
                None => String::new(),
            }
        );
    }
    Ok(())
}
