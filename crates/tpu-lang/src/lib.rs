//! The Python subset that user programs are written in. `run` parses a program
//! with ruff's parser, interprets it against a `Runtime`, and returns the `Report`.
//! A program never panics the host: syntax errors, unknown names, shape errors and
//! unsupported constructs all come back as diagnostics with a line and column.
//!
//! The crate has two halves. `python/` is the language: parsing, the async
//! interpreter, Python's values, built-ins and tracebacks; it knows tensors only
//! as values it hands on. `torch/` is the torch surface: the `torch` module's Rust
//! part, the `torch._C` primitives, tensor attributes, methods and operators,
//! indexing, `torch_tpu`, and the Python prelude that builds PyTorch's API on top
//! of `torch._C`. Everything that computes a tensor is a runtime call.

pub mod conformance;
mod python;
mod ranks;
mod torch;

pub use python::error::PyErr;
pub use python::source::SourceFile;
pub use python::value::float_repr;
pub use ranks::{MAX_RANKS, run_ranks};
pub use torch::surface;

/// The Python prelude as data, for an embedder running it on another
/// interpreter (`crates/tpu-torch` on RustPython).
pub mod prelude_files {
    pub use crate::python::library::{SHADOWED_BUILTINS, library_files};
    pub use crate::torch::module::{TORCH_DTYPES, TORCH_FUNCTIONS};
    pub use crate::torch::prelude::{imported_with, is_missing_submodule};
    pub use crate::torch::pytorch_names::is_pytorch_name;
}

use python::{error, guard, interp};
use std::rc::Rc;
use std::time::Duration;
use tpu_runtime::{Report, Runtime};

/// The stack a native thread running `run` should have: the interpreter recurses
/// on it, and its call limit (`MAX_CALLS`) was sized against this.
pub const NATIVE_STACK_BYTES: usize = 256 << 20;

/// Options for one run.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The file name shown in tracebacks.
    pub filename: String,
    /// Statements, loop iterations and calls the program may execute before it is
    /// stopped as a runaway.
    pub fuel: u64,
    /// The eager mode the run starts in (`torch_tpu.set_eager_mode` may change
    /// it): Strict by default, as in TorchTPU.
    pub mode: tpu_runtime::EagerMode,
    /// Suspend the run (return `Pending` to the executor once, waking itself) at
    /// every this-many-th Python call: the hook that lets an executor interleave
    /// programs (ranks) or stop one between calls. `None` never suspends except
    /// at device reads.
    pub suspend_every_calls: Option<u32>,
    /// Called with each piece of text the program writes to stdout, as soon as
    /// it is written (`report.stdout` still holds all of it at the end).
    pub on_output: Option<OutputSink>,
    /// Called with the line being executed and the wall time since the run
    /// began, at most every `PROGRESS_INTERVAL`.
    pub on_progress: Option<ProgressHook>,
    /// Wall-clock limit: past it the run ends in `TimeoutError` naming the
    /// line, checked where fuel is burned.
    pub timeout: Option<Duration>,
}

/// How often at most `RunOptions::on_progress` is called.
pub const PROGRESS_INTERVAL: Duration = Duration::from_millis(100);

/// Receives the program's output as it is written (see `RunOptions::on_output`).
#[derive(Clone)]
pub struct OutputSink(pub Rc<dyn Fn(&str)>);

impl OutputSink {
    pub fn new(f: impl Fn(&str) + 'static) -> Self {
        OutputSink(Rc::new(f))
    }
}

impl std::fmt::Debug for OutputSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OutputSink(..)")
    }
}

/// Receives the line being executed (1-based, in the user's file) and the wall
/// time since the run began (see `RunOptions::on_progress`).
#[derive(Clone)]
pub struct ProgressHook(pub Rc<dyn Fn(u32, Duration)>);

impl ProgressHook {
    pub fn new(f: impl Fn(u32, Duration) + 'static) -> Self {
        ProgressHook(Rc::new(f))
    }
}

impl std::fmt::Debug for ProgressHook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ProgressHook(..)")
    }
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            filename: "main.py".into(),
            fuel: 10_000_000,
            suspend_every_calls: None,
            mode: tpu_runtime::EagerMode::Strict,
            on_output: None,
            on_progress: None,
            timeout: None,
        }
    }
}

/// Runs `source` to completion (or to its first error) on `runtime`. The runtime
/// outlives the run so that a session (the page, a test) keeps its device and its
/// compiled kernels from one run to the next.
pub async fn run(source: &str, runtime: &mut Runtime, options: &RunOptions) -> Report {
    let file = Rc::new(SourceFile::new(&options.filename, source));
    let mut report = backend_report(runtime);
    let parsed = match parse(&file, source) {
        Ok(parsed) => parsed,
        Err(diagnostic) => {
            report.diagnostics.push(*diagnostic);
            return report;
        }
    };
    exec(parsed.syntax(), &file, runtime, options, None, &mut report).await;
    report
}

/// A Report that names the backend `runtime` runs `tpu` tensors on.
fn backend_report(runtime: &Runtime) -> Report {
    Report {
        backend: Some(runtime.tpu_backend_kind()),
        backend_device: runtime.tpu_device_description(),
        backend_label: runtime.tpu_backend_label().text,
        backend_software: runtime.tpu_backend_label().software,
        ..Report::default()
    }
}

/// The pre-parse nesting check, then ruff's parser.
fn parse(
    file: &Rc<SourceFile>,
    source: &str,
) -> Result<ruff_python_parser::Parsed<ruff_python_ast::ModModule>, Box<tpu_runtime::Diagnostic>> {
    if let Err((message, range)) = guard::check(source) {
        return Err(Box::new(error::syntax_error(file, &message, range)));
    }
    ruff_python_parser::parse_module(source)
        .map_err(|e| Box::new(error::syntax_error(file, &e.error.to_string(), e.location)))
}

/// Runs a parsed program on `runtime` into `report`; `environ` is what
/// `os.environ` holds (a rank's torchrun variables). Returns the user's line
/// the program was at when it ended.
async fn exec(
    module: &ruff_python_ast::ModModule,
    file: &Rc<SourceFile>,
    runtime: &mut Runtime,
    options: &RunOptions,
    environ: Option<Vec<(String, String)>>,
    report: &mut Report,
) -> u32 {
    runtime.reset_session_state();
    if let Err(e) = runtime.set_mode(options.mode) {
        report.diagnostics.push(PyErr::from(e).to_diagnostic());
        return 1;
    }
    let mut interp = interp::Interpreter::new(runtime, file.clone(), options.fuel);
    interp.suspend_every_calls = options.suspend_every_calls;
    interp.watch = python::watch::Watch::new(options);
    if let Some(environ) = environ {
        interp.environ = environ;
    }
    let result = interp.exec_block(&module.body).await;
    if let Err(e) = result {
        let e = e.leave_frame(file, "<module>");
        report.diagnostics.push(e.to_diagnostic());
    }
    let line = interp.watch.line;
    interp.note_sharding().await;
    report.stdout = interp.take_stdout();
    interp.teardown();
    drop(interp);
    // What is still pending (Fused mode) runs now, so every op the program
    // issued is accounted for in the kernels.
    if let Err(e) = runtime.finish_report(report)
        && report.diagnostics.is_empty()
    {
        report.diagnostics.push(PyErr::from(e).to_diagnostic());
    }
    // The program's variables are gone; give their buffers back now.
    runtime.collect_garbage();
    line
}
