//! Runs in headless Chromium through `wasm-pack test --headless --chrome`: the
//! foundation program through the wasm API, with its kernels on WebGPU
//! (SwiftShader on CI), checked against the output PyTorch prints.
#![cfg(target_arch = "wasm32")]

use tpu_runtime::{BackendKind, Report};
use tpu_wasm::Playground;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const HELLO: &str = include_str!("../../../tests/programs/hello_tensor.py");

async fn run(playground: &Playground, source: &str) -> Report {
    run_in(playground, source, None).await
}

async fn run_in(playground: &Playground, source: &str, mode: Option<&str>) -> Report {
    let value = JsFuture::from(playground.run(source.to_string(), mode.map(String::from), None))
        .await
        .expect("the run resolves");
    serde_wasm_bindgen::from_value(value).expect("a Report")
}

#[wasm_bindgen_test]
async fn hello_runs_its_matmul_as_a_wgsl_kernel_on_webgpu() {
    let playground = Playground::create(Some("wgpu".into()))
        .await
        .expect("WebGPU is available");
    assert_eq!(playground.backend(), "wgpu");
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
    let playground = Playground::create(Some("cpu".into()))
        .await
        .expect("the reference backend");
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

/// The whole conformance corpus (`tests/conformance`, and `cnn/`), name, program, and what
/// PyTorch printed.
const CORPUS: &[(&str, &str, &str)] = &[
    (
        "adamw_regression",
        include_str!("../../../tests/conformance/adamw_regression.py"),
        include_str!("../../../tests/conformance/adamw_regression.expected"),
    ),
    (
        "attention_block",
        include_str!("../../../tests/conformance/attention_block.py"),
        include_str!("../../../tests/conformance/attention_block.expected"),
    ),
    (
        "autograd_basic",
        include_str!("../../../tests/conformance/autograd_basic.py"),
        include_str!("../../../tests/conformance/autograd_basic.expected"),
    ),
    (
        "basics_print",
        include_str!("../../../tests/conformance/basics_print.py"),
        include_str!("../../../tests/conformance/basics_print.expected"),
    ),
    (
        "broadcasting_ops",
        include_str!("../../../tests/conformance/broadcasting_ops.py"),
        include_str!("../../../tests/conformance/broadcasting_ops.expected"),
    ),
    (
        "embedding_bigram",
        include_str!("../../../tests/conformance/embedding_bigram.py"),
        include_str!("../../../tests/conformance/embedding_bigram.expected"),
    ),
    (
        "indexing_views",
        include_str!("../../../tests/conformance/indexing_views.py"),
        include_str!("../../../tests/conformance/indexing_views.expected"),
    ),
    (
        "mlp_classifier",
        include_str!("../../../tests/conformance/mlp_classifier.py"),
        include_str!("../../../tests/conformance/mlp_classifier.expected"),
    ),
    (
        "polynomial_sgd",
        include_str!("../../../tests/conformance/polynomial_sgd.py"),
        include_str!("../../../tests/conformance/polynomial_sgd.expected"),
    ),
    (
        "python_semantics",
        include_str!("../../../tests/conformance/python_semantics.py"),
        include_str!("../../../tests/conformance/python_semantics.expected"),
    ),
    (
        "rng_compat",
        include_str!("../../../tests/conformance/rng_compat.py"),
        include_str!("../../../tests/conformance/rng_compat.expected"),
    ),
    (
        "cnn/cnn_classifier",
        include_str!("../../../tests/conformance/cnn/cnn_classifier.py"),
        include_str!("../../../tests/conformance/cnn/cnn_classifier.expected"),
    ),
];

/// Runs every corpus program on `backend` in `mode` and checks it with the
/// corpus rule.
async fn corpus_agrees_on(backend: &str, mode: Option<&str>) {
    let playground = Playground::create(Some(backend.into()))
        .await
        .expect("the backend starts");
    let mut failures = Vec::new();
    for (name, source, expected) in CORPUS {
        let report = run_in(&playground, source, mode).await;
        if !report.ok() {
            failures.push(format!("{name}: {:?}", report.diagnostics));
        } else if let Err(why) = tpu_lang::conformance::agree(expected, &report.stdout) {
            failures.push(format!("{name}: {why}"));
        }
    }
    assert!(
        failures.is_empty(),
        "on {backend} in {mode:?}:\n{}",
        failures.join("\n")
    );
}

#[wasm_bindgen_test]
async fn the_conformance_corpus_agrees_with_pytorch_on_the_reference_backend() {
    corpus_agrees_on("cpu", None).await;
}

#[wasm_bindgen_test]
async fn the_conformance_corpus_agrees_with_pytorch_on_webgpu() {
    corpus_agrees_on("wgpu", None).await;
}

/// Fused mode's generated kernels (row kernels, matmul epilogues) compiled by
/// the browser's WebGPU.
#[wasm_bindgen_test]
async fn the_conformance_corpus_agrees_with_pytorch_fused_on_webgpu() {
    corpus_agrees_on("wgpu", Some("fused")).await;
}

/// The shared compile corpus (first) and the project's own compile programs
/// (`tests/compile/`), what PyTorch 2.15's torch.compile printed.
const COMPILE: &[(&str, &str, &str)] = &[
    (
        "compile_mlp",
        include_str!("../../../tests/conformance/compile/compile_mlp.py"),
        include_str!("../../../tests/conformance/compile/compile_mlp.expected"),
    ),
    (
        "compile_attention_embedding",
        include_str!("../../../tests/compile/compile_attention_embedding.py"),
        include_str!("../../../tests/compile/compile_attention_embedding.expected"),
    ),
    (
        "compile_bounded_seq",
        include_str!("../../../tests/compile/compile_bounded_seq.py"),
        include_str!("../../../tests/compile/compile_bounded_seq.expected"),
    ),
    (
        "compile_cache_limit",
        include_str!("../../../tests/compile/compile_cache_limit.py"),
        include_str!("../../../tests/compile/compile_cache_limit.expected"),
    ),
    (
        "compile_custom_backend",
        include_str!("../../../tests/compile/compile_custom_backend.py"),
        include_str!("../../../tests/compile/compile_custom_backend.expected"),
    ),
    (
        "compile_dynamic_batch",
        include_str!("../../../tests/compile/compile_dynamic_batch.py"),
        include_str!("../../../tests/compile/compile_dynamic_batch.expected"),
    ),
    (
        "compile_dynamic_seq",
        include_str!("../../../tests/compile/compile_dynamic_seq.py"),
        include_str!("../../../tests/compile/compile_dynamic_seq.expected"),
    ),
    (
        "compile_fullgraph_errors",
        include_str!("../../../tests/compile/compile_fullgraph_errors.py"),
        include_str!("../../../tests/compile/compile_fullgraph_errors.expected"),
    ),
    (
        "compile_function_basics",
        include_str!("../../../tests/compile/compile_function_basics.py"),
        include_str!("../../../tests/compile/compile_function_basics.expected"),
    ),
    (
        "compile_graph_break_item",
        include_str!("../../../tests/compile/compile_graph_break_item.py"),
        include_str!("../../../tests/compile/compile_graph_break_item.expected"),
    ),
    (
        "compile_graph_break_print",
        include_str!("../../../tests/compile/compile_graph_break_print.py"),
        include_str!("../../../tests/compile/compile_graph_break_print.expected"),
    ),
    (
        "compile_loss_functions",
        include_str!("../../../tests/compile/compile_loss_functions.py"),
        include_str!("../../../tests/compile/compile_loss_functions.expected"),
    ),
    (
        "compile_module_inplace",
        include_str!("../../../tests/compile/compile_module_inplace.py"),
        include_str!("../../../tests/compile/compile_module_inplace.expected"),
    ),
    (
        "compile_module_mlp",
        include_str!("../../../tests/compile/compile_module_mlp.py"),
        include_str!("../../../tests/compile/compile_module_mlp.expected"),
    ),
    (
        "compile_cnn",
        include_str!("../../../tests/compile/compile_cnn.py"),
        include_str!("../../../tests/compile/compile_cnn.expected"),
    ),
    (
        "compile_op_coverage",
        include_str!("../../../tests/compile/compile_op_coverage.py"),
        include_str!("../../../tests/compile/compile_op_coverage.expected"),
    ),
    (
        "compile_recompile_guards",
        include_str!("../../../tests/compile/compile_recompile_guards.py"),
        include_str!("../../../tests/compile/compile_recompile_guards.expected"),
    ),
    (
        "compile_recompile_scalars",
        include_str!("../../../tests/compile/compile_recompile_scalars.py"),
        include_str!("../../../tests/compile/compile_recompile_scalars.expected"),
    ),
    (
        "compile_reset_disable",
        include_str!("../../../tests/compile/compile_reset_disable.py"),
        include_str!("../../../tests/compile/compile_reset_disable.expected"),
    ),
    (
        "compile_rng_outside",
        include_str!("../../../tests/compile/compile_rng_outside.py"),
        include_str!("../../../tests/compile/compile_rng_outside.expected"),
    ),
    (
        "compile_structured_io",
        include_str!("../../../tests/compile/compile_structured_io.py"),
        include_str!("../../../tests/compile/compile_structured_io.expected"),
    ),
    (
        "compile_training_adamw",
        include_str!("../../../tests/compile/compile_training_adamw.py"),
        include_str!("../../../tests/compile/compile_training_adamw.expected"),
    ),
];

/// Runs `programs` on `backend` in each of `modes` and checks each with the
/// corpus rule.
async fn programs_agree(backend: &str, modes: &[&str], programs: &[(&str, &str, &str)]) {
    let playground = Playground::create(Some(backend.into()))
        .await
        .expect("the backend starts");
    let mut failures = Vec::new();
    for &mode in modes {
        for (name, source, expected) in programs {
            let report = run_in(&playground, source, Some(mode)).await;
            if !report.ok() {
                failures.push(format!("{name} in {mode}: {:?}", report.diagnostics));
            } else if let Err(why) = tpu_lang::conformance::agree(expected, &report.stdout) {
                failures.push(format!("{name} in {mode}: {why}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "on {backend}:\n{}",
        failures.join("\n")
    );
}

/// torch.compile in the browser: compiled graphs, recompiles, graph breaks
/// and custom backends, in every eager mode on the wasm reference backend.
#[wasm_bindgen_test]
async fn the_compile_programs_agree_with_pytorch_in_every_mode_on_the_reference_backend() {
    programs_agree("cpu", &["debug", "strict", "fused"], COMPILE).await;
}

/// The shared compile corpus in every mode on WebGPU, the own programs Fused.
#[wasm_bindgen_test]
async fn the_compile_programs_agree_with_pytorch_on_webgpu() {
    programs_agree("wgpu", &["debug", "strict", "fused"], &COMPILE[..1]).await;
    programs_agree("wgpu", &["fused"], &COMPILE[1..]).await;
}

/// Pallas kernels: the shared corpus, then the project's own kernels (what
/// real JAX Pallas printed in interpret mode).
const PALLAS: &[(&str, &str, &str)] = &[
    (
        "pallas_kernels",
        include_str!("../../../tests/conformance/pallas/pallas_kernels.py"),
        include_str!("../../../tests/conformance/pallas/pallas_kernels.expected"),
    ),
    (
        "batched_3d_grid",
        include_str!("../../../tests/pallas/batched_3d_grid.py"),
        include_str!("../../../tests/pallas/batched_3d_grid.expected"),
    ),
    (
        "bf16_inputs",
        include_str!("../../../tests/pallas/bf16_inputs.py"),
        include_str!("../../../tests/pallas/bf16_inputs.expected"),
    ),
    (
        "block_reductions",
        include_str!("../../../tests/pallas/block_reductions.py"),
        include_str!("../../../tests/pallas/block_reductions.expected"),
    ),
    (
        "elementwise_ragged",
        include_str!("../../../tests/pallas/elementwise_ragged.py"),
        include_str!("../../../tests/pallas/elementwise_ragged.expected"),
    ),
    (
        "kernel_errors",
        include_str!("../../../tests/pallas/kernel_errors.py"),
        include_str!("../../../tests/pallas/kernel_errors.expected"),
    ),
    (
        "layernorm",
        include_str!("../../../tests/pallas/layernorm.py"),
        include_str!("../../../tests/pallas/layernorm.expected"),
    ),
    (
        "matmul_accumulate",
        include_str!("../../../tests/pallas/matmul_accumulate.py"),
        include_str!("../../../tests/pallas/matmul_accumulate.expected"),
    ),
    (
        "multi_output",
        include_str!("../../../tests/pallas/multi_output.py"),
        include_str!("../../../tests/pallas/multi_output.expected"),
    ),
    (
        "program_ids",
        include_str!("../../../tests/pallas/program_ids.py"),
        include_str!("../../../tests/pallas/program_ids.expected"),
    ),
    (
        "softmax_ragged_rows",
        include_str!("../../../tests/pallas/softmax_ragged_rows.py"),
        include_str!("../../../tests/pallas/softmax_ragged_rows.expected"),
    ),
    (
        "windows",
        include_str!("../../../tests/pallas/windows.py"),
        include_str!("../../../tests/pallas/windows.expected"),
    ),
];

/// Pallas kernels in every eager mode on the wasm reference backend and on
/// WebGPU, where each `pallas_call` is one generated WGSL shader.
#[wasm_bindgen_test]
async fn the_pallas_kernels_agree_with_jax_on_both_backends() {
    programs_agree("cpu", &["debug", "strict", "fused"], PALLAS).await;
    programs_agree("wgpu", &["debug", "strict", "fused"], PALLAS).await;
}

/// What the page keeps in IndexedDB: entries taken after a run and loaded
/// into a fresh playground make every kernel a persisted hit; a record that
/// is not an entry is counted as corrupt and does no harm.
#[wasm_bindgen_test]
async fn compilation_cache_entries_survive_into_a_new_session() {
    let source = "import torch\nx = torch.ones(8, 16, device='tpu')\nw = torch.ones(16, 4, device='tpu')\ny = torch.relu(x @ w - 3.0).softmax(dim=1)\nprint(y.sum().item())\n";
    let first = Playground::create(Some("wgpu".into())).await.unwrap();
    let report = run_in(&first, source, Some("fused")).await;
    assert!(report.ok(), "{:?}", report.diagnostics);
    let records = js_sys::Array::from(&first.take_cache_entries().unwrap()).to_vec();
    assert_eq!(records.len() as u64, report.cache.misses);
    assert!(report.kernels.iter().any(|k| k.source.is_some()));
    let second = Playground::create(Some("wgpu".into())).await.unwrap();
    // The device model's choice does not touch the cache: kernels are the
    // same whichever TPU they are costed on.
    second.set_device("v6e", "2x2").unwrap();
    let mut loaded = records.clone();
    loaded.push(wasm_bindgen::JsValue::from_str("not an entry"));
    second.load_cache(loaded).unwrap();
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

/// In the browser the engine's call stack bounds recursion; the interpreter's wasm
/// limits must stop every program before it, or the module would trap. These are
/// the deepest programs the limits let through, and two past them, run after
/// training programs have made V8 tier the interpreter up (its optimised frames
/// use more stack than the baseline ones).
#[wasm_bindgen_test]
async fn recursion_at_and_past_the_limits_leaves_the_module_working() {
    let playground = Playground::create(Some("cpu".into()))
        .await
        .expect("the reference backend");
    for (name, source, _) in CORPUS.iter().take(3) {
        let report = run(&playground, source).await;
        assert!(report.ok(), "{name}: {:?}", report.diagnostics);
    }
    let report = run(
        &playground,
        "def f(n):\n    return 0 if n == 0 else f(n - 1) + 1\n\nprint(f(170))\n",
    )
    .await;
    assert_eq!(report.stdout, "170\n", "{:?}", report.diagnostics);
    let deep = format!(
        "def f(n):\n    return {}1 if n == 0 else f(n - 1)\n\nprint(f(100))\n",
        "-".repeat(350)
    );
    let report = run(&playground, &deep).await;
    assert_eq!(report.stdout, "1\n", "{:?}", report.diagnostics);
    let report = run(&playground, "def f(n):\n    return f(n + 1)\n\nf(0)\n").await;
    assert_eq!(report.diagnostics[0].kind, "RecursionError");
    let deeper = format!("x = {}1\n", "-".repeat(20_000));
    let report = run(&playground, &deeper).await;
    assert_eq!(report.diagnostics[0].kind, "SyntaxError");
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
