//! `_tpu_host`, the interpreter's link to this crate, and the program's
//! `sys.stdout` and `sys.stderr`: small text streams whose
//! writes land here, on the running thread, captured and handed to the host's
//! callback as they happen. `sys.stdin` is an empty stream.

use rustpython_vm::{PyResult, VirtualMachine};
use std::cell::RefCell;

/// Which stream a piece of output was written to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    Stdout,
    Stderr,
}

/// Receives each piece of output as it is written (see
/// [`crate::Options::on_output`]).
pub type OnOutput = Box<dyn FnMut(Stream, &str)>;

#[derive(Default)]
pub(crate) struct Sink {
    stdout: String,
    stderr: String,
    on_output: Option<OnOutput>,
}

thread_local! {
    /// The running program's output (one interpreter per thread).
    static SINK: RefCell<Sink> = RefCell::default();
}

/// Starts capturing for a new run.
pub(crate) fn begin(on_output: Option<OnOutput>) {
    SINK.with(|s| {
        *s.borrow_mut() = Sink {
            on_output,
            ..Sink::default()
        }
    });
}

/// Ends the run's capture: what it wrote to stdout and to stderr.
pub(crate) fn end() -> (String, String) {
    SINK.with(|s| {
        let sink = std::mem::take(&mut *s.borrow_mut());
        (sink.stdout, sink.stderr)
    })
}

/// The run's capture, taken off the thread while the run is parked
/// (`park.rs`).
pub(crate) fn take() -> Sink {
    SINK.with(|s| std::mem::take(&mut *s.borrow_mut()))
}

pub(crate) fn put(sink: Sink) {
    SINK.with(|s| *s.borrow_mut() = sink);
}

/// Writes `text` to the running program's `stream` on this thread, as the
/// program's own writes are (captured, and handed to the host's callback):
/// how the output of the processes a program started reaches its own.
pub fn emit(stream: Stream, text: &str) {
    write(stream, text);
}

fn write(stream: Stream, text: &str) {
    // The callback runs outside the borrow: it may be slow, and must not
    // find the sink borrowed if it panics.
    let callback = SINK.with(|s| {
        let mut sink = s.borrow_mut();
        match stream {
            Stream::Stdout => sink.stdout.push_str(text),
            Stream::Stderr => sink.stderr.push_str(text),
        }
        sink.on_output.take()
    });
    if let Some(mut f) = callback {
        f(stream, text);
        SINK.with(|s| s.borrow_mut().on_output = Some(f));
    }
}

/// The native half of the streams.
#[rustpython_vm::pymodule]
pub(crate) mod _tpu_host {
    use super::Stream;
    use rustpython_vm::builtins::PyStrRef;
    use rustpython_vm::{PyObjectRef, PyResult, VirtualMachine};

    /// The embedder's Python module `name`, for the finder
    /// (`crate::modules::FINDER`).
    #[pyfunction]
    fn find_module(name: PyStrRef, vm: &VirtualMachine) -> PyResult<PyObjectRef> {
        crate::modules::find(&name.to_string_lossy(), vm)
    }

    #[pyfunction]
    fn write(fd: i32, text: PyStrRef) -> usize {
        let text = text.to_string_lossy();
        let stream = if fd == 2 {
            Stream::Stderr
        } else {
            Stream::Stdout
        };
        super::write(stream, &text);
        text.chars().count()
    }

    /// The `sys.monitoring` callback of `crate::watch`.
    #[pyfunction]
    fn tick(event: rustpython_vm::function::FuncArgs, vm: &VirtualMachine) -> PyResult<()> {
        crate::watch::tick(&event, vm)
    }

    /// `time.monotonic` and its kin in the browser (`crate::watch`).
    #[cfg(target_arch = "wasm32")]
    #[pyfunction]
    fn clock() -> f64 {
        crate::watch::now()
    }

    #[cfg(target_arch = "wasm32")]
    #[pyfunction]
    fn clock_ns() -> u64 {
        (crate::watch::now() * 1e9) as u64
    }

    /// `time.time_ns` in the browser: `Date.now()`, in nanoseconds.
    #[cfg(target_arch = "wasm32")]
    #[pyfunction]
    fn time_ns() -> u64 {
        (js_sys::Date::now() * 1e6) as u64
    }

    #[cfg(target_arch = "wasm32")]
    #[pyfunction]
    fn sleep(seconds: f64, vm: &VirtualMachine) -> PyResult<()> {
        crate::watch::sleep(seconds, vm)
    }
}

/// Python's half: text streams over `_tpu_host.write`, set as `sys.stdout`,
/// `sys.stderr` (and their `__std*__` originals), and an empty `sys.stdin`.
const STREAMS: &str = r#"
import io, sys, _tpu_host

class _HostStream(io.TextIOBase):
    encoding = "utf-8"
    errors = "strict"
    line_buffering = False

    def __init__(self, fd, name):
        self._fd = fd
        self._name = name

    @property
    def name(self):
        return self._name

    @property
    def mode(self):
        return "w"

    def writable(self):
        return True

    def isatty(self):
        return False

    def write(self, s):
        if self.closed:
            raise ValueError("I/O operation on closed file.")
        if not isinstance(s, str):
            raise TypeError("write() argument must be str, not " + type(s).__name__)
        return _tpu_host.write(self._fd, s)

    def flush(self):
        if self.closed:
            raise ValueError("I/O operation on closed file.")

sys.stdout = sys.__stdout__ = _HostStream(1, "<stdout>")
sys.stderr = sys.__stderr__ = _HostStream(2, "<stderr>")
sys.stdin = sys.__stdin__ = io.StringIO()
del _HostStream

def _excepthook(exc_type, value, tb):
    # CPython's own format, carets included (RustPython's built-in hook
    # prints no source lines for a program that is not a file on disk).
    import traceback
    traceback.print_exception(exc_type, value, tb, file=sys.stderr)

sys.excepthook = _excepthook
"#;

pub(crate) fn install(vm: &VirtualMachine) -> PyResult<()> {
    crate::exec_glue(vm, STREAMS, "<tpu-streams>")
}
