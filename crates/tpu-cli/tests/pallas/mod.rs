//! Pallas kernels through `tpu run` (the Pallas corpora themselves, what real
//! JAX Pallas printed in interpret mode, run as generated tests, `corpus.rs`):
//! the Report's record of each `pallas_call` (grid, blocks, VMEM, MXU fit, the
//! kernel that ran it and its WGSL); and the VMEM check's error. (A module of
//! the corpus test binary.)

use super::support;

const MATMUL: &str = r#"import torch
import torch_tpu
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

def kernel(x_ref, y_ref, o_ref):
    @pl.when(pl.program_id(2) == 0)
    def _():
        o_ref[...] = jnp.zeros_like(o_ref)
    o_ref[...] += jnp.dot(x_ref[...], y_ref[...])

@torch_tpu.pallas.custom_jax_kernel
def matmul(x, y, bm, bk, bn):
    m, k = x.shape
    n = y.shape[1]
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct((m, n), x.dtype),
        grid=(m // bm, n // bn, k // bk),
        in_specs=[pl.BlockSpec((bm, bk), lambda i, j, kk: (i, kk)),
                  pl.BlockSpec((bk, bn), lambda i, j, kk: (kk, j))],
        out_specs=pl.BlockSpec((bm, bn), lambda i, j, kk: (i, j)))(x, y)

x = torch.ones(BM * 2, BK * 3, device="tpu")
y = torch.ones(BK * 3, BN, device="tpu")
print(matmul(x, y, BM, BK, BN).sum().item())
"#;

fn matmul(bm: usize, bk: usize, bn: usize) -> String {
    MATMUL
        .replace("BM", &bm.to_string())
        .replace("BK", &bk.to_string())
        .replace("BN", &bn.to_string())
}

#[test]
fn the_report_records_grid_blocks_vmem_and_the_mxu_fit() {
    for mode in support::MODES {
        let (report, stderr, ok) = support::run_report(&matmul(128, 128, 128), "cpu", mode);
        assert!(ok, "{mode}: {stderr}");
        assert_eq!(report["stdout"], "12582912.0\n");
        let call = &report["pallas"][0];
        assert_eq!(call["name"], "kernel");
        assert_eq!(call["line"], 17, "the pallas_call's line");
        assert_eq!(call["grid"], serde_json::json!([2, 1, 3]));
        assert_eq!(call["parallel"], serde_json::json!([true, true, false]));
        let operands = call["operands"].as_array().unwrap();
        assert_eq!(operands[0]["index_map"], "lambda i, j, k: (i, k)");
        // x's and y's blocks change at every grid step, the output's once
        // per (i, j).
        let copies: Vec<u64> = operands
            .iter()
            .map(|o| o["copies"].as_u64().unwrap())
            .collect();
        assert_eq!(copies, [6, 6, 2]);
        // Three 128x128 float32 blocks, double-buffered.
        assert_eq!(call["vmem_bytes"], 2 * 3 * 128 * 128 * 4);
        assert_eq!(call["vmem_capacity"], 128 * 1024 * 1024, "a v5e's VMEM");
        let fit = &call["mxu"][0];
        assert_eq!(fit["dims"], serde_json::json!([128, 128, 128]));
        assert_eq!(fit["utilization"], 1.0);
        assert_eq!(fit["line"], 11, "the dot's line in the kernel");
        let kernel = &report["kernels"][call["kernel"].as_u64().unwrap() as usize];
        assert!(
            kernel["name"]
                .as_str()
                .unwrap()
                .starts_with("pallas_kernel_")
        );
        let cost = &kernel["cost"];
        assert_eq!(cost["unit"], "mxu");
        // 6 grid points of a 128^3 block product.
        assert_eq!(cost["matmul_flops"], 6.0 * 2.0 * 128f64.powi(3));
    }
}

#[test]
fn blocks_that_do_not_fit_vmem_are_refused_naming_the_line_and_the_bytes() {
    // A v5e with 256 KiB of VMEM: three 128x128 float32 blocks, double
    // buffered, need 384 KiB.
    let source = matmul(128, 128, 128).replace(
        "import torch_tpu\n",
        "import torch_tpu\ntorch_tpu.set_chip(\"v5e:vmem_bytes=262144\")\n",
    );
    let (report, _, ok) = support::run_report(&source, "cpu", "strict");
    assert!(!ok);
    let diagnostic = &report["diagnostics"][0];
    let error = diagnostic["message"].as_str().unwrap();
    assert_eq!(diagnostic["kind"], "RuntimeError");
    assert!(error.starts_with("RESOURCE_EXHAUSTED"), "{error}");
    assert!(error.contains("need 393216 bytes of VMEM"), "{error}");
    assert!(
        error.contains("in 0: 128x128 float32 = 65536 bytes"),
        "{error}"
    );
    assert!(error.contains("262144 bytes"), "{error}");
    // The pallas_call's line (the call's first line).
    assert_eq!(diagnostic["span"]["line"], 18, "{error}");
}

#[test]
fn narrow_blocks_get_an_mxu_hint() {
    let (report, stderr, ok) = support::run_report(&matmul(8, 64, 128), "cpu", "fused");
    assert!(ok, "{stderr}");
    let fit = &report["pallas"][0]["mxu"][0];
    assert_eq!(fit["dims"], serde_json::json!([8, 64, 128]));
    assert_eq!(fit["utilization"], 0.5);
    let hints = fit["hints"].as_array().unwrap();
    assert!(
        hints[0]
            .as_str()
            .unwrap()
            .starts_with("a contraction dimension of 64 fills half"),
        "{hints:?}"
    );
}

#[test]
#[cfg_attr(
    not(tpu_gpu),
    ignore = "needs a wgpu adapter: set TPU_REQUIRE_GPU=1 when building the tests (the test command does), or run with --include-ignored"
)]
fn the_wgpu_backend_runs_each_pallas_call_as_one_generated_shader() {
    let (report, stderr, ok) = support::run_report(&matmul(32, 32, 32), "wgpu", "strict");
    assert!(ok, "{stderr}");
    assert_eq!(report["stdout"], "196608.0\n");
    let call = &report["pallas"][0];
    let source = call["source"].as_str().unwrap();
    assert!(source.contains("@compute"), "{source}");
    assert!(
        source.contains("workgroupUniformLoad(&cond)"),
        "the pl.when: {source}"
    );
    let kernel = &report["kernels"][call["kernel"].as_u64().unwrap() as usize];
    assert_eq!(kernel["kernel_language"], "WGSL");
    let op = &report["ops"][call["op"].as_u64().unwrap() as usize];
    assert_eq!(op["name"], "pallas::kernel");
    assert!(op["fallback"].is_null(), "{op}");
}

/// The traced block operations of the blocked matmul, as a snapshot: a change
/// to tracing shows up as a reviewable diff (`UPDATE_EXPECT=1` rewrites it).
#[test]
fn the_traced_matmul_matches_its_snapshot() {
    let (report, stderr, ok) = support::run_report(&matmul(32, 32, 32), "cpu", "strict");
    assert!(ok, "{stderr}");
    let body = report["pallas"][0]["body"].as_str().unwrap();
    expect_test::expect_file!["../snapshots/pallas_matmul_body.txt"]
        .assert_eq(&format!("{body}\n"));
}

/// The generated WGSL of the blocked matmul, as a snapshot: a change to the
/// shader generator shows up as a reviewable diff.
#[test]
#[cfg_attr(
    not(tpu_gpu),
    ignore = "needs a wgpu adapter: set TPU_REQUIRE_GPU=1 when building the tests (the test command does), or run with --include-ignored"
)]
fn the_matmuls_wgsl_matches_its_snapshot() {
    let (report, stderr, ok) = support::run_report(&matmul(32, 32, 32), "wgpu", "strict");
    assert!(ok, "{stderr}");
    let source = report["pallas"][0]["source"].as_str().unwrap();
    expect_test::expect_file!["../snapshots/pallas_matmul.wgsl"].assert_eq(source);
}
