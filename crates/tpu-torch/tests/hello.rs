//! The first programs through the interpreter with torch: `import torch`
//! loads the whole prelude, and the foundation program (`tests/cli/
//! hello_tensor.py`) prints what PyTorch printed for it.

use std::path::Path;
use tpu_python::{Options, Outcome};

fn run(source: &str) -> Outcome {
    let source = source.to_owned();
    std::thread::Builder::new()
        .stack_size(tpu_python::STACK_BYTES)
        .spawn(move || {
            let mut runtime =
                tpu_runtime::Runtime::new(Box::new(tpu_runtime::ReferenceBackend::new()));
            tpu_torch::run(
                &source,
                &mut runtime,
                Options {
                    path: "prog.py".into(),
                    ..Options::default()
                },
            )
        })
        .expect("a thread starts")
        .join()
        .expect("the run does not panic")
}

#[test]
fn import_torch_loads_the_whole_prelude() {
    let outcome = run(
        "import torch, torch.nn as nn\nprint(torch.float32, torch.Tensor.__name__, nn.Linear.__name__)\n",
    );
    assert_eq!(
        outcome.stdout, "torch.float32 Tensor Linear\n",
        "{}",
        outcome.stderr
    );
}

#[test]
fn the_foundation_program_prints_what_pytorch_printed() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/cli");
    let source = std::fs::read_to_string(dir.join("hello_tensor.py")).unwrap();
    let outcome = run(&source);
    assert_eq!(
        outcome.stdout, "tensor([[9., 9.],\n        [9., 9.]], device='tpu:0')\n36.0\n",
        "{}",
        outcome.stderr
    );
}

#[test]
fn the_report_keeps_stderr_without_the_final_traceback() {
    let source = "import logging, sys\nlogging.warning('step %d', 3)\nprint('to stderr', file=sys.stderr)\nprint('out')\n1 / 0\n";
    let report = std::thread::Builder::new()
        .stack_size(tpu_python::STACK_BYTES)
        .spawn(move || {
            let mut runtime =
                tpu_runtime::Runtime::new(Box::new(tpu_runtime::ReferenceBackend::new()));
            let options = Options {
                path: "prog.py".into(),
                ..Options::default()
            };
            tpu_torch::run_report(
                source,
                &mut runtime,
                options,
                tpu_runtime::EagerMode::Strict,
            )
            .0
        })
        .expect("a thread starts")
        .join()
        .expect("the run does not panic");
    assert_eq!(report.stdout, "out\n");
    // As CPython 3.13 writes them; the ZeroDivisionError is the diagnostic.
    assert_eq!(report.stderr, "WARNING:root:step 3\nto stderr\n");
    assert_eq!(report.diagnostics[0].kind, "ZeroDivisionError");
}
