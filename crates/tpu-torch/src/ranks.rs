//! Running N ranks of one program, as `torchrun --nproc-per-node N` would:
//! every rank runs the whole program in its own interpreter, on its own
//! `Runtime` (its own tensors, generator and stdout), with `os.environ`
//! holding torchrun's variables, and they meet in one
//! `tpu_runtime::distributed::World`. Natively each rank has a thread of
//! its own; in the browser each is a JavaScript Promise Integration stack
//! (a fiber) in the one wasm instance, suspended whenever it is not its
//! turn, with what it keeps on the thread taken off it meanwhile
//! (`tpu_python::park`, and this crate's own in `Parked`).
//!
//! One rank runs at a time, in a fixed order, so a run's output and Report
//! are the same every time: a scheduler on the calling thread hands a turn to the ranks in rank
//! order, each running until it waits in a collective the others have not
//! reached (or finishes); a rank that gives its turn back for any other wait
//! (a device read) gets it again before any other runs. When no rank can run,
//! the run is stopped: if a rank failed, the others are stopped as torchrun
//! stops them; otherwise it is a deadlock, and the world names what each rank
//! waits in, at its line. Every stopped rank's wait then ends in
//! `DistStopped`, so each unwinds and tears down as a finished run does.
//!
//! The runtimes, the world and the backend they share are single-threaded
//! (`Rc`): the turn is what makes handing them to the ranks' threads sound.
//! Only the thread holding the turn touches any of them, and the turn passes
//! under a mutex, which orders each thread's work before the next's.

use crate::distributed::STOPPED;
use std::cell::RefCell;
use std::future::Future;
use std::rc::Rc;
use std::sync::{Arc, Mutex};
#[cfg(not(target_arch = "wasm32"))]
use std::task::Waker;
use std::task::{Context, Poll};
use tpu_runtime::distributed::{self, DeadlockReport, Finish, RankRun, World};
use tpu_runtime::{EagerMode, Report, Runtime};

/// How the ranks share the turn: between threads natively, within one
/// thread in the browser.
#[cfg(not(target_arch = "wasm32"))]
type Shared<T> = Arc<T>;
#[cfg(target_arch = "wasm32")]
type Shared<T> = Rc<T>;

/// The most ranks one run may have.
pub const MAX_RANKS: usize = 64;

mod turn;
#[cfg(target_arch = "wasm32")]
pub(crate) use turn::Parked;
use turn::Turn;
#[cfg(target_arch = "wasm32")]
use turn::fiber;

thread_local! {
    /// The running rank and the run's turn, while it runs as a rank.
    static SEAT: RefCell<Option<(Shared<Turn>, usize)>> = const { RefCell::new(None) };
}

/// Whether this thread runs a rank of a world.
pub(crate) fn is_rank() -> bool {
    SEAT.with(|s| s.borrow().is_some())
}

/// Drives `future` to completion on this thread: as a rank, each time it
/// waits the turn passes on (the others may be what it waits for);
/// otherwise the thread blocks until it is woken (a device read).
pub(crate) fn block_on<F: Future>(future: F) -> F::Output {
    let seat = SEAT.with(|s| s.borrow().clone());
    let Some((turn, rank)) = seat else {
        return wait(future);
    };
    #[cfg(target_arch = "wasm32")]
    return turn.block_on(rank, future);
    #[cfg(not(target_arch = "wasm32"))]
    let mut future = std::pin::pin!(future);
    #[cfg(not(target_arch = "wasm32"))]
    loop {
        if let Poll::Ready(out) = future
            .as_mut()
            .poll(&mut Context::from_waker(Waker::noop()))
        {
            return out;
        }
        turn.pass(rank);
    }
}

/// Drives `future` to completion on this thread: natively by blocking it
/// until the device answers.
#[cfg(not(target_arch = "wasm32"))]
fn wait<F: Future>(future: F) -> F::Output {
    pollster::block_on(future)
}

/// Drives `future` to completion in the browser, where a device read
/// completes only when the page's event loop runs: while it is pending the
/// run's wasm stack is suspended (JavaScript Promise Integration, from the
/// `jspi` export that started the run) on a promise its waker resolves.
#[cfg(target_arch = "wasm32")]
fn wait<F: Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    loop {
        let (woken, waker) = fiber::woken();
        if let Poll::Ready(out) = future.as_mut().poll(&mut Context::from_waker(&waker)) {
            return out;
        }
        fiber::suspend(&woken);
    }
}

/// A value handed to a rank's thread or fiber: see the module
/// documentation for why that is sound for the runtimes, the world and the
/// backend.
struct Handed<T>(T);
// SAFETY: only the thread holding the turn uses what is handed (module
// documentation); the turn's mutex orders the uses.
unsafe impl<T> Send for Handed<T> {}

/// What a rank hands back.
struct RankDone {
    report: Report,
    comm: Vec<tpu_runtime::CommItem>,
    sharding: tpu_runtime::distributed::ShardingNotes,
    line: u32,
    error: Option<String>,
}

/// Each rank's result, filled as it finishes.
type Slots = Arc<[Mutex<Option<Handed<RankDone>>>]>;

/// The variables torchrun sets for `rank` of `nproc` on one node.
fn torchrun_environ(rank: usize, nproc: usize) -> Vec<(String, String)> {
    let (r, n) = (rank.to_string(), nproc.to_string());
    [
        ("RANK", r.as_str()),
        ("WORLD_SIZE", n.as_str()),
        ("LOCAL_RANK", r.as_str()),
        ("LOCAL_WORLD_SIZE", n.as_str()),
        ("GROUP_RANK", "0"),
        ("GROUP_WORLD_SIZE", "1"),
        ("ROLE_RANK", r.as_str()),
        ("ROLE_WORLD_SIZE", n.as_str()),
        ("ROLE_NAME", "default"),
        ("MASTER_ADDR", "127.0.0.1"),
        ("MASTER_PORT", "29500"),
        ("TORCHELASTIC_RESTART_COUNT", "0"),
        ("TORCHELASTIC_MAX_RESTARTS", "0"),
        ("TORCHELASTIC_RUN_ID", "none"),
        ("OMP_NUM_THREADS", "1"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.to_owned()))
    .collect()
}

/// The run's output callbacks, shared by its ranks: each streams its
/// output line by line, every complete line prefixed `[rankK]:` (a partial
/// line waits for its end, or for the rank's end), and reports progress.
#[derive(Clone, Default)]
struct Streams {
    output: Option<Rc<RefCell<tpu_python::OnOutput>>>,
    progress: Option<Rc<RefCell<tpu_python::OnProgress>>>,
}

impl Streams {
    /// Rank `rank`'s callbacks, and what flushes its last partial lines.
    fn for_rank(
        &self,
        rank: usize,
    ) -> (
        Option<tpu_python::OnOutput>,
        Option<tpu_python::OnProgress>,
        Box<dyn FnOnce()>,
    ) {
        let progress = self.progress.clone().map(|p| {
            Box::new(move |line: u32, elapsed: f64| (p.borrow_mut())(line, elapsed))
                as tpu_python::OnProgress
        });
        let Some(sink) = self.output.clone() else {
            return (None, progress, Box::new(|| {}));
        };
        let pending: Rc<RefCell<[String; 2]>> = Rc::default();
        let index = |stream| match stream {
            tpu_python::Stream::Stdout => 0,
            tpu_python::Stream::Stderr => 1,
        };
        let flush = {
            let (pending, sink) = (pending.clone(), sink.clone());
            Box::new(move || {
                for stream in [tpu_python::Stream::Stdout, tpu_python::Stream::Stderr] {
                    let rest = std::mem::take(&mut pending.borrow_mut()[index(stream)]);
                    if !rest.is_empty() {
                        (sink.borrow_mut())(stream, &format!("[rank{rank}]:{rest}\n"));
                    }
                }
            })
        };
        let output = Box::new(move |stream: tpu_python::Stream, text: &str| {
            let lines: Vec<String> = {
                let mut pending = pending.borrow_mut();
                let buffer = &mut pending[index(stream)];
                buffer.push_str(text);
                let mut lines = Vec::new();
                while let Some(end) = buffer.find('\n') {
                    lines.push(buffer.drain(..=end).collect());
                }
                lines
            };
            for line in lines {
                (sink.borrow_mut())(stream, &format!("[rank{rank}]:{line}"));
            }
        });
        (Some(output), progress, flush)
    }
}

/// Runs `source` as `runtimes.len()` ranks, rank r on `runtimes[r]` and
/// simulated chip `chips[r]` of the slice the runtimes were given
/// (`Runtime::set_device`), each starting in `mode` with `options` (for the
/// program's file, arguments, time limit, files and standard library; its
/// output, if streamed, is streamed by line with each rank's prefix), and
/// returns the run's Report: every rank's output prefixed and grouped by
/// rank, and the world's part.
pub fn run_ranks(
    source: &str,
    runtimes: &mut [Runtime],
    options: tpu_python::Options,
    mode: EagerMode,
    chips: Vec<usize>,
) -> Report {
    let nproc = runtimes.len();
    let tpu_python::Options {
        path,
        folder,
        args,
        timeout,
        stop,
        on_output,
        on_progress,
        files,
        stdlib,
        ..
    } = options;
    let streams = Streams {
        output: on_output.map(|f| Rc::new(RefCell::new(f))),
        progress: on_progress.map(|f| Rc::new(RefCell::new(f))),
    };
    let starts = (0..nproc)
        .map(|rank| {
            let (on_output, on_progress, flush) = streams.for_rank(rank);
            let options = tpu_python::Options {
                path: path.clone(),
                folder: folder.clone(),
                args: args.clone(),
                timeout,
                stop: stop.clone(),
                on_output,
                on_progress,
                environ: torchrun_environ(rank, nproc),
                files,
                stdlib: stdlib.clone(),
                ..tpu_python::Options::default()
            };
            RankStart { options, flush }
        })
        .collect();
    run_world(source, runtimes, starts, mode, chips, &mut || {})
}

/// How one rank of a world starts.
pub(crate) struct RankStart {
    pub(crate) options: tpu_python::Options,
    /// Streams what is left of its output when it ends.
    pub(crate) flush: Box<dyn FnOnce()>,
}

/// Runs `source` as the ranks `starts` describe, rank r on `runtimes[r]`
/// and chip `chips[r]` (see `run_ranks`), calling `between` each time a rank
/// gives the turn back; returns the world's Report.
pub(crate) fn run_world(
    source: &str,
    runtimes: &mut [Runtime],
    starts: Vec<RankStart>,
    mode: EagerMode,
    chips: Vec<usize>,
    between: &mut dyn FnMut(),
) -> Report {
    let nproc = runtimes.len();
    let Some(first) = runtimes.first() else {
        return Report::default();
    };
    let (chip, slice) = {
        let (c, s) = first.device();
        (c.clone(), s.clone())
    };
    let world = Rc::new(RefCell::new(World::new(chips)));
    for (rank, runtime) in runtimes.iter_mut().enumerate() {
        runtime.join_world(world.clone(), rank);
        runtime.share_memory_budget(nproc);
    }
    let turn = Shared::new(Turn::new(nproc, &world));
    let done: Slots = (0..nproc).map(|_| Mutex::new(None)).collect();
    let source: Arc<str> = source.into();
    let ranks = runtimes
        .iter_mut()
        .zip(starts)
        .enumerate()
        .map(|(rank, (runtime, start))| {
            let seat = Seat {
                rank,
                turn: turn.clone(),
                slot: done.clone(),
                source: source.clone(),
                runtime: runtime as *mut Runtime,
                flush: start.flush,
            };
            Handed((seat, start.options))
        })
        .collect();
    let deadlock = start_and_schedule(ranks, mode, &turn, &world, &done, between);
    let aborted = world.borrow().is_aborted();
    let runs: Vec<RankRun> = done
        .iter()
        .map(|slot| {
            let Handed(mut done) = slot
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take()
                .expect("every rank finished");
            if aborted {
                done.report.diagnostics.retain(|d| d.kind != STOPPED);
            }
            RankRun {
                report: done.report,
                comm: done.comm,
                sharding: done.sharding,
            }
        })
        .collect();
    let world = world.borrow();
    distributed::world_report(&world, &chip, &slice, runs, deadlock)
}

/// What one rank runs with: everything on the heap or owned, since in the
/// browser the scheduler's stack is set aside while the ranks run.
struct Seat {
    rank: usize,
    turn: Shared<Turn>,
    slot: Slots,
    source: Arc<str>,
    /// Its runtime, one of the caller's, which outlive the run.
    runtime: *mut Runtime,
    /// Streams what is left of its output when it ends.
    flush: Box<dyn FnOnce()>,
}

impl Seat {
    /// Runs the rank: waits for its first turn, runs the program, hands its
    /// result back and gives the turn back for good.
    fn run(self, options: tpu_python::Options, mode: EagerMode) {
        let Seat {
            rank,
            turn,
            slot,
            source,
            runtime,
            flush,
        } = self;
        turn.wait_for(rank);
        SEAT.with(|s| *s.borrow_mut() = Some((turn.clone(), rank)));
        // SAFETY: each rank has its own runtime, used only with the turn
        // (module documentation).
        let runtime = unsafe { &mut *runtime };
        let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            crate::run_report(&source, runtime, options, mode)
        }));
        let (report, outcome) = ran.unwrap_or_else(|_| internal_error(rank));
        flush();
        let line = outcome
            .error
            .as_ref()
            .and_then(|f| f.line)
            .or(runtime.line())
            .unwrap_or(0);
        let error = outcome
            .error
            .as_ref()
            .filter(|f| f.kind != STOPPED)
            .map(|f| format!("{}: {}", f.kind, f.message));
        let rank_done = RankDone {
            report,
            comm: runtime.take_comm_items(),
            sharding: runtime.take_sharding(),
            line,
            error,
        };
        *slot[rank].lock().unwrap_or_else(|e| e.into_inner()) = Some(Handed(rank_done));
        SEAT.with(|s| *s.borrow_mut() = None);
        turn.finish(rank);
    }

    /// The rank could not start (no thread for it): it fails at once, as a
    /// rank whose process did not start.
    #[cfg(not(target_arch = "wasm32"))]
    fn fail_to_start(self, why: &str) {
        let message = format!("rank {} could not start: {why}", self.rank);
        let report = Report {
            diagnostics: vec![tpu_runtime::Diagnostic {
                kind: "RuntimeError".into(),
                message: message.clone(),
                span: None,
                traceback: format!("RuntimeError: {message}\n"),
            }],
            ..Report::default()
        };
        *self.slot[self.rank]
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = Some(Handed(RankDone {
            report,
            comm: Vec::new(),
            sharding: Default::default(),
            line: 0,
            error: Some(message),
        }));
        self.turn.finish(self.rank);
    }
}

/// A rank that stopped in a panic, as a failed run.
fn internal_error(rank: usize) -> (Report, tpu_python::Outcome) {
    let message = format!("rank {rank} stopped in an internal error");
    let failure = tpu_python::Failure {
        kind: "SystemError".into(),
        message: message.clone(),
        line: None,
        span: None,
        traceback: format!("SystemError: {message}\n"),
    };
    let report = Report {
        diagnostics: vec![crate::diagnostic(&failure)],
        ..Report::default()
    };
    let outcome = tpu_python::Outcome {
        exit_code: 1,
        error: Some(failure),
        ..tpu_python::Outcome::default()
    };
    (report, outcome)
}

/// Starts every rank on a thread of its own and schedules them.
#[cfg(not(target_arch = "wasm32"))]
fn start_and_schedule(
    ranks: Vec<Handed<(Seat, tpu_python::Options)>>,
    mode: EagerMode,
    turn: &Turn,
    world: &Rc<RefCell<World>>,
    done: &Slots,
    between: &mut dyn FnMut(),
) -> Option<DeadlockReport> {
    std::thread::scope(|scope| {
        let mut threads = Vec::new();
        for handed in ranks {
            let rank = handed.0.0.rank;
            // A rank that cannot start needs its seat back to say so.
            let handed = Arc::new(Mutex::new(Some(handed)));
            let for_thread = handed.clone();
            let thread = std::thread::Builder::new()
                .name(format!("rank{rank}"))
                .stack_size(tpu_python::STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let taken = for_thread.lock().unwrap_or_else(|e| e.into_inner()).take();
                    if let Some(Handed((seat, options))) = taken {
                        seat.run(options, mode);
                    }
                });
            match thread {
                Ok(t) => threads.push(t),
                Err(e) => {
                    let taken = handed.lock().unwrap_or_else(|e| e.into_inner()).take();
                    if let Some(Handed((seat, _))) = taken {
                        seat.fail_to_start(&e.to_string());
                    }
                }
            }
        }
        let deadlock = schedule(turn, world, done, between);
        for t in threads {
            let _ = t.join();
        }
        deadlock
    })
}

/// Starts every rank as a fiber of its own and schedules them; returns
/// when every rank has finished.
#[cfg(target_arch = "wasm32")]
fn start_and_schedule(
    ranks: Vec<Handed<(Seat, tpu_python::Options)>>,
    mode: EagerMode,
    turn: &Turn,
    world: &Rc<RefCell<World>>,
    done: &Slots,
    between: &mut dyn FnMut(),
) -> Option<DeadlockReport> {
    for Handed((seat, options)) in ranks {
        fiber::spawn(move || seat.run(options, mode));
    }
    schedule(turn, world, done, between)
}

/// Hands the turn out until every rank has finished (see the module
/// documentation), calling `between` each time it comes back; returns the
/// deadlock, if the run ended in one.
fn schedule(
    turn: &Turn,
    world: &Rc<RefCell<World>>,
    done: &Slots,
    between: &mut dyn FnMut(),
) -> Option<DeadlockReport> {
    let nproc = done.len();
    let mut finished = vec![false; nproc];
    let mut deadlock = None;
    // Runs `rank` once; `false` when it gave the turn back outside a
    // collective, so it must run again before any other.
    let mut run = |rank: usize, finished: &mut Vec<bool>| -> bool {
        let gave_back = turn.give(rank);
        between();
        if gave_back {
            let slot = done[rank].lock().unwrap_or_else(|e| e.into_inner());
            let (line, error) = slot
                .as_ref()
                .map_or((None, None), |d| (Some(d.0.line), d.0.error.clone()));
            world.borrow_mut().finish(rank, Finish { line, error });
            finished[rank] = true;
            true
        } else {
            world.borrow().is_blocked(rank)
        }
    };
    let mut resume: Option<usize> = None;
    loop {
        if let Some(rank) = resume.take()
            && !run(rank, &mut finished)
        {
            resume = Some(rank);
            continue;
        }
        let mut ran = false;
        for rank in 0..nproc {
            if finished[rank] || !world.borrow().can_run(rank) {
                continue;
            }
            ran = true;
            if !run(rank, &mut finished) {
                resume = Some(rank);
                break;
            }
        }
        if resume.is_some() {
            continue;
        }
        if finished.iter().all(|&f| f) {
            return deadlock;
        }
        if !ran {
            // No rank can run: stop them all.
            let mut world = world.borrow_mut();
            let failed =
                (0..world.nproc()).find(|&r| world.finished(r).is_some_and(|f| f.error.is_some()));
            let reason = match failed {
                Some(r) => format!("stopped because rank {r} failed"),
                None => {
                    let report = distributed::deadlock(&world);
                    let reason = report.message.clone();
                    deadlock = Some(report);
                    reason
                }
            };
            world.abort(reason);
        }
    }
}
