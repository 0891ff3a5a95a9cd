//! The simulated timeline of a multi-rank run: each rank's kernels, syncs
//! and communications in its own stream order, then laid out on the chips
//! together, a collective starting when its last member arrives.

use super::CommEvent;
use crate::report::Report;
use crate::runtime::CommItem;
use tpu_device::timeline::{Item, Timeline};

/// Something in one rank's stream.
pub enum StreamItem {
    Device(Item),
    /// A communication started (event index), running beside the kernels
    /// that follow until the rank waits for it.
    Start(usize),
    /// The rank waits for a communication it started.
    Wait(usize),
}

pub struct RankStream {
    pub chip: usize,
    pub items: Vec<StreamItem>,
}

/// Timing of one communication on the world's timeline.
#[derive(Default)]
pub struct Timed {
    pub start_us: Option<f64>,
    pub duration_us: f64,
    pub arrivals: Vec<Option<f64>>,
    pub waits: Vec<f64>,
    pub simulation: Option<tpu_device::collective::Simulation>,
    pub traffic: Vec<tpu_device::collective::LinkTraffic>,
}

pub struct WorldTimed {
    pub timeline: Timeline,
    pub collectives: Vec<Timed>,
    pub rank_end_us: Vec<f64>,
    pub rank_wait_us: Vec<f64>,
}

/// How many of `report`'s kernels ran before the rank's first `ops` ops
/// had all been launched.
fn kernels_before(report: &Report, ops: usize) -> usize {
    report
        .kernels
        .iter()
        .take_while(|k| k.ops.iter().all(|&i| i < ops))
        .count()
}

/// One rank's stream: its kernels with their costs, its syncs, the
/// collectives it simulated with `torch_tpu`, and its communications.
pub fn rank_items(report: &Report, comm: &[CommItem], chip: usize) -> RankStream {
    let mut items = Vec::new();
    let mut comm = comm
        .iter()
        .map(|c| (kernels_before(report, c.after_ops), c))
        .peekable();
    let mut syncs = report.syncs.iter().peekable();
    for (i, k) in report.kernels.iter().enumerate() {
        while let Some((_, c)) = comm.next_if(|(at, _)| *at <= i) {
            items.push(if c.wait {
                StreamItem::Wait(c.event)
            } else {
                StreamItem::Start(c.event)
            });
        }
        while let Some(s) = syncs.next_if(|s| s.after_kernels <= i) {
            items.push(StreamItem::Device(Item::Sync {
                reason: s.reason.clone(),
                bytes: s.bytes as f64,
            }));
        }
        if let Some(cost) = &k.cost {
            items.push(StreamItem::Device(Item::Launch {
                name: k.name.clone(),
                cost: cost.clone(),
            }));
        }
    }
    for (_, c) in comm {
        items.push(if c.wait {
            StreamItem::Wait(c.event)
        } else {
            StreamItem::Start(c.event)
        });
    }
    for s in syncs {
        items.push(StreamItem::Device(Item::Sync {
            reason: s.reason.clone(),
            bytes: s.bytes as f64,
        }));
    }
    RankStream { chip, items }
}

/// A byte count as the timeline names it: `4 KB`.
fn bytes_text(bytes: usize) -> String {
    match bytes {
        b if b >= 1 << 20 => format!("{:.1} MB", b as f64 / (1 << 20) as f64),
        b if b >= 1 << 10 => format!("{:.1} KB", b as f64 / (1 << 10) as f64),
        b => format!("{b} B"),
    }
}

/// Lays the ranks' streams out on their chips: each communication is
/// simulated link by link over its members' chips, and starts when its last
/// member arrives (`tpu_device::timeline::build_world`).
pub fn simulate_world(
    chip: &tpu_device::Chip,
    slice: &tpu_device::Slice,
    events: &[CommEvent],
    ranks: &[RankStream],
    debug: bool,
) -> WorldTimed {
    use tpu_device::timeline::{RankItems, WorldCollective, WorldItem, build_world};
    let nproc = ranks.len();
    let mut timed = Vec::new();
    let mut collectives = Vec::new();
    for e in events {
        let kind = match &e.call {
            Some(call) => call.kind(),
            None => tpu_device::collective::CollectiveKind::SendRecv,
        };
        let member_chips: Vec<usize> = e.members.iter().map(|&r| ranks[r].chip).collect();
        // A collective that never ran (a member never came, or the members
        // disagreed) moved nothing: no schedule, no link traffic.
        let simulation = e
            .complete
            .then(|| {
                tpu_device::collective::simulate_group(
                    chip,
                    slice,
                    kind,
                    &member_chips,
                    e.bytes as f64,
                )
                .ok()
            })
            .flatten();
        let duration_us = simulation.as_ref().map_or(0.0, |s| s.simulated_us);
        let mut members = e.members.clone();
        let mut name = format!("{} {}", e.name, bytes_text(e.bytes));
        if !e.complete && e.lines.iter().all(Option::is_some) {
            // Named for what the ranks disagree on, not for the first call.
            name = format!("mismatched collective #{}", e.seq.unwrap_or(0));
            // Every member arrived but they disagree (a mismatch): the
            // collective never ran, so a member that never arrives (a rank
            // past the last) keeps it waiting on the timeline too.
            members.push(nproc);
        }
        collectives.push(WorldCollective {
            members,
            duration_us,
            name,
        });
        timed.push(Timed {
            duration_us,
            traffic: simulation
                .as_ref()
                .map(|s| s.link_traffic(slice))
                .unwrap_or_default(),
            simulation,
            ..Timed::default()
        });
    }
    let rank_items: Vec<RankItems> = ranks
        .iter()
        .enumerate()
        .map(|(rank, stream)| RankItems {
            chip: stream.chip,
            items: stream
                .items
                .iter()
                .filter_map(|item| match item {
                    StreamItem::Device(i) => Some(WorldItem::Local(i.clone())),
                    StreamItem::Start(id) => Some(WorldItem::AsyncCollective { id: *id }),
                    // A sender's message is buffered: it does not wait.
                    StreamItem::Wait(id)
                        if events[*id].call.is_none() && events[*id].members[0] == rank =>
                    {
                        None
                    }
                    StreamItem::Wait(id) => Some(WorldItem::Wait { id: *id }),
                })
                .collect(),
        })
        .collect();
    let world = build_world(chip, &rank_items, &collectives, debug);
    let mut rank_wait_us = vec![0.0; nproc];
    for (t, timing) in timed.iter_mut().zip(&world.collectives) {
        t.start_us = timing.start_us;
        t.arrivals = timing.arrivals.clone();
        t.waits = timing
            .arrivals
            .iter()
            .map(|a| match (a, timing.start_us) {
                (Some(a), Some(s)) => (s - a).max(0.0),
                _ => 0.0,
            })
            .collect();
    }
    for (e, t) in events.iter().zip(&timed) {
        for (i, &r) in e.members.iter().enumerate() {
            rank_wait_us[r] += t.waits.get(i).copied().unwrap_or(0.0);
        }
    }
    WorldTimed {
        timeline: world.timeline,
        collectives: timed,
        rank_end_us: world.rank_end_us,
        rank_wait_us,
    }
}
