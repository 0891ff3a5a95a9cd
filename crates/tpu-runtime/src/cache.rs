//! The compilation cache, one for all eager modes. Every kernel a run launches
//! has a fingerprint: a fused kernel's is the hash of its structure, shapes
//! and dtypes (`FusedKernel::fingerprint`), a per-op kernel's the hash of its
//! name (its code depends on nothing else). The first launch of a fingerprint
//! in a session is a miss (the backend compiles it); later ones are hits.
//!
//! Entries persist between sessions: the embedder loads those of earlier runs
//! (`tpu run --cache-dir`, IndexedDB in the browser) and saves the new ones
//! after a run. A kernel found there counts as a persisted hit. An entry that
//! cannot be read, or whose key does not hash to its fingerprint, is counted
//! as corrupt and ignored, so the kernel is rebuilt and saved again: a broken
//! cache costs a compile, never a crash or a wrong kernel.
//!
//! One cache serves every run of a session (the page's Playground runs many
//! programs), so its counters add up across runs; a Report carries what its
//! own run did (`run_stats`, counted from `begin_run`).

use crate::backend::BackendKind;
use crate::records::CacheStats;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use tpu_ir::fingerprint;

/// A compiled kernel as persisted between sessions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CacheEntry {
    pub fingerprint: String,
    /// What the fingerprint hashes (checked on load).
    pub code_key: String,
    /// The backend that compiled it (`reference` or `wgpu`).
    pub backend: String,
    /// The kernel's name in the Report.
    pub name: String,
    /// The generated source: a fused kernel's, or an op kernel's when the
    /// entry was made by its first launch in a run (WGSL only).
    pub source: Option<String>,
    /// Milliseconds the first compile-and-run took when it was made.
    pub compile_ms: Option<f64>,
}

impl CacheEntry {
    /// The name it is stored under: backend and fingerprint.
    pub fn file_name(&self) -> String {
        format!("{}-{}.json", self.backend, self.fingerprint)
    }
}

/// How a launch found the cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// Compiled earlier in this session.
    Hit,
    /// Compiled in an earlier session (a persisted entry).
    Persisted,
    Miss,
}

#[derive(Default)]
pub struct CompilationCache {
    /// Fingerprints compiled in this session (per backend).
    compiled: HashSet<(BackendKind, String)>,
    /// Entries of earlier sessions, by backend name and fingerprint.
    persisted: HashMap<(String, String), CacheEntry>,
    /// Entries made in this session and not persisted yet.
    fresh: Vec<CacheEntry>,
    /// The session's counters, from its first run.
    pub stats: CacheStats,
    /// `stats` when the current run began.
    run_start: CacheStats,
}

impl CompilationCache {
    /// Takes the entries of earlier sessions; each `Err` names an entry that
    /// could not be read. Entries whose key does not hash to their
    /// fingerprint are corrupt too.
    pub fn load(&mut self, entries: Vec<Result<CacheEntry, String>>) {
        for entry in entries {
            match entry {
                Ok(e) if fingerprint(&e.code_key) == e.fingerprint => {
                    self.persisted
                        .insert((e.backend.clone(), e.fingerprint.clone()), e);
                }
                _ => self.stats.corrupt += 1,
            }
        }
        self.stats.loaded = self.persisted.len();
    }

    /// Records a launch of `code_key` on `backend` and says how it found the
    /// cache. A miss is remembered (`made` then gives it its source and time).
    pub fn launch(&mut self, backend: BackendKind, code_key: &str) -> (String, Lookup) {
        let fp = fingerprint(code_key);
        if self.compiled.contains(&(backend, fp.clone())) {
            self.stats.hits += 1;
            return (fp, Lookup::Hit);
        }
        self.compiled.insert((backend, fp.clone()));
        self.stats.entries = self.compiled.len();
        let key = (backend.name().to_string(), fp.clone());
        if self
            .persisted
            .get(&key)
            .is_some_and(|e| e.code_key == code_key)
        {
            self.stats.persisted_hits += 1;
            return (fp, Lookup::Persisted);
        }
        self.stats.misses += 1;
        (fp, Lookup::Miss)
    }

    /// Starts counting a new run's hits and misses.
    pub fn begin_run(&mut self) {
        self.run_start = self.stats;
    }

    /// The current run's counters; `entries`, `loaded` and `corrupt` are
    /// the cache's (what it holds, what it loaded).
    pub fn run_stats(&self) -> CacheStats {
        let (now, start) = (self.stats, self.run_start);
        CacheStats {
            hits: now.hits - start.hits,
            misses: now.misses - start.misses,
            persisted_hits: now.persisted_hits - start.persisted_hits,
            compile_ms: now.compile_ms - start.compile_ms,
            precompiled: now.precompiled - start.precompiled,
            ..now
        }
    }

    /// Gives a miss its entry, to be persisted.
    pub fn made(&mut self, entry: CacheEntry) {
        self.fresh.push(entry);
    }

    /// The entries made since the last call, for the embedder to persist.
    pub fn take_fresh(&mut self) -> Vec<CacheEntry> {
        let fresh = std::mem::take(&mut self.fresh);
        for e in &fresh {
            self.persisted
                .insert((e.backend.clone(), e.fingerprint.clone()), e.clone());
        }
        fresh
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: &str) -> CacheEntry {
        CacheEntry {
            fingerprint: fingerprint(key),
            code_key: key.into(),
            backend: "reference".into(),
            name: "k".into(),
            source: None,
            compile_ms: Some(1.0),
        }
    }

    #[test]
    fn a_session_misses_then_hits_and_the_next_finds_it_persisted() {
        let mut first = CompilationCache::default();
        assert_eq!(first.launch(BackendKind::Reference, "a").1, Lookup::Miss);
        first.made(entry("a"));
        assert_eq!(first.launch(BackendKind::Reference, "a").1, Lookup::Hit);
        let saved = first.take_fresh();
        assert_eq!(saved.len(), 1);
        let mut second = CompilationCache::default();
        second.load(saved.into_iter().map(Ok).collect());
        assert_eq!(
            second.launch(BackendKind::Reference, "a").1,
            Lookup::Persisted
        );
        assert_eq!(second.launch(BackendKind::Reference, "a").1, Lookup::Hit);
        // Another backend's entry is not this backend's kernel.
        assert_eq!(second.launch(BackendKind::Wgpu, "a").1, Lookup::Miss);
        assert_eq!(second.stats.persisted_hits, 1);
    }

    #[test]
    fn a_run_counts_its_own_hits_and_misses() {
        let mut cache = CompilationCache::default();
        cache.begin_run();
        cache.launch(BackendKind::Reference, "a");
        cache.launch(BackendKind::Reference, "a");
        assert_eq!((cache.run_stats().hits, cache.run_stats().misses), (1, 1));
        cache.begin_run();
        assert_eq!(
            cache.run_stats(),
            CacheStats {
                entries: 1,
                ..CacheStats::default()
            }
        );
        cache.launch(BackendKind::Reference, "a");
        assert_eq!((cache.run_stats().hits, cache.run_stats().misses), (1, 0));
        assert_eq!((cache.stats.hits, cache.stats.misses), (2, 1));
    }

    #[test]
    fn corrupt_entries_are_counted_and_rebuilt() {
        let mut bad = entry("a");
        bad.code_key = "tampered".into();
        let mut cache = CompilationCache::default();
        cache.load(vec![Ok(bad), Err("reference-0123.json".into())]);
        assert_eq!(cache.stats.corrupt, 2);
        assert_eq!(cache.stats.loaded, 0);
        assert_eq!(cache.launch(BackendKind::Reference, "a").1, Lookup::Miss);
    }
}
