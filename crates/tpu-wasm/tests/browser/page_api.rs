//! Runs in headless Chromium through `wasm-pack test --headless --chrome`: the
//! foundation program through the wasm API, with its kernels on WebGPU
//! (SwiftShader on CI), checked against the output PyTorch prints; errors,
//! the compilation cache, the recursion limits and collectives simulated in
//! wasm. The corpora run in `tests/corpus.rs`.

use crate::common::Page;
use tpu_runtime::{BackendKind, Report};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

const HELLO: &str = include_str!("../../../../tests/cli/hello_tensor.py");

async fn run(page: &Page, source: &str) -> Report {
    page.run(source, None, None).await
}

async fn run_in(page: &Page, source: &str, mode: Option<&str>) -> Report {
    page.run(source, mode, None).await
}

#[wasm_bindgen_test]
async fn hello_runs_its_matmul_as_a_wgsl_kernel_on_webgpu() {
    let playground = Page::create("wgpu").await.expect("WebGPU is available");
    assert_eq!(playground.get("backend"), "wgpu");
    let report = run(&playground, HELLO).await;
    assert!(report.ok(), "{:?}", report.diagnostics);
    assert_eq!(
        report.stdout,
        "tensor([[9., 9.],\n        [9., 9.]], device='tpu:0')\n36.0\n"
    );
    assert_eq!(report.backend, Some(BackendKind::Wgpu));
    let mm = report
        .ops
        .iter()
        .find(|op| op.name == "aten::mm")
        .expect("an mm op");
    assert_eq!(mm.backend, BackendKind::Wgpu);
    assert_eq!(mm.kernel_language, "WGSL");
    assert!(report.ops.iter().all(|op| op.backend == BackendKind::Wgpu));
}

#[wasm_bindgen_test]
async fn errors_come_back_in_the_report_with_line_and_column() {
    let playground = Page::create("cpu").await.expect("the reference backend");
    let report = run(
        &playground,
        "import torch\nx = torch.ones(2, 3)\ny = x @ x\n",
    )
    .await;
    let d = &report.diagnostics[0];
    assert_eq!(d.kind, "RuntimeError");
    let span = d.span.expect("a span");
    assert_eq!((span.line, span.column), (3, 5));
    assert!(
        d.traceback
            .contains("mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)")
    );
    // The same playground keeps working after an error.
    let report = run(&playground, "print(1 + 1)\n").await;
    assert_eq!(report.stdout, "2\n");
}

/// What the page keeps in IndexedDB: entries taken after a run and loaded
/// into a fresh playground make every kernel a persisted hit; a record that
/// is not an entry is counted as corrupt and does no harm.
#[wasm_bindgen_test]
async fn compilation_cache_entries_survive_into_a_new_session() {
    let source = "import torch\nx = torch.ones(8, 16, device='tpu')\nw = torch.ones(16, 4, device='tpu')\ny = torch.relu(x @ w - 3.0).softmax(dim=1)\nprint(y.sum().item())\n";
    let first = Page::create("wgpu").await.unwrap();
    let report = run_in(&first, source, Some("fused")).await;
    assert!(report.ok(), "{:?}", report.diagnostics);
    let records = js_sys::Array::from(&first.call("takeCacheEntries", &[]).unwrap()).to_vec();
    assert_eq!(records.len() as u64, report.cache.misses);
    assert!(report.kernels.iter().any(|k| k.source.is_some()));
    let second = Page::create("wgpu").await.unwrap();
    // The device model's choice does not touch the cache: kernels are the
    // same whichever TPU they are costed on.
    second
        .call("setDevice", &["v6e".into(), "2x2".into()])
        .unwrap();
    let loaded: js_sys::Array = records.iter().collect();
    loaded.push(&JsValue::from_str("not an entry"));
    second.call("loadCache", &[loaded.into()]).unwrap();
    let again = run_in(&second, source, Some("fused")).await;
    assert_eq!(again.stdout, report.stdout);
    assert_eq!(again.cache.misses, 0);
    assert_eq!(again.cache.persisted_hits, records.len() as u64);
    assert_eq!(again.cache.corrupt, 1);
    let device = again.device.expect("a costed run");
    assert_eq!(
        (device.chip.as_str(), device.slice.as_str()),
        ("v6e", "2x2")
    );
    assert!(again.kernels.iter().all(|k| k.cost.is_some()));
}

/// In the browser the engine's call stack (about a megabyte) bounds how
/// deep RustPython may recurse: Python's own recursion limit (1,000 frames)
/// fits within it, and sources nested too deeply to parse end in CPython's
/// errors before the parser overflows it (`tpu-python`'s `depth.rs`). Each
/// leaves the module working.
#[wasm_bindgen_test]
async fn recursion_at_and_past_the_limits_leaves_the_module_working() {
    let playground = Page::create("cpu").await.expect("the reference backend");
    let report = run(
        &playground,
        "def f(n):\n    return 0 if n == 0 else f(n - 1) + 1\n\nprint(f(900))\n",
    )
    .await;
    assert_eq!(report.stdout, "900\n", "{:?}", report.diagnostics);
    let deep = format!(
        "def f(n):\n    return {}1 if n == 0 else f(n - 1)\n\nprint(f(100))\n",
        "-".repeat(350)
    );
    let report = run(&playground, &deep).await;
    assert_eq!(report.stdout, "1\n", "{:?}", report.diagnostics);
    let report = run(&playground, "def f(n):\n    return f(n + 1)\n\nf(0)\n").await;
    assert_eq!(report.diagnostics[0].kind, "RecursionError");
    let deeper = format!("print(1)\nx = {}1\n", "-".repeat(20_000));
    let report = run(&playground, &deeper).await;
    let d = &report.diagnostics[0];
    assert_eq!(
        (d.kind.as_str(), d.span.map(|s| s.line)),
        ("RecursionError", Some(2))
    );
    let longer = format!("x = {}1\n", "1 + ".repeat(20_000));
    let report = run(&playground, &longer).await;
    assert_eq!(report.diagnostics[0].kind, "RecursionError");
    let brackets = format!("x = {}1{}\n", "[".repeat(20_000), "]".repeat(20_000));
    let report = run(&playground, &brackets).await;
    assert_eq!(report.diagnostics[0].kind, "SyntaxError");
    let report = run(&playground, "print(6 * 7)\n").await;
    assert_eq!(report.stdout, "42\n");
}

/// The device model in the browser: the whole-pod all-reduces of `tpu bench
/// --collectives`, simulated link by link in wasm. Their wall time here is
/// printed (a measurement for the README, not a pass/fail bound); the test
/// checks each against the scaling book's formula.
#[wasm_bindgen_test]
async fn whole_pod_all_reduces_simulate_in_the_browser() {
    for (chip, shape, c) in tpu_device::collective::pod_benchmarks() {
        let kind = "all-reduce";
        let started = js_sys::Date::now();
        let sim = tpu_wasm::simulate_collective(chip, shape, c.axes.clone(), kind, c.bytes)
            .expect("the simulation runs");
        let took = js_sys::Date::now() - started;
        let simulated = js_sys::Reflect::get(&sim, &"simulated_us".into())
            .unwrap()
            .as_f64()
            .unwrap();
        let formula = js_sys::Reflect::get(&sim, &"formula_us".into())
            .unwrap()
            .as_f64()
            .unwrap();
        console_log!(
            "{chip} {shape} all-reduce: simulated {simulated:.1} us; took {took:.0} ms to simulate in this browser (measured)"
        );
        assert!(
            (simulated / formula - 1.0).abs() < 0.10,
            "{simulated} against {formula}"
        );
    }
}
