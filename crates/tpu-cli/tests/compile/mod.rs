//! `torch.compile` through `tpu run` (the compile corpora themselves run as
//! generated tests, `corpus.rs`): the Report's record of compiles, recompile
//! reasons and graph breaks; and every graph of the compile corpora
//! (`tests/corpus/compile/` and the shared one) as StableHLO checked by real
//! XLA (`tools/xla_check.py`), with mutants that XLA must refuse or disagree
//! with. (A module of the corpus test binary, so that it costs no link of its
//! own.)

use super::support;
use std::path::PathBuf;
use std::process::Command;

/// Runs `source` as a program with `tpu run --report`, returning the
/// Report's `compiled` list and the exit status.
fn compiled(source: &str, mode: &str) -> (serde_json::Value, bool) {
    let (report, ok) = report(source, mode);
    (report["compiled"].clone(), ok)
}

/// Runs `source` on the reference backend with `tpu run --report`,
/// returning the Report and the exit status.
fn report(source: &str, mode: &str) -> (serde_json::Value, bool) {
    let (json, _, ok) = support::run_report(source, "cpu", mode);
    (json, ok)
}

#[test]
fn recompiles_are_recorded_with_dynamos_reasons() {
    let source = r#"import torch
device = "tpu"

@torch.compile
def f(x, scale):
    return (x * scale).sum(-1)

for batch in [3, 5, 8, 13]:
    f(torch.ones(batch, 4, device=device), 2)
f(torch.ones(13, 4, device=device).requires_grad_(), 2)
with torch.no_grad():
    f(torch.ones(13, 4, device=device).requires_grad_(), 2)
    f(torch.ones(13, 4, device=device, dtype=torch.float64).requires_grad_(), 2)
"#;
    for mode in support::MODES {
        let (compiled, ok) = compiled(source, mode);
        assert!(ok, "{mode}");
        let f = &compiled[0];
        assert_eq!(f["name"], "f");
        assert_eq!(f["calls"], 7);
        let compiles = f["compiles"].as_array().unwrap();
        let reasons: Vec<&str> = compiles
            .iter()
            .map(|c| c["reason"].as_str().unwrap_or("-"))
            .collect();
        // Sizes 3, 5, 8, 13 compile twice: the second size makes dim 0
        // dynamic (automatic dynamic shapes), and 8 and 13 reuse it. Each
        // reason is the first guard of the latest compile the call failed
        // (the first line of Dynamo's recompile log).
        assert_eq!(
            reasons,
            [
                "-",
                "tensor 'x' size mismatch at index 0. expected 3, actual 5",
                "tensor 'x' requires_grad mismatch. expected requires_grad=0",
                "GLOBAL_STATE changed: grad_mode ",
                "tensor 'x' dtype mismatch. expected Float, actual Double",
            ],
            "{mode}"
        );
        assert_eq!(compiles[1]["dynamic_dims"][0], "x.size(0)");
        assert_eq!(
            compiles[1]["calls"], 3,
            "{mode}: 5, 8 and 13 share one compile"
        );
        for c in compiles {
            let graphs = c["graphs"].as_array().unwrap();
            assert_eq!(graphs.len(), 1);
            let text = graphs[0]["stablehlo"].as_str().unwrap();
            assert!(text.contains("func.func public @main"), "{text}");
            assert!(text.contains("stablehlo.reduce"), "{text}");
        }
    }
}

#[test]
fn graph_breaks_split_graphs_and_name_their_line() {
    let source = r#"import torch
device = "tpu"

def g(x):
    y = x * 2
    s = y.sum().item()
    z = y / s
    print("inside")
    return z + 1

out = torch.compile(g)(torch.ones(2, 3, device=device))
print(out.cpu())
try:
    torch.compile(g, fullgraph=True)(torch.ones(2, 3, device=device))
except torch._dynamo.exc.Unsupported as e:
    print("fullgraph:", str(e).splitlines()[0])
"#;
    for mode in support::MODES {
        let (compiled, ok) = compiled(source, mode);
        assert!(ok, "{mode}");
        let c = &compiled[0]["compiles"][0];
        let breaks = c["breaks"].as_array().unwrap();
        assert_eq!(breaks.len(), 2, "{mode}: {c}");
        assert!(
            breaks[0]["reason"]
                .as_str()
                .unwrap()
                .starts_with("Unsupported Tensor.item() call with capture_scalar_outputs=False")
        );
        assert_eq!(breaks[0]["line"], 6);
        assert!(
            breaks[1]["reason"]
                .as_str()
                .unwrap()
                .starts_with("Failed to trace builtin operator")
        );
        assert_eq!(breaks[1]["line"], 8);
        assert_eq!(c["graphs"].as_array().unwrap().len(), 3, "{mode}");
        // fullgraph: `.item()` is captured; the print is the error.
        let full = &compiled[1];
        assert!(full["fullgraph"].as_bool().unwrap());
    }
}

/// A compiled function's graph is planned whole: in Strict mode (one
/// kernel per op when eager) the compiled call launches fewer kernels.
#[test]
fn a_compiled_graph_runs_as_fewer_kernels_than_strict_eager() {
    let source = r#"import torch
import torch.nn.functional as F
device = "tpu"
torch.manual_seed(0)
w = torch.randn(16, 16, device=device)
b = torch.randn(16, device=device)
def block(x):
    h = F.gelu(x @ w + b)
    return F.layer_norm(h * 0.5 + x, (16,))
x = torch.randn(8, 16, device=device)
torch.compile(block)(x)
"#;
    let (report, ok) = report(source, "strict");
    assert!(ok);
    let graph = &report["compiled"][0]["compiles"][0]["graphs"][0];
    let ops: Vec<usize> = graph["ops"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o.as_u64().unwrap() as usize)
        .collect();
    let kernels = graph["kernels"].as_u64().unwrap() as usize;
    assert!(ops.len() >= 10, "{graph}");
    assert!(
        kernels * 2 <= ops.len(),
        "a compiled graph of {} ops launched {kernels} kernels",
        ops.len()
    );
    // Its ops are the function's own, from its product on: lines 8 and 9.
    let op = |i: usize| &report["ops"][i];
    assert_eq!(op(ops[0])["name"], "aten::mm");
    for &i in &ops {
        let line = op(i)["line"].as_u64().unwrap();
        assert!((8..=9).contains(&line), "op {i} at line {line}: {}", op(i));
    }
    // Its kernels are the ones that computed them, and its simulated time
    // is theirs on the chosen chip.
    let indices = graph["kernel_indices"].as_array().unwrap();
    assert_eq!(indices.len(), kernels);
    let simulated: f64 = indices
        .iter()
        .map(|k| {
            report["kernels"][k.as_u64().unwrap() as usize]["cost"]["simulated_us"]
                .as_f64()
                .unwrap()
        })
        .sum();
    let recorded = graph["simulated_us"].as_f64().unwrap();
    assert!(
        simulated > 0.0 && (recorded - simulated).abs() < 1e-9,
        "{recorded} vs {simulated}"
    );
    for k in indices {
        let computed = report["kernels"][k.as_u64().unwrap() as usize]["ops"]
            .as_array()
            .unwrap();
        assert!(
            computed
                .iter()
                .all(|o| ops.contains(&(o.as_u64().unwrap() as usize))),
            "kernel {k} computed ops outside the graph"
        );
    }
}

/// A backward through a compiled forward is captured as one graph, planned
/// whole and lowered to StableHLO, on the compile's first backward.
#[test]
fn a_compiled_forward_gets_a_compiled_backward() {
    let source = r#"import torch
import torch.nn as nn
device = "tpu"
torch.manual_seed(0)
model = torch.compile(nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.Linear(16, 4)).to(device))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(5, 8, device=device)
for step in range(3):
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item())
"#;
    let (compiled, ok) = compiled(source, "strict");
    assert!(ok);
    let c = &compiled[0]["compiles"][0];
    assert_eq!(c["backward_calls"], 3, "{c}");
    let backward = c["backward"].as_array().unwrap();
    assert_eq!(backward.len(), 1, "{c}");
    let ops = backward[0]["ops"].as_array().unwrap().len();
    let kernels = backward[0]["kernels"].as_u64().unwrap() as usize;
    assert!(ops >= 10 && kernels < ops, "{ops} ops, {kernels} kernels");
    // The gradients of the four parameters are its results.
    assert_eq!(backward[0]["outputs"].as_array().unwrap().len(), 4);
    let text = backward[0]["stablehlo"].as_str().unwrap();
    assert!(text.contains("stablehlo.dot_general"), "{text}");
}

/// A program of several ranks (DDP around a compiled model) keeps rank 0's
/// compile record, its graphs' kernels at their places in the merged Report.
#[test]
fn a_run_of_ranks_reports_rank_zeros_compiles() {
    let source = r#"import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
device = "tpu"
dist.init_process_group("gloo")
torch.manual_seed(0)
model = torch.compile(DDP(nn.Linear(4, 2).to(device)))
x = torch.randn(3, 4, device=device)
for _ in range(2):
    model(x).pow(2).sum().backward()
"#;
    let dir = std::env::temp_dir().join(format!("tpu-compile-ranks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (program, report) = (dir.join("p.py"), dir.join("p.json"));
    std::fs::write(&program, source).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tpu"))
        .args([
            "run",
            "--backend",
            "cpu",
            "--nproc-per-node",
            "2",
            "--report",
        ])
        .arg(&report)
        .arg(&program)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let c = &json["compiled"][0]["compiles"][0];
    assert_eq!(json["compiled"][0]["calls"], 2, "{}", json["compiled"]);
    for k in c["graphs"][0]["kernel_indices"].as_array().unwrap() {
        let kernel = &json["kernels"][k.as_u64().unwrap() as usize];
        assert_eq!(kernel["rank"], 0, "{kernel}");
    }
}

/// The Python that checks modules with real XLA: `TPU_XLA_PYTHON` (set by
/// `cargo xtask test`, which installs it), else the project's virtualenv.
fn xla_python() -> PathBuf {
    if let Ok(p) = std::env::var("TPU_XLA_PYTHON") {
        return PathBuf::from(p);
    }
    let venv = support::corpus_dir("target/xla-venv/bin/python");
    assert!(
        venv.exists(),
        "no XLA: run `cargo xtask setup`, or set TPU_XLA_PYTHON"
    );
    venv
}

/// Every graph of the compile corpora, emitted with `--emit-stablehlo`, is
/// parsed, verified, compiled and run by XLA, and agrees with the runtime;
/// every mutant (one broadcast or contracting dimension changed) is refused
/// or disagrees, so the check can fail. Ignored unless the build saw
/// `TPU_XLA_PYTHON` (`build.rs`); run anyway, a missing XLA fails it.
#[test]
#[cfg_attr(
    not(tpu_xla),
    ignore = "needs real XLA: set TPU_XLA_PYTHON when building the tests (the test command does; `cargo xtask setup` installs target/xla-venv), or run with --include-ignored"
)]
fn every_emitted_module_is_checked_by_real_xla() {
    let python = xla_python();
    let out_dir = std::env::temp_dir().join(format!("tpu-stablehlo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out_dir);
    let mut dirs = Vec::new();
    let repo = support::corpus_dir("");
    let compile = super::layout::own_root(&repo).join("compile");
    let shared = super::layout::shared_root(&repo).join("compile");
    for corpus in [shared, compile] {
        for (name, program) in super::layout::programs_in(&corpus) {
            let dir = out_dir.join(&name);
            let status = Command::new(env!("CARGO_BIN_EXE_tpu"))
                .args(["run", "--backend", "cpu", "--emit-stablehlo"])
                .arg(&dir)
                .arg(&program)
                .output()
                .unwrap()
                .status;
            assert!(status.success(), "{name} failed");
            if dir.exists() {
                dirs.push(dir);
            }
        }
    }
    assert!(dirs.len() >= 15, "too few programs emitted graphs");
    let tool = support::corpus_dir("tools/xla_check.py");
    let check = Command::new(&python)
        .arg(&tool)
        .args(&dirs)
        .output()
        .expect("the XLA virtualenv's python runs");
    let report = String::from_utf8_lossy(&check.stdout);
    assert!(
        check.status.success(),
        "{report}\n{}",
        String::from_utf8_lossy(&check.stderr)
    );
    let modules = report.lines().filter(|l| l.starts_with("ok ")).count();
    assert!(modules >= 60, "only {modules} modules checked:\n{report}");
    let mutants = Command::new(&python)
        .arg(&tool)
        .arg("--mutations")
        .args(&dirs)
        .output()
        .unwrap();
    assert!(
        mutants.status.success(),
        "{}",
        String::from_utf8_lossy(&mutants.stdout)
    );
    let _ = std::fs::remove_dir_all(&out_dir);
}

/// Bounded dynamic shapes: sequence lengths 3, 5, 8, 13 compile twice
/// (Dynamo's count), and the dynamic compile runs padded to one bound, so
/// that the calls at 8 and 13 launch only kernels the cache already holds
/// (at their own sizes each would compile its fused kernels anew). Softmax,
/// the mean over the padded length and the contraction over it are masked:
/// the values must match the eager run's.
#[test]
fn dynamic_lengths_run_padded_to_a_bound_and_reuse_their_kernels() {
    let source = r#"import math
import torch
device = "tpu"
torch.manual_seed(0)

def attend(x):
    scores = x @ x.transpose(1, 2) / math.sqrt(x.size(-1))
    return (torch.softmax(scores, dim=-1) @ x).mean(dim=1)

f = torch.compile(attend)
xs = [torch.randn(2, s, 8, device=device) for s in [3, 5, 8, 13]]
outs = []
for x in xs:
    outs.append(f(x))
    outs[-1].sum().item()
for x, out in zip(xs, outs):
    print(x.size(1), torch.allclose(out, attend(x), atol=1e-5))
"#;
    for mode in support::MODES {
        let (report, ok) = report(source, mode);
        assert!(ok, "{mode}");
        let stdout = report["stdout"].as_str().unwrap_or_default();
        assert_eq!(stdout, "3 True\n5 True\n8 True\n13 True\n", "{mode}");
        let compiles = report["compiled"][0]["compiles"].as_array().unwrap();
        assert_eq!(compiles.len(), 2, "{mode}: 3, 5, 8, 13 compile twice");
        let padding = &compiles[1]["padding"];
        assert_eq!(padding["padded_calls"], 3, "{mode}: {padding}");
        assert_eq!(padding["exact_calls"], 0, "{mode}: {padding}");
        assert_eq!(padding["plans"], 1, "{mode}: {padding}");
        assert_eq!(padding["bounds"][0][0], "x.size(1)", "{mode}: {padding}");
        assert_eq!(padding["bounds"][0][1], 16, "{mode}: {padding}");
        let (padded, exact) = (
            padding["padded_elements"].as_u64().unwrap(),
            padding["exact_elements"].as_u64().unwrap(),
        );
        assert!(exact > 0 && padded > exact, "{mode}: {padding}");
        // Each call ends at its `.item()`: the kernels before it since the
        // last are that call's, the graph's those of `attend`'s lines.
        let ends: Vec<usize> = report["syncs"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["reason"] == ".item()")
            .map(|s| s["after_kernels"].as_u64().unwrap() as usize)
            .collect();
        let kernels = report["kernels"].as_array().unwrap();
        let ops = report["ops"].as_array().unwrap();
        let graph = |call: usize| -> Vec<&serde_json::Value> {
            let start = if call == 0 { 0 } else { ends[call - 1] };
            kernels[start..ends[call]]
                .iter()
                .filter(|k| {
                    let first = k["ops"][0].as_u64().unwrap() as usize;
                    (7..=8).contains(&ops[first]["line"].as_u64().unwrap_or(0))
                })
                .collect()
        };
        let misses = |call: usize| {
            graph(call)
                .iter()
                .filter(|k| k["cache_hit"] == false)
                .count()
        };
        assert!(misses(1) > 0, "{mode}: the first padded call compiles");
        for call in [2, 3] {
            assert!(!graph(call).is_empty(), "{mode}");
            assert_eq!(
                misses(call),
                0,
                "{mode}: call {call} reuses the bound's kernels"
            );
        }
    }
}
