//! The clocks a run reads: wall time for `time.time()`, a monotonic clock for
//! `time.perf_counter()` and for the run's wall-clock limit. Both are measured
//! on this machine (natively, or the browser's `Date.now()` and
//! `performance.now()` in wasm), never the simulated TPU's time.

use web_time::{Instant, SystemTime, UNIX_EPOCH};

/// Seconds since the Unix epoch, as `time.time()` returns them.
pub fn wall_seconds() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

/// A monotonic instant; differences of two are measured durations.
pub fn now() -> Instant {
    Instant::now()
}
