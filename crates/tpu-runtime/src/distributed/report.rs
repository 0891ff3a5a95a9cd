//! The Report of a multi-rank run: every rank's own Report merged into one
//! (ops, kernels and syncs tagged with their rank; output prefixed `[rankK]:`
//! and grouped by rank, as torchrun's log lines are), plus the world's part:
//! each rank's chip and outcome, every collective with each member's line and
//! simulated arrival, and the deadlock, if the run ended in one. The
//! simulated timeline has one group of lanes per chip, with collectives
//! starting when their last member arrives (`tpu_device::timeline::world`).

use super::{CommEvent, World};
use crate::report::{Diagnostic, Report};
use crate::runtime::CommItem;
use serde::{Deserialize, Serialize};

/// What is particular to a run of several ranks.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct WorldReport {
    pub nproc: usize,
    pub ranks: Vec<RankReport>,
    /// Every collective and message, in the order their first member
    /// started them.
    pub collectives: Vec<DistCollective>,
    /// Set when the run stopped because no rank could proceed.
    pub deadlock: Option<DeadlockReport>,
    /// The DeviceMeshes the program made (rank 0's; every rank makes the
    /// same), and the DTensors each rank held when it ended.
    #[serde(default)]
    pub meshes: Vec<super::MeshReport>,
    #[serde(default)]
    pub dtensors: Vec<super::ShardedTensor>,
    /// What each rank's chip held at each phase of an FSDP run, rank by
    /// rank in the order they happened; `memory_dropped` points past each
    /// rank's first `MAX_MEMORY_POINTS` were not kept.
    #[serde(default)]
    pub memory: Vec<super::MemoryPoint>,
    #[serde(default)]
    pub memory_dropped: usize,
}

/// One rank: its chip and what its program did.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RankReport {
    pub rank: usize,
    /// Its chip: an index into the slice layout's chips.
    pub chip: usize,
    /// What the rank printed, without prefixes.
    pub stdout: String,
    /// The error that ended this rank, if one did.
    pub diagnostics: Vec<Diagnostic>,
    /// Ops it dispatched and kernels it launched.
    pub ops: usize,
    pub kernels: usize,
    /// When its chip's part of the simulated timeline ends, microseconds.
    pub simulated_us: f64,
    /// Simulated microseconds it spent waiting for other ranks at collectives.
    pub wait_us: f64,
}

/// A collective of a group, or a message between two ranks.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct DistCollective {
    /// The function as the program called it: `all_reduce`, `send/recv`.
    pub name: String,
    /// 0 for the default group, then `new_group`'s in creation order.
    pub group: usize,
    /// The members' ranks in group order (sender first for a message).
    pub ranks: Vec<usize>,
    /// The collective's sequence number in its group (none for messages).
    pub seq: Option<u64>,
    pub dtype: String,
    pub shape: Vec<usize>,
    pub bytes: usize,
    pub reduce_op: Option<String>,
    /// What made it, when the program did not call it itself (`DDP bucket 0`).
    pub cause: Option<String>,
    /// Whether it ran: every member arrived and they agreed (false in a
    /// deadlocked run).
    pub complete: bool,
    /// Why it never ran though every member arrived: what the ranks
    /// disagreed on.
    pub mismatch: Option<String>,
    pub arrivals: Vec<CommArrival>,
    /// When it started on the simulated timeline (its last member's
    /// arrival), and how long it took there (simulated, not measured).
    pub start_us: Option<f64>,
    pub simulated_us: f64,
    /// The link-by-link schedule on the ranks' chips.
    pub simulation: Option<tpu_device::collective::Simulation>,
    /// What each of the slice layout's links carried, in that order.
    pub traffic: Vec<tpu_device::collective::LinkTraffic>,
}

/// One member's part in a collective.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct CommArrival {
    pub rank: usize,
    /// Its source line; none if it never called it.
    pub line: Option<u32>,
    pub arrived: bool,
    /// What it called, with the group, sequence number, shape, dtype and
    /// reduction (`all_reduce (default group, collective #2, shape [4],
    /// float32, SUM)`): in a mismatch the members' calls differ. None for a
    /// message, and for a member that never called it.
    pub called: Option<String>,
    /// When it arrived on the simulated timeline, and how long it waited
    /// there for the last member.
    pub arrival_us: Option<f64>,
    pub wait_us: f64,
}

/// Why no rank could go on.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct DeadlockReport {
    /// The whole diagnosis, one line per rank.
    pub message: String,
    pub ranks: Vec<RankWait>,
}

/// What one rank was doing when the run stopped.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RankWait {
    pub rank: usize,
    /// The line of the call it waits in, or where it finished.
    pub line: Option<u32>,
    /// `waits in all_reduce (default group, collective #2, shape [4], float32, SUM)`
    /// or `finished`.
    pub state: String,
    /// Why its collective cannot complete when the members disagree.
    pub mismatch: Option<String>,
}

/// `text` with every line prefixed `[rankK]:`.
pub fn prefixed(rank: usize, text: &str) -> String {
    text.lines()
        .map(|l| format!("[rank{rank}]:{l}\n"))
        .collect()
}

/// One rank's finished Report and where its communications sat.
pub struct RankRun {
    pub report: Report,
    pub comm: Vec<CommItem>,
    pub sharding: super::ShardingNotes,
}

/// Merges the ranks' Reports into the run's Report (see the module
/// documentation). `chip` and `slice` are the simulated TPU the ranks ran on.
pub fn world_report(
    world: &World,
    chip: &tpu_device::Chip,
    slice: &tpu_device::Slice,
    ranks: Vec<RankRun>,
    deadlock: Option<DeadlockReport>,
) -> Report {
    let nproc = world.nproc();
    let prefix = nproc > 1;
    let mut merged = Report::default();
    if let Some(first) = ranks.first() {
        let r = &first.report;
        merged.backend = r.backend;
        merged.backend_device = r.backend_device.clone();
        merged.backend_label = r.backend_label.clone();
        merged.backend_software = r.backend_software;
        merged.mode = r.mode;
    }
    let mut rank_reports = Vec::new();
    let mut timeline_ranks = Vec::new();
    let mut meshes = Vec::new();
    let mut dtensors = Vec::new();
    let mut memory = Vec::new();
    let mut memory_dropped = 0;
    for (rank, run) in ranks.into_iter().enumerate() {
        if rank == 0 {
            meshes = run.sharding.meshes;
            for mesh in &mut meshes {
                mesh.torus_axes = super::sharding::torus_axes(mesh, world.chips(), slice);
            }
        }
        dtensors.extend(run.sharding.tensors.into_iter().map(|mut t| {
            t.rank = rank;
            t
        }));
        memory.extend(run.sharding.memory.into_iter().map(|mut m| {
            m.rank = rank;
            m
        }));
        memory_dropped += run.sharding.memory_dropped;
        let mut r = run.report;
        if rank == 0 {
            // Rank 0's ops and kernels come first, so its compiled graphs'
            // indices hold in the merged Report (every rank compiles alike).
            merged.compiled = std::mem::take(&mut r.compiled);
        }
        let op_offset = merged.ops.len();
        rank_reports.push(RankReport {
            rank,
            chip: world.chips()[rank],
            stdout: r.stdout.clone(),
            diagnostics: r.diagnostics.clone(),
            ops: r.ops.len(),
            kernels: r.kernels.len(),
            simulated_us: 0.0,
            wait_us: 0.0,
        });
        merged.stdout.push_str(&if prefix {
            prefixed(rank, &r.stdout)
        } else {
            r.stdout.clone()
        });
        for mut d in r.diagnostics.drain(..) {
            if prefix {
                d.traceback = prefixed(rank, &d.traceback).trim_end().to_string();
            }
            merged.diagnostics.push(d);
        }
        timeline_ranks.push(super::timeline::rank_items(
            &r,
            &run.comm,
            world.chips()[rank],
        ));
        for op in &mut r.ops {
            op.rank = rank;
        }
        for k in &mut r.kernels {
            k.rank = rank;
            for i in &mut k.ops {
                *i += op_offset;
            }
        }
        for s in &mut r.syncs {
            s.rank = rank;
        }
        let kernel_offset = merged.kernels.len();
        for p in &mut r.pallas {
            p.rank = rank;
            p.op += op_offset;
            p.kernel = p.kernel.map(|k| k + kernel_offset);
        }
        merged.pallas.append(&mut r.pallas);
        if merged.first_nonfinite.is_none()
            && let Some(mut nf) = r.first_nonfinite.take()
        {
            nf.op += op_offset;
            merged.first_nonfinite = Some(nf);
        }
        merged.ops.append(&mut r.ops);
        merged.kernels.append(&mut r.kernels);
        merged.syncs.append(&mut r.syncs);
        merged.collectives.append(&mut r.collectives);
        // The ranks share one device and each counts from its own start,
        // which is before any rank's work: the largest count is the world's.
        merged.submissions = merged.submissions.max(r.submissions);
        merged.cache.hits += r.cache.hits;
        merged.cache.misses += r.cache.misses;
        merged.cache.persisted_hits += r.cache.persisted_hits;
        merged.cache.compile_ms += r.cache.compile_ms;
        merged.cache.precompiled += r.cache.precompiled;
        merged.cache.entries = merged.cache.entries.max(r.cache.entries);
        merged.cache.loaded = merged.cache.loaded.max(r.cache.loaded);
        merged.cache.corrupt += r.cache.corrupt;
    }
    if let Some(d) = &deadlock {
        // Placed at the first waiting rank's line; every rank's line is in
        // `world.deadlock`.
        let line = d.ranks.iter().find_map(|w| w.line);
        merged.diagnostics.push(Diagnostic {
            kind: "DistDeadlockError".into(),
            message: d.message.clone(),
            span: line.map(|line| crate::report::SourceSpan {
                line,
                column: 1,
                end_line: line,
                end_column: 1,
            }),
            traceback: format!("DistDeadlockError: {}", d.message),
        });
    }
    let timed = super::timeline::simulate_world(
        chip,
        slice,
        &world.events,
        &timeline_ranks,
        merged.mode == crate::fusion::EagerMode::Debug,
    );
    for (r, rank) in rank_reports.iter_mut().enumerate() {
        rank.simulated_us = timed.rank_end_us.get(r).copied().unwrap_or(0.0);
        rank.wait_us = timed.rank_wait_us.get(r).copied().unwrap_or(0.0);
    }
    let collectives = world
        .events
        .iter()
        .zip(timed.collectives)
        .map(|(e, t)| collective(e, t))
        .collect();
    merged.device = Some(crate::runtime::device_summary(
        chip,
        slice,
        &merged.kernels,
        timed.timeline.total_us,
    ));
    let mut timeline = timed.timeline;
    timeline
        .lanes
        .extend(crate::runtime::device::measured_lane(&merged.kernels));
    merged.timeline = Some(timeline);
    merged.world = Some(WorldReport {
        nproc,
        ranks: rank_reports,
        collectives,
        deadlock,
        meshes,
        dtensors,
        memory,
        memory_dropped,
    });
    merged.summary = Some(crate::report::summarize(&merged));
    merged
}

fn collective(e: &CommEvent, t: super::timeline::Timed) -> DistCollective {
    DistCollective {
        name: e.name.clone(),
        group: e.group,
        ranks: e.members.clone(),
        seq: e.seq,
        dtype: super::dtype_name(e.dtype),
        shape: e.shape.clone(),
        bytes: e.bytes,
        reduce_op: e
            .call
            .as_ref()
            .and_then(super::CollectiveCall::reduce_op)
            .map(|op| op.name().to_string()),
        cause: e.cause.clone(),
        complete: e.complete,
        mismatch: e.mismatch.clone(),
        arrivals: e
            .members
            .iter()
            .enumerate()
            .map(|(i, &rank)| CommArrival {
                rank,
                line: e.lines[i].flatten(),
                arrived: e.lines[i].is_some(),
                called: e.calls[i].clone(),
                arrival_us: t.arrivals.get(i).copied().flatten(),
                wait_us: t.waits.get(i).copied().unwrap_or(0.0),
            })
            .collect(),
        start_us: t.start_us,
        simulated_us: t.duration_us,
        simulation: t.simulation,
        traffic: t.traffic,
    }
}

/// Describes, rank by rank, why none can go on: what each waits in, with its
/// line, or where it finished.
pub fn deadlock(world: &World) -> DeadlockReport {
    let mut ranks = Vec::new();
    for rank in 0..world.nproc() {
        let wait = match world.wait_of(rank) {
            Some((what, line, mismatch)) => RankWait {
                rank,
                line,
                state: format!("waits in {what}"),
                mismatch,
            },
            None => {
                let finish = world.finished(rank);
                RankWait {
                    rank,
                    line: finish.and_then(|f| f.line),
                    state: match finish.and_then(|f| f.error.clone()) {
                        Some(e) => format!("stopped by {e}"),
                        None => "finished".into(),
                    },
                    mismatch: None,
                }
            }
        };
        ranks.push(wait);
    }
    let mut message = String::from(
        "no rank can proceed (real PyTorch would hang here until its collective timeout):",
    );
    for w in &ranks {
        let at = w.line.map_or(String::new(), |l| format!(" at line {l}"));
        message.push_str(&format!("\n  rank {}: {}{at}", w.rank, w.state));
    }
    // Members that disagree on one collective: say who called what.
    let mut disagreeing: Vec<(String, Vec<usize>)> = Vec::new();
    for w in ranks.iter().filter(|w| w.mismatch.is_some()) {
        let call = w.state.trim_start_matches("waits in ").to_string();
        match disagreeing.iter_mut().find(|(c, _)| *c == call) {
            Some((_, rs)) => rs.push(w.rank),
            None => disagreeing.push((call, vec![w.rank])),
        }
    }
    if disagreeing.len() > 1 {
        let parts: Vec<String> = disagreeing
            .iter()
            .map(|(call, rs)| {
                let who = match rs.as_slice() {
                    [r] => format!("rank {r} calls"),
                    rs => format!(
                        "ranks {} call",
                        rs.iter()
                            .map(|r| r.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                };
                format!("{who} {call}")
            })
            .collect();
        message.push_str(&format!(
            "\n  the ranks disagree on the same collective: {}",
            parts.join("; ")
        ));
    }
    DeadlockReport { message, ranks }
}
