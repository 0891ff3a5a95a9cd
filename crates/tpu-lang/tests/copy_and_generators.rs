//! `copy.deepcopy` of the object graphs training code snapshots (a model, a
//! state dict, an optimizer's state) and `torch.Generator` draws, through the
//! interpreter on the reference backend. The expected values are what CPython
//! and PyTorch 2.15 print for the same lines.

use tpu_lang::{RunOptions, run};
use tpu_runtime::{ReferenceBackend, Runtime};

fn stdout_of(source: &str) -> String {
    let source = source.to_string();
    std::thread::Builder::new()
        .stack_size(tpu_lang::NATIVE_STACK_BYTES)
        .spawn(move || {
            let mut runtime = Runtime::new(Box::new(ReferenceBackend::new()));
            let report = pollster::block_on(run(&source, &mut runtime, &RunOptions::default()));
            assert!(
                report.diagnostics.is_empty(),
                "{:?}",
                report.diagnostics.first().map(|d| &d.traceback)
            );
            report.stdout
        })
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn deepcopy_keeps_shared_references_shared_and_copies_tensors_as_leaves() {
    let out = stdout_of(
        r#"import copy
import torch
shared = [1, 2]
pair = {"a": shared, "b": shared, "t": torch.ones(2)}
twin = copy.deepcopy(pair)
print(twin["a"] is twin["b"], twin["a"] is shared, twin["t"] is pair["t"])
lin = torch.nn.Linear(2, 2)
lin.weight.grad = torch.ones(2, 2)
dup = copy.deepcopy(lin)
print(type(dup).__name__, isinstance(dup.weight, torch.nn.Parameter), dup.weight.requires_grad)
print(dup.weight.grad is not lin.weight.grad, torch.equal(dup.weight, lin.weight))
with torch.no_grad():
    dup.weight.add_(1.0)
print(torch.equal(dup.weight, lin.weight))
try:
    copy.deepcopy(lin.weight * 2)
except RuntimeError as e:
    print(str(e)[:45])
"#,
    );
    assert_eq!(
        out,
        "True False False\nLinear True True\nTrue True\nFalse\nOnly Tensors created explicitly by the user (\n"
    );
}

#[test]
fn a_seeded_generator_draws_apart_from_the_default_one() {
    // The values are PyTorch's for the same seeds.
    let out = stdout_of(
        r#"import torch
g = torch.Generator().manual_seed(123)
torch.manual_seed(0)
print(torch.randperm(10, generator=g).tolist())
print(torch.empty((), dtype=torch.int64).random_(generator=g).item())
print(torch.randint(0, 1000, (3,), generator=g).tolist(), g.initial_seed())
"#,
    );
    assert_eq!(
        out,
        "[2, 0, 8, 1, 3, 7, 4, 9, 5, 6]\n9059545261399913595\n[721, 166, 721] 123\n"
    );
}
