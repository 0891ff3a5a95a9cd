//! What a fuzz campaign's cases ended in (`Tally`, by where each program
//! came from, merged across the workers of `campaign::run_seed`), its
//! summary, and the floors a run is held to (`Floors`).

use super::campaign::{Ending, Source};
use std::collections::BTreeMap;
use std::time::Duration;

/// The least shares of cases that must get past the parser (see each fuzz
/// test for how they were measured): the single-process cases that reached
/// the tensor runtime and that ran to the end, the distributed ones that
/// reached it. At least one distributed case must complete or end in a named
/// deadlock. Runs too short to hold to a share are not checked.
pub struct Floors {
    pub single_reached: f64,
    pub single_completed: f64,
    pub distributed_reached: f64,
}

/// What a run's cases ended in.
#[derive(Default)]
pub struct Tally {
    /// Cases by where their program came from.
    pub cases: BTreeMap<Source, usize>,
    /// Cases that ran at least one tensor op, by source.
    pub reached_runtime: BTreeMap<Source, usize>,
    /// Cases by how they ended (see `Ending::class`), by source.
    pub endings: BTreeMap<Source, BTreeMap<String, usize>>,
}

impl Tally {
    pub fn check_floors(&self, floors: &Floors) {
        let check = |sources: &[Source], min_cases: usize| {
            let cases = self.count(sources);
            (cases >= min_cases).then_some(cases as f64)
        };
        let single = [Source::RandomBytes, Source::Mutated];
        if let Some(cases) = check(&single, 150) {
            let (reached, completed) = (self.reached(&single), self.ended_in(&single, "output"));
            assert!(
                reached as f64 / cases >= floors.single_reached,
                "only {reached} of {cases} single-process cases reached the tensor runtime"
            );
            assert!(
                completed as f64 / cases >= floors.single_completed,
                "only {completed} of {cases} single-process cases ran to the end"
            );
        }
        let distributed = [Source::Distributed];
        if let Some(cases) = check(&distributed, 50) {
            let reached = self.reached(&distributed);
            let in_world = self.ended_in(&distributed, "output")
                + self.ended_in(&distributed, "DistDeadlockError");
            assert!(
                reached as f64 / cases >= floors.distributed_reached,
                "only {reached} of {cases} distributed cases reached the tensor runtime"
            );
            assert!(
                in_world > 0,
                "none of {cases} distributed cases completed or ended in a named deadlock"
            );
        }
    }

    /// Adds another worker's tally to this one.
    pub fn merge(&mut self, other: Tally) {
        for (source, n) in other.cases {
            *self.cases.entry(source).or_default() += n;
        }
        for (source, n) in other.reached_runtime {
            *self.reached_runtime.entry(source).or_default() += n;
        }
        for (source, classes) in other.endings {
            let mine = self.endings.entry(source).or_default();
            for (class, n) in classes {
                *mine.entry(class).or_default() += n;
            }
        }
    }

    pub fn add(&mut self, source: Source, ending: &Ending) {
        *self.cases.entry(source).or_default() += 1;
        *self.reached_runtime.entry(source).or_default() += usize::from(ending.reached_runtime);
        *self
            .endings
            .entry(source)
            .or_default()
            .entry(ending.class.clone())
            .or_default() += 1;
    }

    pub fn count(&self, sources: &[Source]) -> usize {
        sources
            .iter()
            .map(|s| self.cases.get(s).copied().unwrap_or(0))
            .sum()
    }

    pub fn reached(&self, sources: &[Source]) -> usize {
        sources
            .iter()
            .map(|s| self.reached_runtime.get(s).copied().unwrap_or(0))
            .sum()
    }

    pub fn ended_in(&self, sources: &[Source], class: &str) -> usize {
        sources
            .iter()
            .filter_map(|s| self.endings.get(s)?.get(class))
            .sum()
    }

    /// How far the cases of `sources` got: to the tensor runtime, to the end.
    fn progress(&self, sources: &[Source]) -> String {
        let n = self.count(sources).max(1) as f64;
        let (reached, completed) = (self.reached(sources), self.ended_in(sources, "output"));
        format!(
            "{reached} reached the tensor runtime ({:.1}%), {completed} ran to the end ({:.1}%)",
            100.0 * reached as f64 / n,
            100.0 * completed as f64 / n
        )
    }

    /// Every ending over all sources, most frequent first.
    fn mix(&self) -> Vec<(String, usize)> {
        let mut all: BTreeMap<String, usize> = BTreeMap::new();
        for endings in self.endings.values() {
            for (class, n) in endings {
                *all.entry(class.clone()).or_default() += n;
            }
        }
        let mut mix: Vec<(String, usize)> = all.into_iter().collect();
        mix.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        mix
    }

    /// The campaign's summary: cases, seeds, wall time and the outcome mix,
    /// grouped as output, step-budget stops, parse errors and the other
    /// Python exceptions.
    pub fn summary(&self, seeds: &[u32], wall: Duration) -> String {
        let total = self.count(&Source::ALL);
        let seconds = wall.as_secs_f64();
        let share = |n: usize| 100.0 * n as f64 / total.max(1) as f64;
        let mix = self.mix();
        let of = |pred: &dyn Fn(&str) -> bool| -> Vec<&(String, usize)> {
            mix.iter().filter(|(c, _)| pred(c)).collect()
        };
        let is_parse = |c: &str| matches!(c, "SyntaxError" | "IndentationError" | "TabError");
        let listed = |group: Vec<&(String, usize)>| {
            let n: usize = group.iter().map(|(_, n)| n).sum();
            let parts: Vec<String> = group.iter().map(|(c, n)| format!("{c} {n}")).collect();
            format!("{n} ({:.1}%): {}", share(n), parts.join(", "))
        };
        let single = [Source::RandomBytes, Source::Mutated];
        let seeds: Vec<String> = seeds.iter().map(u32::to_string).collect();
        let dist = self.count(&[Source::Distributed]);
        format!(
            "fuzz campaign: {total} cases over {} seed(s) ({}) in {seconds:.1} s, {:.1} cases/s\n\
             \x20 sources: {} random bytes, {} mutated programs, {} mutated standard-library programs, {dist} mutated distributed programs (2-8 ranks)\n\
             \x20 single-process: {}\n\
             \x20 distributed: {}\n\
             \x20 output: {} ({:.1}%)\n\
             \x20 step-budget stop: {} ({:.1}%)\n\
             \x20 parse errors: {}\n\
             \x20 Python errors: {}\n\
             \x20 of which distributed: {}",
            seeds.len(),
            seeds.join(","),
            total as f64 / seconds.max(1e-9),
            self.count(&[Source::RandomBytes]),
            self.count(&[Source::Mutated]),
            self.count(&[Source::Stdlib]),
            self.progress(&single),
            self.progress(&[Source::Distributed]),
            self.ended_in(&Source::ALL, "output"),
            share(self.ended_in(&Source::ALL, "output")),
            self.ended_in(&Source::ALL, "step budget"),
            share(self.ended_in(&Source::ALL, "step budget")),
            listed(of(&is_parse)),
            listed(of(&|c| !is_parse(c) && c != "output" && c != "step budget")),
            self.endings
                .get(&Source::Distributed)
                .map(|e| {
                    let parts: Vec<String> = e.iter().map(|(c, n)| format!("{c} {n}")).collect();
                    parts.join(", ")
                })
                .unwrap_or_default(),
        )
    }
}
