//! A fuzz campaign: which seeds and how many cases (`Plan`, from the
//! environment), how case `i` of seed `s` is made (`draw`, from those two
//! numbers alone, so any case reproduces by itself), how it runs (on a thread
//! of its own, named after it, with a fresh runtime and a wall-clock limit, so
//! a panic, a stack overflow or a hang names its case), and what the cases
//! ended in (`Tally`, in `tally.rs`). The interpreter that runs a case is the including test's
//! (`super::ENGINE`): the own one here, RustPython in `crates/tpu-torch`.

use super::mutate::{Rng, mutate, random_bytes};
pub use super::tally::{Floors, Tally};
use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};
use tpu_runtime::EagerMode;
use tpu_runtime::rng::Mt19937;

/// What runs a case: the including test's interpreter.
pub struct Engine {
    /// Runs `program` on the reference backend in `mode`, as `nproc` ranks
    /// when given, each limited to a small budget of steps or time.
    pub run: fn(program: &str, mode: EagerMode, nproc: Option<usize>) -> tpu_runtime::Report,
    /// The stack a case's thread gets.
    pub stack_bytes: usize,
    /// The command every reproduction line starts from.
    pub test_command: &'static str,
    /// Cases per seed when `TPU_FUZZ_CASES` is not set: what the test
    /// command runs.
    pub default_cases: usize,
}

/// How long a case may run before it counts as a hang. Cases take
/// milliseconds (release) to a second (debug); the limit is far above that so
/// a slow machine never trips it.
const CASE_LIMIT: Duration = Duration::from_secs(120);

/// Which cases a run draws: `TPU_FUZZ_SEEDS` (or `TPU_FUZZ_SEED`), a
/// comma-separated list, else one seed drawn from the clock;
/// `TPU_FUZZ_CASES` cases per seed; `TPU_FUZZ_CASE=i` runs only case `i` of
/// each seed.
pub struct Plan {
    pub seeds: Vec<u32>,
    /// Whether the seed came from the clock (no variable set it).
    pub from_clock: bool,
    pub cases: usize,
    pub only_case: Option<usize>,
}

impl Plan {
    pub fn from_env() -> Plan {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let seeds: Option<Vec<u32>> =
            var("TPU_FUZZ_SEEDS")
                .or_else(|| var("TPU_FUZZ_SEED"))
                .map(|v| {
                    v.split(',')
                        .map(|s| {
                            s.trim()
                                .parse()
                                .unwrap_or_else(|_| panic!("TPU_FUZZ_SEED(S): {s:?} is not a u32"))
                        })
                        .collect()
                });
        let number = |name: &str| {
            var(name).map(|v| {
                v.trim()
                    .parse::<usize>()
                    .unwrap_or_else(|_| panic!("{name}: {v:?} is not a count"))
            })
        };
        let from_clock = seeds.is_none();
        Plan {
            seeds: seeds.unwrap_or_else(|| vec![clock_seed()]),
            from_clock,
            cases: number("TPU_FUZZ_CASES").unwrap_or(super::ENGINE.default_cases),
            only_case: number("TPU_FUZZ_CASE"),
        }
    }

    /// The indices of the cases each seed runs.
    pub fn case_indices(&self) -> std::ops::Range<usize> {
        match self.only_case {
            Some(i) => i..i + 1,
            None => 0..self.cases,
        }
    }

    /// What the run prints first, so that a failure's captured output says
    /// how to draw the same cases again.
    pub fn describe(&self) -> String {
        let seeds: Vec<String> = self.seeds.iter().map(u32::to_string).collect();
        let cases = match self.only_case {
            Some(i) => format!("case {i} only"),
            None => format!("{} cases", self.cases),
        };
        format!(
            "fuzz: seed{} {} ({}), {cases} per seed; the same cases again: TPU_FUZZ_SEEDS={} TPU_FUZZ_CASES={} {}",
            if self.seeds.len() == 1 { "" } else { "s" },
            seeds.join(","),
            if self.from_clock {
                "drawn from the clock; TPU_FUZZ_SEED fixes it"
            } else {
                "from the environment"
            },
            seeds.join(","),
            self.cases,
            super::ENGINE.test_command,
        )
    }
}

/// A seed that differs from run to run: the clock's nanoseconds, mixed.
fn clock_seed() -> u32 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    (splitmix64(nanos) >> 32) as u32
}

fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The programs cases are made from: single-process ones (every corpus kind
/// that runs as one process, own and shared, and the page's examples) and
/// distributed ones (the kinds that run as ranks, deadlock programs
/// included), every `.py` in those folders whether or not it has an
/// `.expected`. A distributed program comes with the ranks it was written
/// for: its first line's `# nproc: N`, else its kind's default.
pub struct Corpus {
    pub single: Vec<String>,
    /// Which of `single` are plain Python (the standard-library corpus):
    /// their cases are `Source::Stdlib`, since they never reach the tensor
    /// runtime.
    pub plain: Vec<bool>,
    pub distributed: Vec<(String, usize)>,
}

impl Corpus {
    pub fn load() -> Corpus {
        let repo = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        let read_all = |dir: &Path| -> Vec<String> {
            let Ok(entries) = std::fs::read_dir(dir) else {
                return Vec::new();
            };
            let mut paths: Vec<_> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "py"))
                .collect();
            paths.sort();
            paths
                .iter()
                .map(|p| std::fs::read_to_string(p).unwrap())
                .collect()
        };
        // The page's examples bring torch_tpu's device calls (set_chip,
        // simulate_collective) and the eager modes into the mix.
        let mut single = read_all(&repo.join("www/src/examples"));
        let mut plain = vec![false; single.len()];
        let mut distributed = Vec::new();
        for kind in super::layout::KINDS {
            let own = super::layout::own_root(repo).join(kind.name);
            let shared = super::layout::shared_root(repo).join(kind.shared);
            let programs = [read_all(&own), read_all(&shared)].concat();
            match kind.default_nproc {
                None => {
                    plain.extend(programs.iter().map(|_| kind.name == "stdlib"));
                    single.extend(programs);
                }
                Some(default) => distributed.extend(programs.into_iter().map(|p| {
                    let nproc = p
                        .lines()
                        .next()
                        .and_then(|l| l.strip_prefix("# nproc:"))
                        .and_then(|n| n.trim().parse().ok())
                        .unwrap_or(default);
                    (p, nproc)
                })),
            }
        }
        assert!(single.len() >= 20, "the single-device corpus went missing");
        assert!(
            distributed.len() >= 4,
            "the distributed corpus went missing"
        );
        Corpus {
            single,
            plain,
            distributed,
        }
    }
}

/// What a case's program is made from.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Source {
    RandomBytes,
    Mutated,
    /// A mutated program of the standard-library corpus (plain Python, no
    /// torch), drawn as `Mutated` programs are.
    Stdlib,
    /// A mutated distributed program, run as 2 to 8 ranks.
    Distributed,
}

/// One case: a program and how it runs.
#[derive(Clone)]
pub struct Case {
    pub seed: u32,
    pub index: usize,
    pub source: Source,
    pub program: String,
    pub mode: EagerMode,
    /// The ranks of a distributed case (1 for the others).
    pub nproc: usize,
}

/// Case `index` of `seed`, made from those two numbers alone: a quarter
/// random bytes, a quarter mutated distributed programs, half mutated
/// single-process programs.
/// A distributed program runs as the ranks it was written for (2 to 8)
/// three times in four, else as 2 to 4 ranks, a world it may not expect.
pub fn draw(corpus: &Corpus, seed: u32, index: usize) -> Case {
    let mixed = splitmix64((u64::from(seed) << 32) ^ index as u64);
    let mut rng = Rng(Mt19937::new((mixed ^ (mixed >> 32)) as u32));
    let (source, program, nproc) = match rng.below(4) {
        0 => (Source::RandomBytes, random_bytes(&mut rng), 1),
        1 => {
            let (base, written_for) = &corpus.distributed[rng.below(corpus.distributed.len())];
            let nproc = if rng.below(4) == 0 {
                2 + rng.below(3)
            } else {
                *written_for
            };
            (Source::Distributed, mutate(&mut rng, base), nproc)
        }
        _ => {
            let i = rng.below(corpus.single.len());
            let source = if corpus.plain[i] {
                Source::Stdlib
            } else {
                Source::Mutated
            };
            (source, mutate(&mut rng, &corpus.single[i]), 1)
        }
    };
    // Every eager mode takes hostile programs too.
    let mode = [EagerMode::Debug, EagerMode::Strict, EagerMode::Fused][rng.below(3)];
    Case {
        seed,
        index,
        source,
        program,
        mode,
        nproc,
    }
}

/// How a case ended, when it ended.
pub struct Ending {
    /// `output` (no diagnostic), `step budget`, or the first diagnostic's
    /// exception type.
    pub class: String,
    /// Whether the program ran at least one tensor op.
    pub reached_runtime: bool,
    /// A diagnostic without a location, which the Report must never hold.
    pub unlocated: Option<String>,
}

impl Case {
    /// Runs the case on a thread of its own named after it (so a panic's or
    /// a stack overflow's message names it), with a fresh runtime, and waits
    /// at most `CASE_LIMIT`. `Err` says how it failed.
    pub fn run(&self) -> Result<Ending, String> {
        let (tx, rx) = mpsc::channel();
        let case = self.clone();
        let handle = std::thread::Builder::new()
            .name(format!("fuzz seed {} case {}", self.seed, self.index))
            .stack_size(super::ENGINE.stack_bytes)
            .spawn(move || {
                let _ = tx.send(case.execute());
            })
            .expect("a thread for the case");
        match rx.recv_timeout(CASE_LIMIT) {
            Ok(ending) => {
                let _ = handle.join();
                Ok(ending)
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                Err(format!("ran past {} s (a hang)", CASE_LIMIT.as_secs()))
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                let payload = handle.join().err();
                let message = payload
                    .as_ref()
                    .and_then(|p| {
                        p.downcast_ref::<String>()
                            .cloned()
                            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    })
                    .unwrap_or_default();
                Err(format!("panicked: {message}"))
            }
        }
    }

    fn execute(&self) -> Ending {
        let nproc = (self.source == Source::Distributed).then_some(self.nproc);
        let report = (super::ENGINE.run)(&self.program, self.mode, nproc);
        let class = match report.diagnostics.first() {
            None => "output".to_string(),
            Some(d)
                if d.kind == "TimeoutError"
                    && (d.message.contains("budget") || d.message.contains("time limit")) =>
            {
                "step budget".to_string()
            }
            Some(d) => d.kind.clone(),
        };
        Ending {
            class,
            reached_runtime: !report.ops.is_empty(),
            unlocated: report
                .diagnostics
                .iter()
                .find(|d| d.span.is_none())
                .map(|d| format!("{}: {}", d.kind, d.message)),
        }
    }

    /// The failure message: what went wrong, the commands that draw this
    /// case again, and its program.
    pub fn failure(&self, cases: usize, what: &str) -> String {
        let command = super::ENGINE.test_command;
        format!(
            "case {} of seed {} ({:?}, {:?} mode{}) {what}\n\
             this case alone: TPU_FUZZ_SEED={} TPU_FUZZ_CASE={} {command}\n\
             the whole run:   TPU_FUZZ_SEED={} TPU_FUZZ_CASES={cases} {command}\n\
             the program:\n{}",
            self.index,
            self.seed,
            self.source,
            self.mode,
            if self.source == Source::Distributed {
                format!(", {} ranks", self.nproc)
            } else {
                String::new()
            },
            self.seed,
            self.index,
            self.seed,
            self.program
        )
    }
}

impl Source {
    pub const ALL: [Source; 4] = [
        Source::RandomBytes,
        Source::Mutated,
        Source::Stdlib,
        Source::Distributed,
    ];
}

/// Runs every case of `plan` for `seed` into `tally`, printing progress
/// every tenth of a long run (and the program, when one case runs alone);
/// the first failure panics with its message.
pub fn run_seed(plan: &Plan, corpus: &Corpus, seed: u32, tally: &mut Tally) {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let started = Instant::now();
    let indices = plan.case_indices();
    let step = (indices.len() / 10).max(1);
    let long = indices.len() >= 10_000;
    // The cases are independent, drawn from (seed, index) alone: they run on
    // as many threads as there are cores, each taking the next index (one
    // after another, a 2-core machine's second core sat idle for the three
    // minutes the campaign took in the test command).
    let workers = if plan.only_case.is_some() {
        1
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    };
    let next = AtomicUsize::new(indices.start);
    let done = AtomicUsize::new(0);
    // Set by a worker whose case failed, so that the others stop drawing.
    let failed = AtomicBool::new(false);
    let work = || {
        /// Marks the campaign failed if its worker unwinds from a panic.
        struct Failing<'a>(&'a AtomicBool);
        impl Drop for Failing<'_> {
            fn drop(&mut self) {
                if std::thread::panicking() {
                    self.0.store(true, Ordering::Relaxed);
                }
            }
        }
        let _failing = Failing(&failed);
        let mut tally = Tally::default();
        while !failed.load(Ordering::Relaxed) {
            let index = next.fetch_add(1, Ordering::Relaxed);
            if index >= indices.end {
                break;
            }
            let case = draw(corpus, seed, index);
            if plan.only_case.is_some() {
                eprintln!("{}", case.failure(plan.cases, "runs alone"));
            }
            match case.run() {
                Ok(ending) => {
                    if let Some(d) = &ending.unlocated {
                        let what = format!("gave a diagnostic without a location ({d})");
                        panic!("{}", case.failure(plan.cases, &what));
                    }
                    tally.add(case.source, &ending);
                }
                Err(what) => panic!("{}", case.failure(plan.cases, &what)),
            }
            let done = done.fetch_add(1, Ordering::Relaxed) + 1;
            if long && done.is_multiple_of(step) {
                eprintln!(
                    "fuzz: seed {seed}: {done} of {} cases, {:.0} s",
                    indices.len(),
                    started.elapsed().as_secs_f64()
                );
            }
        }
        tally
    };
    let tallies: Vec<Tally> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers).map(|_| scope.spawn(work)).collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    for worker in tallies {
        tally.merge(worker);
    }
}
