//! The playground's Python: a RustPython 0.6.0 interpreter with the native modules
//! of `rustpython-stdlib` and the Python part of the standard library (`Lib/`,
//! CPython 3.14's) frozen into the binary. Knows nothing of torch.

use std::cell::RefCell;

use rustpython_vm::{Interpreter, PyResult, Settings, VirtualMachine, compiler::Mode};

thread_local! {
    /// What the running program wrote to `sys.stdout` and `sys.stderr`.
    static CAPTURED: RefCell<(String, String)> = const { RefCell::new((String::new(), String::new())) };
}

/// The host's half of the replaced `sys.stdout`/`sys.stderr`.
#[rustpython_vm::pymodule]
mod _tpu_host {
    use rustpython_vm::builtins::PyStrRef;

    fn write(err: bool, s: &PyStrRef) -> usize {
        let s = s.to_string_lossy();
        super::CAPTURED.with(|c| {
            let mut c = c.borrow_mut();
            if err { &mut c.1 } else { &mut c.0 }.push_str(&s);
        });
        s.chars().count()
    }

    #[pyfunction]
    fn stdout_write(s: PyStrRef) -> usize {
        write(false, &s)
    }

    #[pyfunction]
    fn stderr_write(s: PyStrRef) -> usize {
        write(true, &s)
    }
}

const PRELUDE: &str = r#"
import sys, _tpu_host
class _HostOut:
    encoding = 'utf-8'
    errors = 'strict'
    def __init__(self, write): self.write = write
    def flush(self): pass
    def isatty(self): return False
    def writable(self): return True
sys.stdout = sys.__stdout__ = _HostOut(_tpu_host.stdout_write)
sys.stderr = sys.__stderr__ = _HostOut(_tpu_host.stderr_write)
del _HostOut
"#;

/// Runs `source` as the `__main__` module of a fresh interpreter, with `sys.argv ==
/// [path]`. Returns what it wrote to stdout and stderr (an uncaught exception's
/// traceback included) and its exit status: 0, `SystemExit`'s code, or 1 after an
/// uncaught exception.
pub fn run(source: &str, path: &str) -> (String, String, i32) {
    let mut settings = Settings::default();
    // RustPython does not read LANG; the captured streams are text anyway.
    settings.stdio_encoding = Some("utf-8".to_owned());
    settings.install_signal_handlers = false;
    settings.argv = vec![path.to_owned()];

    let builder = Interpreter::builder(settings);
    let defs = rustpython_stdlib::stdlib_module_defs(&builder.ctx);
    let host = _tpu_host::module_def(&builder.ctx);
    let interp = builder
        .add_native_modules(&defs)
        .add_native_module(host)
        .add_frozen_modules(rustpython_pylib::FROZEN_STDLIB)
        .build();

    CAPTURED.with(|c| *c.borrow_mut() = Default::default());
    // `finalize` (inside `run`) flushes the streams, turns `SystemExit` into its
    // code and prints any other exception to the replaced `sys.stderr`.
    let status = interp.run(|vm| {
        vm.run_string(vm.new_scope_with_builtins(), PRELUDE, "<tpu-prelude>")?;
        run_main(vm, source, path)
    });
    let (out, err) = CAPTURED.with(|c| std::mem::take(&mut *c.borrow_mut()));
    (out, err, status as i32)
}

fn run_main(vm: &VirtualMachine, source: &str, path: &str) -> PyResult<()> {
    let scope = vm.new_scope_with_main()?;
    scope
        .globals
        .set_item("__file__", vm.ctx.new_str(path).into(), vm)?;
    let code = vm
        .compile(source, Mode::Exec, path)
        .map_err(|err| err.into_pyexception(vm, Some(source)))?;
    vm.run_code_obj(code, scope)?;
    Ok(())
}
