//! The run summary: what a newcomer reads first about a run, computed here
//! from the rest of the Report so the page and the CLI only show it. How busy
//! the simulated chip was, what bounds the run (the rule is `classify`'s),
//! one plain sentence saying so, and the host fallbacks and syncs grouped (a
//! loop that falls back to the host 250 times is a few groups, not 250 lines).

use crate::fusion::EagerMode;
use crate::report::Report;
use serde::{Deserialize, Serialize};

/// The run at a glance (simulated time: the device model's, not measured).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RunSummary {
    /// When the simulated timeline ends, microseconds.
    pub simulated_us: f64,
    /// Microseconds the chip spent running kernels (launch overhead, which
    /// the host pays, not included); with several ranks, the mean over
    /// their chips.
    pub chip_busy_us: f64,
    /// `chip_busy_us` over `simulated_us`, 0 to 1.
    pub chip_busy_fraction: f64,
    /// What bounds the run (see `classify`).
    pub bound: RunBound,
    /// One plain sentence saying so, with what would help.
    pub explanation: String,
    /// `tpu` ops that ran on the host reference, grouped by op and reason.
    pub fallbacks: Vec<FallbackGroup>,
    /// Where the host waited for the device, grouped by reason.
    pub syncs: Vec<SyncGroup>,
}

/// What bounds a run.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum RunBound {
    /// The chip mostly waits: launch overhead and host syncs dominate.
    Dispatch,
    /// The kernels' arithmetic (MXU and VPU time) dominates.
    Compute,
    /// The kernels' HBM traffic dominates.
    Memory,
    /// No kernel ran on the chip.
    #[default]
    Idle,
}

/// Host fallbacks of one op for one reason.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct FallbackGroup {
    /// The aten-style name, e.g. `aten::ne`.
    pub op: String,
    pub reason: String,
    pub count: usize,
    /// The source lines that dispatched them, ascending, each once.
    pub lines: Vec<u32>,
}

/// Syncs for one reason.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SyncGroup {
    pub reason: String,
    pub count: usize,
    /// The source lines where the host waited, ascending, each once.
    pub lines: Vec<u32>,
}

/// Below this fraction of the timeline busy, a run is dispatch-bound: the
/// chip waits more than it works, whatever its kernels are like.
pub const DISPATCH_BOUND_BELOW: f64 = 0.5;

/// The rule: no kernels (or an empty timeline) is `Idle`; a chip busy less
/// than `DISPATCH_BOUND_BELOW` of the simulated timeline is `Dispatch`-bound;
/// otherwise the kernels' summed compute time (MXU and VPU, from the cost
/// model) against their summed HBM time decides `Compute` or `Memory`.
pub fn classify(busy_fraction: f64, compute_us: f64, memory_us: f64, kernels: usize) -> RunBound {
    if kernels == 0 || busy_fraction <= 0.0 {
        RunBound::Idle
    } else if busy_fraction < DISPATCH_BOUND_BELOW {
        RunBound::Dispatch
    } else if compute_us >= memory_us {
        RunBound::Compute
    } else {
        RunBound::Memory
    }
}

/// The summary of a Report whose kernels are costed and whose timeline is
/// built.
pub(crate) fn summarize(report: &Report) -> RunSummary {
    let simulated_us = report.timeline.as_ref().map_or(0.0, |t| t.total_us);
    let costs = report.kernels.iter().filter_map(|k| k.cost.as_ref());
    let (mut busy, mut compute, mut memory) = (0.0, 0.0, 0.0);
    for cost in costs {
        busy += (cost.simulated_us - cost.launch_us).max(0.0);
        compute += cost.compute_us;
        memory += cost.memory_us;
    }
    // With several ranks the kernels are every chip's: busy is per chip.
    let chips = report.world.as_ref().map_or(1, |w| w.nproc.max(1)) as f64;
    busy /= chips;
    let fraction = if simulated_us > 0.0 {
        (busy / simulated_us).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let bound = classify(fraction, compute, memory, report.kernels.len());
    RunSummary {
        simulated_us,
        chip_busy_us: busy,
        chip_busy_fraction: fraction,
        bound,
        explanation: explain(bound, fraction, simulated_us, report.mode),
        fallbacks: group_fallbacks(report),
        syncs: group_syncs(report),
    }
}

fn explain(bound: RunBound, fraction: f64, simulated_us: f64, mode: EagerMode) -> String {
    // A sliver of a percent keeps its first digits: not "0.0%" for a chip
    // that did run kernels.
    let percent = fraction * 100.0;
    let percent = if percent > 0.0 && percent < 0.1 {
        format!("{percent:.3}")
    } else {
        format!("{percent:.1}")
    };
    let busy = format!(
        "The chip is busy {percent}% of the {} simulated timeline",
        duration(simulated_us)
    );
    match bound {
        RunBound::Idle => {
            "No kernel ran on the simulated chip, so there is no timeline to speak of.".into()
        }
        RunBound::Dispatch => {
            let help = if mode == EagerMode::Fused {
                "fewer reads of tensor values (`.item()`, `print`, `if` on a tensor) would help"
            } else {
                "Fused mode launches fewer kernels"
            };
            format!(
                "{busy}: the run is dispatch-bound (launch overhead and host syncs dominate); {help}."
            )
        }
        RunBound::Compute => format!(
            "{busy}: the run is compute-bound (the kernels' arithmetic on the MXUs and the vector unit dominates)."
        ),
        RunBound::Memory => format!(
            "{busy}: the run is memory-bound (moving data to and from HBM dominates the kernels' time); fusing elementwise ops keeps intermediates out of HBM."
        ),
    }
}

/// Microseconds as a person reads them: `40 ns`, `850 µs`, `10.23 ms`, `1.50 s`.
fn duration(us: f64) -> String {
    if us > 0.0 && us < 1.0 {
        format!("{:.0} ns", us * 1e3)
    } else if us < 1e3 {
        format!("{us:.0} µs")
    } else if us < 1e6 {
        format!("{:.2} ms", us / 1e3)
    } else {
        format!("{:.2} s", us / 1e6)
    }
}

fn group_fallbacks(report: &Report) -> Vec<FallbackGroup> {
    let mut groups: Vec<FallbackGroup> = Vec::new();
    for op in &report.ops {
        let Some(reason) = &op.fallback else { continue };
        let group = match groups
            .iter_mut()
            .position(|g| g.op == op.name && &g.reason == reason)
        {
            Some(i) => &mut groups[i],
            None => {
                groups.push(FallbackGroup {
                    op: op.name.clone(),
                    reason: reason.clone(),
                    count: 0,
                    lines: Vec::new(),
                });
                groups.last_mut().expect("just pushed")
            }
        };
        group.count += 1;
        group.lines.extend(op.line);
    }
    for g in &mut groups {
        g.lines.sort_unstable();
        g.lines.dedup();
    }
    groups
}

fn group_syncs(report: &Report) -> Vec<SyncGroup> {
    let mut groups: Vec<SyncGroup> = Vec::new();
    for sync in &report.syncs {
        let group = match groups.iter_mut().position(|g| g.reason == sync.reason) {
            Some(i) => &mut groups[i],
            None => {
                groups.push(SyncGroup {
                    reason: sync.reason.clone(),
                    count: 0,
                    lines: Vec::new(),
                });
                groups.last_mut().expect("just pushed")
            }
        };
        group.count += 1;
        group.lines.extend(sync.line);
    }
    for g in &mut groups {
        g.lines.sort_unstable();
        g.lines.dedup();
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_classifies_by_busy_fraction_then_compute_against_memory() {
        assert_eq!(classify(0.0, 0.0, 0.0, 0), RunBound::Idle);
        assert_eq!(classify(0.027, 5.0, 1.0, 40), RunBound::Dispatch);
        assert_eq!(classify(0.9, 5.0, 1.0, 40), RunBound::Compute);
        assert_eq!(classify(0.9, 1.0, 5.0, 40), RunBound::Memory);
    }

    #[test]
    fn the_explanation_is_one_plain_sentence_with_what_would_help() {
        assert_eq!(
            explain(RunBound::Dispatch, 0.027, 10_230.0, EagerMode::Strict),
            "The chip is busy 2.7% of the 10.23 ms simulated timeline: the run is \
             dispatch-bound (launch overhead and host syncs dominate); Fused mode \
             launches fewer kernels."
        );
        assert_eq!(duration(850.0), "850 µs");
        assert_eq!(duration(0.04), "40 ns");
        assert_eq!(duration(1.5e6), "1.50 s");
    }
}
