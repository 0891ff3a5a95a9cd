//! Spike: RustPython 0.6.0 in wasm32-unknown-unknown, driven through raw exports so the
//! page can wrap them with JSPI (`WebAssembly.promising`) and provide `host.*` imports as
//! `WebAssembly.Suspending` functions.
use rustpython_vm::{
    self as vm, Interpreter, Settings, VirtualMachine, builtins::PyStrRef, scope::Scope,
};
use std::cell::Cell;

// Raw wasm imports: module "host". JS provides them (Suspending-wrapped where async).
#[link(wasm_import_module = "host")]
unsafe extern "C" {
    #[link_name = "read"]
    fn host_read(x: f64) -> f64;
    #[link_name = "collective"]
    fn host_collective(rank: i32, v: f64) -> f64;
    /// Yields to the event loop; returns 1 when the page asked to stop.
    /// Plain (non-suspending) import: JS writes `v` into the exported `__stack_pointer`
    /// when shadow-stack switching is on.
    #[link_name = "set_sp"]
    fn host_set_sp(v: usize);
    #[link_name = "poll"]
    fn host_poll() -> i32;
}

fn poll_hook(vm: &VirtualMachine) -> vm::PyResult<()> {
    if suspend(|| unsafe { host_poll() }) != 0 {
        Err(vm.new_exception_empty(vm.ctx.exceptions.keyboard_interrupt.to_owned()))
    } else {
        Ok(())
    }
}

/// every = 0 disables the poll hook; otherwise call host.poll every `every` instructions.
#[unsafe(no_mangle)]
pub extern "C" fn rp_set_poll(every: u32) {
    vm::vm::thread::spike_set_poll(every, if every == 0 { None } else { Some(poll_hook) });
}

thread_local! {
    // 1 = save/restore RustPython's thread-local VM stack around each suspension.
    static SWITCH_VM_STACK: Cell<bool> = const { Cell::new(true) };
}

/// Call a suspending import with RustPython's VM stack parked (spike patch in the vm).
/// Also restores this stack's shadow-stack pointer right after the wasm stack resumes
/// (doing it from a JS `.then` is wrong: several resumptions can be queued behind it).
#[inline(never)]
fn suspend<R>(f: impl FnOnce() -> R) -> R {
    let sp = psm::stack_pointer() as usize;
    let r = if SWITCH_VM_STACK.with(|c| c.get()) {
        // RustPython keeps two per-thread stacks that a suspended run must take with it:
        // the stack of current VMs and the head of the frame chain (frames link to
        // `previous` through a thread-local, not through the VM).
        let saved = vm::vm::thread::spike_take_vm_stack();
        let frame = vm::vm::thread::set_current_frame_nosave(core::ptr::null());
        let r = f();
        unsafe { host_set_sp(sp) };
        let _ = vm::vm::thread::set_current_frame_nosave(frame);
        vm::vm::thread::spike_put_vm_stack(saved);
        r
    } else {
        let r = f();
        unsafe { host_set_sp(sp) };
        r
    };
    r
}

#[vm::pymodule]
mod _host {
    use super::*;

    #[pyfunction]
    fn read(x: f64) -> f64 {
        suspend(|| unsafe { host_read(x) })
    }

    #[pyfunction]
    fn collective(rank: i32, v: f64) -> f64 {
        suspend(|| unsafe { host_collective(rank, v) })
    }

    #[pyfunction]
    fn ident(s: PyStrRef) -> PyStrRef {
        s
    }
}

#[cfg(feature = "subset")]
static SUBSET: &rustpython_compiler_core::frozen::FrozenLib =
    rustpython_derive::py_freeze!(dir = "../../Lib-subset", crate_name = "rustpython_compiler_core");

struct Rank {
    interp: Interpreter,
    scope: Scope,
}

const PRELUDE: &str = r#"
import sys
class _W:
    def __init__(self): self.buf = []
    def write(self, s):
        self.buf.append(s)
        return len(s)
    def flush(self): pass
sys.stdout = sys.stderr = _W()
"#;

fn make_rank() -> Rank {
    let mut settings = Settings::default();
    settings.stdio_encoding = Some("utf-8".to_owned());
    settings.import_site = false;
    let builder = Interpreter::builder(settings);
    let mut defs = rustpython_stdlib::stdlib_module_defs(&builder.ctx);
    defs.push(_host::module_def(&builder.ctx));
    let builder = builder.add_native_modules(&defs);
    #[cfg(feature = "subset")]
    let builder = builder.add_frozen_modules(SUBSET);
    #[cfg(feature = "pylib")]
    let builder = builder.add_frozen_modules(rustpython_pylib::FROZEN_STDLIB);
    let interp = builder.build();
    let scope = interp.enter(|vm| {
        let scope = vm.new_scope_with_main().expect("main scope");
        vm.run_code_string(scope.clone(), PRELUDE, "<prelude>")
            .expect("prelude");
        scope
    });
    Rank { interp, scope }
}

static mut RANKS: Vec<*mut Rank> = Vec::new();

/// Create a new interpreter; returns its index.
#[unsafe(no_mangle)]
pub extern "C" fn rp_new() -> u32 {
    let r = Box::into_raw(Box::new(make_rank()));
    unsafe {
        let v = &mut *core::ptr::addr_of_mut!(RANKS);
        v.push(r);
        (v.len() - 1) as u32
    }
}

#[unsafe(no_mangle)]
pub extern "C" fn rp_alloc(len: usize) -> *mut u8 {
    let mut v = Vec::<u8>::with_capacity(len.max(1));
    let p = v.as_mut_ptr();
    core::mem::forget(v);
    p
}

#[unsafe(no_mangle)]
pub unsafe extern "C" fn rp_free(p: *mut u8, cap: usize) {
    drop(unsafe { Vec::from_raw_parts(p, 0, cap.max(1)) });
}

/// Allocate a shadow-stack region; returns its (16-aligned) top address.
#[unsafe(no_mangle)]
pub extern "C" fn rp_alloc_stack(size: usize) -> usize {
    let p = rp_alloc(size + 16) as usize;
    (p + size) & !15
}

#[unsafe(no_mangle)]
pub extern "C" fn rp_set_switch_vm_stack(on: u32) {
    SWITCH_VM_STACK.with(|c| c.set(on != 0));
}

/// Run `src` (UTF-8 at ptr/len, ownership passes to us) in interpreter `idx`.
/// Returns a pointer to [u32 len][bytes] holding the captured output (owned by the caller:
/// free with rp_free(p, len+4)).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rp_run(idx: u32, ptr: *mut u8, len: usize) -> *mut u8 {
    let src = unsafe { String::from_raw_parts(ptr, len, len.max(1)) };
    let rank: &Rank = unsafe { &*(&*core::ptr::addr_of!(RANKS))[idx as usize] };
    let out = rank.interp.enter(|vm| run_in(vm, &rank.scope, &src));
    let mut buf = Vec::with_capacity(out.len() + 4);
    buf.extend_from_slice(&(out.len() as u32).to_le_bytes());
    buf.extend_from_slice(out.as_bytes());
    let p = buf.as_mut_ptr();
    core::mem::forget(buf);
    p
}

fn run_in(vm: &VirtualMachine, scope: &Scope, src: &str) -> String {
    let mut out = String::new();
    let res = vm.run_code_string(scope.clone(), src, "<prog>");
    if let Err(exc) = res {
        let _ = vm.write_exception(&mut out, &exc);
    }
    // drain captured stdout
    let drained = vm.run_code_string(
        scope.clone(),
        "import sys as _s\n_spike_out = ''.join(_s.stdout.buf)\n_s.stdout.buf.clear()",
        "<drain>",
    );
    let mut prefix = String::new();
    if drained.is_ok() {
        if let Ok(Some(o)) = scope.globals.get_item_opt("_spike_out", vm) {
            if let Ok(s) = o.str(vm) {
                prefix = s.to_string_lossy().into_owned();
            }
        }
    }
    prefix + &out
}

#[unsafe(no_mangle)]
pub extern "C" fn rp_ranks() -> u32 {
    unsafe { (&*core::ptr::addr_of!(RANKS)).len() as u32 }
}

// keep wasm-bindgen in the graph (rustpython's wasmbind uses it) and give the glue a start
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn rp_version() -> String {
    "rustpython-vm 0.6.0 spike".to_owned()
}
