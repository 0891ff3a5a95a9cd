//! A ceiling on the fuzz process's memory that names the case which broke it.
//!
//! A case that exhausts memory would otherwise end the whole process with the
//! allocator's one-line message and no case number (a 23 GB seed once did).
//! This allocator counts live bytes; an allocation that would pass
//! `LIMIT` prints the name of the thread asking (each case runs on a thread
//! named after its seed and case) and aborts, so the reproduction command is
//! one line of output away.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Far above what any case needs (the runtime refuses tensors and sequences
/// past its own limits with `MemoryError`), far below what the machines that
/// run campaigns have.
const LIMIT: usize = 6 << 30;

pub struct Ceiling {
    live: AtomicUsize,
}

impl Ceiling {
    pub const fn new() -> Ceiling {
        Ceiling {
            live: AtomicUsize::new(0),
        }
    }

    fn admit(&self, size: usize) -> bool {
        let before = self.live.fetch_add(size, Ordering::Relaxed);
        if before + size <= LIMIT {
            return true;
        }
        self.live.fetch_sub(size, Ordering::Relaxed);
        thread_local!(static REPORTING: Cell<bool> = const { Cell::new(false) });
        if !REPORTING.with(|r| r.replace(true)) {
            let thread = std::thread::current();
            let _ = writeln!(
                std::io::stderr(),
                "fuzz: {} asked for {size} bytes with {before} live, past the {LIMIT}-byte ceiling",
                thread.name().unwrap_or("an unnamed thread")
            );
        }
        std::process::abort();
    }
}

unsafe impl GlobalAlloc for Ceiling {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        self.admit(layout.size());
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        self.admit(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        self.live.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            self.admit(new_size - layout.size());
        } else {
            self.live
                .fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}
