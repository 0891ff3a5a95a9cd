//! The `tpu` binary end to end: the foundation program on each backend, the Report
//! file, and the exit status and stderr of failing programs.

use std::path::PathBuf;
use std::process::{Command, Output};

/// A program of `tests/cli/` (the foundation program and the failing ones),
/// else of the single-device corpus.
fn program(name: &str) -> PathBuf {
    let tests = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests");
    let own = tests.join("cli").join(name);
    if own.exists() {
        own
    } else {
        tests.join("corpus/single").join(name)
    }
}

fn tpu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tpu"))
        .args(args)
        .output()
        .expect("tpu runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const HELLO_OUTPUT: &str = "tensor([[9., 9.],\n        [9., 9.]], device='tpu:0')\n36.0\n";

/// Runs a program on wgpu with `--report` (the tests that call this are
/// ignored unless the build was told an adapter is there: `build.rs`).
fn run_on_wgpu_with_report(name: &str) -> (Output, serde_json::Value) {
    let path = program(name);
    let dir = std::env::temp_dir().join(format!("tpu-cli-{}-{}", name, std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let report_path = dir.join("report.json");
    let out = tpu(&[
        "run",
        "--backend",
        "wgpu",
        "--report",
        report_path.to_str().unwrap(),
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report = serde_json::from_str(&std::fs::read_to_string(&report_path).unwrap()).unwrap();
    (out, report)
}

#[test]
fn hello_runs_on_the_reference_backend() {
    let hello = program("hello_tensor.py");
    let out = tpu(&["run", "--backend", "cpu", hello.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), HELLO_OUTPUT);
}

#[test]
#[cfg_attr(
    not(tpu_gpu),
    ignore = "needs a wgpu adapter: set TPU_REQUIRE_GPU=1 when building the tests (the test command does), or run with --include-ignored"
)]
fn hello_runs_on_wgpu_and_the_report_says_so() {
    let (out, report) = run_on_wgpu_with_report("hello_tensor.py");
    assert_eq!(stdout(&out), HELLO_OUTPUT);
    assert_eq!(report["backend"], "wgpu");
    let mm = report["ops"]
        .as_array()
        .unwrap()
        .iter()
        .find(|op| op["name"] == "aten::mm")
        .expect("an mm op");
    assert_eq!(mm["backend"], "wgpu");
    assert_eq!(mm["kernel_language"], "WGSL");
    assert_eq!(mm["line"], 3);
}

/// Without `XDG_RUNTIME_DIR` (a shell over ssh, a container), listing Vulkan
/// adapters made libwayland print an error line to stderr, twice, before the
/// program's output. `auto` lists adapters whether or not one exists, so this
/// runs everywhere; stderr must hold nothing for a program that succeeds.
#[test]
fn a_shell_without_xdg_runtime_dir_gets_only_the_programs_output() {
    let hello = program("hello_tensor.py");
    let out = Command::new(env!("CARGO_BIN_EXE_tpu"))
        .args(["run", "--backend", "auto", hello.to_str().unwrap()])
        .env_remove("XDG_RUNTIME_DIR")
        .output()
        .expect("tpu runs");
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    // Only `auto`'s own note about falling back may appear, and only on a
    // machine without an adapter where the test policy allows one to be
    // missing (`tpu_wgpu::wgpu_for_tests`).
    let fallback = std::env::var_os(tpu_wgpu::REQUIRE_GPU).is_none()
        && err.starts_with("tpu: using the reference backend")
        && err.lines().count() == 1;
    assert!(err.is_empty() || fallback, "stderr: {err}");
    assert_eq!(stdout(&out), HELLO_OUTPUT);
}

#[test]
fn failing_programs_print_a_traceback_and_exit_1() {
    let cases = [
        ("error_syntax.py", "SyntaxError"),
        (
            "error_unknown_name.py",
            "NameError: name 'wieght' is not defined",
        ),
        (
            "error_shape_mismatch.py",
            "RuntimeError: mm: mat1 and mat2 shapes cannot be multiplied (2x3 and 2x2)",
        ),
    ];
    for (name, expected) in cases {
        let path = program(name);
        let out = tpu(&["run", "--backend", "cpu", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{name}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains(expected), "{name}: {err}");
        assert!(err.contains(", line "), "{name} names no line: {err}");
        assert!(err.contains('^'), "{name} marks no column: {err}");
        assert!(!err.contains("panicked"), "{name}: {err}");
    }
}

#[test]
#[cfg_attr(
    not(tpu_gpu),
    ignore = "needs a wgpu adapter: set TPU_REQUIRE_GPU=1 when building the tests (the test command does), or run with --include-ignored"
)]
fn ops_without_a_wgpu_kernel_fall_back_to_the_host_and_say_so() {
    let (_, report) = run_on_wgpu_with_report("fallback_float64.py");
    let ops = report["ops"].as_array().unwrap();
    let mul = ops
        .iter()
        .find(|op| op["name"] == "aten::mul")
        .expect("the float64 multiply");
    assert_eq!(mul["backend"], "reference");
    assert!(
        mul["fallback"].as_str().unwrap().contains("torch.float64"),
        "{mul}"
    );
    let add = ops
        .iter()
        .find(|op| op["name"] == "aten::add")
        .expect("the float32 add");
    assert_eq!(
        add["backend"], "wgpu",
        "float32 work goes back to the accelerator"
    );
    assert!(add["fallback"].is_null());
    // int64 has kernels (emulated in two words): nothing falls back.
    let (_, report) = run_on_wgpu_with_report("int64_on_device.py");
    let ops = report["ops"].as_array().unwrap();
    assert!(ops.iter().all(|op| op["fallback"].is_null()), "{ops:?}");
    let mul = ops.iter().find(|op| op["name"] == "aten::mul").unwrap();
    assert_eq!(mul["backend"], "wgpu", "{mul}");
}

#[test]
#[cfg_attr(
    not(tpu_gpu),
    ignore = "needs a wgpu adapter: set TPU_REQUIRE_GPU=1 when building the tests (the test command does), or run with --include-ignored"
)]
fn wgpu_kernels_carry_their_measured_times_beside_the_simulated_ones() {
    // lavapipe, like Vulkan GPUs, has timestamps inside compute passes.
    let (_, report) = run_on_wgpu_with_report("int64_on_device.py");
    let kernels = report["kernels"].as_array().unwrap();
    assert!(!kernels.is_empty());
    for k in kernels {
        let m = &k["measured"];
        let duration = m["duration_us"].as_f64().unwrap_or(-1.0);
        assert!(duration >= 0.0 && duration.is_finite(), "{k}");
        assert!(k["cost"]["simulated_us"].as_f64().unwrap() > 0.0, "{k}");
    }
    let lanes = report["timeline"]["lanes"].as_array().unwrap();
    let lane = lanes
        .iter()
        .find(|l| l["name"] == "this machine's GPU (measured)")
        .expect("a lane of measured times");
    let events = lane["events"].as_array().unwrap();
    assert_eq!(events.len(), kernels.len());
    assert_eq!(
        events[0]["start_us"].as_f64(),
        Some(0.0),
        "from the first kernel"
    );
    // Turned off: nothing measured, no lane.
    let dir = std::env::temp_dir().join(format!("tpu-cli-untimed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("report.json");
    let out = Command::new(env!("CARGO_BIN_EXE_tpu"))
        .env("TPU_GPU_TIMESTAMPS", "0")
        .args(["run", "--backend", "wgpu", "--report"])
        .arg(&path)
        .arg(program("int64_on_device.py"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let kernels = report["kernels"].as_array().unwrap();
    assert!(kernels.iter().all(|k| k["measured"].is_null()));
    let lanes = report["timeline"]["lanes"].as_array().unwrap();
    assert!(
        lanes
            .iter()
            .all(|l| l["name"] != "this machine's GPU (measured)")
    );
}

/// The benchmark harness at toy sizes: it runs every workload in both modes
/// and prints the JSON fields the issue asks for. Times at these sizes are
/// noise and are not checked (benchmarks are not timed unit tests); kernel
/// counts are deterministic and are.
#[test]
fn bench_prints_one_json_object_per_workload() {
    let out = tpu(&[
        "bench",
        "--backend",
        "cpu",
        "--small",
        "--json",
        "--steps",
        "1",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON object per line"))
        .collect();
    let names: Vec<&str> = lines.iter().map(|l| l["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "mlp_train_step",
            "transformer_block_fwd_bwd",
            "cnn_train_step"
        ]
    );
    for l in &lines {
        for field in [
            "backend",
            "strict_ms",
            "fused_ms",
            "speedup",
            "strict_kernels_per_step",
            "fused_kernels_per_step",
            "compiled_ms",
            "compiled_kernels_per_step",
            "compiled_vs_fused",
            "cache_hits",
            "cache_misses",
        ] {
            assert!(!l[field].is_null(), "{field} missing in {l}");
        }
        let (s, f) = (
            l["strict_kernels_per_step"].as_f64().unwrap(),
            l["fused_kernels_per_step"].as_f64().unwrap(),
        );
        assert!(f < s, "Fused should launch fewer kernels: {l}");
        let c = l["compiled_kernels_per_step"].as_f64().unwrap();
        assert!(
            c < s,
            "compiled graphs should launch fewer kernels than Strict: {l}"
        );
        assert!(l["cache_hits"].as_u64().unwrap() > 0, "{l}");
    }
}

/// `--cache-dir`: a second run finds every kernel the first compiled; a
/// damaged entry is counted as corrupt, rebuilt and written again.
#[test]
fn the_compilation_cache_persists_in_a_directory_and_survives_corruption() {
    let dir = std::env::temp_dir().join(format!("tpu-cache-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let report = dir.join("report.json");
    let cache_dir = dir.join("cache");
    let run = || {
        let out = tpu(&[
            "run",
            "--backend",
            "cpu",
            "--mode",
            "fused",
            "--cache-dir",
            cache_dir.to_str().unwrap(),
            "--report",
            report.to_str().unwrap(),
            program("optim_adam_adamw.py").to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        let r: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
        (stdout(&out), r["cache"].clone())
    };
    let (first_out, first) = run();
    let misses = first["misses"].as_u64().unwrap();
    assert!(misses > 0, "{first}");
    assert_eq!(first["persisted_hits"], 0);
    let (second_out, second) = run();
    assert_eq!(second_out, first_out);
    assert_eq!(second["misses"], 0, "{second}");
    assert_eq!(second["persisted_hits"].as_u64().unwrap(), misses);
    // Damage two entries: one is not JSON any more, one has a wrong key.
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&cache_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    entries.sort();
    std::fs::write(&entries[0], b"{ not json").unwrap();
    let text = std::fs::read_to_string(&entries[1]).unwrap();
    std::fs::write(
        &entries[1],
        text.replacen("\"code_key\": \"", "\"code_key\": \"x", 1),
    )
    .unwrap();
    let (third_out, third) = run();
    assert_eq!(third_out, first_out);
    assert_eq!(third["corrupt"], 2, "{third}");
    assert_eq!(third["misses"], 2, "{third}");
    // Rebuilt and written again: the next run is clean.
    let (_, fourth) = run();
    assert_eq!(fourth["corrupt"], 0, "{fourth}");
    assert_eq!(fourth["misses"], 0, "{fourth}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--chip`, `--slice` and `--trace`: every kernel gets a simulated cost on
/// the chosen chip, the attention's head dimension of 64 is named as half an
/// MXU, and the timeline is written as Chrome Trace Event JSON.
#[test]
fn runs_are_costed_on_the_chosen_chip_and_trace_to_perfetto_json() {
    let dir = std::env::temp_dir().join(format!("tpu-trace-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (report, trace) = (dir.join("report.json"), dir.join("trace.json"));
    let out = tpu(&[
        "run",
        "--backend",
        "cpu",
        "--chip",
        "v6e",
        "--slice",
        "2x2",
        "--report",
        report.to_str().unwrap(),
        "--trace",
        trace.to_str().unwrap(),
        program("nn_sdpa.py").to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(r["device"]["chip"], "v6e");
    assert_eq!(r["device"]["slice"], "2x2");
    let kernels = r["kernels"].as_array().unwrap();
    assert!(
        kernels
            .iter()
            .all(|k| k["cost"]["simulated_us"].as_f64().unwrap() > 0.0)
    );
    let t: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&trace).unwrap()).unwrap();
    let events = t["traceEvents"].as_array().unwrap();
    let complete = events.iter().filter(|e| e["ph"] == "X").count();
    // One dispatch and one device event per kernel, plus the reads.
    assert!(
        complete >= 2 * kernels.len(),
        "{complete} events for {} kernels",
        kernels.len()
    );
    let _ = std::fs::remove_dir_all(&dir);
    // An impossible slice is refused before the program runs.
    let out = tpu(&[
        "run",
        "--chip",
        "v5e",
        "--slice",
        "4x4x4",
        program("hello_tensor.py").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("TPU v5e slices have at most 2 axes"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn sim_collective_prints_one_json_object() {
    let out = tpu(&[
        "sim",
        "collective",
        "--chip",
        "v5e",
        "--slice",
        "4x4",
        "--axes",
        "0,1",
        "--kind",
        "all-gather",
        "--bytes",
        "64MiB",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    for key in ["simulated_us", "latency_bound", "max_link_bytes"] {
        assert!(!v[key].is_null(), "{key} missing: {v}");
    }
    assert_eq!(v["bytes"].as_f64().unwrap(), 64.0 * 1024.0 * 1024.0);
    let out = tpu(&["chips"]);
    assert!(stdout(&out).contains("tpu7x"), "{}", stdout(&out));
}

/// Writes a program to a fresh temporary file.
fn temp_program(name: &str, source: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tpu-cli-{}-{}", name, std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.py"));
    std::fs::write(&path, source).unwrap();
    path
}

#[test]
fn timeout_ends_a_runaway_in_a_timeout_error_naming_its_line() {
    let path = temp_program(
        "runaway",
        "print('before')\nx = 0\nwhile True:\n    x += 1\n",
    );
    let started = std::time::Instant::now();
    let out = tpu(&[
        "run",
        "--backend",
        "cpu",
        "--timeout",
        "0.3",
        path.to_str().unwrap(),
    ]);
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "before\n");
    let err = stderr(&out);
    assert!(
        err.contains("TimeoutError: the program ran past its time limit of 0.3 s"),
        "{err}"
    );
    assert!(err.contains("line 3") || err.contains("line 4"), "{err}");
    let out = tpu(&["run", "--timeout", "soon", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("'soon' is not a number of seconds"));
}

#[test]
fn output_is_printed_while_the_program_still_runs() {
    use std::io::BufRead;
    let path = temp_program("live", "print('started')\nwhile True:\n    pass\n");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tpu"))
        .args(["run", "--backend", "cpu", "--timeout", "3"])
        .arg(&path)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("tpu runs");
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first, "started\n");
    // The line arrived while the loop after it is still running.
    assert!(child.try_wait().unwrap().is_none());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("TimeoutError"));
}

/// `tpu python FILE ARGS` runs plain Python as `python FILE ARGS` does: the
/// arguments in `sys.argv`, a module beside the program importable, the exit
/// status the program's (what CPython 3.13 printed and returned for the same
/// program from the same folder).
#[test]
fn tpu_python_runs_a_plain_program_with_its_arguments() {
    let dir = std::env::temp_dir().join(format!("tpu-python-cli-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub/helper.py"), "X = 7\n").unwrap();
    std::fs::write(
        dir.join("sub/x.py"),
        "import sys, os, helper\nprint(sys.argv, helper.X, os.path.basename(__file__), sys.path[0] == os.path.dirname(__file__))\nraise SystemExit(4)\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tpu"))
        .args(["python", "sub/x.py", "--lr", "3", "-v"])
        .current_dir(&dir)
        .output()
        .expect("tpu runs");
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(
        stdout(&out),
        "['sub/x.py', '--lr', '3', '-v'] 7 x.py True\n",
        "{}",
        stderr(&out)
    );
    assert_eq!(out.status.code(), Some(4));
}

/// A repetition of terabytes is a `MemoryError` at its line, as in CPython,
/// not a process the kernel kills as it writes them (mimalloc reserves
/// address space without the kernel's overcommit check, so the native
/// command refuses any one allocation past the machine's memory).
#[test]
fn a_terabyte_repetition_is_a_memory_error_naming_its_line() {
    let path = temp_program(
        "terabytes",
        "try:\n    b = b'ab' * 10**12\nexcept MemoryError:\n    print('caught')\ns = 'tpu' * 10**12\n",
    );
    let out = tpu(&["run", "--backend", "cpu", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(stdout(&out), "caught\n");
    let err = stderr(&out);
    assert!(
        err.contains("MemoryError") && err.contains("line 5"),
        "{err}"
    );
}
