//! Watching a run from inside it: the line it is on, reported as it runs, and
//! its time limit where no second thread can enforce one (wasm32: see
//! `stop.rs` for the native watchdog). Both ride on `sys.monitoring`
//! (PEP 669): the program's own code objects, and none of the standard
//! library's or the embedder's, report each backward jump (a loop turning)
//! and each start of a function to `_tpu_host.tick`. So a runaway loop or
//! recursion in the program is seen, and code the program calls runs
//! unwatched, at full speed.
//!
//! Also the clocks wasm32's `std` lacks: `time.monotonic`, `perf_counter`,
//! `process_time` and `thread_time` panic there in RustPython 0.6.0, so the
//! browser's run gets them from `performance.now()`, and `time.sleep`
//! suspends the run on a timer (JavaScript Promise Integration) instead of
//! spinning.

use rustpython_vm::{PyResult, VirtualMachine};
use std::cell::RefCell;

/// Receives the program's line and the seconds since the run began, at most
/// every [`EVERY`] seconds while its code runs.
pub type OnProgress = Box<dyn FnMut(u32, f64)>;

/// How often progress is reported.
const EVERY: f64 = 0.1;

/// The clock is read at every this many events: reading it (a call into
/// JavaScript in the browser) is most of an event's cost otherwise.
const CLOCK_EVERY: u32 = 16;

/// Seconds on a monotonic clock.
pub(crate) fn now() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::JsCast;
        let performance = js_sys::Reflect::get(&js_sys::global(), &"performance".into())
            .ok()
            .filter(|p| !p.is_undefined());
        let now = performance.as_ref().and_then(|p| {
            let f = js_sys::Reflect::get(p, &"now".into()).ok()?;
            f.dyn_into::<js_sys::Function>()
                .ok()?
                .call0(p)
                .ok()?
                .as_f64()
        });
        now.unwrap_or_else(js_sys::Date::now) / 1e3
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        use std::sync::OnceLock;
        use std::time::Instant;
        static START: OnceLock<Instant> = OnceLock::new();
        START.get_or_init(Instant::now).elapsed().as_secs_f64()
    }
}

pub(crate) struct Watch {
    events: u32,
    started: f64,
    reported: f64,
    timeout: Option<f64>,
    on_progress: Option<OnProgress>,
    main_file: String,
}

thread_local! {
    static WATCH: RefCell<Option<Watch>> = const { RefCell::new(None) };
}

/// Starts watching a run (its time limit is enforced here only where
/// `enforce_timeout`); whether anything is to be watched.
pub(crate) fn begin(
    on_progress: Option<OnProgress>,
    timeout: Option<f64>,
    enforce_timeout: bool,
    main_file: &str,
) -> bool {
    let timeout = timeout.filter(|_| enforce_timeout);
    let watching = on_progress.is_some() || timeout.is_some();
    let started = now();
    WATCH.with(|w| {
        *w.borrow_mut() = watching.then(|| Watch {
            events: 0,
            started,
            reported: started,
            timeout,
            on_progress,
            main_file: main_file.to_owned(),
        })
    });
    watching
}

pub(crate) fn end() {
    WATCH.with(|w| w.borrow_mut().take());
}

/// The run's watch, taken off the thread while the run is parked
/// (`park.rs`).
pub(crate) fn take() -> Option<Watch> {
    WATCH.with(|w| w.borrow_mut().take())
}

pub(crate) fn put(watch: Option<Watch>) {
    WATCH.with(|w| *w.borrow_mut() = watch);
}

/// Reports `line` as where the running program is, through its progress
/// callback, if it has one: the line the processes it started are on
/// while it waits for them.
pub fn progress(line: u32) {
    let due = WATCH.with(|w| {
        let mut w = w.borrow_mut();
        let watch = w.as_mut()?;
        let callback = watch.on_progress.take()?;
        Some((callback, now() - watch.started))
    });
    if let Some((mut callback, elapsed)) = due {
        callback(line, elapsed);
        WATCH.with(|w| {
            if let Some(watch) = w.borrow_mut().as_mut() {
                watch.on_progress = Some(callback);
            }
        });
    }
}

/// `_tpu_host.tick(code, offset, ...)`: the monitoring callback.
pub(crate) fn tick(event: &rustpython_vm::function::FuncArgs, vm: &VirtualMachine) -> PyResult<()> {
    let due = WATCH.with(|w| {
        let mut w = w.borrow_mut();
        let watch = w.as_mut()?;
        watch.events = watch.events.wrapping_add(1);
        if watch.events % CLOCK_EVERY != 0 {
            return None;
        }
        let now = now();
        if let Some(limit) = watch.timeout
            && now - watch.started > limit
        {
            watch.timeout = None;
            return Some(Err(limit));
        }
        if watch.on_progress.is_some() && now - watch.reported >= EVERY {
            watch.reported = now;
            return Some(Ok((watch.main_file.clone(), now - watch.started)));
        }
        None
    });
    match due {
        None => Ok(()),
        Some(Err(limit)) => Err(vm.new_exception_msg(
            vm.ctx.exceptions.timeout_error.to_owned(),
            format!("the program ran past its time limit of {limit} s").into(),
        )),
        Some(Ok((main_file, elapsed))) => {
            let line = line_of(event, vm, &main_file);
            if line == 0 {
                // The program's code is starting: no line of it yet.
                return Ok(());
            }
            // Taken out while it runs: it may print, which must not find
            // the watch borrowed.
            let callback = WATCH.with(|w| w.borrow_mut().as_mut()?.on_progress.take());
            if let Some(mut callback) = callback {
                callback(line, elapsed);
                WATCH.with(|w| {
                    if let Some(watch) = w.borrow_mut().as_mut() {
                        watch.on_progress = Some(callback);
                    }
                });
            }
            Ok(())
        }
    }
}

/// The line of the event (the code and the offset of its instruction, as
/// `sys.monitoring` passes them; the frame's own position is not updated
/// yet), else the innermost line of `file` on the stack, else 0.
fn line_of(event: &rustpython_vm::function::FuncArgs, vm: &VirtualMachine, file: &str) -> u32 {
    if let [code, offset, ..] = event.args.as_slice()
        && let Some(code) = code.downcast_ref::<rustpython_vm::builtins::PyCode>()
        && code.source_path().to_str() == Some(file)
        && let Ok(offset) = offset.try_to_value::<i32>(vm)
    {
        return code.addr2line(offset).max(0) as u32;
    }
    let mut frame = vm.current_frame();
    while let Some(f) = frame {
        if f.f_code().source_path().to_str() == Some(file) {
            return f.lineno().max(0) as u32;
        }
        frame = f.f_back(vm);
    }
    0
}

/// Instruments the program's code objects (`code` and every one nested in
/// it) to call `_tpu_host.tick`, with a tool id of its own.
pub(crate) const INSTRUMENT: &str = r#"
import sys, _tpu_host
def _instrument(code):
    monitoring = sys.monitoring
    tool = 4
    monitoring.use_tool_id(tool, "tpu-python")
    events = monitoring.events.JUMP | monitoring.events.PY_START
    monitoring.register_callback(tool, monitoring.events.JUMP, _tpu_host.tick)
    monitoring.register_callback(tool, monitoring.events.PY_START, _tpu_host.tick)
    todo = [code]
    while todo:
        c = todo.pop()
        monitoring.set_local_events(tool, c, events)
        todo.extend(k for k in c.co_consts if isinstance(k, type(c)))
"#;

/// What the browser's `time` lacks (see the module documentation): the
/// clocks, `sleep`, and the wall clock in nanoseconds, which RustPython
/// reads from `SystemTime` (a panic on wasm32); the calendar functions
/// called without a time read the same clock, so they are given one, and
/// so does `_datetime`, so `datetime` is CPython's `_pydatetime`.
#[cfg(target_arch = "wasm32")]
pub(crate) const BROWSER_CLOCKS: &str = r#"
import time, _tpu_host
time.monotonic = time.perf_counter = time.process_time = time.thread_time = _tpu_host.clock
time.monotonic_ns = time.perf_counter_ns = time.process_time_ns = time.thread_time_ns = _tpu_host.clock_ns
time.sleep = _tpu_host.sleep
time.time_ns = _tpu_host.time_ns

def _weekday(year, month, day):
    # Monday is 0 (Sakamoto's method, proleptic Gregorian): RustPython's
    # struct_time on wasm32 counts the weekday from Sunday.
    if month < 3:
        year -= 1
    offset = (0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4)[month - 1]
    return (year + year // 4 - year // 100 + year // 400 + offset + day + 6) % 7

def _given(native, calendar):
    def clocked(secs=None):
        st = native(time.time() if secs is None else secs)
        if not calendar:
            return st
        wday = _weekday(st.tm_year, st.tm_mon, st.tm_mday)
        if wday == st.tm_wday:
            return st
        return time.struct_time(tuple(st)[:6] + (wday,) + tuple(st)[7:9] + (st.tm_zone, st.tm_gmtoff))
    clocked.__name__ = clocked.__qualname__ = native.__name__
    return clocked

time.localtime = _given(time.localtime, True)
time.gmtime = _given(time.gmtime, True)
time.ctime = _given(time.ctime, False)
_asctime, _strftime = time.asctime, time.strftime

def asctime(t=None):
    return _asctime(time.localtime() if t is None else t)

def strftime(format, t=None):
    return _strftime(format, time.localtime() if t is None else t)

time.asctime, time.strftime = asctime, strftime
del _given, asctime, strftime
# `datetime` from CPython's pure `_pydatetime` (on `time`, as given here):
# RustPython's `_datetime` reads `SystemTime`, a panic on wasm32.
import sys
sys.modules["_datetime"] = None
# The browser's calendar is UTC, as the corpora were recorded (TZ=UTC).
for _name, _value in (("tzname", ("UTC", "UTC")), ("timezone", 0), ("altzone", 0), ("daylight", 0)):
    if not hasattr(time, _name):
        setattr(time, _name, _value)
"#;

/// `time.sleep` in the browser: the run's wasm stack is suspended on a timer.
#[cfg(target_arch = "wasm32")]
pub(crate) fn sleep(seconds: f64, vm: &VirtualMachine) -> PyResult<()> {
    use wasm_bindgen::{JsCast, JsValue};
    if seconds.is_nan() || seconds < 0.0 {
        return Err(vm.new_value_error("sleep length must be non-negative"));
    }
    let set_timeout = js_sys::Reflect::get(&js_sys::global(), &"setTimeout".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .ok_or_else(|| vm.new_os_error("time.sleep: this page has no setTimeout"))?;
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = set_timeout.call2(&JsValue::NULL, &resolve, &(seconds * 1e3).into());
    });
    // Experimental in wasm-bindgen 0.2.130, hence deprecated there.
    #[allow(deprecated)]
    js_sys::futures::jspi_block_on_promise(&promise)
        .map(|_| ())
        .map_err(|_| vm.new_os_error("time.sleep: the run cannot be suspended here"))
}
