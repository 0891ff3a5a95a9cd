//! Throwaway RustPython 0.6.0 embedding spike (native). See ../../REPORT.md for results.
use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use rustpython_vm::{
    AsObject, Interpreter, PyObjectRef, PyResult, VirtualMachine, builtins::PyBaseExceptionRef,
    compiler::Mode, signal::UserSignalSender, Settings,
};

// ---------------------------------------------------------------- per-thread state
thread_local! {
    static RANK: Cell<usize> = const { Cell::new(0) };
    static COORD: RefCell<Option<Arc<Coord>>> = const { RefCell::new(None) };
    static OUT: RefCell<String> = const { RefCell::new(String::new()) };
    static ERR: RefCell<String> = const { RefCell::new(String::new()) };
    static STREAM: Cell<bool> = const { Cell::new(false) };
    static STOP: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
    static FUEL: Cell<u64> = const { Cell::new(u64::MAX) };
    static TRACER: RefCell<Option<PyObjectRef>> = const { RefCell::new(None) };
    static T0: Cell<Option<Instant>> = const { Cell::new(None) };
}
static WRITE_CALLS: AtomicU64 = AtomicU64::new(0);

// ---------------------------------------------------------------- collectives
#[derive(Clone, Debug)]
enum St {
    Running,
    Waiting { op: &'static str, line: i32, value: i64 },
    Done,
}
struct CoordState {
    st: Vec<St>,
    generation: u64,
    // result of the last completed generation: Ok(value) or Err(message)
    result: Result<i64, String>,
}
struct Coord {
    m: Mutex<CoordState>,
    cv: Condvar,
}
impl Coord {
    fn new(n: usize) -> Self {
        Coord {
            m: Mutex::new(CoordState { st: vec![St::Running; n], generation: 0, result: Ok(0) }),
            cv: Condvar::new(),
        }
    }
    /// Called with the lock held whenever a rank changes state.
    fn try_complete(s: &mut CoordState) -> bool {
        let n = s.st.len();
        let waiting: Vec<usize> =
            (0..n).filter(|&r| matches!(s.st[r], St::Waiting { .. })).collect();
        let running = s.st.iter().filter(|x| matches!(x, St::Running)).count();
        if waiting.is_empty() || running > 0 {
            return false; // somebody may still arrive
        }
        // every live rank is blocked in a collective
        let ops: Vec<(usize, &'static str, i32, i64)> = waiting
            .iter()
            .map(|&r| match s.st[r] {
                St::Waiting { op, line, value } => (r, op, line, value),
                _ => unreachable!(),
            })
            .collect();
        let same = ops.iter().all(|o| o.1 == ops[0].1);
        s.result = if waiting.len() < n {
            let done: Vec<String> = (0..n)
                .filter(|&r| matches!(s.st[r], St::Done))
                .map(|r| r.to_string())
                .collect();
            Err(format!(
                "deadlock: rank(s) {} exited while {}",
                done.join(","),
                ops.iter()
                    .map(|o| format!("rank {} waits in {} at line {}", o.0, o.1, o.2))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        } else if !same {
            Err(format!(
                "deadlock: mismatched collectives: {}",
                ops.iter()
                    .map(|o| format!("rank {} called {} at line {}", o.0, o.1, o.2))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        } else {
            Ok(match ops[0].1 {
                "all_reduce" => ops.iter().map(|o| o.3).sum(),
                "broadcast" => ops.iter().find(|o| o.0 == 0).map(|o| o.3).unwrap_or(0),
                _ => 0,
            })
        };
        for r in waiting {
            s.st[r] = St::Running;
        }
        s.generation += 1;
        true
    }
    fn collective(&self, rank: usize, op: &'static str, line: i32, value: i64) -> Result<i64, String> {
        let mut s = self.m.lock().unwrap();
        let generation = s.generation;
        s.st[rank] = St::Waiting { op, line, value };
        if Self::try_complete(&mut s) {
            self.cv.notify_all();
        }
        while s.generation == generation {
            s = self.cv.wait(s).unwrap();
        }
        s.result.clone()
    }
    fn done(&self, rank: usize) {
        let mut s = self.m.lock().unwrap();
        s.st[rank] = St::Done;
        if Self::try_complete(&mut s) {
            self.cv.notify_all();
        }
    }
}

fn current_line(vm: &VirtualMachine) -> i32 {
    vm.current_frame().map(|f| f.lineno()).unwrap_or(-1)
}

fn collective(op: &'static str, value: i64, vm: &VirtualMachine) -> PyResult<i64> {
    let line = current_line(vm);
    let rank = RANK.with(|r| r.get());
    let coord = COORD.with(|c| c.borrow().clone());
    let Some(coord) = coord else { return Ok(value) };
    coord.collective(rank, op, line, value).map_err(|m| vm.new_runtime_error(m))
}

// ---------------------------------------------------------------- native module
#[rustpython_vm::pymodule]
mod _host {
    use rustpython_vm::{
        PyObjectRef, PyResult, VirtualMachine, builtins::PyStrRef, function::FuncArgs,
    };
    use std::sync::atomic::Ordering;

    /// Simulated blocking device read: blocks this OS thread for 1 ms.
    #[pyfunction]
    fn read(x: i64) -> i64 {
        std::thread::sleep(std::time::Duration::from_millis(1));
        x * 2
    }
    #[pyfunction]
    fn rank() -> usize {
        super::RANK.with(|r| r.get())
    }
    #[pyfunction]
    fn line(vm: &VirtualMachine) -> i32 {
        super::current_line(vm)
    }
    #[pyfunction]
    fn all_reduce(value: i64, vm: &VirtualMachine) -> PyResult<i64> {
        super::collective("all_reduce", value, vm)
    }
    #[pyfunction]
    fn broadcast(value: i64, vm: &VirtualMachine) -> PyResult<i64> {
        super::collective("broadcast", value, vm)
    }
    fn emit(which: u8, s: &str) {
        super::WRITE_CALLS.fetch_add(1, Ordering::Relaxed);
        if super::STREAM.with(|x| x.get()) {
            let t = super::T0.with(|t| t.get()).map(|t| t.elapsed().as_micros()).unwrap_or(0);
            eprintln!("[stream fd{} +{}us] {:?}", which, t, s);
        }
        if which == 1 {
            super::OUT.with(|o| o.borrow_mut().push_str(s));
        } else {
            super::ERR.with(|o| o.borrow_mut().push_str(s));
        }
    }
    #[pyfunction]
    fn stdout_write(s: PyStrRef) -> usize {
        let s = s.to_string_lossy();
        emit(1, &s);
        s.chars().count()
    }
    #[pyfunction]
    fn stderr_write(s: PyStrRef) -> usize {
        let s = s.to_string_lossy();
        emit(2, &s);
        s.chars().count()
    }
    /// sys.settrace hook: raises KeyboardInterrupt when the host's stop flag is set
    /// or the fuel (number of trace events) runs out.
    #[pyfunction]
    fn tracer(_args: FuncArgs, vm: &VirtualMachine) -> PyResult<PyObjectRef> {
        let stop = super::STOP.with(|s| s.borrow().as_ref().map(|a| a.load(Ordering::Relaxed)));
        let fuel = super::FUEL.with(|f| {
            let v = f.get().saturating_sub(1);
            f.set(v);
            v
        });
        if stop == Some(true) || fuel == 0 {
            return Err(vm.new_exception_msg(
                vm.ctx.exceptions.keyboard_interrupt.to_owned(),
                "stopped by host (tracer)".into(),
            ));
        }
        Ok(super::TRACER.with(|t| t.borrow().clone()).unwrap_or_else(|| vm.ctx.none()))
    }
    /// sys.monitoring callback (JUMP / PY_START): same stop/fuel check, returns None.
    #[pyfunction]
    fn mon_cb(_args: FuncArgs, vm: &VirtualMachine) -> PyResult<()> {
        let stop = super::STOP.with(|s| s.borrow().as_ref().map(|a| a.load(Ordering::Relaxed)));
        let fuel = super::FUEL.with(|f| {
            let v = f.get().saturating_sub(1);
            f.set(v);
            v
        });
        if stop == Some(true) || fuel == 0 {
            return Err(vm.new_exception_msg(
                vm.ctx.exceptions.keyboard_interrupt.to_owned(),
                "stopped by host (sys.monitoring)".into(),
            ));
        }
        Ok(())
    }
}

// ---------------------------------------------------------------- interpreter setup
const PRELUDE: &str = r#"
import sys, _host
class _HostOut:
    encoding = 'utf-8'
    errors = 'strict'
    def __init__(self, w): self.write = w
    def flush(self): pass
    def isatty(self): return False
sys.stdout = _HostOut(_host.stdout_write)
sys.stderr = _HostOut(_host.stderr_write)
del _HostOut
"#;

fn settings() -> Settings {
    let mut s = Settings::default();
    s.stdio_encoding = Some("utf-8".to_owned());
    s.install_signal_handlers = false;
    if std::env::var("RPS_DYNLIB").is_ok() {
        s.path_list.push(rustpython_pylib::LIB_PATH.to_owned());
    }
    s.argv = vec![ARGV0.get().cloned().unwrap_or_else(|| "-c".to_owned())];
    s
}
static ARGV0: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Build an interpreter with the Rust part of the stdlib, the frozen Python stdlib
/// (or Lib/ from disk with RPS_DYNLIB=1), and our `_host` module.
fn make_interp(signal_tx: Option<Arc<Mutex<Option<UserSignalSender>>>>) -> Interpreter {
    let builder = Interpreter::builder(settings());
    let defs = rustpython_stdlib::stdlib_module_defs(&builder.ctx);
    let host = _host::module_def(&builder.ctx);
    let builder = builder.add_native_modules(&defs).add_native_module(host);
    let builder = if std::env::var("RPS_DYNLIB").is_ok() {
        builder.init_hook(|vm| {
            let st = rustpython_vm::common::rc::PyRc::get_mut(&mut vm.state).unwrap();
            st.config.paths.stdlib_dir = Some(rustpython_pylib::LIB_PATH.to_owned());
            st.config.paths.module_search_paths.insert(0, rustpython_pylib::LIB_PATH.to_owned());
        })
    } else {
        builder.add_frozen_modules(rustpython_pylib::FROZEN_STDLIB).init_hook(|vm| {
            let st = rustpython_vm::common::rc::PyRc::get_mut(&mut vm.state).unwrap();
            st.config.paths.stdlib_dir = Some(rustpython_pylib::LIB_PATH.to_owned());
        })
    };
    let builder = if let Some(slot) = signal_tx {
        builder.init_hook(move |vm| {
            let (tx, rx) = rustpython_vm::signal::user_signal_channel();
            vm.set_user_signal_channel(rx);
            *slot.lock().unwrap() = Some(tx);
        })
    } else {
        builder
    };
    builder.build()
}

fn redirect_stdio(vm: &VirtualMachine) -> PyResult<()> {
    vm.run_string(vm.new_scope_with_builtins(), PRELUDE, "<prelude>")?;
    Ok(())
}

fn run_source(vm: &VirtualMachine, src: &str, path: &str) -> PyResult<()> {
    let scope = vm.new_scope_with_main()?;
    scope.globals.set_item("__file__", vm.ctx.new_str(path).into(), vm)?;
    let code = vm
        .compile(src, Mode::Exec, path)
        .map_err(|err| err.into_pyexception(vm, Some(src)))?;
    vm.run_code_obj(code, scope)?;
    Ok(())
}

fn report_exc(vm: &VirtualMachine, e: PyBaseExceptionRef) {
    vm.print_exception(&e);
}

fn rss_kb() -> u64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap();
    s.lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

fn flush_buffers() {
    OUT.with(|o| print!("{}", std::mem::take(&mut *o.borrow_mut())));
    ERR.with(|o| eprint!("{}", std::mem::take(&mut *o.borrow_mut())));
}

// ---------------------------------------------------------------- modes
const IMPORTS: &str = "import argparse, dataclasses, logging, json, re, typing, collections";

/// `run FILE`: one interpreter, real stdout (optionally via the host writer).
fn mode_run(path: &str) -> i32 {
    let t0 = Instant::now();
    let src = std::fs::read_to_string(path).unwrap();
    let interp = make_interp(None);
    let t_ready = t0.elapsed();
    let hosted = std::env::var("RPS_HOSTOUT").is_ok();
    let rc = interp.enter(|vm| {
        if hosted {
            STREAM.with(|s| s.set(std::env::var("RPS_STREAM").is_ok()));
            T0.with(|t| t.set(Some(Instant::now())));
            redirect_stdio(vm).unwrap();
        }
        if std::env::var("RPS_TRACE").is_ok() {
            install_tracer(vm);
        }
        let r = run_source(vm, &src, path);
        match r {
            Ok(()) => 0,
            Err(e) => {
                report_exc(vm, e);
                1
            }
        }
    });
    // flushes sys.stdout/sys.stderr (buffered TextIOWrapper), runs atexit
    interp.finalize(None);
    if hosted {
        flush_buffers();
        eprintln!("[host] write callback calls: {}", WRITE_CALLS.load(Ordering::Relaxed));
    }
    if std::env::var("RPS_TIME").is_ok() {
        eprintln!("[time] ready {:?} total {:?}", t_ready, t0.elapsed());
    }
    rc
}

const MONITOR: &str = r#"
import sys, _host
m = sys.monitoring
m.use_tool_id(5, "host")
m.register_callback(5, m.events.JUMP, _host.mon_cb)
m.register_callback(5, m.events.PY_START, _host.mon_cb)
m.set_events(5, m.events.JUMP | m.events.PY_START)
"#;
fn install_monitor(vm: &VirtualMachine) {
    vm.run_string(vm.new_scope_with_builtins(), MONITOR, "<monitor>").unwrap();
}

fn install_tracer(vm: &VirtualMachine) {
    let host = vm.import("_host", 0).unwrap();
    let tr = host.get_attr("tracer", vm).unwrap();
    TRACER.with(|t| *t.borrow_mut() = Some(tr.clone()));
    let sys = vm.import("sys", 0).unwrap();
    vm.call_method(&sys, "settrace", (tr,)).unwrap();
}

/// `startup`: time to interpreter ready and to the stdlib imports.
fn mode_startup() -> i32 {
    let t0 = Instant::now();
    let interp = make_interp(None);
    let t_ready = t0.elapsed();
    let (t_imp, t_imp2) = interp.enter(|vm| {
        let a = Instant::now();
        vm.run_string(vm.new_scope_with_builtins(), IMPORTS, "<imports>").unwrap();
        let t1 = t0.elapsed();
        let _ = a;
        vm.run_string(vm.new_scope_with_builtins(), "print('ok')", "<p>").unwrap();
        (t1, t0.elapsed())
    });
    interp.finalize(None);
    eprintln!(
        "[startup] ready {:.1} ms; imports done {:.1} ms; first print {:.1} ms; RSS {} kB",
        t_ready.as_secs_f64() * 1e3,
        t_imp.as_secs_f64() * 1e3,
        t_imp2.as_secs_f64() * 1e3,
        rss_kb()
    );
    0
}

/// `ranks N FILE`: N interpreters on N OS threads.
fn mode_ranks(n: usize, path: &str) -> i32 {
    let src = Arc::new(std::fs::read_to_string(path).unwrap());
    let path = Arc::new(path.to_owned());
    let rss0 = rss_kb();
    let t0 = Instant::now();
    let coord = Arc::new(Coord::new(n));
    let created = Arc::new(std::sync::Barrier::new(n + 1));
    let go = Arc::new(std::sync::Barrier::new(n + 1));
    let mut handles = vec![];
    for rank in 0..n {
        let (src, path, coord, created, go) =
            (src.clone(), path.clone(), coord.clone(), created.clone(), go.clone());
        let h = std::thread::Builder::new()
            .stack_size(16 << 20)
            .spawn(move || {
                RANK.with(|r| r.set(rank));
                COORD.with(|c| *c.borrow_mut() = Some(coord.clone()));
                let interp = make_interp(None);
                interp.enter(|vm| {
                    redirect_stdio(vm).unwrap();
                    if std::env::var("RPS_NOIMPORT").is_err() {
                        vm.run_string(vm.new_scope_with_builtins(), IMPORTS, "<imports>").unwrap();
                    }
                });
                created.wait();
                go.wait();
                let rc = interp.enter(|vm| match run_source(vm, &src, &path) {
                    Ok(()) => 0,
                    Err(e) => {
                        report_exc(vm, e);
                        1
                    }
                });
                coord.done(rank);
                let out = OUT.with(|o| std::mem::take(&mut *o.borrow_mut()));
                let err = ERR.with(|o| std::mem::take(&mut *o.borrow_mut()));
                drop(interp);
                (rc, out, err)
            })
            .unwrap();
        handles.push(h);
    }
    created.wait();
    let t_created = t0.elapsed();
    let rss1 = rss_kb();
    let t1 = Instant::now();
    go.wait();
    let mut rcs = vec![];
    let results: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    let t_run = t1.elapsed();
    for (rank, (rc, out, err)) in results.into_iter().enumerate() {
        rcs.push(rc);
        for l in out.lines() {
            println!("[rank {rank}] {l}");
        }
        for l in err.lines() {
            println!("[rank {rank} stderr] {l}");
        }
    }
    eprintln!(
        "[ranks] N={n} RSS before {rss0} kB, after create+imports {rss1} kB, per rank {:.1} MB; \
         create+import wall {:.2} s; program wall {:.3} s; total {:.2} s; rcs {:?}",
        (rss1 - rss0) as f64 / n as f64 / 1024.0,
        t_created.as_secs_f64(),
        t_run.as_secs_f64(),
        t0.elapsed().as_secs_f64(),
        rcs
    );
    0
}

/// `stop MODE`: stop a runaway `while True: pass` from another thread.
/// MODE = signal | trace | fuel
fn mode_stop(mode: &str, n_ranks: usize) -> i32 {
    let src = std::env::var("RPS_RUNAWAY").unwrap_or_else(|_| "i = 0\nwhile True:\n    i += 1\n".to_owned());
    let mut hs = vec![];
    let mut ctl = vec![];
    for rank in 0..n_ranks {
        let slot: Arc<Mutex<Option<UserSignalSender>>> = Arc::new(Mutex::new(None));
        let stop = Arc::new(AtomicBool::new(false));
        let finished = Arc::new(AtomicBool::new(false));
        ctl.push((slot.clone(), stop.clone(), finished.clone()));
        let mode = mode.to_owned();
        let src = src.clone();
        hs.push(
            std::thread::Builder::new()
                .stack_size(16 << 20)
                .spawn(move || {
                    let interp = make_interp(Some(slot));
                    let t = Instant::now();
                    let msg = interp.enter(|vm| {
                        if mode != "signal" {
                            STOP.with(|s| *s.borrow_mut() = Some(stop));
                            if mode.ends_with("fuel") {
                                FUEL.with(|f| f.set(1_000_000));
                            }
                            if mode.starts_with("mon") { install_monitor(vm) } else { install_tracer(vm) }
                        }
                        match run_source(vm, &src, "<runaway>") {
                            Ok(()) => "finished?!".to_owned(),
                            Err(e) => {
                                let s = e.as_object().str(vm).map(|s| s.to_string()).unwrap_or_default();
                                format!("{}: {} (line {})", e.class().name(), s,
                                    e.traceback().map(|tb| tb.lineno.get()).unwrap_or(0))
                            }
                        }
                    });
                    finished.store(true, Ordering::SeqCst);
                    (rank, msg, t.elapsed())
                })
                .unwrap(),
        );
    }
    std::thread::sleep(Duration::from_millis(500));
    // stop only the LAST rank first, then the others
    let order: Vec<usize> = (0..n_ranks).rev().collect();
    for &r in &order {
        let (slot, stop, finished) = &ctl[r];
        let t = Instant::now();
        let mut pokes = 0u64;
        match mode {
            "signal" => {
                let tx = slot.lock().unwrap().clone().unwrap();
                tx.send(Box::new(|vm: &VirtualMachine| {
                    Err(vm.new_exception_msg(
                        vm.ctx.exceptions.keyboard_interrupt.to_owned(),
                        "stopped by host (user signal)".into(),
                    ))
                }))
                .ok();
                // The eval-breaker bit is process-wide; another interpreter may consume it.
                // Re-poke (no-op closure) until the target reports it stopped.
                let repoke = std::env::var("RPS_NOREPOKE").is_err();
                while !finished.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(1));
                    if t.elapsed() > Duration::from_secs(5) {
                        eprintln!("[stop] rank {r}: NOT stopped after 5 s");
                        break;
                    }
                    if repoke {
                        pokes += 1;
                        tx.send(Box::new(|_vm: &VirtualMachine| Ok(()))).ok();
                    }
                }
            }
            "trace" | "mon" => {
                stop.store(true, Ordering::SeqCst);
                while !finished.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_micros(100));
                    if t.elapsed() > Duration::from_secs(5) {
                        eprintln!("[stop] rank {r}: NOT stopped after 5 s");
                        break;
                    }
                }
            }
            _ => {}
        }
        eprintln!("[stop] rank {r}: stop latency {:?} (re-pokes {pokes})", t.elapsed());
    }
    for h in hs {
        if mode == "fuel" || true {
            let (rank, msg, el) = h.join().unwrap();
            eprintln!("[stop] rank {rank} ran {:?}: {msg}", el);
        }
    }
    0
}

/// `bench FILE [trace|signal]`: time only the run of FILE (after interpreter ready).
fn mode_bench(path: &str, hook: &str) -> i32 {
    let src = std::fs::read_to_string(path).unwrap();
    let slot = Arc::new(Mutex::new(None));
    let interp = make_interp(if hook == "signal" { Some(slot) } else { None });
    interp.enter(|vm| {
        if hook == "trace" || hook == "mon" {
            STOP.with(|s| *s.borrow_mut() = Some(Arc::new(AtomicBool::new(false))));
            if hook == "mon" { install_monitor(vm) } else { install_tracer(vm) }
        }
        let t = Instant::now();
        if let Err(e) = run_source(vm, &src, path) {
            report_exc(vm, e);
        }
        eprintln!("[bench] {path} hook={hook}: {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
    });
    interp.finalize(None);
    0
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(a) = args.get(2).filter(|a| a.ends_with(".py")).or(args.get(3)) {
        let _ = ARGV0.set(a.clone());
    }
    let rc = match args.get(1).map(|s| s.as_str()) {
        Some("run") => mode_run(&args[2]),
        Some("startup") => mode_startup(),
        Some("ranks") => mode_ranks(args[2].parse().unwrap(), &args[3]),
        Some("stop") => mode_stop(&args[2], args.get(3).map(|s| s.parse().unwrap()).unwrap_or(1)),
        Some("bench") => mode_bench(&args[2], args.get(3).map(|s| s.as_str()).unwrap_or("none")),
        _ => {
            eprintln!("usage: rpspike run FILE | startup | ranks N FILE | stop signal|trace|fuel [N] | bench FILE [trace|signal]");
            2
        }
    };
    std::process::exit(rc);
}
