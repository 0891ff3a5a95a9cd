//! The eager modes as a program sees them: `torch_tpu` controls, the Report's
//! kernels, syncs and cache counters, Debug's non-finite finding, and Fused's
//! fewer kernels for the same values.

use tpu_runtime::{EagerMode, ReferenceBackend, Report, Runtime};

fn run_in(source: &str, mode: EagerMode) -> Report {
    let source = source.to_string();
    std::thread::Builder::new()
        .stack_size(tpu_python::STACK_BYTES)
        .spawn(move || {
            let mut runtime = Runtime::new(Box::new(ReferenceBackend::new()));
            let options = tpu_python::Options {
                path: "main.py".into(),
                ..tpu_python::Options::default()
            };
            tpu_torch::run_report(&source, &mut runtime, options, mode).0
        })
        .expect("a thread starts")
        .join()
        .expect("the run does not panic")
}

const CHAIN: &str = "import torch\nx = torch.arange(6.0, device='tpu').reshape(2, 3)\ny = ((x * 2 + 1).tanh() - x).relu() * 0.5\nprint(y.sum().item())\n";

#[test]
fn fused_mode_runs_an_elementwise_chain_as_one_kernel_with_the_same_result() {
    let strict = run_in(CHAIN, EagerMode::Strict);
    let fused = run_in(CHAIN, EagerMode::Fused);
    assert!(
        strict.ok() && fused.ok(),
        "{:?} {:?}",
        strict.diagnostics,
        fused.diagnostics
    );
    assert_eq!(strict.stdout, fused.stdout);
    assert_eq!(
        strict.ops.len(),
        fused.ops.len(),
        "the op stream is the same"
    );
    let fused_kernels: Vec<_> = fused
        .kernels
        .iter()
        .filter(|k| k.source.is_some())
        .collect();
    assert_eq!(fused_kernels.len(), 1, "{:#?}", fused.kernels);
    // mul, add, tanh, sub, relu, mul: six ops in one kernel.
    assert_eq!(fused_kernels[0].ops.len(), 6);
    assert!(fused.kernels.len() + 5 <= strict.kernels.len());
    assert_eq!(fused.mode, EagerMode::Fused);
    // The fused kernel and the per-op kernels of the reads were all new.
    assert_eq!(fused.cache.misses as usize, fused.kernels.len());
}

#[test]
fn the_cache_hits_when_the_same_group_runs_again() {
    let source = "import torch\nimport torch_tpu\ntorch_tpu.set_eager_mode('fused')\nx = torch.ones(4, device='tpu')\ntorch_tpu.sync()\nfor i in range(3):\n    x = (x * 0.5 + 1).tanh()\n    print(round(x.sum().item(), 4))\nprint(torch_tpu.get_eager_mode(), torch_tpu.cache_stats())\n";
    let report = run_in(source, EagerMode::Strict);
    assert!(report.ok(), "{:?}", report.diagnostics);
    // The fill of `ones` compiles once; each step launches the fused chain
    // and the sum (a per-op kernel): both compile in the first step and hit
    // in the next two.
    assert!(
        report.stdout.contains(
            "fused {'hits': 4, 'misses': 3, 'entries': 3, 'persisted_hits': 0, 'loaded': 0, 'corrupt': 0, 'compile_ms': "
        ),
        "{}",
        report.stdout
    );
    let hits: Vec<_> = report
        .kernels
        .iter()
        .filter(|k| k.source.is_some())
        .filter_map(|k| k.cache_hit)
        .collect();
    assert_eq!(hits, [false, true, true]);
}

#[test]
fn syncs_are_recorded_with_their_reason_and_line() {
    let source = "import torch\nx = torch.ones(3, device='tpu')\ny = x * 2\nprint(y.sum().item())\nprint(y.cpu())\nif y[0] > 1:\n    z = y.tolist()\n";
    let report = run_in(source, EagerMode::Fused);
    assert!(report.ok(), "{:?}", report.diagnostics);
    let syncs: Vec<(&str, Option<u32>)> = report
        .syncs
        .iter()
        .map(|s| (s.reason.as_str(), s.line))
        .collect();
    assert_eq!(
        syncs,
        [
            (".item()", Some(4)),
            (".cpu()", Some(5)),
            ("a Python condition reads a tensor", Some(6)),
            (".tolist()", Some(7)),
        ]
    );
}

#[test]
fn debug_mode_names_the_first_op_that_made_a_nan() {
    let source = "import torch\nx = torch.tensor([1.0, -1.0], device='tpu')\ny = x * 2\nz = y.sqrt()\nw = z + 1\nprint(w.cpu())\n";
    let report = run_in(source, EagerMode::Debug);
    assert_eq!(report.stdout, "tensor([2.4142,    nan])\n");
    let found = report.first_nonfinite.expect("a NaN was made");
    assert_eq!(
        (found.name.as_str(), found.line, found.value.as_str()),
        ("aten::sqrt", Some(4), "nan")
    );
    // Strict mode does not wait per op, and so does not look.
    assert!(run_in(source, EagerMode::Strict).first_nonfinite.is_none());
}

#[test]
fn an_unknown_mode_is_a_value_error() {
    let report = run_in(
        "import torch_tpu\ntorch_tpu.set_eager_mode('lazy')\n",
        EagerMode::Strict,
    );
    let d = &report.diagnostics[0];
    assert_eq!(d.kind, "ValueError");
    assert!(
        d.message
            .contains("expected \"debug\", \"strict\" or \"fused\""),
        "{}",
        d.message
    );
    assert_eq!(d.span.map(|s| s.line), Some(2));
}

#[test]
fn debug_mode_refuses_allocations_past_the_chips_hbm_naming_the_line() {
    let source =
        "import torch\nx = torch.ones(10, device='tpu')\ny = torch.zeros(5, 10**9, device='tpu')\n";
    let report = run_in(source, EagerMode::Debug);
    let d = &report.diagnostics[0];
    assert_eq!(d.span.map(|s| s.line), Some(3));
    assert!(
        d.message.contains("past the 16 GB of HBM of a v5e chip"),
        "{}",
        d.message
    );
    // Strict mode protects the host with its own, smaller, limit instead.
    let strict = run_in(source, EagerMode::Strict);
    assert!(
        strict.diagnostics[0]
            .message
            .starts_with("out of memory: a tensor")
    );
}

#[test]
fn a_program_chooses_its_simulated_chip_for_that_run_only() {
    let source = "import torch\nimport torch_tpu\ntorch_tpu.set_chip('v6e:mxu_width=128', '2x2')\nprint(torch_tpu.get_chip())\nq = torch.ones(128, 64, device='tpu')\nprint((q @ q.t()).sum().item())\n";
    let report = run_in(source, EagerMode::Strict);
    assert!(report.ok(), "{:?}", report.diagnostics);
    assert_eq!(report.stdout, "v6e 2x2\n1048576.0\n");
    let device = report.device.expect("a costed run");
    assert_eq!(
        (device.chip.as_str(), device.slice.as_str()),
        ("v6e", "2x2")
    );
    let mm = report
        .kernels
        .iter()
        .find(|k| k.work.matmul.is_some())
        .expect("a matmul kernel");
    let cost = mm.cost.as_ref().expect("costed");
    // k = 64 on a 128-wide MXU (the description narrowed v6e's 256).
    assert_eq!(cost.mxu_utilization, Some(0.5));
    let bad = run_in(
        "import torch_tpu\ntorch_tpu.set_chip('v5e', '4x4x4')\n",
        EagerMode::Strict,
    );
    assert!(
        bad.diagnostics[0]
            .message
            .contains("TPU v5e slices have at most 2 axes"),
        "{:?}",
        bad.diagnostics
    );
}

#[test]
fn collectives_the_program_simulates_are_in_the_report_and_on_the_ici_lane() {
    let source = include_str!("../../../www/src/examples/collective.py");
    let report = run_in(source, EagerMode::Strict);
    assert!(report.ok(), "{:?}", report.diagnostics);
    let lines: Vec<&str> = report.stdout.lines().collect();
    assert_eq!(lines[0], "v5e 4x4");
    assert!(lines[1].starts_with("all-gather"), "{}", report.stdout);
    assert_eq!(lines[4], "a 4 kB all-gather is latency-bound: True");
    assert_eq!(report.collectives.len(), 4);
    let c = &report.collectives[2];
    assert_eq!(c.simulation.kind.name(), "all-reduce");
    assert_eq!(
        (c.layout.dims.as_slice(), c.layout.wrap.as_slice()),
        (&[4, 4][..], &[false, false][..])
    );
    let timeline = report.timeline.expect("a timeline");
    let ici = timeline.lanes.iter().find(|l| l.name == "ICI").unwrap();
    assert_eq!(ici.events.len(), 4);
    // The all-reduce takes about twice the all-gather (reduce-scatter, then
    // all-gather), on the lane as in the simulation.
    let ratio = ici.events[2].duration_us / ici.events[0].duration_us;
    assert!((1.9..2.1).contains(&ratio), "{ratio}");
    let bad = run_in(
        "import torch_tpu\ntorch_tpu.simulate_collective('all-sum', 10)\n",
        EagerMode::Strict,
    );
    assert!(
        bad.diagnostics[0]
            .message
            .contains("unknown collective 'all-sum'")
    );
}

#[test]
fn the_report_says_which_kernels_ran_in_which_mode() {
    let source = "import torch\nimport torch_tpu\n\
        x = torch.ones(8, device='tpu')\n\
        torch_tpu.set_eager_mode('strict')\n\
        y = (x * 2 + 1).sum().item()\n\
        torch_tpu.set_eager_mode('debug')\n\
        torch_tpu.set_eager_mode('strict')\n\
        torch_tpu.set_eager_mode('fused')\n\
        z = (x * 3 + 1).sum().item()\n";
    let report = run_in(source, EagerMode::Fused);
    let spans: Vec<(EagerMode, usize)> = report
        .modes
        .iter()
        .map(|s| (s.mode, s.first_kernel))
        .collect();
    // `ones` ran fused (one kernel, at the mode change); then strict, one
    // kernel per op; debug was set and left before any kernel ran in it.
    let strict_from = spans[1].1;
    assert_eq!(spans[0], (EagerMode::Fused, 0), "{spans:?}");
    assert_eq!(spans[1].0, EagerMode::Strict, "{spans:?}");
    assert_eq!(spans[2].0, EagerMode::Fused, "{spans:?}");
    assert_eq!(spans.len(), 3, "{spans:?}");
    assert!(
        strict_from >= 1 && spans[2].1 - strict_from >= 3,
        "{spans:?}"
    );
    assert!(spans[2].1 < report.kernels.len(), "{spans:?}");
    assert_eq!(report.mode, EagerMode::Fused);
    // A run that never changes mode is one span.
    let report = run_in(
        "import torch\nprint(torch.ones(2, device='tpu') + 1)\n",
        EagerMode::Debug,
    );
    assert_eq!(report.modes.len(), 1);
    assert_eq!(report.modes[0].mode, EagerMode::Debug);
}

#[test]
fn a_fill_only_elementwise_ops_read_is_a_constant_of_their_kernel() {
    let kernels = |report: &Report| -> Vec<String> {
        report.kernels.iter().map(|k| k.name.clone()).collect()
    };
    // masked_fill's -inf: a scalar fill that `where` broadcasts.
    let masked = "import torch\ntorch.manual_seed(0)\nx = torch.randn(4, 8, device='tpu')\ny = x.masked_fill(x > 0.5, float('-inf')).softmax(-1)\nprint(y.sum().item(), y[0].tolist())\n";
    let strict = run_in(masked, EagerMode::Strict);
    let fused = run_in(masked, EagerMode::Fused);
    assert!(strict.ok() && fused.ok(), "{:?}", fused.diagnostics);
    assert_eq!(strict.stdout, fused.stdout);
    assert!(kernels(&strict).iter().any(|k| k == "fill"));
    assert!(
        !kernels(&fused).iter().any(|k| k == "fill"),
        "{:?}",
        kernels(&fused)
    );
    // The fill is listed by the kernel that took its value.
    let fills: Vec<usize> = (0..fused.ops.len())
        .filter(|&i| fused.ops[i].name == "aten::fill")
        .collect();
    assert_eq!(fills.len(), 1, "{:?}", fused.ops);
    let listed: Vec<&str> = fused
        .kernels
        .iter()
        .filter(|k| k.ops.contains(&fills[0]))
        .map(|k| k.name.as_str())
        .collect();
    assert!(
        listed.len() == 1 && listed[0].starts_with("fused_"),
        "{listed:?}"
    );
    // A fill a tensor holds gets its buffer: its value is read again later.
    let held = "import torch\nx = torch.arange(8.0, device='tpu')\nz = torch.full((8,), 2.0, device='tpu')\nw = x * z\nprint(w.sum().item(), z.sum().item())\n";
    let fused = run_in(held, EagerMode::Fused);
    assert!(fused.ok(), "{:?}", fused.diagnostics);
    assert_eq!(fused.stdout, "56.0 16.0\n");
}
