//! The README's two commands, and the setup both share.
//!
//! - `cargo xtask serve [--port N]`: set up what the page needs, build the wasm
//!   package and the page, and serve it on 127.0.0.1.
//! - `cargo xtask site [--out DIR]`: build the page and write the static site
//!   (page, wasm, worker, service worker, CPython's library) into one folder
//!   (default `target/site`) that works from any path, as GitHub Pages serves
//!   a project (`.github/workflows/pages.yml` publishes it).
//! - `cargo xtask test`: set up everything (browsers and Vulkan included), then run
//!   every check CI runs: formatting, clippy (native, as the tests' build
//!   compiles, and wasm32), native tests with wgpu on a real adapter, `wasm-pack test
//!   --headless --chrome`, the page's type check, and the browser end-to-end
//!   tests (docs/testing.md has the order and what runs side by side).
//!
//! Every setup step first checks whether its work is already done, so both commands
//! are idempotent and quick on a machine that is already set up.

mod python_lib;
mod setup;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

type Result<T = ()> = std::result::Result<T, String>;

fn main() -> ExitCode {
    // SAFETY: nothing else runs yet; every process xtask starts (cargo,
    // rustup, wasm-pack) inherits the toolchain. A rustup proxy sets this
    // variable for the `cargo xtask` that started us, to the toolchain that
    // built xtask, which may be an older one.
    unsafe { std::env::set_var("RUSTUP_TOOLCHAIN", setup::RUST_TOOLCHAIN) };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("serve") => serve(&args[1..]),
        Some("test") => test(),
        Some("setup") => setup::all(&root()),
        // What `serve` builds, without serving it.
        Some("build") => setup::for_serve(&root()).and_then(|()| build_page(&root())),
        Some("site") => site(&args[1..]),
        _ => Err("usage: cargo xtask serve [--port N] | site [--out DIR] | test | setup".into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The repository root (the parent of this crate's directory).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the repository")
        .to_path_buf()
}

thread_local! {
    /// Where `run` writes what it runs and what that prints, on a thread that
    /// sets it (the setup that runs beside the native build); `None` means
    /// the terminal.
    static CAPTURED: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Runs a command in `dir`, echoing it, and fails if it fails.
pub fn run(dir: &Path, program: &str, args: &[&str], env: &[(&str, String)]) -> Result {
    let line = format!("$ {program} {}", args.join(" "));
    let mut command = Command::new(program);
    command
        .args(args)
        .current_dir(dir)
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())));
    let capturing = CAPTURED.with_borrow(Option::is_some);
    let status = if capturing {
        let out = command
            .output()
            .map_err(|e| format!("cannot start {program}: {e}"))?;
        CAPTURED.with_borrow_mut(|log| {
            let log = log.as_mut().expect("capturing");
            log.push_str(&line);
            log.push('\n');
            log.push_str(&String::from_utf8_lossy(&out.stdout));
            log.push_str(&String::from_utf8_lossy(&out.stderr));
        });
        out.status
    } else {
        eprintln!("{line}");
        command
            .status()
            .map_err(|e| format!("cannot start {program}: {e}"))?
    };
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{program} {}` failed ({status})", args.join(" ")))
    }
}

/// Runs `f` on another thread, with what its commands print held back and
/// returned beside its result, so that it does not interleave with the
/// terminal's.
fn in_background<T: Send + 'static>(
    f: impl FnOnce() -> Result<T> + Send + 'static,
) -> std::thread::JoinHandle<(Result<T>, String)> {
    std::thread::spawn(move || {
        CAPTURED.with_borrow_mut(|log| *log = Some(String::new()));
        let result = f();
        (
            result,
            CAPTURED.with_borrow_mut(Option::take).unwrap_or_default(),
        )
    })
}

/// Runs a command and returns its stdout, or `None` if it cannot run or fails.
pub fn output(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// PATH with the npm workspace's binaries first: wasm-pack then finds the
/// `wasm-opt` of the npm package `binaryen`, not Debian's older one.
fn path_with_node_bin(root: &Path) -> String {
    let bin = root.join("node_modules/.bin");
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// The release profile's opt-level for the wasm builds (the page's and the
/// browser tests', so they share one build and the tests test what ships):
/// the page downloads the module, which gzips to 4.94 MB at `"z"` against
/// 5.34 MB at `"s"` and 6.98 MB at 3, within the 5 MB budget only at `"z"`
/// (a pure-Python loop runs about 30% slower than at `"s"`, 16 ranks start
/// in 9 s against 5-6; docs/performance.md). Natively the release profile
/// stays at 3.
const WASM_OPT_LEVEL: (&str, &str) = ("CARGO_PROFILE_RELEASE_OPT_LEVEL", "z");

/// What every wasm build of the package runs with: the npm workspace's
/// binaries on PATH (its `wasm-opt`), and the page's opt-level.
fn wasm_build_env(root: &Path) -> Vec<(&'static str, String)> {
    vec![
        ("PATH", path_with_node_bin(root)),
        (WASM_OPT_LEVEL.0, WASM_OPT_LEVEL.1.into()),
    ]
}

/// Builds the wasm package and the page.
fn build_page(root: &Path) -> Result {
    python_lib::lay_out(root)?;
    let wasm_env = wasm_build_env(root);
    run(
        root,
        "wasm-pack",
        &[
            "build",
            "crates/tpu-wasm",
            "--release",
            "--target",
            "web",
            "--out-dir",
            "../../web/pkg",
            "--no-pack",
        ],
        &wasm_env,
    )?;
    // The npm package (its client, worker and element, compiled by tsc), then
    // the page, which imports the package by its name from its built `dist/`.
    run(root, "npm", &["run", "build", "--workspace", "web"], &[])?;
    run(root, "npm", &["run", "build", "--workspace", "www"], &[])
}

/// `cargo xtask site [--out DIR]`: the page built and written as a static site.
fn site(args: &[String]) -> Result {
    let root = root();
    let out = match args {
        [] => root.join("target").join("site"),
        [flag, dir] if flag == "--out" => std::env::current_dir()
            .map_err(|e| e.to_string())?
            .join(dir),
        _ => return Err("usage: cargo xtask site [--out DIR]".into()),
    };
    setup::for_serve(&root)?;
    build_page(&root)?;
    write_site(&root, &out)?;
    println!(
        "\nThe static site is in {} : serve that folder from any path (docs/hosting.md)\n",
        out.display()
    );
    Ok(())
}

/// Copies the built page (`www/dist`) to `out`, replacing what was there.
/// Every URL in it is relative, so it works from a subpath; `.nojekyll`
/// keeps GitHub Pages from dropping the standard library's `_`-files
/// (`_collections_abc.py`, `__init__.py`).
fn write_site(root: &Path, out: &Path) -> Result {
    let dist = root.join("www").join("dist");
    if !dist.join("index.html").exists() {
        return Err(format!("{} has no built page", dist.display()));
    }
    if out.exists() {
        std::fs::remove_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    copy_tree(&dist, out)?;
    std::fs::write(out.join(".nojekyll"), "").map_err(|e| e.to_string())
}

fn copy_tree(from: &Path, to: &Path) -> Result {
    std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    for entry in std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))? {
        let entry = entry.map_err(|e| e.to_string())?;
        let target = to.join(entry.file_name());
        if entry.file_type().map_err(|e| e.to_string())?.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)
                .map_err(|e| format!("{}: {e}", target.display()))?;
        }
    }
    Ok(())
}

fn serve(args: &[String]) -> Result {
    let root = root();
    let mut port: u16 = 8000;
    if let [flag, value] = args
        && flag == "--port"
    {
        port = value.parse().map_err(|_| format!("bad port {value}"))?;
    }
    setup::for_serve(&root)?;
    build_page(&root)?;
    // Take the requested port if it is free, else any free one, so that the URL
    // printed below is the one actually served.
    let listener = std::net::TcpListener::bind(("127.0.0.1", port))
        .or_else(|_| std::net::TcpListener::bind(("127.0.0.1", 0)))
        .map_err(|e| format!("no free port: {e}"))?;
    let port = listener.local_addr().map_err(|e| e.to_string())?.port();
    drop(listener);
    println!("\ntpu-playground is served at http://127.0.0.1:{port}/  (Ctrl+C stops it)\n");
    let port = port.to_string();
    run(
        &root.join("www"),
        "npx",
        &[
            "vite",
            "preview",
            "--host",
            "127.0.0.1",
            "--port",
            &port,
            "--strictPort",
        ],
        &[],
    )
}

fn test() -> Result {
    let root = root();
    let started = Instant::now();
    let mut timings: Vec<(&str, f64)> = Vec::new();
    let mut step = |name: &'static str, f: &mut dyn FnMut() -> Result| -> Result {
        eprintln!("\n=== {name}");
        let t = Instant::now();
        f()?;
        timings.push((name, t.elapsed().as_secs_f64()));
        Ok(())
    };
    // lavapipe's loader warns on every adapter request without a runtime dir.
    let runtime_dir = std::env::temp_dir().join("tpu-playground-xdg");
    std::fs::create_dir_all(&runtime_dir).map_err(|e| e.to_string())?;
    let xdg = ("XDG_RUNTIME_DIR", runtime_dir.display().to_string());

    // The Rust toolchain first, then the rest of the setup (apt's Chromium and
    // lavapipe, the XLA virtualenv, wasm-pack and wasm-bindgen-cli built from
    // source, npm) beside the native build, which needs none of it: downloads
    // and the second core's idle moments instead of minutes of their own.
    step("setup: Rust", &mut || setup::rust(&root))?;
    let rest_of_setup = {
        let root = root.clone();
        in_background(move || setup::besides_rust(&root))
    };
    let mut rest_of_setup = Some(rest_of_setup);
    let mut join_setup = move || -> Result {
        let Some(handle) = rest_of_setup.take() else {
            return Ok(());
        };
        let (result, log) = handle.join().map_err(|_| "the setup thread panicked")?;
        eprint!("{log}");
        result
    };
    step("cargo fmt --check", &mut || {
        run(&root, "cargo", &["fmt", "--all", "--check"], &[])
    })?;
    let clippy = clippy_as_rustc()?;
    // The fuzz test draws new cases every run; the seed is chosen here and
    // printed, because the test's own output is shown only when it fails.
    let fuzz_seed = fuzz_seed();
    let mut test_env = vec![
        ("TPU_FUZZ_SEED", fuzz_seed.to_string()),
        ("TPU_REQUIRE_GPU", "1".into()),
        (
            "TPU_XLA_PYTHON",
            setup::xla_python(&root).display().to_string(),
        ),
        xdg.clone(),
    ];
    test_env.extend(clippy.iter().cloned());
    step("native build, linted by clippy as it compiles", &mut || {
        run(
            &root,
            "cargo",
            &["test", "--workspace", "--no-run"],
            &test_env,
        )
    })?;
    step("setup: the rest (finishing)", &mut join_setup)?;
    eprintln!("fuzz seed for this run: TPU_FUZZ_SEED={fuzz_seed}");
    // Clippy on wasm32 as `cargo clippy` runs it, not as the wasm builds'
    // rustc: its driver compiles without MIR optimisations, and the page's
    // module must be the one `cargo xtask build` ships (its size is tested).
    // Before the native tests: it builds its host crates (build scripts,
    // proc macros) in `target/debug`, whose lock `cargo test` holds while
    // its tests run.
    step("clippy (wasm32)", &mut || {
        run(
            &root,
            "cargo",
            &[
                "clippy",
                "-p",
                "tpu-wasm",
                "--target",
                "wasm32-unknown-unknown",
                "--all-targets",
                "--",
                "-D",
                "warnings",
            ],
            &[],
        )
    })?;
    // The browser tests' and the page's builds beside the native tests: they
    // build in `target/release` and `target/wasm32-unknown-unknown`, whose
    // locks the native tests do not hold, and they fill the second core
    // where the native tests leave it idle (their short binaries run one
    // at a time). What they print is shown when the native tests are done.
    let browser_builds = {
        let root = root.clone();
        in_background(move || browser_builds(&root))
    };
    eprintln!("\n=== browser tests' and page's builds: started beside the native tests");
    let mut browser_builds = Some(browser_builds);
    let mut builds_took = Vec::new();
    let native_tests = step(
        "native tests (wgpu on a real adapter, StableHLO on real XLA)",
        &mut || run(&root, "cargo", &["test", "--workspace"], &test_env),
    );
    // Joined even when the native tests failed: its cargo would go on
    // building after xtask had exited, and what it printed would be lost.
    step(
        "browser tests' and page's builds (the rest after the native tests)",
        &mut || {
            let handle = browser_builds.take().expect("joined once");
            let (result, log) = handle
                .join()
                .map_err(|_| "the browser builds' thread panicked")?;
            eprint!("{log}");
            builds_took = result?;
            Ok(())
        },
    )?;
    native_tests?;
    step(
        "wasm-pack test --release --headless --chrome, beside the page's end-to-end tests in Chromium",
        &mut || {
            let e2e = {
                let root = root.clone();
                in_background(move || run(&root, "npm", &["test", "--workspace", "tests/e2e"], &[]))
            };
            let browser = wasm_browser_tests(&root);
            let (e2e, log) = e2e.join().map_err(|_| "the end-to-end thread panicked")?;
            eprintln!("\n=== page: end-to-end tests in Chromium (run beside the browser tests)");
            eprint!("{log}");
            browser.and(e2e)
        },
    )?;

    eprintln!(
        "\n=== all checks passed in {:.0} s",
        started.elapsed().as_secs_f64()
    );
    for (name, seconds) in timings {
        eprintln!("  {seconds:>7.1} s  {name}");
    }
    eprintln!("  of which, beside the native tests:");
    for (name, seconds) in builds_took {
        eprintln!("  {seconds:>7.1} s    {name}");
    }
    Ok(())
}

/// The browser tests' build, then the page's (package, static site, type
/// check, `npm pack`), each timed: the steps that need the setup but not the
/// native build, run beside the native tests.
fn browser_builds(root: &Path) -> Result<Vec<(&'static str, f64)>> {
    let mut took = Vec::new();
    let mut step = |name: &'static str, f: &mut dyn FnMut() -> Result| -> Result {
        let t = Instant::now();
        f()?;
        took.push((name, t.elapsed().as_secs_f64()));
        Ok(())
    };
    // The browser tests' build on its own first, with what `wasm-pack test`
    // builds it with, so that once the page is built, the browser tests and
    // the page's end-to-end tests can run side by side: each drives one
    // Chromium, which keeps about one core busy.
    step("browser tests: build", &mut || {
        python_lib::lay_out(root)?;
        run(
            &root.join("crates/tpu-wasm"),
            "cargo",
            &[
                "build",
                "--tests",
                "--release",
                "--target",
                "wasm32-unknown-unknown",
            ],
            &wasm_build_env(root),
        )
    })?;
    step("page: build", &mut || build_page(root))?;
    // The static site the end-to-end tests serve from a subpath.
    step("page: static site", &mut || {
        write_site(root, &root.join("target").join("site"))
    })?;
    step("page: type check", &mut || {
        run(
            root,
            "npm",
            &["run", "typecheck", "--workspace", "www"],
            &[],
        )
    })?;
    step("npm package: pack", &mut || {
        run(
            root,
            "npm",
            &["pack", "--workspace", "web", "--pack-destination", "web"],
            &[],
        )
    })?;
    Ok(took)
}

/// `cargo clippy`'s own mechanism, on a build that also compiles: its driver
/// as the rustc of the workspace's crates (lints run on the packages a command
/// names, as under `cargo clippy`; every other crate compiles as plain
/// rustc), with `-D warnings` passed as `cargo clippy -- -D warnings` passes
/// it. The native tests' build is linted as it compiles, instead of `cargo
/// clippy` checking every crate a second time; the driver compiles the
/// workspace's crates without MIR optimisations, which the tests can afford
/// and the page's module cannot.
fn clippy_as_rustc() -> Result<Vec<(&'static str, String)>> {
    let driver = output("rustup", &["which", "clippy-driver"])
        .ok_or("rustup finds no clippy-driver for the toolchain")?;
    Ok(vec![
        ("RUSTC_WORKSPACE_WRAPPER", driver.trim().to_string()),
        (
            "CLIPPY_ARGS",
            "-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__".into(),
        ),
    ])
}

/// A seed for this run's fuzz cases, from the clock: a u32, as the fuzz test
/// reads `TPU_FUZZ_SEED`.
fn fuzz_seed() -> u32 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    (nanos % u128::from(u32::MAX)) as u32
}

/// `wasm-pack test --release --headless --chrome`, failing if no browser test ran:
/// a run that executes zero tests proves nothing. Release, because that is what
/// the page ships, and the recursion limits are sized to its frames.
fn wasm_browser_tests(root: &Path) -> Result {
    let dir = root.join("crates/tpu-wasm");
    eprintln!("$ wasm-pack test --release --headless --chrome (in crates/tpu-wasm)");
    let out = Command::new("wasm-pack")
        .args(["test", "--release", "--headless", "--chrome"])
        .current_dir(&dir)
        .env("CHROMEDRIVER", "/usr/bin/chromedriver")
        // For a whole test binary, not one test: the corpus binary ran out
        // of 300 s on a loaded 2-core CI machine, and took 695 s built at
        // opt-level "z" in a full test run (793 s with another process
        // holding one of the two cores).
        .env("WASM_BINDGEN_TEST_TIMEOUT", "1800")
        .envs(wasm_build_env(root))
        .output()
        .map_err(|e| format!("cannot start wasm-pack: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    eprint!("{}{stdout}", String::from_utf8_lossy(&out.stderr));
    if !out.status.success() {
        return Err("wasm-pack test failed".into());
    }
    let passed: usize = stdout
        .lines()
        .filter_map(|l| l.trim().strip_prefix("test result: ok. "))
        .filter_map(|rest| rest.split(' ').next()?.parse::<usize>().ok())
        .sum();
    if passed == 0 {
        return Err("wasm-pack test ran zero browser tests".into());
    }
    eprintln!("{passed} browser tests passed");
    Ok(())
}
