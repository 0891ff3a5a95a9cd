//! A ceiling on the memory a fuzz case takes that names the case which broke it.
//!
//! A case that exhausts memory would otherwise end the whole process with the
//! allocator's one-line message and no case number (a 23 GB seed once did).
//! This allocator counts live bytes; an allocation that would take them
//! `LIMIT` past what was live when the case began (`begin_case`) prints the
//! name of the thread asking (each case runs on a thread named after its seed
//! and case) and fails, as it would on a machine without that much memory.
//! A fallible allocation turns that into the program's `MemoryError`
//! (RustPython reserves a repeated sequence's memory with `try_reserve`, so
//! `"tpu" * 10**12` is one, as it is in the native `tpu` and in CPython); an
//! infallible one ends the process, the case named one line above. The ceiling is per case because the process's memory grows by itself
//! from case to case: RustPython 0.6.0 does not give back all of an
//! interpreter's memory when it ends (about 0.85 MB for an interpreter that
//! imports nothing, 2.2 MB with `import torch`; a fuzz case, ranks included,
//! about 15 MB), so 413 cases once reached 6 GiB together.
//!
//! The cases run on one thread per core (`campaign::run_seed`), so the
//! ceiling holds the process to `LIMIT` past what was live when the latest
//! case began: a runaway case is still stopped, but the thread named may be
//! the one that asked last rather than the one that took the most.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Far above what any case needs (the runtime refuses tensors and sequences
/// past its own limits with `MemoryError`), far below what the machines that
/// run campaigns have.
const LIMIT: usize = 4 << 30;

pub struct Ceiling {
    live: AtomicUsize,
    /// What was live when the running case began.
    baseline: AtomicUsize,
}

impl Ceiling {
    pub const fn new() -> Ceiling {
        Ceiling {
            live: AtomicUsize::new(0),
            baseline: AtomicUsize::new(0),
        }
    }

    /// A case begins: it may take `LIMIT` more than is live now.
    pub fn begin_case(&self) {
        self.baseline
            .store(self.live.load(Ordering::Relaxed), Ordering::Relaxed);
    }

    fn admit(&self, size: usize) -> bool {
        let before = self.live.fetch_add(size, Ordering::Relaxed);
        let baseline = self.baseline.load(Ordering::Relaxed);
        if before + size <= baseline + LIMIT {
            return true;
        }
        self.live.fetch_sub(size, Ordering::Relaxed);
        thread_local!(static REPORTING: Cell<bool> = const { Cell::new(false) });
        if !REPORTING.with(|r| r.replace(true)) {
            let thread = std::thread::current();
            let _ = writeln!(
                std::io::stderr(),
                "fuzz: {} asked for {size} bytes with {before} live, past its {LIMIT}-byte ceiling over the {baseline} live when it began (refused)",
                thread.name().unwrap_or("an unnamed thread")
            );
            REPORTING.with(|r| r.set(false));
        }
        false
    }
}

unsafe impl GlobalAlloc for Ceiling {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !self.admit(layout.size()) {
            return std::ptr::null_mut();
        }
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !self.admit(layout.size()) {
            return std::ptr::null_mut();
        }
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        self.live.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            if !self.admit(new_size - layout.size()) {
                return std::ptr::null_mut();
            }
        } else {
            self.live
                .fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}
