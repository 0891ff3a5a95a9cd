//! Ending a running program from outside: the page's Stop button and the time
//! limit. Both raise an exception inside the program at its next bytecode
//! instruction, through RustPython's user-signal channel (the eval loop checks
//! one atomic flag per instruction), so `finally` blocks and `atexit` still run.
//!
//! The flag is process-wide while each interpreter has its own channel: an
//! interpreter on another thread may clear the flag and find its own channel
//! empty. So once the exception is sent the watchdog sets the flag again every
//! millisecond until the run has ended, and sends the exception itself again
//! every second: one that was lost (caught by code that was running when it
//! arrived) must not leave a run going on past its limit, as one once did in
//! CI. A program blocked inside one native call (a long `time.sleep`) sees
//! the exception when the call returns.

use rustpython_vm::VirtualMachine;
use rustpython_vm::signal::{UserSignalReceiver, UserSignalSender, user_signal_channel};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A handle to stop a run from another thread; clone it before the run
/// starts (see [`crate::Options::stop`]).
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    pub fn new() -> Self {
        Stop::default()
    }

    /// Asks the run to end with `KeyboardInterrupt`; returns at once. A stop
    /// asked for before the run starts takes effect at its first instruction.
    pub fn stop(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    fn requested(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// How often the watchdog looks at the stop handle and the clock.
const TICK: Duration = Duration::from_millis(1);

/// How long after sending its exception the watchdog sends it again, while
/// the run goes on: time for `finally` blocks and `atexit` to run.
const RESEND: Duration = Duration::from_secs(1);

/// The thread that delivers a stop or a timeout to one run; dropping it (when
/// the run has ended) ends the thread.
pub(crate) struct Watchdog {
    finished: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Watchdog {
    /// The channel the interpreter is built with (`None` when there is
    /// nothing to watch for) and the watchdog that sends on it, started.
    pub(crate) fn start(
        stop: Option<Stop>,
        timeout: Option<Duration>,
    ) -> (Option<UserSignalReceiver>, Watchdog) {
        let finished = Arc::new(AtomicBool::new(false));
        // A wasm32 instance has no second thread to watch from (nor a clock
        // for `Instant`): in the browser the embedder ends a run by ending
        // the worker that runs it.
        if cfg!(target_arch = "wasm32") || (stop.is_none() && timeout.is_none()) {
            let idle = Watchdog {
                finished,
                thread: None,
            };
            return (None, idle);
        }
        let (sender, receiver) = user_signal_channel();
        let started = Instant::now();
        let done = finished.clone();
        let thread = std::thread::Builder::new()
            .name("tpu-python-watchdog".into())
            .spawn(move || watch(&sender, stop, timeout, started, &done))
            .ok();
        (Some(receiver), Watchdog { finished, thread })
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.finished.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Why the watchdog ends a run.
#[derive(Clone, Copy)]
enum End {
    Stopped,
    /// Past its time limit, in seconds.
    TimedOut(f64),
}

fn watch(
    sender: &UserSignalSender,
    stop: Option<Stop>,
    timeout: Option<Duration>,
    started: Instant,
    finished: &AtomicBool,
) {
    let mut sent: Option<(Instant, End)> = None;
    while !finished.load(Ordering::SeqCst) {
        std::thread::sleep(TICK);
        let end = match sent {
            Some((at, end)) if at.elapsed() >= RESEND => end,
            Some(_) => {
                // Set the flag again, in case another interpreter cleared it.
                let _ = sender.send(Box::new(|_vm: &VirtualMachine| Ok(())));
                continue;
            }
            None if stop.as_ref().is_some_and(Stop::requested) => End::Stopped,
            None => match timeout {
                Some(limit) if started.elapsed() > limit => End::TimedOut(limit.as_secs_f64()),
                _ => continue,
            },
        };
        let _ = sender.send(Box::new(move |vm: &VirtualMachine| {
            Err(match end {
                End::Stopped => vm.new_exception_msg(
                    vm.ctx.exceptions.keyboard_interrupt.to_owned(),
                    "the run was stopped".into(),
                ),
                End::TimedOut(seconds) => vm.new_exception_msg(
                    vm.ctx.exceptions.timeout_error.to_owned(),
                    format!("the program ran past its time limit of {seconds} s").into(),
                ),
            })
        }));
        sent = Some((Instant::now(), end));
    }
}
