//! No input may panic `tpu run`. Random bytes, mutations of every corpus's
//! programs and the page's examples (`fuzz/mutate.rs`), and mutations of the
//! distributed corpus run as 2 to 8 ranks (a quarter of the cases), all on
//! the reference backend in whichever eager mode they draw; each case must
//! end in output or in a diagnostic, never a panic, an abort or a
//! hang. RustPython has no step budget, so each case has a time limit instead
//! (`TimeoutError`, counted as the budget's ending).
//!
//! Every run draws a new seed from the clock and prints it first; a failure
//! names the seed and the case and the command that runs that case alone
//! (`fuzz/campaign.rs`). `TPU_FUZZ_SEED=s` (or `TPU_FUZZ_SEEDS=a,b,c`) fixes
//! the seeds, `TPU_FUZZ_CASES=n` the cases per seed, `TPU_FUZZ_CASE=i` runs
//! case `i` alone. A long campaign, with its summary printed at the end:
//!
//! `TPU_FUZZ_SEEDS=1,2,3,4 TPU_FUZZ_CASES=2000 cargo test -p tpu-torch --release --test fuzz -- --nocapture`
//!
//! The floors at the end, measured on seeds 101 to 104 (300 cases each, 76 to
//! 83 s each in a test build on 2 cores): of the single-process cases 17.8% to
//! 30.2% reached the tensor runtime and 8.2% to 14.0% ran to the end; of the
//! distributed, 29.9% to 37.7% reached it. A seed has about 175
//! single-process and 80 distributed cases, so each floor sits about four
//! standard deviations of such a sample below the lowest share (a seed fails
//! one by chance about once in 30,000), while a mutator that breaks (say,
//! one that stops keeping the syntax) falls far below. Mutated
//! standard-library programs (plain Python) never reach the runtime, so they
//! are counted apart and held to no floor.

#[path = "../../../tests/corpus/layout.rs"]
#[allow(dead_code)] // Only the kinds and their folders are needed here.
mod layout;

#[path = "fuzz/campaign.rs"]
mod campaign;
#[path = "fuzz/memory.rs"]
mod memory;
#[path = "fuzz/mutate.rs"]
mod mutate;
#[path = "fuzz/tally.rs"]
mod tally;

#[global_allocator]
static MEMORY: memory::Ceiling = memory::Ceiling::new();

use campaign::{Corpus, Engine, Plan, Tally, run_seed};
use std::time::Duration;
use tpu_runtime::{EagerMode, ReferenceBackend, Report, Runtime, SharedBackend};

/// RustPython runs the cases.
const ENGINE: Engine = Engine {
    run: run_case,
    stack_bytes: tpu_python::STACK_BYTES,
    test_command: "cargo test -p tpu-torch --test fuzz",
    // A case costs about 0.3-0.6 s in a test build (an interpreter and
    // `import torch` each): 300 cases took 185 s on one core and 90 s on the
    // two of the test command's machine (`campaign::run_seed` runs them on
    // every core), and are enough for the floors to be checked (150
    // single-process and 50 distributed cases at least).
    default_cases: 300,
};

/// The wall time each case (each run of ranks) may take: enough for most
/// corpus programs to reach their tensor work in a test build, short enough
/// that an endless loop ends quickly.
const CASE_TIME: Duration = Duration::from_millis(1500);

fn run_case(program: &str, mode: EagerMode, nproc: Option<usize>) -> Report {
    MEMORY.begin_case();
    let options = tpu_python::Options {
        path: "main.py".into(),
        timeout: Some(CASE_TIME),
        ..tpu_python::Options::default()
    };
    match nproc {
        Some(n) => {
            let shared = SharedBackend::new(Box::new(ReferenceBackend::new()));
            let mut runtimes: Vec<Runtime> = (0..n)
                .map(|_| Runtime::new(Box::new(shared.clone())))
                .collect();
            tpu_torch::run_ranks(program, &mut runtimes, options, mode, (0..n).collect())
        }
        None => {
            let mut runtime = Runtime::new(Box::new(ReferenceBackend::new()));
            tpu_torch::run_report(program, &mut runtime, options, mode).0
        }
    }
}

#[test]
fn random_and_mutated_programs_never_panic() {
    let plan = Plan::from_env();
    eprintln!("{}", plan.describe());
    let corpus = Corpus::load();
    let started = std::time::Instant::now();
    let mut tally = Tally::default();
    for &seed in &plan.seeds {
        run_seed(&plan, &corpus, seed, &mut tally);
    }
    eprintln!("{}", tally.summary(&plan.seeds, started.elapsed()));
    tally.check_floors(&campaign::Floors {
        single_reached: 0.08,
        single_completed: 0.02,
        distributed_reached: 0.10,
    });
}
