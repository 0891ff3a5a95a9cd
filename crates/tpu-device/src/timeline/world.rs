//! The timeline of a world: several ranks, each on its own chip (a
//! `torch.distributed` process per chip of a slice), running their own items
//! and meeting in collectives.
//!
//! Each rank's items are laid out as `build` lays out one chip's, on the
//! rank's five lanes. A collective starts when every member has arrived (its
//! device stream has reached the collective, after the kernels before it, and
//! its host has dispatched it) and every member's ICI lane is free (a chip
//! runs its collectives one at a time, as a communication stream does). It
//! then takes the ICI lane of every member for its duration. A blocking
//! collective holds its rank's device stream until it ends; an asynchronous
//! one does not (DDP's bucket all-reduces overlapping the rest of backward),
//! and a later `Wait` holds the stream until it ends. The host dispatches on
//! regardless: only a sync (a value read) makes it wait.
//!
//! The time an early member spends waiting for the others shows on its ICI
//! lane as "wait for <name>" (from its arrival, or from when its ICI lane
//! came free if that is later). A collective some member never reaches (a
//! deadlocked run) has no start: each member that did arrive shows "waits
//! forever: <name>" from its arrival to the end of the timeline, and its
//! rank's later items never run.
//!
//! Ranks advance with cursors: each runs until it blocks on a collective not
//! yet resolved; then every collective whose members have all arrived is
//! resolved, in the order of `collectives`; and again, until nothing moves.

use super::{Clock, ICI, Item, LANES, Timeline, chip_lanes, push, run_item};
use crate::chip::Chip;
use serde::{Deserialize, Serialize};

/// What a rank's timeline is built from, in program order.
#[derive(Clone, Debug, PartialEq)]
pub enum WorldItem {
    /// A kernel, a sync or a simulated collective on this chip alone.
    Local(Item),
    /// A blocking collective: `collectives[id]`.
    Collective { id: usize },
    /// A collective issued without blocking (`async_op=True`, DDP's buckets).
    AsyncCollective { id: usize },
    /// The device stream waits until the asynchronous collective `id` ends.
    Wait { id: usize },
}

impl From<Item> for WorldItem {
    fn from(item: Item) -> Self {
        WorldItem::Local(item)
    }
}

/// One rank: the chip it runs on (an index of the slice) and its items.
#[derive(Clone, Debug, PartialEq)]
pub struct RankItems {
    pub chip: usize,
    pub items: Vec<WorldItem>,
}

/// A collective of the world, as the ranks' items refer to it by index.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct WorldCollective {
    /// The member ranks.
    pub members: Vec<usize>,
    /// Its simulated duration once it starts (from `simulate_group`).
    pub duration_us: f64,
    /// How its lanes name it ("all-reduce 4 MB").
    pub name: String,
}

/// When a collective ran. `None` where it never did: a member that never
/// arrived, and the start and end of a collective that one never reached.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct CollectiveTiming {
    pub start_us: Option<f64>,
    /// Each member's arrival, in the order of `WorldCollective::members`.
    pub arrivals: Vec<Option<f64>>,
    pub end_us: Option<f64>,
}

/// A world's timeline: every rank's lanes (five per rank, in rank order),
/// when each collective ran, and when each rank finished (or stopped, if it
/// waits forever).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct WorldTimeline {
    pub timeline: Timeline,
    pub collectives: Vec<CollectiveTiming>,
    pub rank_end_us: Vec<f64>,
}

/// The timeline of `ranks` running on `chip`s of one generation and meeting
/// in `collectives`; `wait_each` makes every host wait for every kernel
/// (Debug mode).
///
/// # Panics
///
/// If an item names a collective out of range, or one its rank is not a
/// member of (the caller's bookkeeping is wrong, not the program).
pub fn build_world(
    chip: &Chip,
    ranks: &[RankItems],
    collectives: &[WorldCollective],
    wait_each: bool,
) -> WorldTimeline {
    let mut lanes: Vec<_> = ranks
        .iter()
        .enumerate()
        .flat_map(|(r, rank)| chip_lanes(Some(rank.chip), rank.chip, Some(r)))
        .collect();
    let mut clocks = vec![Clock::default(); ranks.len()];
    let mut cursors = vec![0usize; ranks.len()];
    let mut timings: Vec<CollectiveTiming> = collectives
        .iter()
        .map(|c| CollectiveTiming {
            start_us: None,
            arrivals: vec![None; c.members.len()],
            end_us: None,
        })
        .collect();
    loop {
        let mut moved = false;
        for (r, rank) in ranks.iter().enumerate() {
            let lanes = &mut lanes[r * LANES..(r + 1) * LANES];
            let clock = &mut clocks[r];
            while let Some(item) = rank.items.get(cursors[r]) {
                let blocking_on = match item {
                    WorldItem::Local(item) => {
                        run_item(chip, item, lanes, clock, wait_each);
                        None
                    }
                    WorldItem::Collective { id } | WorldItem::AsyncCollective { id } => {
                        let member = collectives[*id]
                            .members
                            .iter()
                            .position(|&m| m == r)
                            .unwrap_or_else(|| {
                                panic!("rank {r} is not a member of collective {id}")
                            });
                        let arrival = &mut timings[*id].arrivals[member];
                        if arrival.is_none() {
                            *arrival = Some(clock.host.max(clock.device));
                            moved = true;
                        }
                        matches!(item, WorldItem::Collective { .. }).then_some(*id)
                    }
                    WorldItem::Wait { id } => Some(*id),
                };
                if let Some(id) = blocking_on {
                    let Some(end) = timings[id].end_us else { break };
                    clock.device = clock.device.max(end);
                }
                cursors[r] += 1;
                moved = true;
            }
        }
        for (id, c) in collectives.iter().enumerate() {
            let timing = &mut timings[id];
            if timing.start_us.is_some() {
                continue;
            }
            let Some(arrivals) = timing.arrivals.iter().copied().collect::<Option<Vec<_>>>() else {
                continue;
            };
            // Where each member's ICI lane is free for it.
            let ready: Vec<f64> = c
                .members
                .iter()
                .zip(&arrivals)
                .map(|(&m, &a)| a.max(clocks[m].ici))
                .collect();
            let start = ready.iter().copied().fold(0.0, f64::max);
            let end = start + c.duration_us;
            for (&m, &from) in c.members.iter().zip(&ready) {
                let lane = &mut lanes[m * LANES + ICI];
                if start > from {
                    push(lane, &format!("wait for {}", c.name), from, start - from);
                }
                push(lane, &c.name, start, c.duration_us);
                clocks[m].ici = end;
            }
            timing.start_us = Some(start);
            timing.end_us = Some(end);
            moved = true;
        }
        if !moved {
            break;
        }
    }
    let rank_end_us: Vec<f64> = clocks
        .iter()
        .map(|c| c.host.max(c.device).max(c.ici))
        .collect();
    let total_us = rank_end_us.iter().copied().fold(0.0, f64::max);
    for (c, timing) in collectives.iter().zip(&timings) {
        if timing.start_us.is_some() {
            continue;
        }
        for (&m, arrival) in c.members.iter().zip(&timing.arrivals) {
            if let Some(a) = arrival {
                let from = a.max(clocks[m].ici);
                let lane = &mut lanes[m * LANES + ICI];
                push(
                    lane,
                    &format!("waits forever: {}", c.name),
                    from,
                    total_us - from,
                );
            }
        }
    }
    WorldTimeline {
        timeline: Timeline { lanes, total_us },
        collectives: timings,
        rank_end_us,
    }
}

#[cfg(test)]
mod tests {
    use super::super::{TENSOR_CORE, build, chrome_trace};
    use super::*;
    use crate::chip::preset;
    use crate::collective::{CollectiveKind, simulate_group};
    use crate::cost::{Cost, Work, kernel_cost};
    use crate::slice::Slice;

    /// A matmul long enough that the host, dispatching, runs ahead of it.
    fn matmul(chip: &Chip) -> Cost {
        let cost = kernel_cost(
            chip,
            &Work {
                matmul: Some([1, 2048, 2048, 2048]),
                hbm_bytes: 3.0 * 2048.0 * 2048.0 * 4.0,
                ..Work::default()
            },
        );
        assert!(cost.simulated_us > 2.0 * cost.launch_us);
        cost
    }

    fn kernels(cost: &Cost, n: usize) -> Vec<WorldItem> {
        (0..n)
            .map(|i| {
                WorldItem::Local(Item::Launch {
                    name: format!("mm{i}"),
                    cost: cost.clone(),
                })
            })
            .collect()
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
    }

    /// An all-reduce of `bytes` over chips 0 and 1 of a v5e 2x2, as the
    /// runtime would time it.
    fn all_reduce(bytes: f64) -> WorldCollective {
        let chip = preset("v5e").unwrap();
        let slice = Slice::new(&chip, "2x2").unwrap();
        let sim = simulate_group(&chip, &slice, CollectiveKind::AllReduce, &[0, 1], bytes);
        WorldCollective {
            members: vec![0, 1],
            duration_us: sim.unwrap().simulated_us,
            name: "all-reduce".into(),
        }
    }

    fn events(w: &WorldTimeline, rank: usize, lane: usize) -> &[super::super::Event] {
        &w.timeline.lanes[rank * LANES + lane].events
    }

    fn end(e: &super::super::Event) -> f64 {
        e.start_us + e.duration_us
    }

    #[test]
    fn the_early_rank_waits_for_the_kernels_the_late_one_still_runs() {
        let chip = preset("v5e").unwrap();
        let mm = matmul(&chip);
        let rank = |chip_index: usize, before: usize| {
            let mut items = kernels(&mm, before);
            items.push(WorldItem::Collective { id: 0 });
            items.extend(kernels(&mm, 1));
            RankItems {
                chip: chip_index,
                items,
            }
        };
        let ranks = [rank(0, 2), rank(1, 4)];
        let c = all_reduce(1e8);
        let w = build_world(&chip, &ranks, std::slice::from_ref(&c), false);
        // The host runs ahead, so each kernel follows the one before on the
        // device: rank 1 arrives two kernel bodies later.
        let body = mm.simulated_us - mm.launch_us;
        let t = &w.collectives[0];
        let [a0, a1] = [t.arrivals[0].unwrap(), t.arrivals[1].unwrap()];
        assert!(close(a0, mm.launch_us + 2.0 * body));
        assert!(close(a1 - a0, 2.0 * body));
        // Arrival is where a single chip running the same kernels would be.
        let alone: Vec<Item> = (0..4)
            .map(|i| Item::Launch {
                name: format!("mm{i}"),
                cost: mm.clone(),
            })
            .collect();
        assert!(close(a1, build(&chip, &alone, false).total_us));
        assert_eq!(t.start_us, Some(a1));
        assert!(close(t.end_us.unwrap(), a1 + c.duration_us));
        // Rank 0's ICI lane: the wait, then the all-reduce on both chips.
        let ici0 = events(&w, 0, ICI);
        assert_eq!(ici0[0].name, "wait for all-reduce");
        assert!(close(ici0[0].start_us, a0) && close(ici0[0].duration_us, a1 - a0));
        assert_eq!(ici0[1].start_us, a1);
        assert_eq!(events(&w, 1, ICI).len(), 1);
        // Both ranks' next kernel starts when the all-reduce ends.
        for r in 0..2 {
            let last = events(&w, r, TENSOR_CORE).last().unwrap();
            assert_eq!(last.start_us, t.end_us.unwrap());
            assert!(close(w.rank_end_us[r], end(last)));
        }
        assert_eq!(w.timeline.total_us, w.rank_end_us[0].max(w.rank_end_us[1]));
    }

    #[test]
    fn an_async_collective_overlaps_the_kernels_after_it_until_the_wait() {
        let chip = preset("v5e").unwrap();
        let mm = matmul(&chip);
        let body = mm.simulated_us - mm.launch_us;
        // Long enough to outlast the three kernels issued after it.
        let mut c = all_reduce(1e9);
        assert!(c.duration_us > 4.0 * body);
        c.name = "bucket 0".into();
        let rank = |chip_index: usize, before: usize| {
            let mut items = kernels(&mm, before);
            items.push(WorldItem::AsyncCollective { id: 0 });
            items.extend(kernels(&mm, 3));
            items.push(WorldItem::Wait { id: 0 });
            items.extend(kernels(&mm, 1));
            RankItems {
                chip: chip_index,
                items,
            }
        };
        // Rank 1 issues its bucket one kernel later.
        let ranks = [rank(0, 1), rank(1, 2)];
        let w = build_world(&chip, &ranks, std::slice::from_ref(&c), false);
        let t = &w.collectives[0];
        let (start, finish) = (t.start_us.unwrap(), t.end_us.unwrap());
        assert!(close(start, t.arrivals[1].unwrap()));
        assert!(close(start - t.arrivals[0].unwrap(), body));
        for r in 0..2 {
            let tc = events(&w, r, TENSOR_CORE);
            // The kernels after the issue ran while the all-reduce did.
            let after = &tc[tc.len() - 4..tc.len() - 1];
            assert!(after.iter().all(|k| k.start_us < finish));
            assert!(close(after[0].start_us, t.arrivals[r].unwrap()));
            // The kernel after the wait starts when the all-reduce ends.
            assert_eq!(tc.last().unwrap().start_us, finish);
        }
        // Rank 0's ICI lane waited for rank 1 while its TensorCore worked.
        let ici0 = events(&w, 0, ICI);
        assert_eq!(ici0[0].name, "wait for bucket 0");
        assert!(close(end(&ici0[0]), start));
    }

    #[test]
    fn collectives_on_a_chip_take_its_ici_lane_one_at_a_time() {
        let chip = preset("v5e").unwrap();
        let mm = matmul(&chip);
        let c = all_reduce(1e9);
        let rank = |chip_index| RankItems {
            chip: chip_index,
            items: vec![
                WorldItem::AsyncCollective { id: 0 },
                WorldItem::AsyncCollective { id: 1 },
                kernels(&mm, 1).remove(0),
                WorldItem::Wait { id: 1 },
            ],
        };
        let w = build_world(&chip, &[rank(0), rank(1)], &[c.clone(), c.clone()], false);
        let [first, second] = [&w.collectives[0], &w.collectives[1]];
        assert_eq!(first.start_us, Some(0.0));
        assert_eq!(second.start_us, first.end_us);
        assert!(close(w.timeline.total_us, 2.0 * c.duration_us));
    }

    #[test]
    fn a_collective_one_rank_never_reaches_waits_forever() {
        let chip = preset("v5e").unwrap();
        let mm = matmul(&chip);
        let mut stuck = kernels(&mm, 1);
        stuck.push(WorldItem::Collective { id: 0 });
        stuck.extend(kernels(&mm, 1));
        let ranks = [
            RankItems {
                chip: 0,
                items: stuck,
            },
            RankItems {
                chip: 1,
                items: kernels(&mm, 3),
            },
        ];
        let w = build_world(&chip, &ranks, &[all_reduce(1e6)], false);
        let t = &w.collectives[0];
        assert_eq!((t.start_us, t.end_us), (None, None));
        let a0 = t.arrivals[0].unwrap();
        assert_eq!(t.arrivals[1], None);
        // Rank 0 never runs its last kernel, and stops where it arrived.
        assert_eq!(events(&w, 0, TENSOR_CORE).len(), 1);
        assert_eq!(w.rank_end_us[0], a0);
        let forever = events(&w, 0, ICI).last().unwrap();
        assert_eq!(forever.name, "waits forever: all-reduce");
        assert_eq!(forever.start_us, a0);
        assert!(close(end(forever), w.timeline.total_us));
        assert_eq!(w.timeline.total_us, w.rank_end_us[1]);
        assert!(events(&w, 1, ICI).is_empty());

        // Two ranks calling two collectives in opposite orders: neither runs.
        let a = |first, second| RankItems {
            chip: first,
            items: vec![
                WorldItem::Collective { id: first },
                WorldItem::Collective { id: second },
            ],
        };
        let w = build_world(
            &chip,
            &[a(0, 1), a(1, 0)],
            &[all_reduce(1e6), all_reduce(1e6)],
            false,
        );
        assert_eq!(w.collectives[0].arrivals, [Some(0.0), None]);
        assert_eq!(w.collectives[1].arrivals, [None, Some(0.0)]);
        assert!(w.collectives.iter().all(|c| c.start_us.is_none()));
    }

    #[test]
    fn one_rank_alone_is_the_single_chip_timeline_on_its_chip() {
        let chip = preset("v5p").unwrap();
        let mm = matmul(&chip);
        let mut items: Vec<Item> = Vec::new();
        for i in 0..6 {
            items.push(Item::Launch {
                name: format!("k{i}"),
                cost: mm.clone(),
            });
            if i % 2 == 1 {
                items.push(Item::Sync {
                    reason: "item()".into(),
                    bytes: 1e6,
                });
            }
        }
        items.push(Item::Collective {
            name: "simulated".into(),
            duration_us: 30.0,
        });
        for wait_each in [false, true] {
            let single = build(&chip, &items, wait_each);
            let rank = RankItems {
                chip: 3,
                items: items.iter().cloned().map(WorldItem::from).collect(),
            };
            let world = build_world(&chip, &[rank], &[], wait_each);
            assert_eq!(world.timeline.total_us, single.total_us);
            for (w, s) in world.timeline.lanes.iter().zip(&single.lanes) {
                assert_eq!((&w.name, &w.events), (&s.name, &s.events));
                assert_eq!((w.chip, w.rank), (Some(3), Some(0)));
                assert_eq!(s.rank, None);
            }
        }
    }

    #[test]
    fn the_chrome_trace_has_one_process_per_chip_with_its_ranks_host() {
        let chip = preset("v5e").unwrap();
        let mm = matmul(&chip);
        let rank = |chip_index: usize, before: usize| {
            let mut items = kernels(&mm, before);
            items.push(WorldItem::AsyncCollective { id: 0 });
            items.extend(kernels(&mm, 2));
            items.push(WorldItem::Wait { id: 0 });
            RankItems {
                chip: chip_index,
                items,
            }
        };
        let ranks = [rank(0, 1), rank(1, 3), rank(3, 2)];
        let mut c = all_reduce(1e8);
        c.members = vec![0, 1, 2];
        let w = build_world(&chip, &ranks, &[c], false);
        let trace = chrome_trace(&w.timeline, "TPU v5e");
        let processes: Vec<(usize, String)> = trace
            .trace_events
            .iter()
            .filter(|e| e.name == "process_name")
            .map(|e| (e.pid, e.args.as_ref().unwrap().name.clone()))
            .collect();
        let names = [
            "chip 0 (TPU v5e, rank 0, simulated)",
            "chip 1 (TPU v5e, rank 1, simulated)",
            "chip 3 (TPU v5e, rank 2, simulated)",
        ];
        let want: Vec<(usize, String)> =
            [1, 2, 4].into_iter().zip(names.map(String::from)).collect();
        assert_eq!(processes, want);
        // Every rank's host lane is a thread of its chip's process, and
        // no lane's events overlap.
        let mut by_thread: std::collections::BTreeMap<(usize, usize), Vec<(f64, f64)>> =
            Default::default();
        for e in &trace.trace_events {
            if e.name == "thread_name" && e.args.as_ref().unwrap().name == "host dispatch" {
                assert!(want.iter().any(|(pid, _)| *pid == e.pid));
            }
            if e.ph == "X" {
                let ts = e.ts.unwrap();
                by_thread
                    .entry((e.pid, e.tid))
                    .or_default()
                    .push((ts, ts + e.dur.unwrap()));
            }
        }
        for (lane, spans) in by_thread {
            for pair in spans.windows(2) {
                assert!(pair[1].0 >= pair[0].1 - 1e-9, "{lane:?}: {pair:?}");
            }
        }
    }
}
