//! A run can be suspended at Python calls and resumed: two programs polled in
//! turn by a minimal round-robin executor make progress alternately, each
//! finishing with the output it would have had alone. This is the hook that
//! distributed ranks and the page's Stop build on.

mod ranks;

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};
use tpu_lang::{RunOptions, run};
use tpu_runtime::{ReferenceBackend, Report, Runtime};

const PROGRAM: &str = "def step(i):\n    return i * i\n\ntotal = 0\nfor i in range(50):\n    total += step(i)\nprint(total)\n";

/// Polls each future in turn until all are done; returns, per poll, which
/// future was polled and whether it finished.
fn round_robin(
    mut runs: Vec<Pin<Box<dyn Future<Output = Report> + '_>>>,
) -> (Vec<Report>, Vec<usize>) {
    let mut cx = Context::from_waker(Waker::noop());
    let mut done: Vec<Option<Report>> = runs.iter().map(|_| None).collect();
    let mut turns = Vec::new();
    while done.iter().any(Option::is_none) {
        for (i, run) in runs.iter_mut().enumerate() {
            if done[i].is_some() {
                continue;
            }
            turns.push(i);
            if let Poll::Ready(report) = run.as_mut().poll(&mut cx) {
                done[i] = Some(report);
            }
        }
    }
    (done.into_iter().map(Option::unwrap).collect(), turns)
}

#[test]
fn two_runs_interleave_at_calls_and_each_finishes_as_if_alone() {
    let options = RunOptions {
        suspend_every_calls: Some(10),
        ..RunOptions::default()
    };
    let mut a = Runtime::new(Box::new(ReferenceBackend::new()));
    let mut b = Runtime::new(Box::new(ReferenceBackend::new()));
    let runs: Vec<Pin<Box<dyn Future<Output = Report>>>> = vec![
        Box::pin(run(PROGRAM, &mut a, &options)),
        Box::pin(run(PROGRAM, &mut b, &options)),
    ];
    let (reports, turns) = round_robin(runs);
    for report in &reports {
        assert!(report.ok(), "{:?}", report.diagnostics);
        assert_eq!(report.stdout, "40425\n");
    }
    // 50 calls, a suspension every 10: each run was polled about 6 times, and
    // the two alternated rather than one running to completion first.
    let polls_of = |i| turns.iter().filter(|&&t| t == i).count();
    assert!(polls_of(0) >= 5 && polls_of(1) >= 5, "{turns:?}");
    assert_eq!(&turns[..4], &[0, 1, 0, 1]);
}

#[test]
fn without_the_option_a_pure_python_run_never_suspends() {
    let mut rt = Runtime::new(Box::new(ReferenceBackend::new()));
    let (reports, turns) = round_robin(vec![Box::pin(run(
        PROGRAM,
        &mut rt,
        &RunOptions::default(),
    ))]);
    assert_eq!(reports[0].stdout, "40425\n");
    assert_eq!(turns.len(), 1);
}
