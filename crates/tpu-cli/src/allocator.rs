//! The native `tpu`'s allocator: mimalloc, with its purge delay set and any
//! one allocation larger than the machine's memory refused.
//!
//! mimalloc rather than glibc's allocator: the reference backend allocates
//! and frees tensors of megabytes many times a step, which glibc serves from
//! fresh pages each time (the CNN benchmark's Fused run took 102,000 page
//! faults, and its kernels' threads waited on them; 5,000 with mimalloc,
//! `perf stat`, docs/performance.md).

use std::alloc::{GlobalAlloc, Layout};
use std::sync::atomic::{AtomicUsize, Ordering};

#[global_allocator]
static ALLOCATOR: Capped = Capped;

/// The most one allocation may take: the machine's memory and swap, once
/// `init` has read them (no limit before, or where they cannot be read).
/// mimalloc reserves address space without the kernel's overcommit check,
/// so a program asking for terabytes (`b"ab" * 10**12`) was given them and
/// killed by the kernel as it wrote them; refused here, a fallible
/// allocation (RustPython reserves a repetition's memory first) is the
/// program's `MemoryError`, as it was with glibc's allocator, which the
/// kernel refuses, and is in CPython.
static MOST: AtomicUsize = AtomicUsize::new(usize::MAX);

struct Capped;

// Safety: every call is mimalloc's, or a refusal (null), which the
// `GlobalAlloc` contract allows.
unsafe impl GlobalAlloc for Capped {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.size() > MOST.load(Ordering::Relaxed) {
            return std::ptr::null_mut();
        }
        unsafe { mimalloc::MiMalloc.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.size() > MOST.load(Ordering::Relaxed) {
            return std::ptr::null_mut();
        }
        unsafe { mimalloc::MiMalloc.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { mimalloc::MiMalloc.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > MOST.load(Ordering::Relaxed) {
            return std::ptr::null_mut();
        }
        unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) }
    }
}

/// mimalloc's `mi_option_purge_delay` (its `mi_option_t` enum, in the v3
/// sources the `mimalloc` crate builds), and the delay chosen: memory freed
/// and unused for ten seconds goes back to the system. With mimalloc's 1 s a
/// CNN step's freed megabytes were sometimes handed back and faulted in again
/// as zeroed 2 MiB pages: the same 24-step run took 0.5 s of system time and
/// 2,900-4,300 page faults, against 0.05 s and 850 with the longer delay
/// (`/usr/bin/time`, docs/performance.md).
const PURGE_DELAY: (std::ffi::c_int, std::ffi::c_long) = (15, 10_000);

unsafe extern "C" {
    /// Sets one of mimalloc's options (`mimalloc.h`); safe to call at any time.
    safe fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
}

/// Sets the purge delay and the limit on one allocation; first thing in `main`.
pub fn init() {
    mi_option_set(PURGE_DELAY.0, PURGE_DELAY.1);
    if let Some(bytes) = memory_and_swap() {
        MOST.store(bytes, Ordering::Relaxed);
    }
}

/// `MemTotal` plus `SwapTotal` from `/proc/meminfo` (Linux).
fn memory_and_swap() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kib = |key: &str| -> Option<usize> {
        let line = info.lines().find(|l| l.starts_with(key))?;
        line[key.len()..]
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()
    };
    let total = kib("MemTotal:")?.checked_add(kib("SwapTotal:").unwrap_or(0))?;
    total.checked_mul(1024)
}
