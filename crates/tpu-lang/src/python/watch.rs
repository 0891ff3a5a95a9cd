//! What watches a run from outside while it executes: the output sink that
//! receives `print`'s text as soon as it is written, the progress hook told
//! which line runs (at most every `PROGRESS_INTERVAL`), and the wall-clock
//! limit. All three are checked where fuel is burned (each statement, loop
//! iteration and call), so a run that never reaches the device's event loop
//! (the reference backend in a browser worker) still reports and still stops.

use crate::python::clock;
use crate::python::error::PyErr;
use crate::{OutputSink, PROGRESS_INTERVAL, ProgressHook, RunOptions};
use std::time::Duration;
use web_time::Instant;

/// Reading the clock costs a call into JavaScript in a browser, so a run of
/// cheap steps reads it once per this many; a step that also ran tensor work
/// (which costs far more than a clock read) always reads it.
const STEPS_PER_CLOCK_READ: u32 = 16;

pub struct Watch {
    output: Option<OutputSink>,
    progress: Option<ProgressHook>,
    timeout: Option<Duration>,
    started: Instant,
    last_progress: Instant,
    steps_since_read: u32,
    /// The user's line being executed (statements of library files keep the
    /// line of the user's statement that called into them).
    pub line: u32,
}

impl Watch {
    pub fn new(options: &RunOptions) -> Self {
        let started = clock::now();
        Watch {
            output: options.on_output.clone(),
            progress: options.on_progress.clone(),
            timeout: options.timeout,
            started,
            last_progress: started,
            steps_since_read: 0,
            line: 1,
        }
    }

    /// Hands text the program wrote to the sink.
    pub fn output(&self, text: &str) {
        if let Some(sink) = &self.output
            && !text.is_empty()
        {
            (sink.0)(text);
        }
    }

    /// One step of the program: now and then reads the clock, tells the
    /// progress hook, and ends the run past its time limit. `heavy` steps
    /// (those that ran tensor work) always read the clock.
    pub fn step(&mut self, heavy: bool) -> Result<(), PyErr> {
        if self.progress.is_none() && self.timeout.is_none() {
            return Ok(());
        }
        self.steps_since_read += 1;
        if !heavy && self.steps_since_read < STEPS_PER_CLOCK_READ {
            return Ok(());
        }
        self.steps_since_read = 0;
        let now = clock::now();
        let elapsed = now.duration_since(self.started);
        if let Some(limit) = self.timeout
            && elapsed > limit
        {
            return Err(PyErr::fatal(
                "TimeoutError",
                format!(
                    "the program ran past its time limit of {} s",
                    limit.as_secs_f64()
                ),
            ));
        }
        if let Some(hook) = &self.progress
            && now.duration_since(self.last_progress) >= PROGRESS_INTERVAL
        {
            self.last_progress = now;
            (hook.0)(self.line, elapsed);
        }
        Ok(())
    }
}

impl Default for Watch {
    fn default() -> Self {
        Watch::new(&RunOptions::default())
    }
}
