//! A private `XDG_RUNTIME_DIR` for a process started without one (a shell
//! over ssh, a container, CI). While wgpu lists Vulkan adapters, Mesa's
//! device-selection layer asks libwayland for a display, and libwayland prints
//! `error: XDG_RUNTIME_DIR is invalid or not set in the environment.` to
//! stderr when the variable is unset, twice per run. `tpu run`'s stderr is the
//! program's diagnostics and nothing else, so where the variable is unset it
//! is pointed at an empty directory of this process's own: the display probe
//! then fails quietly and wgpu finds the same adapters.
//!
//! `set` must run first thing in `main`: changing the environment is only
//! sound while no other thread exists that could read it at the same time
//! (hence `set_var` is `unsafe`), and wgpu's instance must see the variable.

use std::path::PathBuf;

/// The directory made for this process, removed again by `remove`.
pub struct RuntimeDir(Option<PathBuf>);

/// Sets `XDG_RUNTIME_DIR` to a new empty directory (mode 0700, as the XDG
/// specification asks) when the variable is unset. If the directory cannot be
/// made, the variable stays unset: the run works, only the message returns.
pub fn set() -> RuntimeDir {
    if std::env::var_os("XDG_RUNTIME_DIR").is_some() {
        return RuntimeDir(None);
    }
    let dir = std::env::temp_dir().join(format!("tpu-runtime-dir-{}", std::process::id()));
    let mut builder = std::fs::DirBuilder::new();
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    if builder.create(&dir).is_err() {
        return RuntimeDir(None);
    }
    // SAFETY: called at the start of `main`, before any thread is spawned, so
    // nothing reads the environment concurrently.
    unsafe { std::env::set_var("XDG_RUNTIME_DIR", &dir) };
    RuntimeDir(Some(dir))
}

impl RuntimeDir {
    /// Removes the directory `set` made (nothing is ever written into it).
    pub fn remove(self) {
        if let Some(dir) = self.0 {
            let _ = std::fs::remove_dir(dir);
        }
    }
}
