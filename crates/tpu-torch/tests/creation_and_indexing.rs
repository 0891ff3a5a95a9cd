//! The creation ops and advanced indexing run in the runtime: each creation
//! (`arange`, `linspace`, `eye`, `nonzero`, the random draws) is an op in the
//! Report, and index expressions are held to the runtime's memory limits and
//! accept int32 index tensors. The runtime's own tests (`tpu-runtime/tests/
//! creation.rs`, `indexing.rs`) check the values in each dtype.

use tpu_runtime::{EagerMode, ReferenceBackend, Report, Runtime};

/// Runs on a thread with the stack the CLI gives the interpreter.
fn run_program(source: &str) -> Report {
    let source = source.to_string();
    std::thread::Builder::new()
        .stack_size(tpu_python::STACK_BYTES)
        .spawn(move || {
            let mut runtime = Runtime::new(Box::new(ReferenceBackend::new()));
            let options = tpu_python::Options {
                path: "main.py".into(),
                ..tpu_python::Options::default()
            };
            tpu_torch::run_report(&source, &mut runtime, options, EagerMode::Strict).0
        })
        .expect("a thread starts")
        .join()
        .expect("the run does not panic")
}

fn traceback(report: &Report) -> &str {
    &report
        .diagnostics
        .first()
        .expect("the program should fail")
        .traceback
}

#[test]
fn every_creation_op_is_recorded_in_the_report() {
    let report = run_program(
        r#"import torch
torch.manual_seed(0)
a = torch.arange(5, device="tpu")
b = torch.linspace(0, 1, 5, device="tpu")
c = torch.eye(2, 3, device="tpu")
d = torch.randint(0, 10, (3,), device="tpu")
e = torch.randperm(4, device="tpu")
f = torch.tensor([[1, 0], [0, 3]], device="tpu").nonzero()
g = torch.rand(2, device="tpu")
h = torch.randn(2, device="tpu")
g.uniform_(-1, 1)
h.normal_(0, 2)
print(a)
print(b)
print(c)
print(f)
"#,
    );
    assert!(report.ok(), "{:?}", report.diagnostics);
    assert_eq!(
        report.stdout,
        "tensor([0, 1, 2, 3, 4], device='tpu:0')\n\
         tensor([0.0000, 0.2500, 0.5000, 0.7500, 1.0000], device='tpu:0')\n\
         tensor([[1., 0., 0.],\n        [0., 1., 0.]], device='tpu:0')\n\
         tensor([[0, 0],\n        [1, 1]], device='tpu:0')\n"
    );
    let recorded = |name: &str, kernel: &str, line: u32| {
        assert!(
            report
                .ops
                .iter()
                .any(|op| op.name == name && op.kernel == kernel && op.line == Some(line)),
            "no {name} ({kernel}) on line {line} in {:?}",
            report
                .ops
                .iter()
                .map(|op| (&op.name, &op.kernel, op.line))
                .collect::<Vec<_>>()
        );
    };
    recorded("aten::arange", "arange", 3);
    recorded("aten::linspace", "linspace", 4);
    recorded("aten::eye", "eye", 5);
    recorded("aten::randint", "host_randint", 6);
    recorded("aten::randperm", "host_randperm", 7);
    recorded("aten::nonzero", "nonzero", 8);
    recorded("aten::uniform_", "host_uniform", 9);
    recorded("aten::normal_", "host_normal", 10);
    recorded("aten::uniform_", "host_uniform", 11);
    recorded("aten::normal_", "host_normal", 12);
    // `nonzero` reads its input to size its output, and says so.
    assert!(
        report.syncs.iter().any(
            |s| s.reason == "nonzero: the output's size depends on the values" && s.line == Some(8)
        ),
        "{:?}",
        report.syncs
    );
}

#[test]
fn an_index_result_too_large_is_refused_by_the_runtimes_limit() {
    let report = run_program(
        r#"import torch
x = torch.zeros(2, 100000)
rows = torch.zeros(100000, 1, dtype=torch.int64)
cols = torch.arange(100000)
y = x[rows, cols]
"#,
    );
    let text = traceback(&report);
    assert!(
        text.contains(
            "RuntimeError: out of memory: a tensor of shape [100000, 100000] needs 80000000000 bytes"
        ),
        "{text}"
    );
}

#[test]
fn int32_index_tensors_index_and_assign() {
    let report = run_program(
        r#"import torch
x = torch.arange(5.0)
i = torch.tensor([0, 1], dtype=torch.int32)
print(x[i])
x[i] = -1.0
print(x)
print(x[torch.tensor([-1], dtype=torch.int32)])
"#,
    );
    assert!(report.ok(), "{:?}", report.diagnostics);
    assert_eq!(
        report.stdout,
        "tensor([0., 1.])\ntensor([-1., -1.,  2.,  3.,  4.])\ntensor([4.])\n"
    );
}

#[test]
fn float_index_tensors_keep_pytorchs_index_error() {
    let report = run_program(
        r#"import torch
x = torch.arange(5.0)
x[torch.tensor([0.0])]
"#,
    );
    let text = traceback(&report);
    assert!(
        text.ends_with(
            "IndexError: tensors used as indices must be long, int, byte or bool tensors\n"
        ),
        "{text}"
    );
}
