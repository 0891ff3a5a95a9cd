//! One collective over one process group: any set of the slice's chips, in
//! rank order, as `torch.distributed` forms them (`new_group([0, 2])`, or the
//! whole world). `simulate` runs every axis-aligned group at once; here only
//! the one group runs, and its members need not line up with the axes.
//!
//! The model, link by link on the slice's real links:
//! - Every message is routed dimension-ordered (axis 0 first), along the
//!   shortest way round each axis; on a ring, a message exactly half way
//!   round goes half each way (as `simulate`'s all-to-all does).
//! - All-gather, reduce-scatter and all-reduce are rings over the members in
//!   rank order, run both ways at once: half of the data goes from rank `i`
//!   to rank `i + 1`, the other half from `i` to `i - 1`, so a group laid
//!   along a ring of links uses both directions of every link, as the
//!   bidirectional rings of `simulate` do. Each is `n - 1` steps of
//!   `bytes / n` chunks (split in the two halves); an all-reduce is a
//!   reduce-scatter then an all-gather, `2 (n - 1)` steps. Every step moves
//!   the same chunks over the same routes, so every step lasts the same: until
//!   the busiest link has carried its bytes (at `ici_link_bandwidth` each
//!   way), and never less than the longest route's hops times
//!   `ici_hop_latency`.
//! - All-to-all sends each member's block of `bytes / n²` to every other
//!   member at once, one step; send/recv sends `bytes` from the first member
//!   to the second, one step.
//! - When the members are exactly one of `simulate`'s groups (every chip
//!   that differs from the first only along some axes, in any rank order),
//!   the collective is `simulate`'s torus algorithm over those axes, as a
//!   TPU's collective library picks it for such groups: the result is
//!   `simulate`'s, less the traffic of the other groups (which ran on links
//!   of their own, so it does not change the time), with `formula_us`. Rank
//!   order does not matter there: which chip holds which block changes no
//!   link's bytes. Send/recv always routes its one message.
//!
//! Broadcast is not a kind: callers model a broadcast of `bytes` as an
//! all-gather of the same bytes (a pipelined broadcast from one chip moves
//! `bytes` into every chip; the all-gather moves `(n - 1) / n` of it, over
//! the same rings).
//!
//! Where the ring and `simulate` differ on the same group (see the tests):
//! when bandwidth sets the time they agree on one axis, ring or line; over
//! several axes `simulate`'s parts use every axis's links at once and are
//! about as many times faster as there are axes, which is why such groups use
//! it. When latency sets the time the ring takes `n - 1` steps where a
//! bidirectional ring takes `n / 2`, and on a line its closing hop crosses
//! the whole line every step.

use super::links::axis_traffic;
use super::{Collective, CollectiveError, CollectiveKind, Simulation, Step, simulate};
use crate::chip::Chip;
use crate::slice::Slice;

/// The directed links a message crosses, each with the share of the message
/// it carries (a half where a tie on a ring splits it), and its hops.
struct Route {
    links: Vec<(usize, f64)>,
    hops: usize,
}

/// Simulates `kind` over the process group `members` (chip indices of
/// `slice`, in rank order). `bytes` means what it means for `simulate`; for
/// send/recv it is the message and `members` is `[source, destination]`.
pub fn simulate_group(
    chip: &Chip,
    slice: &Slice,
    kind: CollectiveKind,
    members: &[usize],
    bytes: f64,
) -> Result<Simulation, CollectiveError> {
    if members.is_empty() {
        return Err(CollectiveError::NoMembers);
    }
    for (i, &m) in members.iter().enumerate() {
        if m >= slice.chips() {
            return Err(CollectiveError::NoSuchChip {
                chip: m,
                shape: slice.name(),
                last: slice.chips() - 1,
            });
        }
        if members[..i].contains(&m) {
            return Err(CollectiveError::RepeatedMember(m));
        }
    }
    if kind == CollectiveKind::SendRecv && members.len() != 2 {
        return Err(CollectiveError::SendRecvPair(members.len()));
    }
    if !bytes.is_finite() || bytes < 0.0 {
        return Err(CollectiveError::Bytes(bytes));
    }
    let n = members.len();
    let axes = spanned_axes(slice, members);
    let empty = vec![0.0; slice.chips() * slice.axes() * 2];
    if n == 1 {
        return Ok(finish(chip, slice, kind, members, bytes, empty, 0, 0, 0));
    }
    let full: usize = axes.iter().map(|&a| slice.dims[a]).product();
    if kind != CollectiveKind::SendRecv && full == n {
        let collective = Collective { kind, axes, bytes };
        return Ok(one_group(
            simulate(chip, slice, &collective)?,
            slice,
            members,
        ));
    }
    Ok(match kind {
        CollectiveKind::SendRecv => {
            let mut loads = empty;
            let hops = add_route(slice, &mut loads, members[0], members[1], bytes);
            finish(chip, slice, kind, members, bytes, loads, hops, 1, 1)
        }
        CollectiveKind::AllToAll => {
            let block = bytes / (n * n) as f64;
            let mut loads = empty;
            let mut hops = 0;
            for &from in members {
                for &to in members.iter().filter(|&&to| to != from) {
                    hops = hops.max(add_route(slice, &mut loads, from, to, block));
                }
            }
            finish(chip, slice, kind, members, bytes, loads, hops, 1, 1)
        }
        _ => ring(chip, slice, kind, members, bytes),
    })
}

/// The ring collectives over `members` in rank order, both ways at once.
fn ring(
    chip: &Chip,
    slice: &Slice,
    kind: CollectiveKind,
    members: &[usize],
    bytes: f64,
) -> Simulation {
    let n = members.len();
    // Each step every member sends a chunk of `bytes / n` to its successor,
    // half on the ring going up the ranks and half on the one coming down.
    let half = bytes / n as f64 / 2.0;
    let mut loads = vec![0.0; slice.chips() * slice.axes() * 2];
    let mut hops = 0;
    for i in 0..n {
        for next in [(i + 1) % n, (i + n - 1) % n] {
            hops = hops.max(add_route(
                slice,
                &mut loads,
                members[i],
                members[next],
                half,
            ));
        }
    }
    let steps = match kind {
        CollectiveKind::AllReduce => 2 * (n - 1),
        _ => n - 1,
    };
    finish(chip, slice, kind, members, bytes, loads, hops, steps, 2 * n)
}

/// Adds `bytes` routed from chip `from` to chip `to` to `loads` (indexed like
/// `Simulation::link_bytes`); returns the route's hops.
fn add_route(slice: &Slice, loads: &mut [f64], from: usize, to: usize, bytes: f64) -> usize {
    let route = route(slice, from, to);
    for (link, share) in route.links {
        loads[link] += share * bytes;
    }
    route.hops
}

/// The dimension-ordered route from chip `from` to chip `to`.
fn route(slice: &Slice, from: usize, to: usize) -> Route {
    let mut at = from;
    let mut links = Vec::new();
    let mut hops = 0;
    for axis in 0..slice.axes() {
        let (n, wrap) = (slice.dims[axis], slice.wrap[axis]);
        let (s, t) = (slice.coord(at, axis), slice.coord(to, axis));
        if s == t {
            continue;
        }
        let stride = slice.stride(axis);
        let chip_at = |coord: usize| at - s * stride + coord * stride;
        // Hops going up the axis and going down it.
        let (up, down) = if wrap {
            ((t + n - s) % n, (s + n - t) % n)
        } else {
            (t.saturating_sub(s), s.saturating_sub(t))
        };
        let (up_share, down_share) = match (wrap, up.cmp(&down)) {
            (false, _) => (f64::from(u8::from(t > s)), f64::from(u8::from(t < s))),
            (true, std::cmp::Ordering::Less) => (1.0, 0.0),
            (true, std::cmp::Ordering::Greater) => (0.0, 1.0),
            (true, std::cmp::Ordering::Equal) => (0.5, 0.5),
        };
        if up_share > 0.0 {
            // The link from coordinate c leads up to c + 1.
            for h in 0..up {
                links.push((slice.link_slot(chip_at((s + h) % n), axis) * 2, up_share));
            }
            hops += up;
        }
        if down_share > 0.0 {
            // Going down from c crosses the link from c - 1, backwards.
            for h in 0..down {
                let c = chip_at((s + n - 1 - h) % n);
                links.push((slice.link_slot(c, axis) * 2 + 1, down_share));
            }
            if up_share == 0.0 {
                hops += down;
            }
        }
        at = chip_at(t);
    }
    Route { links, hops }
}

/// The axes along which some member differs from the first.
fn spanned_axes(slice: &Slice, members: &[usize]) -> Vec<usize> {
    (0..slice.axes())
        .filter(|&a| {
            let first = slice.coord(members[0], a);
            members.iter().any(|&m| slice.coord(m, a) != first)
        })
        .collect()
}

/// `simulate`'s result for all groups, cut down to the one of `members`.
/// The other groups are translates of it along the other axes, so every step
/// has the same busiest bytes per axis and its busy links divide evenly.
fn one_group(mut sim: Simulation, slice: &Slice, members: &[usize]) -> Simulation {
    let mut inside = vec![false; slice.chips()];
    for &m in members {
        inside[m] = true;
    }
    for (c, &kept) in inside.iter().enumerate() {
        if !kept {
            for axis in 0..slice.axes() {
                let slot = slice.link_slot(c, axis) * 2;
                sim.link_bytes[slot] = 0.0;
                sim.link_bytes[slot + 1] = 0.0;
            }
        }
    }
    for step in &mut sim.steps {
        for t in &mut step.axes {
            t.busy_links /= sim.groups;
        }
    }
    sim.groups = 1;
    sim.max_link_bytes = sim.link_bytes.iter().copied().fold(0.0, f64::max);
    sim.total_link_bytes = sim.link_bytes.iter().sum();
    sim
}

/// A simulation of `steps` identical steps, each moving `loads` and lasting
/// as long as its busiest link needs and at least `hops` hop latencies.
/// `routes` is how many messages each step routed (the work done).
#[allow(clippy::too_many_arguments)]
fn finish(
    chip: &Chip,
    slice: &Slice,
    kind: CollectiveKind,
    members: &[usize],
    bytes: f64,
    loads: Vec<f64>,
    hops: usize,
    steps: usize,
    routes: usize,
) -> Simulation {
    let busiest = loads.iter().copied().fold(0.0, f64::max);
    let latency = hops as f64 * chip.ici_hop_latency.value;
    let transfer = busiest / chip.ici_link_bandwidth.value;
    let duration = latency.max(transfer);
    let traffic = axis_traffic(slice.axes(), &loads);
    let link_bytes: Vec<f64> = loads.iter().map(|l| l * steps as f64).collect();
    let axes = if members.len() > 1 {
        spanned_axes(slice, members)
    } else {
        Vec::new()
    };
    Simulation {
        kind,
        axes,
        bytes,
        group_chips: members.len(),
        groups: 1,
        simulated_us: steps as f64 * duration * 1e6,
        latency_bound: latency > transfer,
        max_link_bytes: link_bytes.iter().copied().fold(0.0, f64::max),
        total_link_bytes: link_bytes.iter().sum(),
        steps: (0..steps)
            .map(|s| Step {
                start_us: s as f64 * duration * 1e6,
                duration_us: duration * 1e6,
                axes: traffic.clone(),
            })
            .collect(),
        // Only `simulate`'s groups (handled before) have the scaling book's
        // formula; a lone chip has nothing to estimate.
        formula_us: None,
        work: (routes + loads.len() + steps) as u64,
        link_bytes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chip::preset;
    use CollectiveKind::*;

    fn device(chip: &str, shape: &str) -> (Chip, Slice) {
        let chip = preset(chip).unwrap();
        let slice = Slice::new(&chip, shape).unwrap();
        (chip, slice)
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
    }

    /// Bytes per directed link slot, only where nonzero.
    fn used(sim: &Simulation) -> Vec<(usize, f64)> {
        let links = sim.link_bytes.iter().copied().enumerate();
        links.filter(|&(_, b)| b > 0.0).collect()
    }

    #[test]
    fn a_full_axis_group_is_simulates_group_on_its_own_links() {
        // (chip, shape, members, the axes they fill).
        let cases: [(&str, &str, Vec<usize>, Vec<usize>); 5] = [
            ("v5e", "2x2", (0..4).collect(), vec![0, 1]),
            ("v5e", "2x4", (0..8).collect(), vec![0, 1]),
            ("v5e", "16x16", (32..48).collect(), vec![1]),
            ("v5e", "8x16", (0..8).map(|r| r * 16 + 5).collect(), vec![0]),
            ("v4", "4x4x4", (0..64).rev().collect(), vec![0, 1, 2]),
        ];
        for (chip_name, shape, members, axes) in cases {
            let (chip, slice) = device(chip_name, shape);
            for kind in [AllGather, ReduceScatter, AllReduce, AllToAll] {
                for bytes in [1e3, 1e8] {
                    let c = Collective {
                        kind,
                        axes: axes.clone(),
                        bytes,
                    };
                    let all = simulate(&chip, &slice, &c).unwrap();
                    let one = simulate_group(&chip, &slice, kind, &members, bytes).unwrap();
                    let what = format!("{kind:?} {shape} {bytes:e}");
                    assert!(close(one.simulated_us, all.simulated_us), "{what}");
                    assert_eq!(one.formula_us, all.formula_us, "{what}");
                    assert_eq!((one.group_chips, one.groups), (members.len(), 1));
                    // The group's own links carry what they carried among
                    // all groups; no other link carries anything.
                    for c in 0..slice.chips() {
                        for a in 0..slice.axes() {
                            for d in 0..2 {
                                let slot = slice.link_slot(c, a) * 2 + d;
                                let want = if members.contains(&c) {
                                    all.link_bytes[slot]
                                } else {
                                    0.0
                                };
                                assert_eq!(one.link_bytes[slot], want, "{what} {c} {a} {d}");
                            }
                        }
                    }
                    let groups = all.groups as f64;
                    assert!(close(one.total_link_bytes * groups, all.total_link_bytes));
                }
            }
        }
    }

    #[test]
    fn the_ring_matches_simulate_on_one_axis_when_bandwidth_bound() {
        // The ring itself (not the torus algorithm full groups use), on the
        // chips of one axis in order: a ring of 16, a line of 8, a ring of 4.
        let cases = [
            ("v5e", "16x16", (16..32).collect::<Vec<_>>(), 1),
            ("v5e", "8x16", (0..8).map(|r| r * 16).collect(), 0),
            ("v4", "4x4x4", (0..4).map(|i| i * 16).collect(), 0),
        ];
        for (chip_name, shape, members, axis) in cases {
            let (chip, slice) = device(chip_name, shape);
            for kind in [AllGather, ReduceScatter, AllReduce] {
                let on = |bytes: f64| {
                    let c = Collective {
                        kind,
                        axes: vec![axis],
                        bytes,
                    };
                    let torus = simulate(&chip, &slice, &c).unwrap();
                    let ring = ring(&chip, &slice, kind, &members, bytes);
                    (ring, torus)
                };
                let (ring, torus) = on(1e9);
                // Both move every chunk one hop at a time over both
                // directions of every link: the same time, to rounding.
                assert!(
                    close(ring.simulated_us, torus.simulated_us),
                    "{kind:?} {shape}"
                );
                // Latency-bound, the ring takes n - 1 steps of its longest
                // route where the bidirectional ring takes n / 2 of one hop.
                let (ring, torus) = on(1e2);
                let n = members.len();
                let longest = if slice.wrap[axis] { 1 } else { n - 1 };
                let torus_steps = super::super::ring_steps(n, slice.wrap[axis]);
                let expected = ((n - 1) * longest) as f64 / torus_steps as f64;
                let ratio = ring.simulated_us / torus.simulated_us;
                assert!(
                    close(ratio, expected),
                    "{kind:?} {shape}: {ratio} vs {expected}"
                );
            }
        }
    }

    #[test]
    fn three_chips_of_a_2x2_carry_the_rings_bytes_on_the_routes_links() {
        // Chips 0 (0,0), 1 (0,1) and 3 (1,1) of a v5e 2x2 (lines, no
        // wraparound); the rings go 0 -> 1 -> 3 -> 0 and 0 -> 3 -> 1 -> 0.
        let (chip, slice) = device("v5e", "2x2");
        let bytes = 3e6;
        let s = simulate_group(&chip, &slice, AllReduce, &[0, 1, 3], bytes).unwrap();
        let up = |c: usize, axis: usize| slice.link_slot(c, axis) * 2;
        let down = |c: usize, axis: usize| slice.link_slot(c, axis) * 2 + 1;
        // Each message's links, read off the grid, axis 0 first.
        let messages = [
            vec![up(0, 1)],               // 0 -> 1: right along row 0
            vec![up(1, 0)],               // 1 -> 3: down column 1
            vec![down(1, 0), down(0, 1)], // 3 -> 0: up column 1, left along row 0
            vec![up(0, 0), up(2, 1)],     // 0 -> 3: down column 0, right along row 1
            vec![down(1, 0)],             // 3 -> 1: up column 1
            vec![down(0, 1)],             // 1 -> 0: left along row 0
        ];
        // 2 (n - 1) steps, each message a half chunk of bytes / n.
        let steps = 4.0;
        let half = bytes / 3.0 / 2.0;
        let mut want = vec![0.0; s.link_bytes.len()];
        for links in &messages {
            for &l in links {
                want[l] += half * steps;
            }
        }
        assert_eq!(s.link_bytes, want);
        let sent: usize = messages.iter().map(Vec::len).sum();
        assert!(close(s.total_link_bytes, sent as f64 * half * steps));
        // Each step lasts as long as the busiest link (two half chunks)
        // needs, the data being large enough to be bandwidth-bound.
        let step = 2.0 * half / chip.ici_link_bandwidth.value * 1e6;
        assert!(close(s.simulated_us, 4.0 * step), "{}", s.simulated_us);
        assert_eq!(s.steps.len(), 4);
        assert_eq!((s.group_chips, s.groups, s.formula_us), (3, 1, None));
        assert_eq!(s.axes, [0, 1]);
        assert!(!s.latency_bound);
    }

    #[test]
    fn a_subgroup_uses_only_the_links_between_its_members() {
        // Ranks {0, 2} of a v5e 2x4: chips (0,0) and (0,2), two links apart
        // along row 0; nothing else carries a byte.
        let (chip, slice) = device("v5e", "2x4");
        let bytes = 1e8;
        let s = simulate_group(&chip, &slice, AllGather, &[0, 2], bytes).unwrap();
        let route = [slice.link_slot(0, 1), slice.link_slot(1, 1)];
        let mut want = Vec::new();
        for slot in route {
            // Each way, both halves of one chunk (bytes / 2) in one step.
            want.push((slot * 2, bytes / 2.0));
            want.push((slot * 2 + 1, bytes / 2.0));
        }
        assert_eq!(used(&s), want);
        // Two hops, but bandwidth-bound.
        let t = bytes / 2.0 / chip.ici_link_bandwidth.value * 1e6;
        assert!(close(s.simulated_us, t));
        assert_eq!(s.steps[0].axes.len(), 1);
        assert_eq!(s.steps[0].axes[0].busy_links, 4);
        // Latency-bound, a step lasts the route's two hops.
        let small = simulate_group(&chip, &slice, AllGather, &[0, 2], 8.0).unwrap();
        let hops = 2.0 * chip.ici_hop_latency.value * 1e6;
        assert!(close(small.simulated_us, hops) && small.latency_bound);
    }

    #[test]
    fn a_tie_on_a_ring_splits_the_message_both_ways() {
        // A v5e 16x16 row is a ring of 16: chip 0 to chip 8 is 8 hops
        // either way.
        let (chip, slice) = device("v5e", "16x16");
        let s = simulate_group(&chip, &slice, SendRecv, &[0, 8], 1e6).unwrap();
        assert_eq!(used(&s).len(), 16);
        assert!(used(&s).iter().all(|&(_, b)| close(b, 5e5)));
        let t = (5e5 / chip.ici_link_bandwidth.value).max(8.0 * chip.ici_hop_latency.value);
        assert!(close(s.simulated_us, t * 1e6));
        // Chip 0 to chip 15 is one hop back round the wraparound link.
        let s = simulate_group(&chip, &slice, SendRecv, &[0, 15], 1e6).unwrap();
        assert_eq!(used(&s), [(slice.link_slot(15, 1) * 2 + 1, 1e6)]);
    }

    #[test]
    fn all_to_all_sends_a_block_to_every_other_member() {
        // Three chips of a line of 4.
        let (chip, slice) = device("v5e", "4");
        let bytes = 9e6;
        let s = simulate_group(&chip, &slice, AllToAll, &[0, 1, 3], bytes).unwrap();
        // Six messages of bytes / 9; their hops: 0-1: 1, 0-3: 3, 1-3: 2,
        // each both ways.
        let block = bytes / 9.0;
        assert!(close(s.total_link_bytes, 2.0 * (1.0 + 3.0 + 2.0) * block));
        // The middle link carries 0->3 and 1->3 up, and back the same.
        assert!(close(s.max_link_bytes, 2.0 * block));
        assert_eq!(s.steps.len(), 1);
    }

    #[test]
    fn one_member_takes_no_time_and_moves_nothing() {
        let (chip, slice) = device("v5e", "2x2");
        for kind in [AllGather, ReduceScatter, AllReduce, AllToAll] {
            let s = simulate_group(&chip, &slice, kind, &[3], 1e9).unwrap();
            assert_eq!((s.simulated_us, s.total_link_bytes), (0.0, 0.0));
            assert!(s.steps.is_empty());
            assert_eq!((s.group_chips, s.groups), (1, 1));
            assert_eq!(s.link_bytes.len(), slice.chips() * slice.axes() * 2);
        }
    }

    #[test]
    fn bad_groups_are_refused() {
        let (chip, slice) = device("v5e", "2x2");
        let err = |kind, members: &[usize], bytes| {
            simulate_group(&chip, &slice, kind, members, bytes)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err(AllReduce, &[0, 4], 1.0),
            "chip 4 is not a chip of the 2x2 slice (it has chips 0 to 3)"
        );
        assert_eq!(
            err(AllReduce, &[1, 2, 1], 1.0),
            "chip 1 is listed twice in the group"
        );
        assert_eq!(
            err(AllGather, &[], 1.0),
            "a group needs at least one member"
        );
        assert_eq!(
            err(SendRecv, &[0, 1, 2], 1.0),
            "send-recv needs exactly two members, the source and the destination; got 3"
        );
        assert!(err(AllReduce, &[0, 1], f64::NAN).contains("finite number of bytes"));
    }
}
