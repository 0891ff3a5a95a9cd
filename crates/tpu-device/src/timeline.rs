//! The simulated timeline of a run: what a chip would do with the kernels a
//! program launched, lane by lane, and its export as Chrome Trace Event JSON
//! (which Perfetto and chrome://tracing open).
//!
//! The model: the host dispatches kernels one after another, each costing
//! the chip's launch overhead on the host lane. The chip runs kernels in
//! order (a kernel may need any earlier one's result): each starts when it has
//! been dispatched and the previous kernel has finished, on the TensorCore
//! (MXU or VPU work) or a SparseCore. At a materialisation point the host
//! waits for every kernel launched so far, then the value crosses to the host
//! over PCIe (the transfers lane). Debug mode waits after every kernel. A
//! collective the program simulates (`torch_tpu.simulate_collective`) takes
//! the ICI lane for its simulated duration, after the kernels before it.
//! `world` lays out several ranks, one per chip, that meet in collectives.

use crate::chip::Chip;
use crate::cost::{Cost, Unit};
use serde::{Deserialize, Serialize};

mod world;
pub use world::{
    CollectiveTiming, RankItems, WorldCollective, WorldItem, WorldTimeline, build_world,
};

/// What the timeline is built from, in program order.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// A kernel launch and its simulated cost.
    Launch { name: String, cost: Cost },
    /// The host waits for the device, then reads `bytes`.
    Sync { reason: String, bytes: f64 },
    /// A collective over the ICI, after the kernels before it.
    Collective { name: String, duration_us: f64 },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "TimelineEvent")
)]
pub struct Event {
    pub name: String,
    pub start_us: f64,
    pub duration_us: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "TimelineLane"))]
pub struct Lane {
    /// The chip the lane belongs to (none for the host of a single-chip run;
    /// in a world timeline a rank's host lane has its rank's chip).
    pub chip: Option<usize>,
    /// The rank whose lane it is, in a world timeline (see `world`).
    #[serde(default)]
    pub rank: Option<usize>,
    pub name: String,
    pub events: Vec<Event>,
    /// Whether its times were measured on this machine rather than
    /// simulated (the kernels as this machine's GPU ran them).
    #[serde(default)]
    pub measured: bool,
}

/// Simulated time, lane by lane.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct Timeline {
    pub lanes: Vec<Lane>,
    /// When the last event ends (simulated microseconds).
    pub total_us: f64,
}

const HOST: usize = 0;
const TENSOR_CORE: usize = 1;
const SPARSE_CORE: usize = 2;
const TRANSFERS: usize = 3;
const ICI: usize = 4;
/// Lanes per chip (per rank in a world timeline), in the order above.
const LANES: usize = 5;

/// The timeline of one chip running `items`; `wait_each` makes the host wait
/// for every kernel (Debug mode).
pub fn build(chip: &Chip, items: &[Item], wait_each: bool) -> Timeline {
    let mut lanes = chip_lanes(None, 0, None);
    let mut clock = Clock::default();
    for item in items {
        run_item(chip, item, &mut lanes, &mut clock, wait_each);
    }
    Timeline {
        lanes,
        total_us: clock.host.max(clock.device),
    }
}

/// One chip's lanes, in the order of the constants above: the host lane
/// belongs to `host_chip` (none for a single-chip run), the others to `chip`.
fn chip_lanes(host_chip: Option<usize>, chip: usize, rank: Option<usize>) -> Vec<Lane> {
    let lane = |chip: Option<usize>, name: &str| Lane {
        chip,
        rank,
        name: name.to_string(),
        events: Vec::new(),
        measured: false,
    };
    vec![
        lane(host_chip, "host dispatch"),
        lane(Some(chip), "TensorCore"),
        lane(Some(chip), "SparseCore"),
        lane(Some(chip), "HBM ↔ host transfers"),
        lane(Some(chip), "ICI"),
    ]
}

/// Where one chip's streams stand: the host has dispatched everything up to
/// `host`, the device's stream is busy until `device`, and the ICI lane
/// until `ici` (only a world's asynchronous collectives run it past
/// `device`).
#[derive(Clone, Copy, Debug, Default)]
struct Clock {
    host: f64,
    device: f64,
    ici: f64,
}

fn push(lane: &mut Lane, name: &str, start: f64, duration: f64) {
    lane.events.push(Event {
        name: name.to_string(),
        start_us: start,
        duration_us: duration,
    });
}

/// Lays `item` out on one chip's `lanes` (in the order of the constants).
fn run_item(chip: &Chip, item: &Item, lanes: &mut [Lane], clock: &mut Clock, wait_each: bool) {
    match item {
        Item::Launch { name, cost } => {
            push(&mut lanes[HOST], name, clock.host, cost.launch_us);
            clock.host += cost.launch_us;
            let start = clock.host.max(clock.device);
            let body = cost.simulated_us - cost.launch_us;
            let k = if cost.unit == Unit::SparseCore {
                SPARSE_CORE
            } else {
                TENSOR_CORE
            };
            push(&mut lanes[k], name, start, body);
            clock.device = start + body;
            if wait_each {
                clock.host = clock.host.max(clock.device);
            }
        }
        Item::Collective { name, duration_us } => {
            let start = clock.host.max(clock.device).max(clock.ici);
            push(&mut lanes[ICI], name, start, *duration_us);
            clock.device = start + duration_us;
            clock.ici = clock.device;
        }
        Item::Sync { reason, bytes } => {
            let start = clock.host.max(clock.device);
            let duration = bytes / chip.host_bandwidth.value * 1e6;
            push(&mut lanes[TRANSFERS], reason, start, duration);
            clock.device = start + duration;
            clock.host = clock.device;
        }
    }
}

/// One Chrome Trace event: a complete event (`ph: "X"`) or a name record
/// (`ph: "M"`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceEvent {
    pub name: String,
    pub ph: &'static str,
    pub pid: usize,
    pub tid: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ts: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dur: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cat: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub args: Option<TraceArgs>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceArgs {
    pub name: String,
}

/// Chrome's Trace Event format: `{"traceEvents": [...]}`, times in
/// microseconds. The host of a single-chip run is process 0; chip `c` is
/// process `c + 1`; each lane is a thread with its name. In a world timeline
/// every lane has a chip, so each rank's host lane is a thread of its chip's
/// process, and there is no process 0.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChromeTrace {
    pub trace_events: Vec<TraceEvent>,
    pub display_time_unit: &'static str,
}

pub fn chrome_trace(timeline: &Timeline, chip_name: &str) -> ChromeTrace {
    let mut events = Vec::new();
    let meta = |name: &str, pid: usize, tid: usize, value: String| TraceEvent {
        name: name.to_string(),
        ph: "M",
        pid,
        tid,
        ts: None,
        dur: None,
        cat: None,
        args: Some(TraceArgs { name: value }),
    };
    if timeline
        .lanes
        .iter()
        .any(|l| l.chip.is_none() && !l.measured)
    {
        events.push(meta("process_name", 0, 0, "host".into()));
    }
    // Measured lanes are a process of their own, after every chip's.
    let measured_pid = timeline
        .lanes
        .iter()
        .filter_map(|l| l.chip)
        .max()
        .map_or(1, |c| c + 2);
    if timeline.lanes.iter().any(|l| l.measured) {
        events.push(meta(
            "process_name",
            measured_pid,
            0,
            "this machine (measured, not simulated)".into(),
        ));
    }
    let mut named = std::collections::BTreeSet::new();
    for (tid, lane) in timeline.lanes.iter().enumerate() {
        let pid = match (lane.measured, lane.chip) {
            (true, _) => measured_pid,
            (false, chip) => chip.map_or(0, |c| c + 1),
        };
        if let Some(c) = lane.chip
            && named.insert(c)
        {
            let rank = lane.rank.map_or(String::new(), |r| format!(", rank {r}"));
            events.push(meta(
                "process_name",
                pid,
                0,
                format!("chip {c} ({chip_name}{rank}, simulated)"),
            ));
        }
        events.push(meta("thread_name", pid, tid, lane.name.clone()));
        for e in &lane.events {
            events.push(TraceEvent {
                name: e.name.clone(),
                ph: "X",
                pid,
                tid,
                ts: Some(e.start_us),
                dur: Some(e.duration_us),
                cat: Some(if lane.measured {
                    "measured"
                } else {
                    "simulated"
                }),
                args: None,
            });
        }
    }
    ChromeTrace {
        trace_events: events,
        display_time_unit: "ns",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chip::preset;
    use crate::cost::{Work, kernel_cost};

    fn launch(chip: &Chip, name: &str, work: Work) -> Item {
        Item::Launch {
            name: name.into(),
            cost: kernel_cost(chip, &work),
        }
    }

    #[test]
    fn the_host_runs_ahead_until_a_sync_and_debug_waits_every_time() {
        let chip = preset("v5e").unwrap();
        let big = Work {
            matmul: Some([1, 4096, 4096, 4096]),
            hbm_bytes: 1e8,
            ..Work::default()
        };
        let items = vec![
            launch(&chip, "mm", big.clone()),
            launch(&chip, "mm", big),
            Item::Sync {
                reason: "item()".into(),
                bytes: 4.0,
            },
        ];
        let strict = build(&chip, &items, false);
        let debug = build(&chip, &items, true);
        let host = &strict.lanes[HOST].events;
        // Strict: the second dispatch follows the first at once.
        assert!((host[1].start_us - host[0].duration_us).abs() < 1e-9);
        // Debug: the second dispatch waits for the first kernel.
        let first_kernel = &debug.lanes[TENSOR_CORE].events[0];
        let end = first_kernel.start_us + first_kernel.duration_us;
        assert!((debug.lanes[HOST].events[1].start_us - end).abs() < 1e-9);
        // Both end when the read is done.
        let read = &strict.lanes[TRANSFERS].events[0];
        assert!((strict.total_us - read.start_us - read.duration_us).abs() < 1e-9);
        assert!(debug.total_us > strict.total_us);
    }

    #[test]
    fn the_chrome_trace_is_well_formed_and_lanes_do_not_overlap() {
        let chip = preset("v5p").unwrap();
        let mut items = Vec::new();
        for i in 0..20 {
            let work = Work {
                matmul: (i % 3 == 0).then_some([1, 256, 512, 256]),
                vector_flops: 1e6,
                hbm_bytes: 1e6 * (i + 1) as f64,
                sparse: i % 5 == 0,
                conv: None,
            };
            items.push(launch(&chip, &format!("k{i}"), work));
            if i % 7 == 6 {
                items.push(Item::Sync {
                    reason: "print".into(),
                    bytes: 1e5,
                });
            }
        }
        let timeline = build(&chip, &items, false);
        let trace = chrome_trace(&timeline, "TPU v5p");
        let json = serde_json_like(&trace);
        assert!(json.contains("\"traceEvents\""));
        // Every lane is named, and its complete events are ordered and
        // disjoint (so trivially nested).
        let mut by_lane: std::collections::BTreeMap<(usize, usize), Vec<(f64, f64)>> =
            Default::default();
        let mut names = std::collections::BTreeSet::new();
        for e in &trace.trace_events {
            match e.ph {
                "M" if e.name == "thread_name" => {
                    names.insert((e.pid, e.tid));
                }
                "M" => {}
                "X" => {
                    let (ts, dur) = (e.ts.unwrap(), e.dur.unwrap());
                    assert!(ts >= 0.0 && dur >= 0.0 && ts.is_finite() && dur.is_finite());
                    by_lane
                        .entry((e.pid, e.tid))
                        .or_default()
                        .push((ts, ts + dur));
                }
                other => panic!("unexpected phase {other}"),
            }
        }
        for (lane, spans) in by_lane {
            assert!(names.contains(&lane), "{lane:?} has no name");
            for w in spans.windows(2) {
                assert!(w[1].0 >= w[0].1 - 1e-9, "{lane:?}: {w:?} overlap");
            }
        }
    }

    #[test]
    fn a_measured_lane_is_a_process_of_its_own_in_the_trace() {
        let chip = preset("v5e").unwrap();
        let work = Work {
            matmul: None,
            vector_flops: 1e6,
            hbm_bytes: 1e6,
            sparse: false,
            conv: None,
        };
        let mut timeline = build(&chip, &[launch(&chip, "k", work)], false);
        timeline.lanes.push(Lane {
            chip: None,
            rank: None,
            name: "this machine's GPU (measured)".into(),
            events: vec![Event {
                name: "k".into(),
                start_us: 0.0,
                duration_us: 7.0,
            }],
            measured: true,
        });
        let trace = chrome_trace(&timeline, "TPU v5e");
        let process = trace
            .trace_events
            .iter()
            .find(|e| {
                e.name == "process_name" && e.args.as_ref().unwrap().name.contains("measured")
            })
            .expect("a process for the measured lane");
        let measured: Vec<&TraceEvent> = trace
            .trace_events
            .iter()
            .filter(|e| e.ph == "X" && e.cat == Some("measured"))
            .collect();
        assert_eq!(measured.len(), 1);
        assert_eq!(measured[0].pid, process.pid);
        assert!(
            trace
                .trace_events
                .iter()
                .filter(|e| e.ph == "X" && e.pid != process.pid)
                .all(|e| e.cat == Some("simulated"))
        );
    }

    /// A quick check that the trace serialises (the CLI writes it with
    /// serde_json).
    fn serde_json_like(trace: &ChromeTrace) -> String {
        serde_json::to_string(trace).unwrap()
    }
}
