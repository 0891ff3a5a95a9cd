//! The runtime a run uses, reachable from `torch._C`'s native functions,
//! which RustPython calls with only the VM. It is installed for the length of
//! one run on the run's thread; a native borrows it for the length of one
//! call and never calls back into Python while it holds it.

use rustpython_vm::{PyResult, VirtualMachine};
use std::cell::Cell;
use tpu_runtime::{Runtime, RuntimeError};

thread_local! {
    static RUNTIME: Cell<*mut Runtime> = const { Cell::new(std::ptr::null_mut()) };
}

/// Runs `f` with `runtime` installed for this thread's natives.
pub(crate) fn with_runtime_installed<R>(runtime: &mut Runtime, f: impl FnOnce() -> R) -> R {
    struct Uninstall(*mut Runtime);
    impl Drop for Uninstall {
        fn drop(&mut self) {
            RUNTIME.with(|r| r.set(self.0));
        }
    }
    let previous = RUNTIME.with(|r| r.replace(runtime as *mut Runtime));
    let _restore = Uninstall(previous);
    f()
}

/// The runtime installed on this thread, taken off it while the run is
/// parked (`ranks.rs`). A run parks inside a native, which has taken it
/// already; this keeps the thread clean whatever parks.
#[cfg(target_arch = "wasm32")]
pub(crate) fn park() -> *mut Runtime {
    RUNTIME.with(|r| r.replace(std::ptr::null_mut()))
}

#[cfg(target_arch = "wasm32")]
pub(crate) fn resume(runtime: *mut Runtime) {
    RUNTIME.with(|r| r.set(runtime));
}

/// `f` with the run's runtime, its future driven to completion (natively a
/// device read blocks this thread until the device answers; a rank's wait
/// for the others passes the turn on, see `ranks.rs`), and a runtime error
/// raised as the Python exception it names.
pub(crate) fn with_runtime<T, F>(vm: &VirtualMachine, f: F) -> PyResult<T>
where
    F: AsyncFnOnce(&mut Runtime) -> Result<T, RuntimeError>,
{
    with_runtime_raw(vm, f)?.map_err(|e| runtime_error(vm, &e))
}

/// `with_runtime`, with `f`'s result as it is.
pub(crate) fn with_runtime_raw<T, F>(vm: &VirtualMachine, f: F) -> PyResult<T>
where
    F: AsyncFnOnce(&mut Runtime) -> T,
{
    let pointer = RUNTIME.with(|r| r.replace(std::ptr::null_mut()));
    if pointer.is_null() {
        return Err(vm.new_runtime_error(
            "torch is not available here: no runtime is installed (or it is busy)",
        ));
    }
    struct Restore(*mut Runtime);
    impl Drop for Restore {
        fn drop(&mut self) {
            RUNTIME.with(|r| r.set(self.0));
        }
    }
    let _restore = Restore(pointer);
    // SAFETY: the pointer was installed by `with_runtime_installed` from a
    // `&mut Runtime` that outlives the run, and is taken out of the cell
    // while it is used here, so no second reference exists.
    let runtime = unsafe { &mut *pointer };
    // The ops this call dispatches are the user's line's, as the Report
    // attributes them.
    runtime.set_line(Some(crate::capture::user_line(vm)).filter(|&l| l > 0));
    Ok(crate::ranks::block_on(f(runtime)))
}

/// A runtime error as the Python exception its kind names.
pub(crate) fn runtime_error(
    vm: &VirtualMachine,
    e: &RuntimeError,
) -> rustpython_vm::builtins::PyBaseExceptionRef {
    let kind = e.python_kind();
    let class = vm
        .builtins
        .get_attr(kind, vm)
        .ok()
        .and_then(|c| c.downcast::<rustpython_vm::builtins::PyType>().ok())
        .unwrap_or_else(|| vm.ctx.exceptions.runtime_error.to_owned());
    vm.new_exception_msg(class, e.to_string().into())
}
