//! Idempotent setup for a fresh machine of the project's kind (Debian 12, rustup,
//! Node 20, running as root): the wasm target, wasm-pack, wasm-bindgen-cli at the
//! version Cargo.lock pins, Chromium, ChromeDriver and lavapipe through apt-get,
//! and the npm workspace from its lockfile. Each step checks before it acts.

use crate::{Result, output, run};
use std::path::Path;

const WASM_PACK_VERSION: &str = "0.15.1";

/// The Rust every build and check uses. RustPython's parser crates need 1.96
/// or later; machines of the project's kind come with 1.95 and
/// `RUSTUP_AUTO_INSTALL=0`, so no `rust-toolchain.toml` (which would stop
/// `cargo xtask` itself before setup runs): setup installs this one, sets it
/// as the repository's rustup override for cargo run by hand, and xtask names
/// it in `RUSTUP_TOOLCHAIN` for everything it starts.
pub const RUST_TOOLCHAIN: &str = "1.99.1";
const APT_PACKAGES: &[&str] = &["chromium", "chromium-driver", "mesa-vulkan-drivers"];

/// What `serve` needs: Rust to wasm, and the npm packages.
pub fn for_serve(root: &Path) -> Result {
    rust_toolchain(root)?;
    wasm_target(root)?;
    wasm_pack(root)?;
    wasm_bindgen_cli(root)?;
    npm(root)
}

/// Everything, including what only the tests need.
pub fn all(root: &Path) -> Result {
    rust(root)?;
    besides_rust(root)
}

/// The Rust toolchain, with rustfmt and clippy.
pub fn rust(root: &Path) -> Result {
    rust_toolchain(root)?;
    rust_components(root)
}

/// Everything but the Rust toolchain: what the tests run beside the native
/// build ([`rust`] first).
pub fn besides_rust(root: &Path) -> Result {
    apt(root)?;
    xla_venv(root)?;
    wasm_target(root)?;
    wasm_pack(root)?;
    wasm_bindgen_cli(root)?;
    npm(root)
}

/// The jax and jaxlib the tests check StableHLO modules with (real XLA, on
/// the CPU), in a virtualenv of the project's: pinned, since
/// `tools/xla_check.py` uses jaxlib's private entry points.
pub const JAX_VERSION: &str = "0.10.2";

/// Where that virtualenv lives.
pub fn xla_python(root: &Path) -> std::path::PathBuf {
    root.join("target/xla-venv/bin/python")
}

fn xla_venv(root: &Path) -> Result {
    let python = xla_python(root);
    let check = format!(
        "import jax, jaxlib; assert jax.__version__ == jaxlib.__version__ == '{JAX_VERSION}'"
    );
    let have = python.exists()
        && std::process::Command::new(&python)
            .args(["-c", &check])
            .output()
            .is_ok_and(|o| o.status.success());
    if have {
        return Ok(());
    }
    let venv = root.join("target/xla-venv");
    run(
        root,
        "python3",
        &["-m", "venv", &venv.display().to_string()],
        &[],
    )?;
    let pin_jax = format!("jax=={JAX_VERSION}");
    let pin_jaxlib = format!("jaxlib=={JAX_VERSION}");
    run(
        root,
        &python.display().to_string(),
        &["-m", "pip", "install", "--quiet", &pin_jax, &pin_jaxlib],
        &[],
    )
}

/// Installs [`RUST_TOOLCHAIN`] with what the checks use, and makes it the
/// repository's override (both skipped when already so).
fn rust_toolchain(root: &Path) -> Result {
    let installed = output("rustup", &["toolchain", "list"]).unwrap_or_default();
    let prefix = format!("{RUST_TOOLCHAIN}-");
    if !installed.lines().any(|l| l.starts_with(&prefix)) {
        run(
            root,
            "rustup",
            &[
                "toolchain",
                "install",
                RUST_TOOLCHAIN,
                "--profile",
                "minimal",
                "--component",
                "rustfmt,clippy",
                "--target",
                "wasm32-unknown-unknown",
            ],
            &[],
        )?;
    }
    let overrides = output("rustup", &["override", "list"]).unwrap_or_default();
    let here = root.display().to_string();
    let set = overrides.lines().any(|l| {
        let mut words = l.split_whitespace();
        words.next() == Some(here.as_str()) && words.next().is_some_and(|t| t.starts_with(&prefix))
    });
    if set {
        return Ok(());
    }
    run(
        root,
        "rustup",
        &["override", "set", RUST_TOOLCHAIN, "--path", &here],
        &[],
    )
}

fn wasm_target(root: &Path) -> Result {
    let installed = output("rustup", &["target", "list", "--installed"]).unwrap_or_default();
    if installed
        .lines()
        .any(|l| l.trim() == "wasm32-unknown-unknown")
    {
        return Ok(());
    }
    run(
        root,
        "rustup",
        &["target", "add", "wasm32-unknown-unknown"],
        &[],
    )
}

fn rust_components(root: &Path) -> Result {
    let fmt = output("cargo", &["fmt", "--version"]).is_some();
    let clippy = output("cargo", &["clippy", "--version"]).is_some();
    if fmt && clippy {
        return Ok(());
    }
    run(
        root,
        "rustup",
        &["component", "add", "rustfmt", "clippy"],
        &[],
    )
}

fn wasm_pack(root: &Path) -> Result {
    let have = output("wasm-pack", &["--version"]).unwrap_or_default();
    if have.trim() == format!("wasm-pack {WASM_PACK_VERSION}") {
        return Ok(());
    }
    run(
        root,
        "cargo",
        &[
            "install",
            "wasm-pack",
            "--version",
            WASM_PACK_VERSION,
            "--force",
        ],
        &[],
    )
}

/// The `wasm-bindgen` version in Cargo.lock; the CLI must match it exactly.
fn locked_wasm_bindgen(root: &Path) -> Result<String> {
    let lock =
        std::fs::read_to_string(root.join("Cargo.lock")).map_err(|e| format!("Cargo.lock: {e}"))?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line == "name = \"wasm-bindgen\""
            && let Some(v) = lines.next().and_then(|l| l.strip_prefix("version = \""))
        {
            return Ok(v.trim_end_matches('"').to_string());
        }
    }
    Err("Cargo.lock names no wasm-bindgen".into())
}

fn wasm_bindgen_cli(root: &Path) -> Result {
    let version = locked_wasm_bindgen(root)?;
    let have = output("wasm-bindgen", &["--version"]).unwrap_or_default();
    if have.trim() == format!("wasm-bindgen {version}") {
        return Ok(());
    }
    // No `--locked`: the CLI's own lockfile names a webpki-roots release that this
    // machine's registry does not serve (see TOOLCHAIN.md).
    run(
        root,
        "cargo",
        &[
            "install",
            "wasm-bindgen-cli",
            "--version",
            &version,
            "--force",
        ],
        &[],
    )
}

fn apt(root: &Path) -> Result {
    let missing: Vec<&str> = APT_PACKAGES
        .iter()
        .copied()
        .filter(|p| {
            !output("dpkg-query", &["-W", "-f=${Status}", p])
                .is_some_and(|s| s.contains("install ok installed"))
        })
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let noninteractive = [("DEBIAN_FRONTEND", "noninteractive".to_string())];
    let sudo = output("id", &["-u"]).is_some_and(|uid| uid.trim() != "0");
    let (program, prefix): (&str, Vec<&str>) = if sudo {
        ("sudo", vec!["apt-get"])
    } else {
        ("apt-get", vec![])
    };
    let mut update = prefix.clone();
    update.extend(["update", "-q"]);
    run(root, program, &update, &noninteractive)?;
    let mut install = prefix;
    install.extend(["install", "-y", "-q"]);
    install.extend(missing.iter());
    run(root, program, &install, &noninteractive)
}

/// `npm ci` when node_modules is missing or older than the lockfile.
fn npm(root: &Path) -> Result {
    let lock = root.join("package-lock.json");
    let installed = root.join("node_modules/.package-lock.json");
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let fresh = matches!((modified(&lock), modified(&installed)), (Some(l), Some(i)) if i >= l);
    if fresh {
        return Ok(());
    }
    run(root, "npm", &["ci", "--no-audit", "--no-fund"], &[])
}
