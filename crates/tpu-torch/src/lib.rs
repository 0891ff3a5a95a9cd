//! The torch surface on `tpu-python` (RustPython): `torch._C` as a native
//! module, the tensor type (`torch._C._TensorBase`, which the prelude's
//! `torch.Tensor` subclasses, so tensors are instances of `torch.Tensor` as in
//! PyTorch), and the Python prelude (`prelude/`, `prelude.rs`) served as the
//! `torch` and `jax` packages.
//!
//! `tpu run` (one process, or ranks: `run_ranks`), `tpu bench` and the page
//! (`tpu-wasm`) use it.

mod args;
mod autograd;
mod capture;
mod code_cache;
mod distributed;
mod factories;
mod generators;
mod indexing;
mod natives;
mod prelude;
mod printing;
mod ranks;
mod runtime;
mod serve;
mod spawn;
mod torch_c;
mod torch_tpu;

use std::rc::Rc;
use tpu_runtime::{Diagnostic, Report, Runtime, SourceSpan};

pub use ranks::{MAX_RANKS, run_ranks};

/// The primitives of `torch._C` this crate has ported so far.
pub const PORTED: &[&str] = natives::PORTED;

/// Runs `source` with `import torch` available, on `runtime`, on this
/// thread (which should have [`tpu_python::STACK_BYTES`] of stack).
pub fn run(
    source: &str,
    runtime: &mut Runtime,
    mut options: tpu_python::Options,
) -> tpu_python::Outcome {
    options
        .extensions
        .native
        .push(torch_c::_tpu_torch::module_def);
    options
        .extensions
        .native
        .push(torch_tpu::_tpu_torch_tpu::module_def);
    options.extensions.find_module = Some(Rc::new(serve::find_module));
    rustpython_vm::builtins::set_unexpected_keyword_hook(serve::exempt_keyword);
    options.extensions.at_end = Some(Rc::new(capture::note_sharding));
    // The glue is what PyTorch does in C++: tracebacks do not show it.
    options.extensions.hidden_frames = vec![serve::GLUE_PREFIX.to_owned()];
    runtime.reset_session_state();
    torch_c::_tpu_torch::reset_seed();
    torch_c::_tpu_torch::reset_default_device();
    torch_c::_tpu_torch::reset_classes();
    generators::reset();
    capture::reset(&options.main_file());
    spawn::begin(source, &options);
    let outcome = runtime::with_runtime_installed(runtime, || tpu_python::run(source, options));
    // The interpreter is gone; so go the objects of it this thread kept.
    torch_c::_tpu_torch::reset_classes();
    generators::reset();
    outcome
}

/// Runs `source` as [`run`] does, starting in eager mode `mode`, and returns
/// the run's Report (what it printed to stdout, the error that ended it, and
/// everything the runtime recorded) with the interpreter's outcome.
pub fn run_report(
    source: &str,
    runtime: &mut Runtime,
    options: tpu_python::Options,
    mode: tpu_runtime::EagerMode,
) -> (Report, tpu_python::Outcome) {
    let mut report = Report {
        backend: Some(runtime.tpu_backend_kind()),
        backend_device: runtime.tpu_device_description(),
        backend_label: runtime.tpu_backend_label().text,
        backend_software: runtime.tpu_backend_label().software,
        ..Report::default()
    };
    let outcome = match runtime.set_mode(mode) {
        Ok(()) => run(source, runtime, options),
        Err(e) => tpu_python::Outcome {
            stderr: format!("{}: {e}\n", e.python_kind()),
            exit_code: 1,
            error: Some(tpu_python::Failure {
                kind: e.python_kind().to_owned(),
                message: e.to_string(),
                line: None,
                span: None,
                traceback: format!("{}: {e}\n", e.python_kind()),
            }),
            ..tpu_python::Outcome::default()
        },
    };
    report.stdout = outcome.stdout.clone();
    report.stderr = outcome.stderr.clone();
    if let Some(failure) = &outcome.error {
        report.diagnostics.push(diagnostic(failure));
        if let Some(before) = report.stderr.strip_suffix(&failure.traceback) {
            report.stderr = before.to_owned();
        }
    }
    // What is still pending (Fused mode) runs now, so every op the program
    // issued is accounted for in the kernels.
    if let Err(e) = runtime.finish_report(&mut report)
        && report.diagnostics.is_empty()
    {
        report.diagnostics.push(Diagnostic {
            kind: e.python_kind().to_owned(),
            message: e.to_string(),
            span: None,
            traceback: format!("{}: {e}\n", e.python_kind()),
        });
    }
    // The program's objects are gone; give their buffers back now.
    runtime.collect_garbage();
    if let Some(world) = spawn::end() {
        report = spawn::as_world(report, world);
    }
    (report, outcome)
}

/// An uncaught exception as the Report's diagnostic, its span the line.
fn diagnostic(failure: &tpu_python::Failure) -> Diagnostic {
    Diagnostic {
        kind: failure.kind.clone(),
        message: failure.message.clone(),
        span: match (failure.span, failure.line) {
            (Some(s), _) => Some(SourceSpan {
                line: s.line,
                column: s.column,
                end_line: s.end_line,
                end_column: s.end_column,
            }),
            (None, Some(line)) => Some(SourceSpan {
                line,
                column: 1,
                end_line: line,
                end_column: 1,
            }),
            (None, None) => None,
        },
        traceback: failure.traceback.clone(),
    }
}
