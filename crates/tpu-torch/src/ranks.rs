//! Running N ranks of one program, as `torchrun --nproc-per-node N` would:
//! every rank runs the whole program in its own interpreter on its own
//! thread, on its own `Runtime` (its own tensors, generator and stdout), with
//! `os.environ` holding torchrun's variables, and they meet in one
//! `tpu_runtime::distributed::World`.
//!
//! One rank runs at a time, and the order is the own interpreter's
//! (`tpu-lang/src/ranks.rs`), so a run's output and Report are the same every
//! time: a scheduler on the calling thread hands a turn to the ranks in rank
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
use std::sync::{Arc, Condvar, Mutex};
use std::task::{Context, Poll, Waker};
use tpu_runtime::distributed::{self, DeadlockReport, Finish, RankRun, World};
use tpu_runtime::{EagerMode, Report, Runtime};

/// The most ranks one run may have.
pub const MAX_RANKS: usize = 64;

/// Whose turn it is, and who has finished.
struct Turn {
    state: Mutex<TurnState>,
    changed: Condvar,
}

struct TurnState {
    running: Option<usize>,
    finished: Vec<bool>,
}

impl Turn {
    fn new(nproc: usize) -> Self {
        Turn {
            state: Mutex::new(TurnState {
                running: None,
                finished: vec![false; nproc],
            }),
            changed: Condvar::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, TurnState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The scheduler's side: `rank` runs until it gives the turn back;
    /// returns whether it finished.
    fn give(&self, rank: usize) -> bool {
        let mut state = self.lock();
        if state.finished[rank] {
            return true;
        }
        state.running = Some(rank);
        self.changed.notify_all();
        while state.running == Some(rank) {
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        state.finished[rank]
    }

    /// A rank's side: blocks until it is `rank`'s turn.
    fn wait_for(&self, rank: usize) {
        let mut state = self.lock();
        while state.running != Some(rank) {
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// A rank's side: gives the turn back and waits for the next.
    fn pass(&self, rank: usize) {
        let mut state = self.lock();
        state.running = None;
        self.changed.notify_all();
        while state.running != Some(rank) {
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// A rank's side: gives the turn back for good.
    fn finish(&self, rank: usize) {
        let mut state = self.lock();
        state.finished[rank] = true;
        state.running = None;
        self.changed.notify_all();
    }
}

thread_local! {
    /// This thread's rank and the run's turn, while it runs as a rank.
    static SEAT: RefCell<Option<(Arc<Turn>, usize)>> = const { RefCell::new(None) };
}

/// Drives `future` to completion on this thread: as a rank, each time it
/// waits the turn passes on (the others may be what it waits for);
/// otherwise the thread blocks until it is woken (a device read).
pub(crate) fn block_on<F: Future>(future: F) -> F::Output {
    let seat = SEAT.with(|s| s.borrow().clone());
    let Some((turn, rank)) = seat else {
        return wait(future);
    };
    let mut future = std::pin::pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
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
    use wasm_bindgen::JsValue;

    /// The promise's `resolve`. A wasm32 instance without threads has one
    /// thread, which alone makes, wakes and drops it.
    struct Resolve(js_sys::Function);
    // SAFETY: see above; nothing here is ever on another thread.
    unsafe impl Send for Resolve {}
    // SAFETY: as for Send.
    unsafe impl Sync for Resolve {}
    impl std::task::Wake for Resolve {
        fn wake(self: Arc<Self>) {
            let _ = self.0.call0(&JsValue::UNDEFINED);
        }
    }

    let mut future = std::pin::pin!(future);
    loop {
        let mut resolve = None;
        let promise = js_sys::Promise::new(&mut |yes, _no| resolve = Some(yes));
        let waker = Waker::from(Arc::new(Resolve(
            resolve.expect("a Promise calls its executor at once"),
        )));
        if let Poll::Ready(out) = future.as_mut().poll(&mut Context::from_waker(&waker)) {
            return out;
        }
        // Experimental in wasm-bindgen 0.2.130, hence deprecated there.
        #[allow(deprecated)]
        let _ = js_sys::futures::jspi_block_on_promise(&promise);
    }
}

/// A value handed to a rank's thread: see the module documentation for why
/// that is sound for the runtimes, the world and the backend.
struct Handed<T>(T);
// SAFETY: only the thread holding the turn uses what is handed (module
// documentation); the turn's mutex orders the uses.
unsafe impl<T> Send for Handed<T> {}

/// What a rank's thread hands back.
struct RankDone {
    report: Report,
    comm: Vec<tpu_runtime::CommItem>,
    sharding: tpu_runtime::distributed::ShardingNotes,
    line: u32,
    error: Option<String>,
}

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

/// Runs `source` as `runtimes.len()` ranks, rank r on `runtimes[r]` and
/// simulated chip `chips[r]` of the slice the runtimes were given
/// (`Runtime::set_device`), each starting in `mode` with `options` (its
/// output is collected, not streamed), and returns the run's Report: every
/// rank's output prefixed and grouped by rank, and the world's part.
pub fn run_ranks(
    source: &str,
    runtimes: &mut [Runtime],
    options: &tpu_python::Options,
    mode: EagerMode,
    chips: Vec<usize>,
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
    let turn = Arc::new(Turn::new(nproc));
    let done: Vec<Mutex<Option<Handed<RankDone>>>> = (0..nproc).map(|_| Mutex::new(None)).collect();
    let mut deadlock = None;
    std::thread::scope(|scope| {
        let mut threads = Vec::new();
        for (rank, runtime) in runtimes.iter_mut().enumerate() {
            let options = tpu_python::Options {
                path: options.path.clone(),
                folder: options.folder.clone(),
                args: options.args.clone(),
                timeout: options.timeout,
                environ: torchrun_environ(rank, nproc),
                ..tpu_python::Options::default()
            };
            let (runtime, options) = (Handed(runtime as *mut Runtime), Handed(options));
            let (rank_turn, slot, source) = (turn.clone(), &done[rank], source);
            let thread = std::thread::Builder::new()
                .name(format!("rank{rank}"))
                .stack_size(tpu_python::STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let (runtime, Handed(options), turn) = (runtime, options, rank_turn);
                    turn.wait_for(rank);
                    SEAT.with(|s| *s.borrow_mut() = Some((turn.clone(), rank)));
                    // SAFETY: each rank has its own runtime, used only with
                    // the turn (module documentation).
                    let runtime = unsafe { &mut *runtime.0 };
                    let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        crate::run_report(source, runtime, options, mode)
                    }));
                    let (report, outcome) = ran.unwrap_or_else(|_| {
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
                    });
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
                    *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(Handed(rank_done));
                    SEAT.with(|s| *s.borrow_mut() = None);
                    turn.finish(rank);
                });
            match thread {
                Ok(t) => threads.push(t),
                Err(e) => {
                    // No thread for this rank: it fails at once, as a rank
                    // whose process did not start.
                    let report = Report {
                        diagnostics: vec![tpu_runtime::Diagnostic {
                            kind: "RuntimeError".into(),
                            message: format!("rank {rank} could not start: {e}"),
                            span: None,
                            traceback: format!("RuntimeError: rank {rank} could not start: {e}\n"),
                        }],
                        ..Report::default()
                    };
                    *done[rank].lock().unwrap_or_else(|e| e.into_inner()) =
                        Some(Handed(RankDone {
                            report,
                            comm: Vec::new(),
                            sharding: Default::default(),
                            line: 0,
                            error: Some(format!("rank {rank} could not start: {e}")),
                        }));
                    turn.finish(rank);
                }
            }
        }
        deadlock = schedule(&turn, &world, &done, nproc);
        for t in threads {
            let _ = t.join();
        }
    });
    let aborted = world.borrow().is_aborted();
    let runs: Vec<RankRun> = done
        .into_iter()
        .map(|slot| {
            let Handed(mut done) = slot
                .into_inner()
                .unwrap_or_else(|e| e.into_inner())
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

/// Hands the turn out until every rank has finished (see the module
/// documentation); returns the deadlock, if the run ended in one.
fn schedule(
    turn: &Turn,
    world: &Rc<RefCell<World>>,
    done: &[Mutex<Option<Handed<RankDone>>>],
    nproc: usize,
) -> Option<DeadlockReport> {
    let mut finished = vec![false; nproc];
    let mut deadlock = None;
    // Runs `rank` once; `false` when it gave the turn back outside a
    // collective, so it must run again before any other.
    let run = |rank: usize, finished: &mut Vec<bool>| -> bool {
        if turn.give(rank) {
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
