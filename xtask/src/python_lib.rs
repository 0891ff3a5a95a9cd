//! CPython's standard library for the browser: the `.py` files of
//! rustpython-pylib's `Lib/` (the crate the interpreter's version ships
//! with, found through `cargo metadata`), laid out in `web/python-lib/` with
//! an `index.json` listing them. The package's worker reads a module from
//! there when a program first imports it; the page's build copies the folder
//! beside its own files. The browser tests of `crates/tpu-wasm` get a copy
//! in `crates/tpu-wasm/python-lib/`, which their test server serves. Copied,
//! not committed: it is someone else's source.

use std::path::{Path, PathBuf};

/// Folders of `Lib/` no program here can use: the IDLE editor, Tk, its
/// turtle demos and pip's installer.
const LEFT_OUT: &[&str] = &[
    "idlelib",
    "tkinter",
    "turtledemo",
    "ensurepip",
    "__pycache__",
];

/// Where the copies go.
const FOLDERS: &[&str] = &["web/python-lib", "crates/tpu-wasm/python-lib"];

pub fn lay_out(root: &Path) -> Result<(), String> {
    let lib = pylib_folder(root)?;
    for folder in FOLDERS {
        lay_out_in(&lib, &root.join(folder))?;
    }
    Ok(())
}

fn lay_out_in(lib: &Path, out: &Path) -> Result<(), String> {
    let out = out.to_path_buf();
    let stamp = out.join("SOURCE");
    let source = lib.display().to_string();
    if std::fs::read_to_string(&stamp).is_ok_and(|s| s == source)
        && out.join("index.json").is_file()
    {
        return Ok(());
    }
    let _ = std::fs::remove_dir_all(&out);
    let mut files = Vec::new();
    collect(lib, lib, &mut files)?;
    files.sort();
    for relative in &files {
        let to = out.join(relative);
        std::fs::create_dir_all(to.parent().expect("a file has a folder"))
            .map_err(|e| format!("{}: {e}", to.display()))?;
        std::fs::copy(lib.join(relative), &to).map_err(|e| format!("{}: {e}", to.display()))?;
    }
    let index = files
        .iter()
        .map(|f| format!("{f:?}"))
        .collect::<Vec<_>>()
        .join(",\n");
    std::fs::write(out.join("index.json"), format!("[\n{index}\n]\n"))
        .and_then(|()| std::fs::write(&stamp, &source))
        .map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!(
        "laid out {} modules of {} in {}",
        files.len(),
        lib.display(),
        out.display()
    );
    Ok(())
}

fn collect(lib: &Path, dir: &Path, files: &mut Vec<String>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !LEFT_OUT.contains(&name.as_str()) {
                collect(lib, &path, files)?;
            }
        } else if name.ends_with(".py") {
            let relative = path.strip_prefix(lib).expect("under Lib/");
            files.push(relative.to_string_lossy().replace('\\', "/"));
        }
    }
    Ok(())
}

/// `Lib/` of the rustpython-pylib the workspace locks.
fn pylib_folder(root: &Path) -> Result<PathBuf, String> {
    let out = std::process::Command::new("cargo")
        .current_dir(root)
        .args(["metadata", "--format-version", "1", "--locked"])
        .output()
        .map_err(|e| format!("cannot run cargo metadata: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let key = "\"manifest_path\":\"";
    text.match_indices(key)
        .map(|(at, _)| &text[at + key.len()..])
        .filter_map(|rest| rest.split('"').next())
        .find(|path| path.contains("/rustpython-pylib-") && path.ends_with("/Cargo.toml"))
        .map(|manifest| Path::new(manifest).with_file_name("Lib"))
        .filter(|lib| lib.is_dir())
        .ok_or_else(|| "cargo metadata names no rustpython-pylib with a Lib/ folder".into())
}
