//! What watches a run from outside: output handed to the sink as it is
//! written (before the run ends), progress reported at most every 100 ms with
//! the line being executed, the wall-clock limit, and fuel charged for tensor
//! work so that a loop of tensor ops ends in `TimeoutError` naming its line.

use std::cell::RefCell;
use std::future::Future;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};
use tpu_lang::{OutputSink, PROGRESS_INTERVAL, ProgressHook, RunOptions, run};
use tpu_runtime::{ReferenceBackend, Report, Runtime};

fn runtime() -> Runtime {
    Runtime::new(Box::new(ReferenceBackend::new()))
}

/// Runs with a fuel budget on a thread with the stack the interpreter was
/// sized against (`import torch` runs the prelude).
fn run_with_fuel(source: String, fuel: u64) -> Report {
    std::thread::Builder::new()
        .stack_size(tpu_lang::NATIVE_STACK_BYTES)
        .spawn(move || {
            let options = RunOptions {
                fuel,
                ..RunOptions::default()
            };
            pollster::block_on(run(&source, &mut runtime(), &options))
        })
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn output_reaches_the_sink_before_later_statements_run() {
    let seen = Rc::new(RefCell::new(Vec::<String>::new()));
    let sink = seen.clone();
    let options = RunOptions {
        // Suspend every few calls, so the test can look between polls.
        suspend_every_calls: Some(5),
        on_output: Some(OutputSink::new(move |text| {
            sink.borrow_mut().push(text.to_string())
        })),
        ..RunOptions::default()
    };
    let source = "print('first', 1, sep='-')\ndef f():\n    pass\nfor i in range(100):\n    f()\nprint('last')\n";
    let mut rt = runtime();
    let mut future = Box::pin(run(source, &mut rt, &options));
    let mut cx = Context::from_waker(Waker::noop());
    assert!(future.as_mut().poll(&mut cx).is_pending());
    // The run is suspended inside the loop: the first print has reached the
    // sink, the last has not run yet.
    assert_eq!(*seen.borrow(), ["first-1\n"]);
    let report = loop {
        if let Poll::Ready(report) = future.as_mut().poll(&mut cx) {
            break report;
        }
    };
    assert!(report.ok(), "{:?}", report.diagnostics);
    assert_eq!(*seen.borrow(), ["first-1\n", "last\n"]);
    assert_eq!(report.stdout, "first-1\nlast\n");
}

#[test]
fn a_wall_clock_limit_ends_the_run_naming_the_line() {
    let options = RunOptions {
        fuel: u64::MAX,
        timeout: Some(Duration::from_millis(200)),
        ..RunOptions::default()
    };
    let started = Instant::now();
    let report = pollster::block_on(run(
        "print('before')\nx = 0\nwhile True:\n    x += 1\n",
        &mut runtime(),
        &options,
    ));
    let elapsed = started.elapsed();
    let d = &report.diagnostics[0];
    assert_eq!(d.kind, "TimeoutError");
    assert_eq!(d.message, "the program ran past its time limit of 0.2 s");
    assert!(matches!(d.span.map(|s| s.line), Some(3 | 4)), "{d:?}");
    assert!(d.traceback.contains("line 3") || d.traceback.contains("line 4"));
    assert_eq!(report.stdout, "before\n");
    assert!(elapsed >= Duration::from_millis(200), "{elapsed:?}");
    assert!(elapsed < Duration::from_secs(5), "{elapsed:?}");
}

#[test]
fn a_time_limit_is_not_caught_by_except() {
    let options = RunOptions {
        fuel: u64::MAX,
        timeout: Some(Duration::from_millis(50)),
        ..RunOptions::default()
    };
    let source = "try:\n    while True:\n        pass\nexcept Exception:\n    print('caught')\n";
    let report = pollster::block_on(run(source, &mut runtime(), &options));
    assert_eq!(report.diagnostics[0].kind, "TimeoutError");
    assert_eq!(report.stdout, "");
}

#[test]
fn progress_is_reported_with_the_line_at_most_every_interval() {
    let calls = Rc::new(RefCell::new(Vec::<(u32, Duration)>::new()));
    let hook = calls.clone();
    let options = RunOptions {
        fuel: u64::MAX,
        timeout: Some(Duration::from_millis(550)),
        on_progress: Some(ProgressHook::new(move |line, elapsed| {
            hook.borrow_mut().push((line, elapsed))
        })),
        ..RunOptions::default()
    };
    let report = pollster::block_on(run(
        "x = 0\nwhile True:\n    x += 1\n",
        &mut runtime(),
        &options,
    ));
    assert_eq!(report.diagnostics[0].kind, "TimeoutError");
    let calls = calls.borrow();
    // About 550 ms of running, a report every 100 ms at most: four or five
    // reports, never two closer than the interval.
    assert!((3..=5).contains(&calls.len()), "{calls:?}");
    for pair in calls.windows(2) {
        assert!(pair[1].1 - pair[0].1 >= PROGRESS_INTERVAL, "{calls:?}");
    }
    assert!(
        calls.iter().all(|(line, _)| matches!(line, 2 | 3)),
        "{calls:?}"
    );
    assert!(calls[0].1 >= PROGRESS_INTERVAL, "{calls:?}");
}

#[test]
fn a_loop_of_tensor_ops_runs_out_of_fuel_by_its_work() {
    let report = run_with_fuel(
        "import torch\nx = torch.zeros(1000, device='tpu')\nwhile True:\n    x = x + 1\n".into(),
        100_000,
    );
    let d = &report.diagnostics[0];
    assert_eq!(d.kind, "TimeoutError", "{d:?}");
    assert_eq!(d.span.map(|s| s.line), Some(4), "{}", d.traceback);
    // Counting statements only, 100,000 steps would have been some 50,000
    // additions; each launch costs some fifty steps more.
    let adds = report
        .ops
        .iter()
        .filter(|op| op.name == "aten::add")
        .count();
    assert!((500..5_000).contains(&adds), "{adds} additions");
}

#[test]
fn bigger_tensors_cost_more_fuel() {
    let adds_within = |n: usize| {
        let source = format!(
            "import torch\nx = torch.zeros({n}, device='tpu')\nwhile True:\n    x = x + 1\n"
        );
        let report = run_with_fuel(source, 200_000);
        assert_eq!(report.diagnostics[0].kind, "TimeoutError");
        report
            .ops
            .iter()
            .filter(|op| op.name == "aten::add")
            .count()
    };
    let (small, big) = (adds_within(10), adds_within(1_000_000));
    assert!(big * 5 < small, "{small} small additions, {big} big ones");
}
