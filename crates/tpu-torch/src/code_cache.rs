//! Compiled prelude files, kept as marshalled code objects, as CPython keeps
//! `__pycache__`: compiling the prelude was most of the time `import torch`
//! took (about 0.15 s of 0.19 s in a test build), and every run starts a fresh
//! interpreter. Kept in memory for the process (the page's worker, a test
//! binary) and, natively, in a folder of the user's cache (each entry named by
//! a hash of the interpreter's version, the file's name and its source, written
//! whole or not at all), so `tpu run` compiles the prelude once per machine.
//! A missing or unreadable entry is compiled again: the cache never changes
//! what runs.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

fn memory() -> &'static Mutex<HashMap<String, Arc<Vec<u8>>>> {
    static MEMORY: OnceLock<Mutex<HashMap<String, Arc<Vec<u8>>>>> = OnceLock::new();
    MEMORY.get_or_init(Default::default)
}

/// The entry's name: FNV-1a over what the compiled code depends on.
fn key(filename: &str, source: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let parts = [
        "rustpython-vm 0.6.0",
        env!("CARGO_PKG_VERSION"),
        filename,
        source,
    ];
    for part in parts {
        for byte in part.bytes().chain([0xff]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{hash:016x}")
}

/// The folder of the cache on disk: `$XDG_CACHE_HOME/tpu-playground/code`,
/// else `~/.cache/tpu-playground/code`; none in the browser or without a home.
fn folder() -> Option<PathBuf> {
    if cfg!(target_arch = "wasm32") {
        return None;
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|h| PathBuf::from(h).join(".cache"))
        })?;
    Some(base.join("tpu-playground").join("code"))
}

/// The marshalled code of `filename` compiled from `source`, if cached.
pub(crate) fn get(filename: &str, source: &str) -> Option<Arc<Vec<u8>>> {
    let key = key(filename, source);
    if let Some(found) = memory().lock().ok()?.get(&key) {
        return Some(found.clone());
    }
    let bytes = Arc::new(std::fs::read(folder()?.join(&key)).ok()?);
    memory().lock().ok()?.insert(key, bytes.clone());
    Some(bytes)
}

/// Keeps the marshalled code of `filename` compiled from `source`.
pub(crate) fn put(filename: &str, source: &str, code: Vec<u8>) {
    let key = key(filename, source);
    if let Some(dir) = folder()
        && std::fs::create_dir_all(&dir).is_ok()
    {
        // Written under a name of its own, then renamed: a reader sees the
        // whole entry or none.
        static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let partial = dir.join(format!("{key}.{}-{n}.partial", std::process::id()));
        if std::fs::write(&partial, &code).is_ok()
            && std::fs::rename(&partial, dir.join(&key)).is_err()
        {
            let _ = std::fs::remove_file(&partial);
        }
    }
    if let Ok(mut memory) = memory().lock() {
        memory.insert(key, Arc::new(code));
    }
}
