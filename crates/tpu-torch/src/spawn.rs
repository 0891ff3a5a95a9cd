//! Processes a program starts itself: `torch.multiprocessing.spawn` and
//! `mp.Process` (the prelude's `torch/multiprocessing/`), as the DDP
//! tutorials launch their ranks. The processes started together are the
//! ranks of one world, run exactly as `tpu run --nproc-per-node N` runs a
//! program's ranks (`ranks.rs`), while the program that started them waits
//! in the call: each runs the program's file as the module `__mp_main__`
//! (`tpu_python::Spawned`), as CPython's `spawn` start method does, then
//! its target, unpickled from what the parent pickled. What they print goes
//! to the parent's own output, as the parent's stdout is theirs, at every
//! turn of the world's scheduler. Natively the parent's thread schedules
//! the ranks' threads; in the browser the parent's fiber sets its state
//! aside (`ranks::Parked`) while the ranks' fibers run.
//!
//! The run's Report is then the world's (the ranks' ops, kernels,
//! collectives and timeline), with the parent's output and errors: what the
//! launching process itself computed is not in it.

use crate::args::{Args, items};
use rustpython_vm::builtins::PyBytes;
use rustpython_vm::{AsObject, PyObjectRef, PyResult, VirtualMachine};
use std::cell::RefCell;
use std::sync::{Arc, Mutex};
use tpu_python::Stream;
use tpu_runtime::Report;

/// What the parent's run was started with, which its processes start with
/// too (`sys.argv`, files, standard library, time limit and stop).
pub(crate) struct Context {
    source: String,
    path: String,
    folder: Option<std::path::PathBuf>,
    args: Vec<String>,
    timeout: Option<std::time::Duration>,
    stop: Option<tpu_python::Stop>,
    files: tpu_python::Files,
    stdlib: Option<tpu_python::FindModule>,
}

thread_local! {
    /// The running program's context, while it is not a rank itself.
    static CONTEXT: RefCell<Option<Context>> = const { RefCell::new(None) };
    /// The Report of the last world the running program started.
    static WORLD: RefCell<Option<Report>> = const { RefCell::new(None) };
}

/// Notes what a run that is not a rank starts with, for the processes it
/// may start.
pub(crate) fn begin(source: &str, options: &tpu_python::Options) {
    if crate::ranks::is_rank() {
        return;
    }
    let context = Context {
        source: source.to_owned(),
        path: options.path.clone(),
        folder: options.folder.clone(),
        args: options.args.clone(),
        timeout: options.timeout,
        stop: options.stop.clone(),
        files: options.files,
        stdlib: options.stdlib.clone(),
    };
    CONTEXT.with(|c| *c.borrow_mut() = Some(context));
    WORLD.with(|w| w.borrow_mut().take());
}

/// Ends the run's context; the Report of the world it started, if it
/// started one.
pub(crate) fn end() -> Option<Report> {
    if crate::ranks::is_rank() {
        return None;
    }
    CONTEXT.with(|c| c.borrow_mut().take());
    WORLD.with(|w| w.borrow_mut().take())
}

/// The run's Report once it started a world: the world's, with the
/// parent's output and errors.
pub(crate) fn as_world(report: Report, world: Report) -> Report {
    Report {
        stdout: report.stdout,
        stderr: report.stderr,
        diagnostics: report.diagnostics,
        ..world
    }
}

/// What the processes report to the parent: their output, and the lines
/// they are on (for the parent's progress callback).
enum Relayed {
    Text(Stream, String),
    Line(u32),
}

type Relay = Arc<Mutex<Vec<Relayed>>>;

/// How one process ended, as its target left it: its exit code and, for
/// `spawn`'s processes, the traceback of the exception that ended it.
type Ended = Arc<Mutex<Option<(i32, Option<String>)>>>;

/// `spawn_world(payloads, environ)`: runs one process per pickled payload
/// as the ranks of one world, each with `environ` as its `os.environ`;
/// returns each one's `(exitcode, traceback or None)` and the world's
/// deadlock message or `None`.
pub(crate) fn spawn_world(a: &Args<'_>) -> PyResult {
    let vm = a.vm;
    if crate::ranks::is_rank() {
        return Err(vm.new_runtime_error(
            "a process started by torch.multiprocessing cannot start processes of its own here",
        ));
    }
    let payloads: Vec<Vec<u8>> = items(&a.values[0])
        .unwrap_or_default()
        .iter()
        .map(|p| {
            p.downcast_ref::<PyBytes>()
                .map(|b| b.as_bytes().to_vec())
                .ok_or_else(|| vm.new_type_error("spawn_world takes pickled payloads (bytes)"))
        })
        .collect::<PyResult<_>>()?;
    let environ = pairs(&a.values[1], vm)?;
    let n = payloads.len();
    if n == 0 || n > crate::MAX_RANKS {
        return Err(vm.new_value_error(format!(
            "torch.multiprocessing starts between 1 and {} processes here, not {n}",
            crate::MAX_RANKS
        )));
    }
    let Some(context) = CONTEXT.with(|c| c.borrow_mut().take()) else {
        return Err(vm.new_runtime_error("no program is running to start processes from"));
    };
    let made = crate::runtime::with_runtime(vm, async |rt| {
        Ok(rt.make_world(n).map(|runtimes| (runtimes, rt.mode())))
    })?;
    let (mut runtimes, mode) = match made {
        Ok(made) => made,
        Err(why) => {
            CONTEXT.with(|c| *c.borrow_mut() = Some(context));
            return Err(vm.new_runtime_error(format!(
                "torch.multiprocessing cannot start {n} processes here: {why}"
            )));
        }
    };
    let relay = Relay::default();
    let ended: Vec<Ended> = (0..n).map(|_| Ended::default()).collect();
    let starts = payloads
        .into_iter()
        .zip(&ended)
        .map(|(payload, ended)| crate::ranks::RankStart {
            options: child_options(&context, &environ, payload, ended.clone(), relay.clone()),
            flush: Box::new(|| {}),
        })
        .collect();
    let world = run(&context.source, &mut runtimes, starts, mode, &relay);
    let results = ended
        .iter()
        .zip(world.world.iter().flat_map(|w| &w.ranks))
        .map(|(ended, rank)| {
            let ended = ended.lock().unwrap_or_else(|e| e.into_inner()).take();
            let (code, trace) = match ended {
                Some(ended) => ended,
                // It did not get to its target's end: an error outside it
                // (its traceback is on its stderr), or stopped with the
                // others (terminated, as PyTorch terminates them).
                None => match rank.diagnostics.first() {
                    Some(_) => (1, None),
                    None => (-15, None),
                },
            };
            let trace = match trace {
                Some(t) => vm.ctx.new_str(t).into(),
                None => vm.ctx.none(),
            };
            vm.ctx
                .new_tuple(vec![vm.ctx.new_int(code).into(), trace])
                .into()
        })
        .collect();
    let deadlock = match world.world.as_ref().and_then(|w| w.deadlock.as_ref()) {
        Some(d) => vm.ctx.new_str(d.message.clone()).into(),
        None => vm.ctx.none(),
    };
    WORLD.with(|w| *w.borrow_mut() = Some(world));
    CONTEXT.with(|c| *c.borrow_mut() = Some(context));
    Ok(vm
        .ctx
        .new_tuple(vec![vm.ctx.new_list(results).into(), deadlock])
        .into())
}

/// A list of `(name, value)` string pairs.
fn pairs(v: &PyObjectRef, vm: &VirtualMachine) -> PyResult<Vec<(String, String)>> {
    items(v)
        .unwrap_or_default()
        .iter()
        .map(|pair| {
            let both = items(pair).unwrap_or_default();
            match both.as_slice() {
                [k, v] => Ok((k.str(vm)?.to_string(), v.str(vm)?.to_string())),
                _ => Err(vm.new_type_error("environ must be (name, value) pairs")),
            }
        })
        .collect()
}

/// One process's options: the parent's program, arguments, files and
/// limits; `environ`; its output relayed to the parent; and, once its file
/// has run as `__mp_main__`, its payload's target (`_child_main` in the
/// prelude), whose end it notes in `ended`.
fn child_options(
    context: &Context,
    environ: &[(String, String)],
    payload: Vec<u8>,
    ended: Ended,
    relay: Relay,
) -> tpu_python::Options {
    let then = std::rc::Rc::new(move |vm: &VirtualMachine| -> PyResult<()> {
        vm.import("torch.multiprocessing", 0)?;
        let main = vm
            .sys_module
            .get_attr("modules", vm)?
            .get_item("torch.multiprocessing", vm)?
            .get_attr("_child_main", vm)?;
        let result = match main.call((vm.ctx.new_bytes(payload.clone()),), vm) {
            Ok(result) => result,
            // Stopped with the others (a deadlock, a failed process): it
            // ends quietly, as one PyTorch terminates.
            Err(e) if &*e.as_object().class().name() == crate::distributed::STOPPED => {
                return Ok(());
            }
            Err(e) => return Err(e),
        };
        let (code, trace) = match items(&result).as_deref() {
            Some([code, trace]) => (
                crate::args::as_int(code, vm).unwrap_or(1) as i32,
                (!vm.is_none(trace))
                    .then(|| trace.str(vm).map(|s| s.to_string()))
                    .transpose()?,
            ),
            _ => (1, None),
        };
        *ended.lock().unwrap_or_else(|e| e.into_inner()) = Some((code, trace));
        match code {
            0 => Ok(()),
            code => Err(vm.new_system_exit(vec![vm.ctx.new_int(code).into()].into())),
        }
    });
    tpu_python::Options {
        path: context.path.clone(),
        folder: context.folder.clone(),
        args: context.args.clone(),
        timeout: context.timeout,
        stop: context.stop.clone(),
        on_output: Some(Box::new({
            let relay = relay.clone();
            move |stream, text| {
                relay
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(Relayed::Text(stream, text.to_owned()));
            }
        })),
        on_progress: Some(Box::new(move |line, _| {
            relay
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(Relayed::Line(line));
        })),
        environ: environ.to_vec(),
        files: context.files,
        stdlib: context.stdlib.clone(),
        spawned: Some(tpu_python::Spawned { then }),
        ..tpu_python::Options::default()
    }
}

/// Writes what the processes printed since the last time to the parent's
/// own output, and reports the last line one of them was on.
fn drain(relay: &Mutex<Vec<Relayed>>) {
    let pieces = std::mem::take(&mut *relay.lock().unwrap_or_else(|e| e.into_inner()));
    let mut last_line = None;
    for piece in pieces {
        match piece {
            Relayed::Text(stream, text) => tpu_python::emit(stream, &text),
            Relayed::Line(line) => last_line = Some(line),
        }
    }
    if let Some(line) = last_line {
        tpu_python::progress(line);
    }
}

/// Runs the world natively: the ranks' threads take turns, scheduled from
/// this (the parent's) thread, which keeps its own state meanwhile.
#[cfg(not(target_arch = "wasm32"))]
fn run(
    source: &str,
    runtimes: &mut [tpu_runtime::Runtime],
    starts: Vec<crate::ranks::RankStart>,
    mode: tpu_runtime::EagerMode,
    relay: &Mutex<Vec<Relayed>>,
) -> Report {
    let chips = (0..runtimes.len()).collect();
    let report =
        crate::ranks::run_world(source, runtimes, starts, mode, chips, &mut || drain(relay));
    drain(relay);
    report
}

/// Runs the world in the browser: the parent's state is set aside while the
/// ranks' fibers run on this thread, and put back to write their output.
#[cfg(target_arch = "wasm32")]
fn run(
    source: &str,
    runtimes: &mut [tpu_runtime::Runtime],
    starts: Vec<crate::ranks::RankStart>,
    mode: tpu_runtime::EagerMode,
    relay: &Mutex<Vec<Relayed>>,
) -> Report {
    use crate::ranks::Parked;
    let chips = (0..runtimes.len()).collect();
    let mut parked = Some(Parked::park());
    let report = crate::ranks::run_world(source, runtimes, starts, mode, chips, &mut || {
        if let Some(state) = parked.take() {
            state.resume();
            drain(relay);
            parked = Some(Parked::park());
        }
    });
    if let Some(state) = parked.take() {
        state.resume();
    }
    drain(relay);
    report
}
