//! Whole programs through the interpreter on the reference backend: output, the op
//! log, and the tracebacks that bad programs get (snapshots of the exact text).

use expect_test::{Expect, expect};
use tpu_lang::{RunOptions, run};
use tpu_runtime::{ReferenceBackend, Report, Runtime};

fn run_program(source: &str) -> Report {
    run_with(source, RunOptions::default)
}

/// Runs on a thread with the stack the CLI gives the interpreter (options are
/// made there: their callbacks are not `Send`).
fn run_with(source: &str, options: fn() -> RunOptions) -> Report {
    let source = source.to_string();
    std::thread::Builder::new()
        .stack_size(tpu_lang::NATIVE_STACK_BYTES)
        .spawn(move || {
            let mut runtime = Runtime::new(Box::new(ReferenceBackend::new()));
            pollster::block_on(run(&source, &mut runtime, &options()))
        })
        .unwrap()
        .join()
        .unwrap()
}

fn check_error(source: &str, expected: Expect) {
    let report = run_program(source);
    let diagnostic = report.diagnostics.first().expect("the program should fail");
    expected.assert_eq(&diagnostic.traceback);
}

const HELLO: &str = r#"import torch
x = torch.ones(2, 3, device="tpu")
y = (x * 2 + 1) @ torch.ones(3, 2, device="tpu")
print(y)
print(y.sum().item())
"#;

#[test]
fn the_foundation_program_prints_what_pytorch_prints() {
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
fn python_values_print_as_cpython_prints_them() {
    let report = run_program(
        "print(1, 2.5, 'a', None, True, [1, (2,)], 1e16, 1/3, 7 // -2, -7 % 3)\nprint('x', 'y', sep='-', end='!\\n')\n",
    );
    assert!(report.ok(), "{:?}", report.diagnostics);
    assert_eq!(
        report.stdout,
        "1 2.5 a None True [1, (2,)] 1e+16 0.3333333333333333 -4 2\nx-y!\n"
    );
}

#[test]
fn loops_and_branches_drive_tensor_ops() {
    let report = run_program(
        "import torch\nx = torch.zeros(3, device='tpu')\nfor i in range(4):\n    if i % 2 == 0:\n        x += i\n    else:\n        x = x - 1\nprint(x.tolist(), x.shape, x.device)\n",
    );
    assert!(report.ok(), "{:?}", report.diagnostics);
    assert_eq!(report.stdout, "[0.0, 0.0, 0.0] torch.Size([3]) tpu:0\n");
}

#[test]
fn syntax_error_names_line_and_column() {
    check_error(
        "import torch\nx = torch.ones(2, 3, device=\"tpu\"\nprint(x)\n",
        expect![[r#"
              File "main.py", line 3
                print(x)
                ^
            SyntaxError: Expected `,`, found name"#]],
    );
}

#[test]
fn unknown_name_is_a_name_error_at_the_name() {
    let report = run_program("import torch\nx = torch.ones(2)\ny = x + undefined_thing\n");
    let d = &report.diagnostics[0];
    assert_eq!(d.kind, "NameError");
    let span = d.span.unwrap();
    assert_eq!((span.line, span.column), (3, 9));
    check_error(
        "import torch\nx = torch.ones(2)\ny = x + undefined_thing\n",
        expect![[r#"
            Traceback (most recent call last):
              File "main.py", line 3, in <module>
                y = x + undefined_thing
                        ^^^^^^^^^^^^^^^
            NameError: name 'undefined_thing' is not defined"#]],
    );
}

#[test]
fn shape_mismatch_uses_pytorch_wording_and_points_at_the_expression() {
    check_error(
        "import torch\nx = torch.ones(2, 3, device='tpu')\ny = x @ torch.ones(4, 2, device='tpu')\n",
        expect![[r#"
            Traceback (most recent call last):
              File "main.py", line 3, in <module>
                y = x @ torch.ones(4, 2, device='tpu')
                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
            RuntimeError: mm: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x2)"#]],
    );
    check_error(
        "import torch\na = torch.ones(2, 3)\nb = torch.ones(4)\nc = a + b\n",
        expect![[r#"
            Traceback (most recent call last):
              File "main.py", line 4, in <module>
                c = a + b
                    ^^^^^
            RuntimeError: The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"#]],
    );
}

#[test]
fn unsupported_constructs_are_not_implemented_errors_naming_them() {
    check_error(
        "def numbers():\n    yield 1\n\nfor n in numbers():\n    print(n)\n",
        expect![[r#"
            Traceback (most recent call last):
              File "main.py", line 4, in <module>
                for n in numbers():
                         ^^^^^^^^^
              File "main.py", line 2, in numbers
                yield 1
                ^^^^^^^
            NotImplementedError: generators ('yield') are not supported"#]],
    );
}

#[test]
fn runaway_recursion_is_a_recursion_error_and_the_runtime_survives() {
    let report = run_program("def f(n):\n    return f(n + 1)\n\nf(0)\n");
    let d = &report.diagnostics[0];
    assert_eq!(d.kind, "RecursionError");
    // The innermost frame names the line, as CPython's last traceback entry does.
    assert_eq!(d.span.map(|s| s.line), Some(2));
    assert!(
        d.traceback.contains("line 4, in <module>"),
        "{}",
        d.traceback
    );
    assert!(
        d.traceback
            .contains("[Previous line repeated 997 more times]"),
        "{}",
        d.traceback
    );
    let report =
        run_program("def f(n):\n    return 0 if n == 0 else f(n - 1) + 1\n\nprint(f(900))\n");
    assert_eq!(report.stdout, "900\n", "{:?}", report.diagnostics);
}

#[test]
fn an_endless_loop_stops_on_its_fuel_budget() {
    let mut runtime = Runtime::new(Box::new(ReferenceBackend::new()));
    let options = RunOptions {
        fuel: 10_000,
        ..RunOptions::default()
    };
    let report = pollster::block_on(run(
        "x = 0\nwhile True:\n    x += 1\n",
        &mut runtime,
        &options,
    ));
    let d = &report.diagnostics[0];
    assert_eq!(d.kind, "TimeoutError");
    assert!(matches!(d.span.map(|s| s.line), Some(2 | 3)), "{d:?}");
}

#[test]
fn pathological_nesting_is_refused_before_parsing() {
    let source = format!("x = {}1{}\n", "[".repeat(20_000), "]".repeat(20_000));
    let d = &run_program(&source).diagnostics[0];
    assert_eq!(
        (d.kind.as_str(), d.message.as_str()),
        ("SyntaxError", "too many nested parentheses")
    );
    let d = &run_program(&format!("x = {}1\n", "-".repeat(20_000))).diagnostics[0];
    assert_eq!(d.kind, "SyntaxError");
    assert!(d.message.contains("too complex"), "{}", d.message);
    let report = run_program(&format!("x = {}1\nprint(x)\n", "-".repeat(999)));
    assert_eq!(report.stdout, "-1\n", "{:?}", report.diagnostics);
}

#[test]
fn a_runtime_serves_several_runs_and_frees_their_buffers() {
    let mut runtime = Runtime::new(Box::new(ReferenceBackend::new()));
    for _ in 0..3 {
        let report = pollster::block_on(run(HELLO, &mut runtime, &RunOptions::default()));
        assert!(report.ok());
        assert_eq!(report.ops.len(), 6);
        assert_eq!(runtime.live_tpu_buffers(), 0);
    }
}

/// Each of these once crashed or exhausted the host; each must end in a Python
/// error (or its CPython output) instead.
#[test]
fn hostile_programs_end_in_errors_not_crashes() {
    let cases = [
        ("[0] * 10**10\n", "MemoryError"),
        ("'ab' * 10**12\n", "MemoryError"),
        ("print(f'{1:>9999999999}')\n", "MemoryError"),
        ("'x'.ljust(10**12)\n", "MemoryError"),
        ("list(range(10**12))\n", "MemoryError"),
        ("import torch\ntorch.ones(10**6, 10**6)\n", "RuntimeError"),
        (
            "import torch\ntorch.ones(10**10, 10**10, 10**10)\n",
            "RuntimeError",
        ),
        (
            "a = [1]\na.append(a)\nb = [1]\nb.append(b)\nsorted([a, b])\n",
            "RecursionError",
        ),
        ("print(10**18 * 10)\n", "OverflowError"),
        ("print(-2**63 // -1)\n", "OverflowError"),
    ];
    for (source, kind) in cases {
        let report = run_program(source);
        let d = report
            .diagnostics
            .first()
            .unwrap_or_else(|| panic!("{source} did not fail"));
        assert_eq!(d.kind, kind, "{source}: {}", d.message);
    }
    let report = run_program("a = [1]\na.append(a)\nd = {}\nd[1] = d\nprint(a, d, a == a)\n");
    assert_eq!(report.stdout, "[1, [...]] {1: {...}} True\n");
}

#[test]
fn a_call_that_defines_a_function_frees_its_values_when_it_returns() {
    // A nested `def` closes over the call's scope, which holds it: an Rc
    // cycle. Twelve calls on 16 MB tensors under a 64 MB budget run out of
    // memory if each call's scope (and tensor) outlives it.
    let source = "import torch\ndef step(x):\n    def helper():\n        return x\n    return helper().sum()\nfor i in range(12):\n    step(torch.zeros(4 * 1024 * 1024, device='tpu'))\nprint('ok')\n";
    let mut runtime = Runtime::new(Box::new(ReferenceBackend::new()));
    runtime.share_memory_budget(64);
    let report = pollster::block_on(run(source, &mut runtime, &RunOptions::default()));
    assert_eq!(report.stdout, "ok\n", "{:?}", report.diagnostics);
}

#[test]
fn a_finished_run_frees_everything_it_made() {
    // Module-level functions close over the module scope that holds them (an
    // Rc cycle); the tensors a program leaves in globals must still be freed.
    let source = "import torch\nimport torch.nn as nn\nx = torch.ones(3, device='tpu', requires_grad=True)\ny = (x.exp() * 2).sum()\nm = nn.Linear(3, 2).to('tpu')\ndef f():\n    return f\nclass C:\n    def g(self):\n        return x\nc = C()\n";
    std::thread::Builder::new()
        .stack_size(tpu_lang::NATIVE_STACK_BYTES)
        .spawn(move || {
            let mut runtime = Runtime::new(Box::new(ReferenceBackend::new()));
            for _ in 0..2 {
                let report = pollster::block_on(run(source, &mut runtime, &RunOptions::default()));
                assert!(report.ok(), "{:?}", report.diagnostics);
                assert_eq!(runtime.live_tpu_buffers(), 0);
            }
        })
        .unwrap()
        .join()
        .unwrap();
}
