//! The playground's Python: a RustPython 0.6.0 interpreter with the native
//! modules of `rustpython-stdlib` and the Python half of CPython's standard
//! library (`Lib/`, 3.14's, as RustPython ships it). It knows nothing of torch:
//! it runs a program as `python FILE ARGS...` would, with its output captured
//! and streamed, a time limit, and a stop button.
//!
//! What a run gets, as under CPython: `sys.argv` is the path and the
//! arguments, `__name__` is `"__main__"`, `sys.path[0]` is the program's
//! folder (so a module beside it imports), `sys.stdin` is empty (`input()`
//! raises `EOFError`), an uncaught exception prints CPython's traceback to
//! stderr and exits 1, `SystemExit` exits with its code, and `atexit` handlers
//! run at the end. Natively the files are the host's (`open`, `os`,
//! `tempfile`) unless a run asks for memory; in the browser they are always
//! an in-memory file system kept between runs ([`memfs`]), which the
//! embedder fills and reads, and `Lib/` is served by the embedder
//! ([`Options::stdlib`]).

mod depth;
pub mod memfs;
mod modules;
mod output;
pub mod park;
mod posix;
mod stop;
mod watch;

pub use modules::{AtEnd, Extensions, FindModule, ModuleSource, NativeModule, library};
pub use output::{OnOutput, Stream, emit};
/// The RustPython this crate runs, for embedders' native modules.
pub use rustpython_vm;
pub use stop::Stop;
pub use watch::{OnProgress, progress};

use rustpython_vm::builtins::PyBaseExceptionRef;
use rustpython_vm::signal::UserSignalReceiver;
use rustpython_vm::{AsObject, Interpreter, PyResult, Settings, VirtualMachine, compiler::Mode};
use std::path::Path;
use std::time::Duration;

/// The stack a thread that calls [`run`] should have. RustPython's eval loop
/// recurses on the native stack once per Python call; CPython's default
/// recursion limit (1,000 calls) needs about this much in an unoptimised
/// build.
pub const STACK_BYTES: usize = 64 << 20;

/// How to run one program.
#[derive(Default)]
pub struct Options {
    /// The program's path as typed after `python`: `sys.argv[0]`.
    pub path: String,
    /// The folder `path` is relative to, as the working directory is for
    /// `python NAME.py`: joined with `path` it is the absolute `__file__`
    /// CPython gives a script (also the file name in tracebacks), whose
    /// folder is `sys.path[0]`. `None`: no folder (the page's program);
    /// `__file__` is then `path` and nothing is put first on `sys.path`.
    pub folder: Option<std::path::PathBuf>,
    /// `sys.argv[1:]`.
    pub args: Vec<String>,
    /// Past this much wall time the program gets `TimeoutError`.
    pub timeout: Option<Duration>,
    /// A handle another thread uses to stop the program (`KeyboardInterrupt`).
    pub stop: Option<Stop>,
    /// Called with each piece of text as the program writes it.
    pub on_output: Option<OnOutput>,
    /// Called with the line the program is on, about every 0.1 s while its
    /// own code runs (`watch.rs`).
    pub on_progress: Option<OnProgress>,
    /// The embedder's native and Python modules.
    pub extensions: Extensions,
    /// Variables `os.environ` holds besides the host's (a rank's torchrun
    /// variables): this interpreter's alone, not the process's, so ranks on
    /// threads of one process each see their own.
    pub environ: Vec<(String, String)>,
    /// Where `open`, `os` and the rest find the program's files.
    pub files: Files,
    /// `Lib/`, served by the embedder, where the interpreter cannot read it
    /// from rustpython-pylib's folder (the browser). `None` natively.
    pub stdlib: Option<FindModule>,
    /// Runs the program as a process that `multiprocessing` started with
    /// its `spawn` method: see [`Spawned`]. `None`: as `python FILE`.
    pub spawned: Option<Spawned>,
}

/// How a process `multiprocessing` spawned runs its parent's program: the
/// program's file runs as the module `__mp_main__`, which is also
/// `sys.modules["__main__"]` (so an `if __name__ == "__main__":` block does
/// not run, and the parent's functions unpickle by their `__main__` names),
/// and then `then` runs in that interpreter: the process's target.
#[derive(Clone)]
pub struct Spawned {
    pub then: Then,
}

/// What a spawned process runs once its file has run (see [`Spawned`]).
pub type Then = std::rc::Rc<dyn Fn(&VirtualMachine) -> PyResult<()>>;

/// Where a run's files are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Files {
    /// The host's, relative to the working directory, as `python` sees
    /// them. Native only.
    #[cfg_attr(not(target_arch = "wasm32"), default)]
    Host,
    /// [`memfs`]'s, which outlive the run: the program starts in
    /// [`memfs::HOME`], and `/tmp` is there.
    #[cfg_attr(target_arch = "wasm32", default)]
    Memory,
}

impl Options {
    /// The program's file as its code objects and tracebacks name it: the
    /// absolute `__file__` (see [`Options::folder`]).
    pub fn main_file(&self) -> String {
        match &self.folder {
            Some(dir) => dir.join(&self.path).display().to_string(),
            None => self.path.clone(),
        }
    }
}

/// How a run ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Everything written to `sys.stdout`.
    pub stdout: String,
    /// Everything written to `sys.stderr`, an uncaught exception's traceback
    /// included.
    pub stderr: String,
    /// The process's exit status under CPython: 0, `SystemExit`'s code, or 1
    /// after an uncaught exception.
    pub exit_code: i32,
    /// The uncaught exception, when one ended the run (not `SystemExit`).
    pub error: Option<Failure>,
}

/// An uncaught exception, for a diagnostic that names the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The exception's class name: `ZeroDivisionError`.
    pub kind: String,
    /// `str()` of the exception: `division by zero`.
    pub message: String,
    /// The innermost line of the program's own file the traceback passes
    /// through (1-based), or the line of a syntax error.
    pub line: Option<u32>,
    /// Where on that line, as CPython's carets show it: the failing
    /// expression's start and end, 1-based columns in characters, the end
    /// exclusive. `None` where CPython has no position (or no line).
    pub span: Option<Span>,
    /// The traceback as CPython prints it.
    pub traceback: String,
}

/// A stretch of the program's source: 1-based lines and character columns,
/// the end exclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
}

/// Runs `source` as the `__main__` module of a fresh interpreter, on this
/// thread (which should have [`STACK_BYTES`] of stack).
pub fn run(source: &str, options: Options) -> Outcome {
    let Options {
        path,
        folder,
        args,
        timeout,
        stop,
        on_output,
        on_progress,
        extensions,
        environ,
        files,
        stdlib,
        spawned,
    } = options;
    // There is no host file system in the browser.
    let memory = files == Files::Memory || cfg!(target_arch = "wasm32");
    let (signals, watchdog) = stop::Watchdog::start(stop, timeout);
    let file = match &folder {
        Some(dir) => dir.join(&path).display().to_string(),
        None => path.clone(),
    };
    let main_dir = folder
        .as_ref()
        .and_then(|_| Path::new(&file).parent().map(Path::to_path_buf));
    let main_dir = main_dir.filter(|_| !memory);
    let lib_folder = stdlib.is_none();
    let interpreter = interpreter(
        &path,
        main_dir.as_deref(),
        args,
        signals,
        &extensions,
        memory,
        lib_folder,
    );
    output::begin(on_output);
    // Where no watchdog thread can enforce the time limit, the run does.
    let watching = watch::begin(
        on_progress,
        timeout.map(|t| t.as_secs_f64()),
        cfg!(target_arch = "wasm32"),
        &file,
    );
    let serves_modules = extensions.find_module.is_some() || stdlib.is_some();
    let at_end = extensions.at_end.clone();
    let hidden = extensions.hidden_frames.clone();
    modules::begin(extensions.find_module, stdlib);
    let _files = memory.then(memfs::begin_run);

    let result = interpreter.enter(|vm| {
        if serves_modules {
            exec_glue(vm, modules::FINDER, "<tpu-python>/finder.py")?;
        }
        output::install(vm)?;
        #[cfg(target_arch = "wasm32")]
        exec_glue(vm, watch::BROWSER_CLOCKS, "<tpu-python>/clocks.py")?;
        if !lib_folder {
            // What the interpreter imports at start when it finds `Lib/`
            // in a folder: the codecs beyond utf-8, ascii and latin-1.
            vm.import("encodings", 0)?;
        }
        if memory {
            exec_glue(vm, MEMORY_FILES, "<tpu-python>/memory_files.py")?;
        }
        // As CPython does at startup: `help`, `exit`, `quit` and friends.
        vm.import("site", 0)?;
        set_environ(vm, &environ)?;
        let scope = vm.new_scope_with_main()?;
        if spawned.is_some() {
            as_spawned_main(vm, &scope)?;
        }
        if memory {
            // The program is no file here: its lines for tracebacks and
            // `inspect` come from memory, as a module loader's do.
            remember_source(vm, &file, source)?;
        }
        let mut ran = run_main(vm, &scope, source, &file, watching);
        if let (Ok(()), Some(spawned)) = (&ran, &spawned) {
            ran = (spawned.then)(vm);
        }
        if let Some(at_end) = &at_end {
            at_end(vm, &scope.globals);
        }
        ran
    });
    let (exit_code, error) = interpreter.enter(|vm| match result {
        Ok(()) => (0, None),
        Err(exc) => {
            hide_frames(&exc, &hidden);
            ended_by(vm, exc, &file, source)
        }
    });
    // Flushes the streams and runs `atexit` handlers, as CPython does after
    // printing the traceback. The exception is handled above: `finalize` would
    // send SIGINT to this process for a `KeyboardInterrupt`.
    interpreter.finalize(None);
    drop(watchdog);
    watch::end();
    modules::end();
    let (stdout, stderr) = output::end();
    Outcome {
        stdout,
        stderr,
        exit_code,
        error,
    }
}

/// Names the main module `__mp_main__`, under that name in `sys.modules`
/// as well as `__main__`, as `multiprocessing`'s spawn does in a child.
fn as_spawned_main(vm: &VirtualMachine, scope: &rustpython_vm::scope::Scope) -> PyResult<()> {
    // The module's attributes are the scope's globals.
    let name = vm.ctx.new_str("__mp_main__");
    scope.globals.set_item("__name__", name.into(), vm)?;
    let modules = vm.sys_module.get_attr("modules", vm)?;
    let main = modules.get_item("__main__", vm)?;
    modules.set_item("__mp_main__", main, vm)
}

/// Runs one of this crate's Python sources in a fresh namespace. Compiled and
/// run directly: `run_string` would import `linecache`, and with it `os`,
/// before `MEMORY_FILES` has said which `posix` it is.
pub(crate) fn exec_glue(vm: &VirtualMachine, source: &str, name: &str) -> PyResult<()> {
    let code = vm
        .compile(source, Mode::Exec, name)
        .map_err(|err| err.into_pyexception(vm, Some(source)))?;
    vm.run_code_obj(code, vm.new_scope_with_builtins())?;
    Ok(())
}

/// Puts the in-memory files under `os`, `open` and `import`, before
/// anything imports `os` (see `memory_files.py`).
const MEMORY_FILES: &str = include_str!("memory_files.py");

fn interpreter(
    path: &str,
    main_dir: Option<&Path>,
    args: Vec<String>,
    signals: Option<UserSignalReceiver>,
    extensions: &Extensions,
    memory: bool,
    lib_folder: bool,
) -> Interpreter {
    let mut settings = Settings::default();
    // RustPython does not read LANG; the captured streams are UTF-8 text.
    settings.stdio_encoding = Some("utf-8".to_owned());
    settings.install_signal_handlers = false;
    // PYTHONHASHSEED=0, as the corpora were recorded: set iteration order of
    // strings is then the same on every run.
    settings.hash_seed = Some(0);
    // Text files are UTF-8 whatever the host's locale (PEP 540's UTF-8 mode,
    // the default from CPython 3.15): the corpora were recorded under
    // C.UTF-8, and the browser has no locale.
    settings.utf8_mode = 1;
    settings.argv = std::iter::once(path.to_owned()).chain(args).collect();
    if let Some(dir) = main_dir {
        settings.path_list.push(dir.display().to_string());
    }
    if lib_folder {
        settings
            .path_list
            .push(rustpython_pylib::LIB_PATH.to_owned());
    }

    let builder = Interpreter::builder(settings);
    let stdlib = rustpython_stdlib::stdlib_module_defs(&builder.ctx);
    let host = output::_tpu_host::module_def(&builder.ctx);
    let mut embedded: Vec<_> = extensions
        .native
        .iter()
        .map(|def| def(&builder.ctx))
        .collect();
    if memory {
        embedded.push(posix::memory_posix::module_def(&builder.ctx));
    }
    builder
        .add_native_modules(&stdlib)
        .add_native_module(host)
        .add_native_modules(&embedded)
        .init_hook(move |vm| {
            if let Some(signals) = signals {
                vm.set_user_signal_channel(signals);
            }
            if lib_folder {
                let state = rustpython_vm::common::rc::PyRc::get_mut(&mut vm.state)
                    .expect("the interpreter is not shared while it is built");
                state.config.paths.stdlib_dir = Some(rustpython_pylib::LIB_PATH.to_owned());
            }
        })
        .build()
}

/// Puts `environ` into this interpreter's `os.environ` without `putenv`
/// (which would change every interpreter's process).
fn set_environ(vm: &VirtualMachine, environ: &[(String, String)]) -> PyResult<()> {
    if environ.is_empty() {
        return Ok(());
    }
    let os_environ = vm.import("os", 0)?.get_attr("environ", vm)?;
    let data = os_environ.get_attr("_data", vm)?;
    for (key, value) in environ {
        let key = os_environ
            .get_attr("encodekey", vm)?
            .call((vm.ctx.new_str(key.as_str()),), vm)?;
        let value = os_environ
            .get_attr("encodevalue", vm)?
            .call((vm.ctx.new_str(value.as_str()),), vm)?;
        data.set_item(&*key, value, vm)?;
    }
    Ok(())
}

fn run_main(
    vm: &VirtualMachine,
    scope: &rustpython_vm::scope::Scope,
    source: &str,
    path: &str,
    watching: bool,
) -> PyResult<()> {
    scope
        .globals
        .set_item("__file__", vm.ctx.new_str(path).into(), vm)?;
    if let Some(line) = depth::too_deep(source) {
        return Err(too_deep(vm, path, line));
    }
    // RustPython 0.6.0's compiler can panic on some malformed sources (its
    // escape-sequence warnings slice a string inside a character): that is
    // the program's `SyntaxError` at its first line, not a crash.
    let compiled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        vm.compile(source, Mode::Exec, path)
    }));
    let code = match compiled {
        Ok(compiled) => compiled.map_err(|err| err.into_pyexception(vm, Some(source)))?,
        Err(panic) => return Err(compiler_failure(vm, panic.as_ref(), path, source)),
    };
    if watching {
        let glue = vm.new_scope_with_builtins();
        let instrument = vm
            .compile(watch::INSTRUMENT, Mode::Exec, "<tpu-python>/watch.py")
            .map_err(|err| err.into_pyexception(vm, Some(watch::INSTRUMENT)))?;
        vm.run_code_obj(instrument, glue.clone())?;
        glue.globals
            .get_item("_instrument", vm)?
            .call((code.clone(),), vm)?;
    }
    vm.run_code_obj(code, scope.clone())?;
    Ok(())
}

/// CPython's `RecursionError` for a source that nests too deeply to
/// compile (`depth.rs`), placed at `line` as a `SyntaxError` is.
fn too_deep(vm: &VirtualMachine, path: &str, line: u32) -> PyBaseExceptionRef {
    let exc = vm.new_exception_msg(
        vm.ctx.exceptions.recursion_error.to_owned(),
        "maximum recursion depth exceeded during compilation".into(),
    );
    let _ = exc
        .as_object()
        .set_attr("filename", vm.ctx.new_str(path), vm);
    let _ = exc.as_object().set_attr("lineno", vm.ctx.new_int(line), vm);
    exc
}

/// The `SyntaxError` for a source RustPython's compiler panicked on.
fn compiler_failure(
    vm: &VirtualMachine,
    panic: &(dyn std::any::Any + Send),
    path: &str,
    source: &str,
) -> PyBaseExceptionRef {
    let why = panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| panic.downcast_ref::<&str>().copied())
        .unwrap_or("no message");
    let exc = vm.new_exception_msg(
        vm.ctx.exceptions.syntax_error.to_owned(),
        format!("the compiler (RustPython 0.6.0) cannot read this source: {why}").into(),
    );
    let first_line = source.lines().next().unwrap_or("");
    let attributes: [(&str, rustpython_vm::PyObjectRef); 4] = [
        ("filename", vm.ctx.new_str(path).into()),
        ("lineno", vm.ctx.new_int(1).into()),
        ("offset", vm.ctx.new_int(1).into()),
        ("text", vm.ctx.new_str(first_line).into()),
    ];
    for (name, value) in attributes {
        let _ = exc.as_object().set_attr(name, value, vm);
    }
    exc
}

/// Unlinks from `exc`'s traceback the frames of files named with one of the
/// `hidden` prefixes.
fn hide_frames(exc: &PyBaseExceptionRef, hidden: &[String]) {
    if hidden.is_empty() {
        return;
    }
    let shown = |tb: &rustpython_vm::PyRef<rustpython_vm::builtins::PyTraceback>| {
        let code = tb.frame.f_code();
        let file = code.source_path().to_str().unwrap_or("");
        !hidden
            .iter()
            .any(|prefix| file.starts_with(prefix.as_str()))
    };
    let mut entries = Vec::new();
    let mut entry = exc.__traceback__();
    while let Some(tb) = entry {
        entry = tb.next.lock().clone();
        if shown(&tb) {
            entries.push(tb);
        }
    }
    for pair in entries.windows(2) {
        *pair[0].next.lock() = Some(pair[1].clone());
    }
    if let Some(last) = entries.last() {
        *last.next.lock() = None;
    }
    exc.set_traceback(entries.into_iter().next());
}

/// The exit status and failure of a run its exception ended: `SystemExit`'s
/// code, or 1 after printing any other exception as CPython does.
fn ended_by(
    vm: &VirtualMachine,
    exc: PyBaseExceptionRef,
    path: &str,
    source: &str,
) -> (i32, Option<Failure>) {
    if exc.fast_isinstance(vm.ctx.exceptions.system_exit) {
        return (vm.handle_exit_exception(exc) as i32, None);
    }
    // The program's lines for the traceback, wherever its file is (the
    // page's program is no file at all).
    let _ = remember_source(vm, path, source);
    vm.print_exception(&exc);
    let traceback = format_exception(vm, &exc).unwrap_or_else(|_| {
        let mut text = String::new();
        let _ = vm.write_exception(&mut text, &exc);
        text
    });
    let message = exc
        .as_object()
        .str(vm)
        .map(|s| s.to_string())
        .unwrap_or_default();
    let (line, span) = place_in(vm, &exc, path, source);
    let failure = Failure {
        kind: exc.class().name().to_string(),
        message,
        line,
        span,
        traceback,
    };
    (1, Some(failure))
}

/// Puts `source` into `linecache` as `path`'s lines, as a module loader's
/// source is (no modification time, so `checkcache` keeps it).
fn remember_source(vm: &VirtualMachine, path: &str, source: &str) -> PyResult<()> {
    let lines: Vec<_> = source
        .split_inclusive('\n')
        .map(|l| vm.ctx.new_str(l).into())
        .collect();
    let entry = vm.ctx.new_tuple(vec![
        vm.ctx.new_int(source.len()).into(),
        vm.ctx.none(),
        vm.ctx.new_list(lines).into(),
        vm.ctx.new_str(path).into(),
    ]);
    let cache = vm.import("linecache", 0)?.get_attr("cache", vm)?;
    cache.set_item(path, entry.into(), vm)
}

/// `''.join(traceback.format_exception(exc))`: the traceback as CPython
/// prints it.
fn format_exception(vm: &VirtualMachine, exc: &PyBaseExceptionRef) -> PyResult<String> {
    let lines = vm
        .import("traceback", 0)?
        .get_attr("format_exception", vm)?
        .call((exc.clone(),), vm)?;
    let text = vm
        .ctx
        .new_str("")
        .as_object()
        .get_attr("join", vm)?
        .call((lines,), vm)?;
    Ok(text.str(vm)?.to_string())
}

/// The innermost traceback line in `path` and its span, from the code's
/// positions (`co_positions`, as CPython's carets); for a `SyntaxError` in
/// the program itself (or a source too deep to compile), its `lineno` and
/// offsets.
fn place_in(
    vm: &VirtualMachine,
    exc: &PyBaseExceptionRef,
    path: &str,
    source: &str,
) -> (Option<u32>, Option<Span>) {
    let mut place = None;
    let mut entry = exc.__traceback__();
    while let Some(tb) = entry {
        let code = tb.frame.f_code();
        if code.source_path().to_str() == Some(path) {
            let line = u32::try_from(tb.lineno.get()).ok();
            place = line.map(|line| (line, position(vm, &tb, source, line)));
        }
        entry = tb.next.lock().clone();
    }
    if let Some((line, span)) = place {
        return (Some(line), span);
    }
    // A `SyntaxError`, or the `RecursionError` of a source too deep to
    // compile, is placed by its attributes.
    if exc.fast_isinstance(vm.ctx.exceptions.syntax_error)
        || exc.fast_isinstance(vm.ctx.exceptions.recursion_error)
    {
        let attr = |name: &'static str| exc.as_object().get_attr(name, vm).ok();
        let number = |name| attr(name).and_then(|n| n.try_into_value::<u32>(vm).ok());
        let same_file = attr("filename")
            .and_then(|f| f.str(vm).ok())
            .is_some_and(|f| f.to_string() == path);
        if same_file && let Some(line) = number("lineno") {
            let span = number("offset").map(|column| Span {
                line,
                column,
                end_line: number("end_lineno").unwrap_or(line),
                end_column: number("end_offset").unwrap_or(column + 1).max(column + 1),
            });
            return (Some(line), span);
        }
    }
    (None, None)
}

/// The span of a traceback entry's instruction: `co_positions()` at
/// `tb_lasti`, its byte columns turned into characters of `source`'s lines.
fn position(
    vm: &VirtualMachine,
    tb: &rustpython_vm::PyRef<rustpython_vm::builtins::PyTraceback>,
    source: &str,
    line: u32,
) -> Option<Span> {
    let index = usize::try_from(tb.lasti / 2).ok()?;
    let positions = tb
        .frame
        .f_code()
        .as_object()
        .get_attr("co_positions", vm)
        .and_then(|f| f.call((), vm))
        .ok()?;
    let all: Vec<rustpython_vm::PyObjectRef> = positions.try_to_value(vm).ok()?;
    let fields: Vec<rustpython_vm::PyObjectRef> = all.get(index)?.try_to_value(vm).ok()?;
    let number = |i: usize| fields.get(i)?.try_to_value::<usize>(vm).ok();
    let (start, end) = (number(0)? as u32, number(1)? as u32);
    let (column, end_column) = (number(2), number(3));
    if start != line {
        return None;
    }
    let characters = |line: u32, bytes: usize| {
        let text = source.lines().nth(line as usize - 1).unwrap_or("");
        let cut = text.get(..bytes.min(text.len())).unwrap_or(text);
        cut.chars().count() as u32 + 1
    };
    Some(Span {
        line: start,
        column: characters(start, column?),
        end_line: end,
        end_column: characters(end, end_column?),
    })
}
