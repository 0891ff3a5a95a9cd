//! The world of a multi-rank run (`tpu run --nproc-per-node N`): one rank per
//! chip, each with its own `Runtime`, meeting here. A rank that starts a
//! collective deposits its input and gets a ticket; the collective completes
//! when every member of its group has arrived, matched by group and sequence
//! number as c10d matches them, and each member's ticket then holds its
//! outputs (`combine.rs`). Point-to-point messages are buffered as gloo
//! buffers small ones: `send` completes at once, `recv` waits for a matching
//! message. Nothing here blocks: a rank whose ticket is not done is marked
//! blocked, and the scheduler (`tpu_torch::run_ranks`) runs the others. When
//! no rank can proceed the world describes what each waits in
//! (`deadlock`), with its line, instead of hanging as PyTorch would.
//!
//! Every collective and message is kept as a `CommEvent` for the Report and
//! the simulated timeline (`report.rs` in this folder).

mod call;
mod combine;
mod report;
mod sharding;
mod timeline;

pub use call::{CollectiveCall, ReduceOp};
pub(crate) use combine::concat;
pub use report::{
    CommArrival, DeadlockReport, DistCollective, RankReport, RankRun, RankWait, WorldReport,
    deadlock, prefixed, world_report,
};
pub use sharding::{MAX_MEMORY_POINTS, MemoryPoint, MeshReport, ShardedTensor, ShardingNotes};

use crate::data::HostData;
use tpu_ir::DType;

/// One collective of a group, or one message between two ranks, as the
/// Report lists it. `members` are global ranks in group order (for a
/// message: sender, receiver); `lines[i]` is where member i called it, `None`
/// until it has.
#[derive(Clone, Debug)]
pub struct CommEvent {
    /// The Python function: `all_reduce`, `broadcast`, `send/recv`, ...
    pub name: String,
    pub call: Option<CollectiveCall>,
    pub group: usize,
    pub seq: Option<u64>,
    pub dtype: DType,
    pub shape: Vec<usize>,
    /// Bytes of the array the collective is about (see `tpu_device::collective`).
    pub bytes: usize,
    pub members: Vec<usize>,
    pub lines: Vec<Option<Option<u32>>>,
    /// What member i called, as a deadlock report names it (`all_reduce
    /// (default group, collective #2, shape [4], float32, SUM)`); `None`
    /// until it has, and for messages.
    pub calls: Vec<Option<String>>,
    pub complete: bool,
    /// Why it never ran though every member arrived: the ranks disagree.
    pub mismatch: Option<String>,
    /// What made it, when the program did not call it itself (`DDP bucket 0`).
    pub cause: Option<String>,
}

impl CommEvent {
    /// `all_reduce (default group, collective #2, shape [4], float32, SUM)`.
    pub fn describe(&self) -> String {
        describe(
            &self.name,
            self.group,
            &self.members,
            self.seq,
            &self.shape,
            self.dtype,
            self.call.as_ref().and_then(CollectiveCall::reduce_op),
        )
    }
}

/// How a collective is named in a deadlock report: the call as that rank
/// made it.
fn describe(
    name: &str,
    group: usize,
    members: &[usize],
    seq: Option<u64>,
    shape: &[usize],
    dtype: DType,
    op: Option<ReduceOp>,
) -> String {
    let mut parts = vec![if group == 0 {
        "default group".to_string()
    } else {
        format!("group {group} of ranks {members:?}")
    }];
    if let Some(seq) = seq {
        parts.push(format!("collective #{seq}"));
    }
    if name != "barrier" {
        parts.push(format!("shape {shape:?}"));
        parts.push(dtype_name(dtype));
    }
    if let Some(op) = op {
        parts.push(op.name().to_string());
    }
    format!("{name} ({})", parts.join(", "))
}

/// `float32`, as `torch.float32` is written without its module.
fn dtype_name(dtype: DType) -> String {
    dtype.torch_name().trim_start_matches("torch.").to_string()
}

/// What a started operation's ticket holds once it is done.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The member's outputs (see `combine`): one buffer, or one per member
    /// for `all_gather`, none for `barrier` and `send`.
    pub outputs: Vec<HostData>,
    /// For `recv` from any source: the rank the message came from.
    pub src: Option<usize>,
}

enum TicketState {
    Collective { key: (usize, u64) },
    Recv { src: Option<usize>, tag: i64 },
    Done(Result<Outcome, String>),
    Taken,
}

struct Ticket {
    rank: usize,
    /// The event it is part of (`usize::MAX` for a receive not yet matched).
    event: usize,
    line: Option<u32>,
    /// What the rank asked for, as its own call names it.
    wants: String,
    state: TicketState,
}

struct Arrival {
    ticket: usize,
    call: CollectiveCall,
    dtype: DType,
    shape: Vec<usize>,
    data: HostData,
}

struct Rendezvous {
    event: usize,
    arrivals: Vec<Option<Arrival>>,
    mismatch: Option<String>,
}

struct Message {
    src: usize,
    dst: usize,
    tag: i64,
    data: HostData,
    event: usize,
}

/// How a rank's program ended.
#[derive(Clone, Debug)]
pub struct Finish {
    pub line: Option<u32>,
    /// The exception that ended it (`RuntimeError: ...`), if one did.
    pub error: Option<String>,
}

/// The ranks of one run and what passes between them.
pub struct World {
    nproc: usize,
    /// The chip of each rank.
    chips: Vec<usize>,
    /// Group 0 is the default group (every rank); `new_group` adds the rest.
    groups: Vec<Vec<usize>>,
    /// How many `new_group` calls each rank has made.
    groups_made: Vec<usize>,
    next_seq: std::collections::HashMap<(usize, usize), u64>,
    rendezvous: std::collections::BTreeMap<(usize, u64), Rendezvous>,
    messages: Vec<Message>,
    tickets: Vec<Ticket>,
    /// The ticket each rank is blocked on, if it is.
    blocked: Vec<Option<usize>>,
    finished: Vec<Option<Finish>>,
    initialized: Vec<bool>,
    pub events: Vec<CommEvent>,
    /// Set when the run is stopped (a deadlock, or a rank that failed): every
    /// blocked rank's wait then ends in this error.
    abort: Option<String>,
}

impl World {
    /// A world of `chips.len()` ranks, rank r on chip `chips[r]`.
    pub fn new(chips: Vec<usize>) -> World {
        let nproc = chips.len();
        World {
            nproc,
            chips,
            groups: vec![(0..nproc).collect()],
            groups_made: vec![0; nproc],
            next_seq: Default::default(),
            rendezvous: Default::default(),
            messages: Vec::new(),
            tickets: Vec::new(),
            blocked: vec![None; nproc],
            finished: vec![None; nproc],
            initialized: vec![false; nproc],
            events: Vec::new(),
            abort: None,
        }
    }

    pub fn nproc(&self) -> usize {
        self.nproc
    }

    pub fn chips(&self) -> &[usize] {
        &self.chips
    }

    pub fn is_initialized(&self, rank: usize) -> bool {
        self.initialized[rank]
    }

    pub fn set_initialized(&mut self, rank: usize, on: bool) {
        self.initialized[rank] = on;
    }

    /// The global ranks of group `id`, in group order.
    pub fn group(&self, id: usize) -> Option<&[usize]> {
        self.groups.get(id).map(Vec::as_slice)
    }

    /// `dist.new_group(ranks)`, which every rank calls in the same order: the
    /// k-th call of each rank makes (or finds) group k + 1.
    pub fn new_group(&mut self, rank: usize, ranks: Vec<usize>) -> Result<usize, String> {
        if let Some(&bad) = ranks.iter().find(|&&r| r >= self.nproc) {
            return Err(format!(
                "The new group's rank should be within the world_size set by init_process_group, but got rank {bad} with world size {}",
                self.nproc
            ));
        }
        self.groups_made[rank] += 1;
        let id = self.groups_made[rank];
        match self.groups.get(id) {
            Some(existing) if *existing != ranks => Err(format!(
                "new_group call #{id} was made with ranks {existing:?} on an earlier rank and {ranks:?} on rank {rank}: every rank must create groups in the same order with the same ranks"
            )),
            Some(_) => Ok(id),
            None => {
                self.groups.push(ranks);
                Ok(id)
            }
        }
    }

    /// Starts collective `call` of `group` for `rank` with its input. The
    /// ticket is done at once when `rank` is the last member to arrive.
    #[allow(clippy::too_many_arguments)]
    pub fn start_collective(
        &mut self,
        rank: usize,
        group: usize,
        name: &str,
        call: CollectiveCall,
        data: HostData,
        shape: Vec<usize>,
        line: Option<u32>,
        cause: Option<String>,
    ) -> Result<usize, String> {
        let members = self
            .groups
            .get(group)
            .cloned()
            .ok_or("unknown process group")?;
        let position = members
            .iter()
            .position(|&r| r == rank)
            .ok_or_else(|| format!("rank {rank} is not a member of group {members:?}"))?;
        let call = match call {
            CollectiveCall::Broadcast { src } => CollectiveCall::Broadcast {
                src: members.iter().position(|&r| r == src).ok_or_else(|| {
                    format!("Invalid source rank: {src} is not in group {members:?}")
                })?,
            },
            other => other,
        };
        let seq = self.next_seq.entry((group, rank)).or_insert(0);
        *seq += 1;
        let key = (group, *seq);
        let ticket = self.tickets.len();
        let dtype = data.dtype();
        if !self.rendezvous.contains_key(&key) {
            let event = self.events.len();
            let bytes = match call {
                CollectiveCall::AllGather => data.len() * members.len(),
                _ => data.len(),
            } * dtype.size_in_bytes();
            self.events.push(CommEvent {
                name: name.to_string(),
                call: Some(call.clone()),
                group,
                seq: Some(key.1),
                dtype,
                shape: shape.clone(),
                bytes,
                members: members.clone(),
                lines: vec![None; members.len()],
                calls: vec![None; members.len()],
                complete: false,
                mismatch: None,
                cause: cause.clone(),
            });
            self.rendezvous.insert(
                key,
                Rendezvous {
                    event,
                    arrivals: (0..members.len()).map(|_| None).collect(),
                    mismatch: None,
                },
            );
        }
        let wants = describe(
            name,
            group,
            &members,
            Some(key.1),
            &shape,
            dtype,
            call.reduce_op(),
        );
        let rv = self.rendezvous.get_mut(&key).expect("inserted above");
        let event = &mut self.events[rv.event];
        event.lines[position] = Some(line);
        event.calls[position] = Some(wants.clone());
        if rv.mismatch.is_none()
            && let Some(first) = rv.arrivals.iter().flatten().next()
            && (!first.call.agrees_with(&call)
                || first.dtype != dtype
                // All-to-all's inputs differ where the members' splits do.
                || (first.shape != shape && !matches!(call, CollectiveCall::AllToAll { .. })))
        {
            rv.mismatch = Some(format!(
                "the ranks disagree: {} against {wants}",
                event.describe()
            ));
            event.mismatch = rv.mismatch.clone();
        }
        rv.arrivals[position] = Some(Arrival {
            ticket,
            call,
            dtype,
            shape,
            data,
        });
        self.tickets.push(Ticket {
            rank,
            event: rv.event,
            line,
            wants,
            state: TicketState::Collective { key },
        });
        if rv.mismatch.is_none() && rv.arrivals.iter().all(Option::is_some) {
            let rv = self.rendezvous.remove(&key).expect("present");
            self.complete(rv);
        }
        Ok(ticket)
    }

    fn complete(&mut self, rv: Rendezvous) {
        let arrivals: Vec<Arrival> = rv.arrivals.into_iter().flatten().collect();
        let calls: Vec<CollectiveCall> = arrivals.iter().map(|a| a.call.clone()).collect();
        let inputs: Vec<HostData> = arrivals.iter().map(|a| a.data.clone()).collect();
        let result = combine::combine(&calls, &inputs);
        for (i, a) in arrivals.iter().enumerate() {
            self.tickets[a.ticket].state = TicketState::Done(match &result {
                Ok(outputs) => Ok(Outcome {
                    outputs: outputs[i].clone(),
                    src: None,
                }),
                Err(e) => Err(e.clone()),
            });
        }
        self.events[rv.event].complete = true;
    }

    /// `dist.send`: the message is buffered and the sender goes on.
    pub fn send(
        &mut self,
        rank: usize,
        dst: usize,
        tag: i64,
        data: HostData,
        shape: Vec<usize>,
        line: Option<u32>,
    ) -> usize {
        let event = self.events.len();
        self.events.push(CommEvent {
            name: "send/recv".into(),
            call: None,
            group: 0,
            seq: None,
            dtype: data.dtype(),
            shape,
            bytes: data.len() * data.dtype().size_in_bytes(),
            members: vec![rank, dst],
            lines: vec![Some(line), None],
            calls: vec![None, None],
            complete: false,
            mismatch: None,
            cause: None,
        });
        self.messages.push(Message {
            src: rank,
            dst,
            tag,
            data,
            event,
        });
        let ticket = self.tickets.len();
        self.tickets.push(Ticket {
            rank,
            event,
            line,
            wants: String::new(),
            state: TicketState::Done(Ok(Outcome {
                outputs: Vec::new(),
                src: None,
            })),
        });
        self.deliver();
        ticket
    }

    /// `dist.recv`: done when a message
    /// from `src` (any rank when `None`) with `tag` has arrived.
    pub fn start_recv(
        &mut self,
        rank: usize,
        (src, tag): (Option<usize>, i64),
        (shape, dtype): (&[usize], DType),
        line: Option<u32>,
    ) -> usize {
        let into = format!("shape {shape:?}, {}", dtype_name(dtype));
        let ticket = self.tickets.len();
        self.tickets.push(Ticket {
            rank,
            event: usize::MAX,
            line,
            wants: match src {
                Some(s) => format!("recv from rank {s} (tag {tag}, {into})"),
                None => format!("recv from any rank (tag {tag}, {into})"),
            },
            state: TicketState::Recv { src, tag },
        });
        self.deliver();
        ticket
    }

    /// Hands buffered messages to waiting receivers, oldest first.
    fn deliver(&mut self) {
        for t in 0..self.tickets.len() {
            let TicketState::Recv { src, tag } = self.tickets[t].state else {
                continue;
            };
            let rank = self.tickets[t].rank;
            let Some(m) = self
                .messages
                .iter()
                .position(|m| m.dst == rank && m.tag == tag && src.is_none_or(|s| s == m.src))
            else {
                continue;
            };
            let m = self.messages.remove(m);
            let line = self.tickets[t].line;
            let event = &mut self.events[m.event];
            event.lines[1] = Some(line);
            event.complete = true;
            self.tickets[t].event = m.event;
            self.tickets[t].state = TicketState::Done(Ok(Outcome {
                outputs: vec![m.data],
                src: Some(m.src),
            }));
        }
    }

    /// The outcome of `ticket` for `rank` if it is done (taking it);
    /// otherwise the rank is marked blocked on it and `None` comes back.
    pub fn poll_ticket(&mut self, rank: usize, ticket: usize) -> Option<Result<Outcome, String>> {
        if let TicketState::Done(_) = self.tickets[ticket].state {
            self.blocked[rank] = None;
            let TicketState::Done(outcome) =
                std::mem::replace(&mut self.tickets[ticket].state, TicketState::Taken)
            else {
                unreachable!("matched above")
            };
            return Some(outcome);
        }
        if let Some(reason) = &self.abort {
            self.blocked[rank] = None;
            return Some(Err(reason.clone()));
        }
        if let TicketState::Taken = self.tickets[ticket].state {
            return Some(Err("this work was already waited for".into()));
        }
        self.blocked[rank] = Some(ticket);
        None
    }

    /// Whether `ticket` is done (`Work.is_completed()`).
    pub fn is_done(&self, ticket: usize) -> bool {
        matches!(
            self.tickets[ticket].state,
            TicketState::Done(_) | TicketState::Taken
        )
    }

    /// The event a ticket belongs to (once a receive is matched).
    pub fn ticket_event(&self, ticket: usize) -> Option<usize> {
        let e = self.tickets[ticket].event;
        (e != usize::MAX).then_some(e)
    }

    /// Whether polling `rank` can make progress: it is not blocked, or what
    /// it waits for is done, or the run is being stopped.
    pub fn can_run(&self, rank: usize) -> bool {
        self.finished[rank].is_none()
            && (self.abort.is_some() || self.blocked[rank].is_none_or(|t| self.is_done(t)))
    }

    pub fn is_blocked(&self, rank: usize) -> bool {
        self.blocked[rank].is_some()
    }

    pub fn finish(&mut self, rank: usize, finish: Finish) {
        self.blocked[rank] = None;
        self.finished[rank] = Some(finish);
    }

    pub fn finished(&self, rank: usize) -> Option<&Finish> {
        self.finished[rank].as_ref()
    }

    /// Stops the run: every blocked rank's wait ends in `reason`.
    pub fn abort(&mut self, reason: String) {
        self.abort.get_or_insert(reason);
    }

    pub fn is_aborted(&self) -> bool {
        self.abort.is_some()
    }

    /// What `rank` is blocked in, the line where it started it, and why
    /// the collective cannot complete when its members disagree.
    pub fn wait_of(&self, rank: usize) -> Option<(String, Option<u32>, Option<String>)> {
        let ticket = &self.tickets[self.blocked[rank]?];
        let mismatch = match &ticket.state {
            TicketState::Collective { key } => {
                self.rendezvous.get(key).and_then(|r| r.mismatch.clone())
            }
            TicketState::Recv { .. } => None,
            _ => return None,
        };
        Some((ticket.wants.clone(), ticket.line, mismatch))
    }
}
