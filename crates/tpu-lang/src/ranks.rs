//! Running N ranks of one program, as `torchrun --nproc-per-node N` would:
//! every rank runs the whole program on its own `Runtime` (its own tensors,
//! generator, Python state and stdout), with `os.environ` holding torchrun's
//! variables, and they meet in one `tpu_runtime::distributed::World`.
//!
//! The scheduler is deterministic: it polls the ranks in rank order, each
//! until it blocks in a collective (or finishes); a rank that suspends for a
//! device read (WebGPU's readback) is resumed before any other runs, so the
//! ranks never interleave inside a backend call. When no rank can run, the
//! run is stopped: if a rank failed, the others are stopped as torchrun
//! stops them; otherwise it is a deadlock, and the world names what each
//! rank waits in, at its line. Every stopped rank's wait then ends in an
//! uncatchable error, so each unwinds and tears down as a finished run does.

use crate::python::source::SourceFile;
use crate::{RunOptions, backend_report, exec, parse};
use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};
use tpu_runtime::distributed::{self, DeadlockReport, Finish, RankRun, World};
use tpu_runtime::{Report, Runtime};

/// The most ranks one run may have.
pub const MAX_RANKS: usize = 64;

/// The exception a stopped rank's wait ends in (dropped from its Report:
/// the run's deadlock or failure is reported once, for all ranks).
pub(crate) const STOPPED: &str = "DistStopped";

/// The variables torchrun sets for `rank` of `nproc` on one node.
fn torchrun_environ(rank: usize, nproc: usize) -> Vec<(String, String)> {
    [
        ("RANK", rank.to_string()),
        ("WORLD_SIZE", nproc.to_string()),
        ("LOCAL_RANK", rank.to_string()),
        ("LOCAL_WORLD_SIZE", nproc.to_string()),
        ("GROUP_RANK", "0".to_string()),
        ("GROUP_WORLD_SIZE", "1".to_string()),
        ("ROLE_RANK", rank.to_string()),
        ("ROLE_WORLD_SIZE", nproc.to_string()),
        ("ROLE_NAME", "default".to_string()),
        ("MASTER_ADDR", "127.0.0.1".to_string()),
        ("MASTER_PORT", "29500".to_string()),
        ("TORCHELASTIC_RESTART_COUNT", "0".to_string()),
        ("TORCHELASTIC_MAX_RESTARTS", "0".to_string()),
        ("TORCHELASTIC_RUN_ID", "none".to_string()),
        ("OMP_NUM_THREADS", "1".to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// Streams a rank's output to the run's sink line by line, each complete
/// line prefixed `[rankK]:` (a partial line waits for its end, or for the
/// rank's end).
fn prefixed_sink(options: &RunOptions, rank: usize) -> (RunOptions, Rc<dyn Fn()>) {
    let mut options = options.clone();
    let Some(sink) = options.on_output.take() else {
        return (options, Rc::new(|| {}));
    };
    let pending = Rc::new(RefCell::new(String::new()));
    let flush = {
        let (pending, sink) = (pending.clone(), sink.clone());
        Rc::new(move || {
            let rest = std::mem::take(&mut *pending.borrow_mut());
            if !rest.is_empty() {
                (sink.0)(&format!("[rank{rank}]:{rest}\n"));
            }
        })
    };
    options.on_output = Some(crate::OutputSink::new(move |text| {
        let mut buffer = pending.borrow_mut();
        buffer.push_str(text);
        while let Some(end) = buffer.find('\n') {
            let line: String = buffer.drain(..=end).collect();
            (sink.0)(&format!("[rank{rank}]:{line}"));
        }
    }));
    (options, flush)
}

/// What a rank's future hands back.
struct RankDone {
    report: Report,
    comm: Vec<tpu_runtime::CommItem>,
    sharding: tpu_runtime::distributed::ShardingNotes,
    line: u32,
}

type RankFuture<'a> = Pin<Box<dyn Future<Output = RankDone> + 'a>>;

/// Polls the ranks (see the module documentation).
struct Schedule<'a> {
    ranks: Vec<RankFuture<'a>>,
    done: Vec<Option<RankDone>>,
    world: Rc<RefCell<World>>,
    /// The rank suspended in a device read or a yield: it runs first.
    resume: Option<usize>,
    deadlock: Option<DeadlockReport>,
}

impl Schedule<'_> {
    /// Polls `rank`; `false` when it suspended outside a collective, so the
    /// whole schedule must wait for it.
    fn poll_rank(&mut self, rank: usize, cx: &mut Context<'_>) -> bool {
        match self.ranks[rank].as_mut().poll(cx) {
            Poll::Ready(done) => {
                let error = done
                    .report
                    .diagnostics
                    .iter()
                    .find(|d| d.kind != STOPPED)
                    .map(|d| format!("{}: {}", d.kind, d.message));
                self.world.borrow_mut().finish(
                    rank,
                    Finish {
                        line: Some(done.line),
                        error,
                    },
                );
                self.done[rank] = Some(done);
                true
            }
            Poll::Pending => self.world.borrow().is_blocked(rank),
        }
    }

    /// Stops the ranks that can no longer go on: they were left behind by
    /// a rank that failed, or they wait for each other.
    fn stop(&mut self) {
        let mut world = self.world.borrow_mut();
        let failed =
            (0..world.nproc()).find(|&r| world.finished(r).is_some_and(|f| f.error.is_some()));
        let reason = match failed {
            Some(r) => format!("stopped because rank {r} failed"),
            None => {
                let report = distributed::deadlock(&world);
                let reason = report.message.clone();
                self.deadlock = Some(report);
                reason
            }
        };
        world.abort(reason);
    }
}

impl Future for Schedule<'_> {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let this = &mut *self;
        if let Some(rank) = this.resume.take()
            && !this.poll_rank(rank, cx)
        {
            this.resume = Some(rank);
            return Poll::Pending;
        }
        loop {
            let mut ran = false;
            for rank in 0..this.ranks.len() {
                if this.done[rank].is_some() || !this.world.borrow().can_run(rank) {
                    continue;
                }
                ran = true;
                if !this.poll_rank(rank, cx) {
                    this.resume = Some(rank);
                    return Poll::Pending;
                }
            }
            if this.done.iter().all(Option::is_some) {
                return Poll::Ready(());
            }
            if !ran {
                this.stop();
            }
        }
    }
}

/// Runs `source` as `runtimes.len()` ranks, rank r on `runtimes[r]` and
/// simulated chip `chips[r]` of the slice the runtimes were given
/// (`Runtime::set_device`), and returns the run's Report: every rank's
/// output prefixed and grouped by rank, and the world's part.
pub async fn run_ranks(
    source: &str,
    runtimes: &mut [Runtime],
    options: &RunOptions,
    chips: Vec<usize>,
) -> Report {
    let nproc = runtimes.len();
    let file = Rc::new(SourceFile::new(&options.filename, source));
    let Some(first) = runtimes.first() else {
        return Report::default();
    };
    let parsed = match parse(&file, source) {
        Ok(parsed) => parsed,
        Err(diagnostic) => {
            let mut report = backend_report(first);
            report.diagnostics.push(*diagnostic);
            return report;
        }
    };
    let (chip, slice) = {
        let (c, s) = first.device();
        (c.clone(), s.clone())
    };
    let world = Rc::new(RefCell::new(World::new(chips)));
    let module = parsed.syntax();
    let mut flushes = Vec::new();
    let ranks: Vec<RankFuture<'_>> = runtimes
        .iter_mut()
        .enumerate()
        .map(|(rank, runtime)| {
            runtime.join_world(world.clone(), rank);
            runtime.share_memory_budget(nproc);
            let (rank_options, flush) = if nproc > 1 {
                prefixed_sink(options, rank)
            } else {
                (options.clone(), Rc::new(|| {}) as Rc<dyn Fn()>)
            };
            flushes.push(flush.clone());
            let file = file.clone();
            Box::pin(async move {
                let mut report = backend_report(runtime);
                let environ = torchrun_environ(rank, nproc);
                let line = exec(
                    module,
                    &file,
                    runtime,
                    &rank_options,
                    Some(environ),
                    &mut report,
                )
                .await;
                flush();
                let comm = runtime.take_comm_items();
                let sharding = runtime.take_sharding();
                RankDone {
                    report,
                    comm,
                    sharding,
                    line,
                }
            }) as RankFuture<'_>
        })
        .collect();
    let mut schedule = Schedule {
        done: (0..nproc).map(|_| None).collect(),
        ranks,
        world: world.clone(),
        resume: None,
        deadlock: None,
    };
    (&mut schedule).await;
    let deadlock = schedule.deadlock.take();
    let runs: Vec<RankRun> = schedule
        .done
        .drain(..)
        .map(|done| {
            let mut done = done.expect("every rank finished");
            if world.borrow().is_aborted() {
                done.report.diagnostics.retain(|d| d.kind != STOPPED);
            }
            RankRun {
                report: done.report,
                comm: done.comm,
                sharding: done.sharding,
            }
        })
        .collect();
    drop(schedule);
    let world = world.borrow();
    distributed::world_report(&world, &chip, &slice, runs, deadlock)
}
