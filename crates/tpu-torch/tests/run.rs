//! Whole programs on the reference backend, as the runtime sees them: the op
//! log, PyTorch's wording for shape errors, hostile programs that end in
//! Python errors rather than crashes, and buffers given back when a run (or a
//! call) is done with them.

use tpu_runtime::{EagerMode, ReferenceBackend, Report, Runtime};

fn options() -> tpu_python::Options {
    tpu_python::Options {
        path: "main.py".into(),
        ..tpu_python::Options::default()
    }
}

/// Runs `f` on a thread with the stack the CLI gives the interpreter.
fn on_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(tpu_python::STACK_BYTES)
        .spawn(f)
        .expect("a thread starts")
        .join()
        .expect("the run does not panic")
}

fn run_on(source: &str, runtime: &mut Runtime) -> Report {
    tpu_torch::run_report(source, runtime, options(), EagerMode::Strict).0
}

fn run_program(source: &str) -> Report {
    let source = source.to_string();
    on_stack(move || {
        run_on(
            &source,
            &mut Runtime::new(Box::new(ReferenceBackend::new())),
        )
    })
}

const HELLO: &str = r#"import torch
x = torch.ones(2, 3, device="tpu")
y = (x * 2 + 1) @ torch.ones(3, 2, device="tpu")
print(y)
print(y.sum().item())
"#;

#[test]
fn the_foundation_program_prints_what_pytorch_prints_and_logs_its_ops() {
    let report = run_program(HELLO);
    assert!(report.ok(), "{:?}", report.diagnostics);
    assert_eq!(
        report.stdout,
        "tensor([[9., 9.],\n        [9., 9.]], device='tpu:0')\n36.0\n"
    );
    let names: Vec<&str> = report.ops.iter().map(|op| op.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "aten::fill",
            "aten::mul",
            "aten::add",
            "aten::fill",
            "aten::mm",
            "aten::sum"
        ]
    );
    assert_eq!(report.ops[4].line, Some(3));
}

#[test]
fn shape_mismatch_uses_pytorch_wording_at_the_line() {
    let cases = [
        (
            "import torch\nx = torch.ones(2, 3, device='tpu')\ny = x @ torch.ones(4, 2, device='tpu')\n",
            3,
            "RuntimeError: mm: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x2)\n",
        ),
        (
            "import torch\na = torch.ones(2, 3)\nb = torch.ones(4)\nc = a + b\n",
            4,
            "RuntimeError: The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1\n",
        ),
    ];
    for (source, line, last) in cases {
        let report = run_program(source);
        let d = report.diagnostics.first().expect("the program fails");
        assert_eq!(d.span.map(|s| s.line), Some(line), "{}", d.traceback);
        assert!(d.traceback.ends_with(last), "{}", d.traceback);
    }
}

#[test]
fn a_runtime_serves_several_runs_and_frees_their_buffers() {
    on_stack(|| {
        let mut runtime = Runtime::new(Box::new(ReferenceBackend::new()));
        for _ in 0..3 {
            let report = run_on(HELLO, &mut runtime);
            assert!(report.ok(), "{:?}", report.diagnostics);
            assert_eq!(report.ops.len(), 6);
            assert_eq!(runtime.live_tpu_buffers(), 0);
        }
    });
}

/// Each of these must end in a Python error (the one CPython or PyTorch
/// raises), never exhaust the host.
#[test]
fn hostile_programs_end_in_errors_not_crashes() {
    let cases = [
        ("[0] * 10**10\n", "MemoryError"),
        ("'ab' * 10**12\n", "MemoryError"),
        ("import torch\ntorch.ones(10**6, 10**6)\n", "RuntimeError"),
        (
            "import torch\ntorch.ones(10**10, 10**10, 10**10)\n",
            "RuntimeError",
        ),
    ];
    for (source, kind) in cases {
        let report = run_program(source);
        let d = report
            .diagnostics
            .first()
            .unwrap_or_else(|| panic!("{source} did not fail"));
        assert_eq!(d.kind, kind, "{source}: {}", d.message);
    }
}

#[test]
fn a_call_that_defines_a_function_frees_its_values_when_it_returns() {
    // A nested `def` closes over the call's frame, which holds it: a cycle.
    // Twelve calls on 16 MB tensors under a 64 MB budget run out of memory
    // if each call's tensor outlives it.
    let source = "import torch\ndef step(x):\n    def helper():\n        return x\n    return helper().sum()\nfor i in range(12):\n    step(torch.zeros(4 * 1024 * 1024, device='tpu'))\nprint('ok')\n";
    let report = on_stack(move || {
        let mut runtime = Runtime::new(Box::new(ReferenceBackend::new()));
        runtime.share_memory_budget(64);
        run_on(source, &mut runtime)
    });
    assert_eq!(report.stdout, "ok\n", "{:?}", report.diagnostics);
}

#[test]
fn a_finished_run_frees_everything_it_made() {
    // Module-level functions close over the module that holds them (a
    // cycle); the tensors a program leaves in globals must still be freed.
    let source = "import torch\nimport torch.nn as nn\nx = torch.ones(3, device='tpu', requires_grad=True)\ny = (x.exp() * 2).sum()\nm = nn.Linear(3, 2).to('tpu')\ndef f():\n    return f\nclass C:\n    def g(self):\n        return x\nc = C()\n";
    on_stack(move || {
        let mut runtime = Runtime::new(Box::new(ReferenceBackend::new()));
        for _ in 0..2 {
            let report = run_on(source, &mut runtime);
            assert!(report.ok(), "{:?}", report.diagnostics);
            assert_eq!(runtime.live_tpu_buffers(), 0);
        }
    });
}

#[test]
fn starting_processes_without_a_world_maker_is_refused_saying_why() {
    // Embedders that give the runtime no way to make a world of ranks (this
    // test's bare runtime) cannot run `torch.multiprocessing.spawn`; `tpu
    // run` and the page can (`crates/tpu-cli/tests/distributed/spawn.rs`).
    let report = run_program(
        "import torch.multiprocessing as mp\ndef work(rank):\n    pass\nmp.spawn(work, nprocs=2)\n",
    );
    let d = report.diagnostics.first().expect("spawn is refused");
    assert_eq!(d.kind, "RuntimeError");
    assert_eq!(d.span.map(|s| s.line), Some(4));
    assert!(
        d.message.contains("cannot start 2 processes here")
            && d.message.contains("no way to make a world of ranks"),
        "{}",
        d.message
    );
}
