//! The clocks a run reads, and the `time` module built on them: wall time for
//! `time.time()`, a monotonic clock for `time.perf_counter()`/`monotonic()` and
//! for the run's wall-clock limit. Both are measured on this machine (natively,
//! or the browser's `Date.now()` and `performance.now()` in wasm), never the
//! simulated TPU's time, so a timed loop measures the interpreter and the
//! simulator, not the chip. `time.sleep` returns at once: a run cannot usefully
//! block the worker it runs on, so sleeping only checks its argument as CPython
//! does.

use crate::python::error::PyErr;
use crate::python::interp::PyResult;
use crate::python::value::Value;
use std::sync::OnceLock;
use web_time::{Instant, SystemTime, UNIX_EPOCH};

/// The `time` functions, as `Value::Builtin` names.
pub const TIME_FUNCTIONS: &[&str] = &[
    "time.time",
    "time.time_ns",
    "time.perf_counter",
    "time.perf_counter_ns",
    "time.monotonic",
    "time.monotonic_ns",
    "time.sleep",
];

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

/// Nanoseconds on the monotonic clock since its first reading in this process,
/// which is where `perf_counter()` starts, as CPython's reference point is
/// arbitrary too.
fn monotonic_nanos() -> u128 {
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    let origin = *ORIGIN.get_or_init(now);
    now().duration_since(origin).as_nanos()
}

/// `time.<name>(*args)`.
pub fn call_time(name: &str, args: &[Value], kwargs: &[(String, Value)]) -> PyResult<Value> {
    if !kwargs.is_empty() {
        return Err(PyErr::type_error(format!(
            "time.{name}() takes no keyword arguments"
        )));
    }
    if name != "sleep" && !args.is_empty() {
        return Err(PyErr::type_error(format!(
            "time.{name}() takes no arguments ({} given)",
            args.len()
        )));
    }
    Ok(match name {
        "time" => Value::Float(wall_seconds()),
        "time_ns" => Value::Int(
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as i64),
        ),
        "perf_counter" | "monotonic" => Value::Float(monotonic_nanos() as f64 / 1e9),
        "perf_counter_ns" | "monotonic_ns" => Value::Int(monotonic_nanos() as i64),
        "sleep" => {
            if args.len() != 1 {
                return Err(PyErr::type_error(format!(
                    "time.sleep() takes exactly one argument ({} given)",
                    args.len()
                )));
            }
            check_sleep_length(&args[0])?;
            Value::None
        }
        _ => {
            return Err(PyErr::not_implemented(format!(
                "time.{name}() is not supported"
            )));
        }
    })
}

/// CPython's checks on `time.sleep`'s argument, with its messages.
fn check_sleep_length(seconds: &Value) -> PyResult<()> {
    let negative = || PyErr::value_error("sleep length must be non-negative");
    match seconds {
        Value::Float(s) if s.is_nan() => {
            Err(PyErr::value_error("Invalid value NaN (not a number)"))
        }
        Value::Float(s) if *s * 1e9 > i64::MAX as f64 => Err(PyErr::new(
            "OverflowError",
            "timestamp out of range for platform time_t",
        )),
        Value::Float(s) if *s < 0.0 => Err(negative()),
        Value::Float(_) => Ok(()),
        other => match other.as_int() {
            Some(s) if s > i64::MAX / 1_000_000_000 => Err(PyErr::new(
                "OverflowError",
                "timestamp too large to convert to C _PyTime_t",
            )),
            Some(s) if s < 0 => Err(negative()),
            Some(_) => Ok(()),
            None => Err(PyErr::type_error(format!(
                "'{}' object cannot be interpreted as an integer",
                other.type_name()
            ))),
        },
    }
}
