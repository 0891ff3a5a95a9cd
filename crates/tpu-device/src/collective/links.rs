//! The simulation itself: every directed link's bytes, step by step. Ring
//! collectives run their parts side by side, each at its own pace; all-to-all
//! and send/recv are one step over every link at once.

use super::{AxisTraffic, Collective, Phase, Simulation, Step, ring_step_bytes};
use crate::slice::Slice;

pub(super) struct Links<'s> {
    slice: &'s Slice,
    bandwidth: f64,
    hop: f64,
    loads: Vec<f64>,
    totals: Vec<f64>,
    steps: Vec<Step>,
    now: f64,
    latency_time: f64,
    bandwidth_time: f64,
    work: u64,
}

impl<'s> Links<'s> {
    pub(super) fn new(slice: &'s Slice, bandwidth: f64, hop: f64) -> Self {
        let links = slice.chips() * slice.axes() * 2;
        Links {
            slice,
            bandwidth,
            hop,
            loads: vec![0.0; links],
            totals: vec![0.0; links],
            steps: Vec::new(),
            now: 0.0,
            latency_time: 0.0,
            bandwidth_time: 0.0,
            work: 0,
        }
    }

    fn index(&self, chip: usize, axis: usize, direction: usize) -> usize {
        self.slice.link_slot(chip, axis) * 2 + direction
    }

    /// Adds step `s` of `phase` to the current step's loads.
    fn add_phase_step(&mut self, phase: &Phase, s: usize) {
        let a = phase.axis;
        let (n, wrap) = (self.slice.dims[a], self.slice.wrap[a]);
        let s = if phase.reverse {
            phase.steps + 1 - s
        } else {
            s
        };
        let stride = self.slice.stride(a);
        for c in 0..self.slice.chips() {
            let i = (c / stride) % n;
            if !(wrap || i + 1 < n) {
                continue;
            }
            let (f, b) = ring_step_bytes(n, wrap, i, s, phase.chunk);
            let at = self.index(c, a, 0);
            self.loads[at] += f;
            self.loads[at + 1] += b;
            self.work += 1;
        }
    }

    /// Runs the parts side by side, each at its own pace: a part's step ends
    /// when its bytes have crossed (parts on the same axis share its links'
    /// bandwidth equally) and at least one hop latency after it began.
    pub(super) fn run_parts(&mut self, parts: &[Vec<Phase>]) {
        struct Cursor {
            phase: usize,
            step: usize,
            start: f64,
            remaining: f64,
        }
        let step_bytes = |phase: &Phase, s: usize| {
            let (n, wrap) = (self.slice.dims[phase.axis], self.slice.wrap[phase.axis]);
            let s = if phase.reverse {
                phase.steps + 1 - s
            } else {
                s
            };
            // The busiest link's bytes in this step (links further along a
            // line may carry less).
            (0..n.saturating_sub(usize::from(!wrap)))
                .map(|i| {
                    let (f, b) = ring_step_bytes(n, wrap, i, s, phase.chunk);
                    f.max(b)
                })
                .fold(0.0, f64::max)
        };
        let mut cursors: Vec<Option<Cursor>> = parts
            .iter()
            .map(|phases| {
                phases.first().map(|p| Cursor {
                    phase: 0,
                    step: 1,
                    start: 0.0,
                    remaining: step_bytes(p, 1),
                })
            })
            .collect();
        // Per part: steps times the hop latency, and bytes over bandwidth.
        let mut latency_only = vec![0.0f64; parts.len()];
        let mut transfer_only = vec![0.0f64; parts.len()];
        let mut now = 0.0f64;
        loop {
            let mut sharing = vec![0usize; self.slice.axes()];
            for (p, c) in cursors.iter().enumerate() {
                if let Some(c) = c.as_ref().filter(|c| c.remaining > 0.0) {
                    sharing[parts[p][c.phase].axis] += 1;
                }
            }
            let rate = |p: usize, c: &Cursor| {
                self.bandwidth / sharing[parts[p][c.phase].axis].max(1) as f64
            };
            let end =
                |p: usize, c: &Cursor| (c.start + self.hop).max(now + c.remaining / rate(p, c));
            let Some(next) = cursors
                .iter()
                .enumerate()
                .filter_map(|(p, c)| c.as_ref().map(|c| end(p, c)))
                .reduce(f64::min)
            else {
                break;
            };
            let dt = next - now;
            let mut done = Vec::new();
            for (p, slot) in cursors.iter_mut().enumerate() {
                let Some(c) = slot.as_mut() else { continue };
                let finished = end(p, c) <= next;
                c.remaining = (c.remaining - rate(p, c) * dt).max(0.0);
                if finished {
                    done.push(p);
                }
            }
            now = next;
            for p in done {
                let c = cursors[p].take().expect("a finished part had a step");
                let phase = parts[p][c.phase];
                self.add_phase_step(&phase, c.step);
                latency_only[p] += self.hop;
                transfer_only[p] += step_bytes(&phase, c.step) / self.bandwidth;
                self.collect(c.start, now - c.start);
                let (k, s) = if c.step == phase.steps {
                    (c.phase + 1, 1)
                } else {
                    (c.phase, c.step + 1)
                };
                cursors[p] = parts[p].get(k).map(|next_phase| Cursor {
                    phase: k,
                    step: s,
                    start: now,
                    remaining: step_bytes(next_phase, s),
                });
            }
        }
        self.now = now;
        self.latency_time = latency_only.iter().copied().fold(0.0, f64::max);
        self.bandwidth_time = transfer_only.iter().copied().fold(0.0, f64::max);
    }

    /// All-to-all with messages of `message` bytes between every pair of a
    /// group, routed along `axes` in order (one step).
    pub(super) fn all_to_all(&mut self, axes: &[usize], message: f64) {
        let group: usize = axes.iter().map(|&a| self.slice.dims[a]).product();
        let mut hops = 0;
        for &a in axes {
            let (n, wrap) = (self.slice.dims[a], self.slice.wrap[a]);
            if n < 2 {
                continue;
            }
            // Pairs of coordinates whose route crosses link i each way.
            let mut cross = vec![[0.0f64; 2]; n];
            let mut longest = 0;
            for src in 0..n {
                for dst in 0..n {
                    if src == dst {
                        continue;
                    }
                    let (fwd, bwd) = if wrap {
                        let d = (dst + n - src) % n;
                        match d.cmp(&(n - d)) {
                            std::cmp::Ordering::Less => (1.0, 0.0),
                            std::cmp::Ordering::Greater => (0.0, 1.0),
                            std::cmp::Ordering::Equal => (0.5, 0.5),
                        }
                    } else if dst > src {
                        (1.0, 0.0)
                    } else {
                        (0.0, 1.0)
                    };
                    let (d_fwd, d_bwd) = if wrap {
                        ((dst + n - src) % n, (src + n - dst) % n)
                    } else {
                        (dst.saturating_sub(src), src.saturating_sub(dst))
                    };
                    if fwd > 0.0 {
                        for h in 0..d_fwd {
                            cross[(src + h) % n][0] += fwd;
                        }
                        longest = longest.max(d_fwd);
                    }
                    if bwd > 0.0 {
                        for h in 0..d_bwd {
                            // Link i joins i and i + 1; going back from src
                            // crosses link src - 1 - h.
                            cross[(src + n - 1 - h) % n][1] += bwd;
                        }
                        longest = longest.max(d_bwd);
                    }
                }
            }
            hops += longest;
            // Every choice of the other group axes' coordinates routes
            // through this ring once per pair.
            let per_pair = message * (group / n) as f64;
            let stride = self.slice.stride(a);
            for c in 0..self.slice.chips() {
                let i = (c / stride) % n;
                if !(wrap || i + 1 < n) {
                    continue;
                }
                let at = self.index(c, a, 0);
                self.loads[at] += cross[i][0] * per_pair;
                self.loads[at + 1] += cross[i][1] * per_pair;
                self.work += 1;
            }
        }
        self.end_step(hops.max(1));
    }

    /// Every chip sends `shard` bytes to its next neighbour along `axis`
    /// (the last one to the first: round the ring, or back along the line).
    pub(super) fn shift(&mut self, axis: usize, shard: f64) {
        let (n, wrap) = (self.slice.dims[axis], self.slice.wrap[axis]);
        if n < 2 {
            return;
        }
        let stride = self.slice.stride(axis);
        for c in 0..self.slice.chips() {
            let i = (c / stride) % n;
            if !(wrap || i + 1 < n) {
                continue;
            }
            let at = self.index(c, axis, 0);
            self.loads[at] += shard;
            if !wrap {
                self.loads[at + 1] += shard;
            }
            self.work += 1;
        }
        self.end_step(if wrap { 1 } else { n - 1 });
    }

    /// Closes a step of every link at once whose longest route is `hops`
    /// hops: it lasts as long as its busiest link needs, and at least the
    /// route's latency.
    fn end_step(&mut self, hops: usize) {
        let busiest = self.loads.iter().copied().fold(0.0, f64::max);
        let latency = hops as f64 * self.hop;
        let transfer = busiest / self.bandwidth;
        let duration = latency.max(transfer);
        self.latency_time += latency;
        self.bandwidth_time += transfer;
        self.collect(self.now, duration);
        self.now += duration;
    }

    /// Moves the current loads into the totals and the schedule, as a step
    /// from `start` lasting `duration` (seconds).
    fn collect(&mut self, start: f64, duration: f64) {
        let traffic = axis_traffic(self.slice.axes(), &self.loads);
        for (k, load) in self.loads.iter_mut().enumerate() {
            self.totals[k] += *load;
            *load = 0.0;
        }
        self.work += self.loads.len() as u64;
        self.steps.push(Step {
            start_us: start * 1e6,
            duration_us: duration * 1e6,
            axes: traffic,
        });
    }

    pub(super) fn finish(
        self,
        c: &Collective,
        group: usize,
        formula_us: Option<f64>,
    ) -> Simulation {
        Simulation {
            kind: c.kind,
            axes: c.axes.clone(),
            bytes: c.bytes,
            group_chips: group,
            groups: self.slice.chips() / group,
            simulated_us: self.now * 1e6,
            latency_bound: self.latency_time > self.bandwidth_time,
            max_link_bytes: self.totals.iter().copied().fold(0.0, f64::max),
            total_link_bytes: self.totals.iter().sum(),
            steps: self.steps,
            formula_us,
            work: self.work,
            link_bytes: self.totals,
        }
    }
}

/// What each axis's links carried in one step whose bytes per directed link
/// are `loads` (indexed like `Simulation::link_bytes`): the busiest link each
/// way and how many links were busy; axes that carried nothing are left out.
pub(super) fn axis_traffic(axes: usize, loads: &[f64]) -> Vec<AxisTraffic> {
    let mut traffic: Vec<AxisTraffic> = (0..axes)
        .map(|axis| AxisTraffic {
            axis,
            forward_bytes: 0.0,
            backward_bytes: 0.0,
            busy_links: 0,
        })
        .collect();
    for (k, &load) in loads.iter().enumerate() {
        if load > 0.0 {
            let t = &mut traffic[(k / 2) % axes];
            if k % 2 == 0 {
                t.forward_bytes = t.forward_bytes.max(load);
            } else {
                t.backward_bytes = t.backward_bytes.max(load);
            }
            t.busy_links += 1;
        }
    }
    traffic.retain(|t| t.busy_links > 0);
    traffic
}
