//! No input may panic `tpu run`: the fuzz campaign of the own interpreter
//! (`crates/tpu-lang/tests/fuzz.rs`, whose `fuzz/` modules this test shares:
//! random bytes, mutations of every corpus and the page's examples, a quarter
//! of the cases as 2 to 8 ranks) run on RustPython through `tpu-torch`. Each
//! case must end in output or in a diagnostic, never a panic, an abort or a
//! hang. RustPython has no step budget, so each case has a time limit instead
//! (`TimeoutError`, counted as the budget's ending).
//!
//! `TPU_FUZZ_SEED=s`, `TPU_FUZZ_CASES=n` and `TPU_FUZZ_CASE=i` work as there.
//! Seed 101's 300 cases took 86 s (a test build, 2 cores): 16.3% of the
//! single-process cases reached the tensor runtime and 10.2% ran to the end,
//! 29.9% of the distributed reached it, all above the floors below.

#[path = "../../../tests/corpus/layout.rs"]
#[allow(dead_code)] // Only the kinds and their folders are needed here.
mod layout;

#[path = "../../tpu-lang/tests/fuzz/campaign.rs"]
mod campaign;
#[path = "../../tpu-lang/tests/fuzz/memory.rs"]
mod memory;
#[path = "../../tpu-lang/tests/fuzz/mutate.rs"]
mod mutate;

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
    // A case costs about 0.3 s in a test build (an interpreter and `import
    // torch` each): 120 cases take about 35 s, too few for the floors, which
    // the own interpreter's 300 hold the shared mutator to.
    default_cases: 120,
};

/// The wall time each case (each run of ranks) may take: enough for most
/// corpus programs to reach their tensor work in a test build, short enough
/// that an endless loop ends quickly.
const CASE_TIME: Duration = Duration::from_millis(1500);

fn run_case(program: &str, mode: EagerMode, nproc: Option<usize>) -> Report {
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
        single_reached: 0.13,
        single_completed: 0.02,
        distributed_reached: 0.10,
    });
}
