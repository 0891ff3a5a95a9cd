//! Several runs on one thread, taking turns: what a run keeps on its thread
//! is taken when it is suspended mid-run (`park`) and put back when it
//! resumes (`Parked::resume`), so the run that goes on meanwhile finds the
//! thread as a fresh run would. In the browser the ranks of one program are
//! such runs, each on its own JSPI stack in one wasm instance
//! (`tpu-torch`'s `ranks.rs`); natively each run has a thread of its own
//! and nothing here is needed.
//!
//! RustPython keeps two things per thread for a running program: the running
//! frame and the stack of current interpreters. The second is private; the
//! project's copy of `rustpython-vm` adds `take_vm_stack`/`put_vm_stack` for
//! it (`vendor/README.md`). Its other per-thread state (the trashcan,
//! deferred drops, the collector's lock, `sys.monitoring`'s re-entrancy
//! flags) is live only inside a destructor, a finaliser or a monitoring
//! callback, where a program does not wait for another rank, and is not
//! parked.

use crate::{modules, output, watch};
use rustpython_vm::vm::thread;

/// What a suspended run took off its thread.
pub struct Parked {
    output: output::Sink,
    watch: Option<watch::Watch>,
    find: [Option<crate::FindModule>; 2],
    frame: *const rustpython_vm::frame::InterpreterFrame,
    interpreters: thread::VmStack,
}

/// Takes the running run's state off this thread, leaving it as a fresh
/// run finds it.
pub fn park() -> Parked {
    Parked {
        output: output::take(),
        watch: watch::take(),
        find: modules::take(),
        frame: thread::set_current_frame_nosave(std::ptr::null()),
        interpreters: thread::take_vm_stack(),
    }
}

impl Parked {
    /// Puts the run's state back on this thread, as it resumes.
    pub fn resume(self) {
        output::put(self.output);
        watch::put(self.watch);
        modules::put(self.find);
        let _ = thread::set_current_frame_nosave(self.frame);
        thread::put_vm_stack(self.interpreters);
    }
}
