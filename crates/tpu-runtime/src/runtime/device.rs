//! The runtime's side of the device model: which simulated TPU a run is for,
//! the collectives a program simulates, and, at the end of a run, each
//! kernel's simulated cost, the run's simulated timeline and the totals the
//! page shows (matmul FLOPs, MXU use, alignment hints), so no embedder adds
//! them up itself.

use super::{Runtime, RuntimeError};
use crate::fusion::EagerMode;
use crate::report::{CollectiveRecord, DeviceSummary, HintCount, KernelRecord, SyncRecord};
use tpu_device::timeline::{Item, build};
use tpu_device::{Chip, Slice};

/// The simulated TPU a run starts with: one v5e chip.
pub(super) fn default_device() -> (Chip, Slice) {
    tpu_device::device("v5e", "1").expect("one v5e chip is a device")
}

/// A simulated collective as a timeline item on the ICI lane.
/// The name of the Timeline's lane of measured kernel times.
pub const MEASURED_LANE: &str = "this machine's GPU (measured)";

/// The kernels this machine's GPU ran, at their measured times (wall time,
/// not simulated) from the first one's start: a lane under the simulated
/// chip's, on its own clock. None when nothing was measured.
pub(crate) fn measured_lane(kernels: &[KernelRecord]) -> Option<tpu_device::timeline::Lane> {
    let first = kernels
        .iter()
        .filter_map(|k| k.measured)
        .map(|m| m.start_us)
        .min_by(f64::total_cmp)?;
    let mut events: Vec<tpu_device::timeline::Event> = kernels
        .iter()
        .filter_map(|k| {
            k.measured.map(|m| tpu_device::timeline::Event {
                name: k.name.clone(),
                start_us: m.start_us - first,
                duration_us: m.duration_us,
            })
        })
        .collect();
    events.sort_by(|a, b| a.start_us.total_cmp(&b.start_us));
    Some(tpu_device::timeline::Lane {
        chip: None,
        rank: None,
        name: MEASURED_LANE.to_string(),
        events,
        measured: true,
    })
}

fn collective_item(c: &CollectiveRecord) -> Item {
    let sim = &c.simulation;
    Item::Collective {
        name: format!(
            "{} of {} B over axes {:?}",
            sim.kind.name(),
            sim.bytes,
            sim.axes
        ),
        duration_us: sim.simulated_us,
    }
}

fn sync_item(s: &SyncRecord) -> Item {
    Item::Sync {
        reason: s.reason.clone(),
        bytes: s.bytes as f64,
    }
}

/// The summary of a run on `chip` and `slice` whose kernels are costed and
/// whose timeline ends at `simulated_us`.
pub(crate) fn device_summary(
    chip: &Chip,
    slice: &Slice,
    kernels: &[KernelRecord],
    simulated_us: f64,
) -> DeviceSummary {
    let matmuls: Vec<_> = kernels
        .iter()
        .filter_map(|k| k.cost.as_ref())
        .filter(|c| c.mxu_utilization.is_some())
        .collect();
    let mut hints: Vec<HintCount> = Vec::new();
    for hint in kernels
        .iter()
        .filter_map(|k| k.cost.as_ref())
        .flat_map(|c| &c.hints)
    {
        match hints.iter_mut().find(|h| &h.hint == hint) {
            Some(h) => h.kernels += 1,
            None => hints.push(HintCount {
                hint: hint.clone(),
                kernels: 1,
            }),
        }
    }
    DeviceSummary {
        chip: chip.id.to_string(),
        chip_name: chip.name.to_string(),
        slice: slice.name(),
        layout: slice.layout(),
        simulated_us,
        matmul_kernels: matmuls.len(),
        matmul_flops: matmuls.iter().filter_map(|c| c.matmul_flops).sum(),
        mean_mxu_utilization: (!matmuls.is_empty()).then(|| {
            matmuls
                .iter()
                .filter_map(|c| c.mxu_utilization)
                .sum::<f64>()
                / matmuls.len() as f64
        }),
        hints,
    }
}

impl Runtime {
    /// Costs every kernel on the chosen TPU and lays the run out on its
    /// simulated timeline (see `tpu_device::cost` and `timeline`).
    pub(super) fn simulate(&self, report: &mut crate::Report) {
        let chip = &self.device.0;
        let mut items = Vec::new();
        let mut syncs = report.syncs.iter().peekable();
        let mut collectives = report.collectives.iter().peekable();
        for (i, k) in report.kernels.iter_mut().enumerate() {
            // What happened before kernel i: collectives, then reads.
            while let Some(c) = collectives.next_if(|c| c.after_kernels <= i) {
                items.push(collective_item(c));
            }
            while let Some(s) = syncs.next_if(|s| s.after_kernels <= i) {
                items.push(sync_item(s));
            }
            // A convolution's matmul (and its epilogue) runs as the
            // convolution it is.
            if k.work.matmul.is_some() && k.work.conv.is_none() {
                k.work.conv = k
                    .ops
                    .iter()
                    .find_map(|&o| report.ops.get(o).and_then(|r| r.conv.clone()));
            }
            let cost = tpu_device::cost::kernel_cost(chip, &k.work);
            items.push(Item::Launch {
                name: k.name.clone(),
                cost: cost.clone(),
            });
            k.cost = Some(cost);
        }
        items.extend(collectives.map(collective_item));
        items.extend(syncs.map(sync_item));
        let mut timeline = build(chip, &items, self.mode == EagerMode::Debug);
        timeline.lanes.extend(measured_lane(&report.kernels));
        report.device = Some(device_summary(
            chip,
            &self.device.1,
            &report.kernels,
            timeline.total_us,
        ));
        report.timeline = Some(timeline);
        report.summary = Some(crate::report::summarize(report));
    }

    /// `set_conv`: the next matmul computes this convolution (`None` clears
    /// it); the functional convolutions bracket their matmul with it.
    pub fn set_conv(&mut self, conv: Option<tpu_device::cost::Conv>) {
        self.conv = conv;
    }

    /// Chooses the simulated TPU: the chip the Report's costs and timeline
    /// are for, and whose HBM Debug mode checks allocations against.
    pub fn set_device(&mut self, chip: Chip, slice: Slice) {
        self.chosen_device = (chip.clone(), slice.clone());
        self.device = (chip, slice);
    }

    /// `torch_tpu.set_chip`: the simulated TPU for the rest of this run.
    pub fn set_run_device(&mut self, chip: Chip, slice: Slice) {
        self.device = (chip, slice);
    }

    /// The simulated TPU: its chip and slice.
    pub fn device(&self) -> (&Chip, &Slice) {
        (&self.device.0, &self.device.1)
    }

    /// Simulates `collective` on the current slice, link by link, and keeps
    /// it for the Report (its schedule) and the timeline (the ICI lane).
    pub fn simulate_collective(
        &mut self,
        collective: &tpu_device::Collective,
    ) -> Result<tpu_device::Simulation, RuntimeError> {
        let (chip, slice) = &self.device;
        let sim = tpu_device::collective::simulate(chip, slice, collective)
            .map_err(|e| RuntimeError::Message(e.to_string()))?;
        // Everything launched so far runs before it.
        self.tpu.flush()?;
        self.collectives.push(CollectiveRecord {
            line: self.line,
            after_kernels: self.tpu.kernels.len(),
            slice: slice.name(),
            layout: slice.layout(),
            traffic: sim.link_traffic(slice),
            simulation: sim.clone(),
        });
        Ok(sim)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kernel(name: &str, measured: Option<(f64, f64)>) -> KernelRecord {
        KernelRecord {
            rank: 0,
            name: name.into(),
            ops: vec![],
            backend: crate::BackendKind::Wgpu,
            kernel_language: "WGSL".into(),
            fingerprint: None,
            cache_hit: None,
            cache_persisted: false,
            compile_ms: None,
            source: None,
            work: Default::default(),
            cost: None,
            measured: measured.map(|(start_us, duration_us)| crate::report::MeasuredTime {
                start_us,
                duration_us,
            }),
            launch: None,
        }
    }

    #[test]
    fn the_measured_lane_starts_at_the_first_measured_kernel_in_time_order() {
        let kernels = [
            kernel("b", Some((1_000_050.0, 3.0))),
            kernel("host", None),
            kernel("a", Some((1_000_000.0, 20.0))),
        ];
        let lane = measured_lane(&kernels).expect("two were measured");
        assert_eq!(lane.name, MEASURED_LANE);
        let events: Vec<(&str, f64, f64)> = lane
            .events
            .iter()
            .map(|e| (e.name.as_str(), e.start_us, e.duration_us))
            .collect();
        assert_eq!(events, [("a", 0.0, 20.0), ("b", 50.0, 3.0)]);
        assert_eq!(measured_lane(&[kernel("host", None)]), None);
    }
}
