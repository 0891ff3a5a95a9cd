//! The runtimes a `Playground` holds and the simulated TPU they run on: one
//! runtime for single-process runs, and one per rank for runs of several
//! ranks (`nproc`), all over one backend (`SharedBackend`), so the ranks use
//! the same WebGPU device as the single runs. Rank runtimes are made when a
//! run first needs them and kept, so their compilation caches persist across
//! runs as the single runtime's does.
//!
//! The chosen device is a chip and, optionally, a slice. A single run without
//! a chosen slice runs on one chip; a run of N ranks runs on the chosen slice
//! if it has at least N chips (fewer is an error naming both, as `tpu run
//! --nproc-per-node` says it), else on the generation's smallest slice with N
//! chips.

use tpu_device::{Chip, Slice};
use tpu_runtime::{CacheEntry, Runtime, SharedBackend, WorldMaker};

pub(crate) struct Runtimes {
    /// Runs without `nproc`.
    pub(crate) single: Runtime,
    /// Rank r's runtime at index r, as many as the largest run so far had.
    ranks: Vec<Runtime>,
    backend: SharedBackend,
    /// The persisted cache entries loaded so far, for rank runtimes made later.
    loaded: Vec<CacheEntry>,
    chip: Chip,
    /// `None`: as the run needs (one chip, or the smallest slice with a
    /// chip per rank).
    slice: Option<Slice>,
}

impl Runtimes {
    pub(crate) fn new(backend: SharedBackend) -> Runtimes {
        let single = runtime_on(&backend);
        let (chip, _) = single.device();
        let chip = chip.clone();
        Runtimes {
            single,
            ranks: Vec::new(),
            backend,
            loaded: Vec::new(),
            chip,
            slice: None,
        }
    }

    /// Chooses the simulated TPU for the next runs: `chip` as `tpu run --chip`
    /// takes it, `slice` like `2x2`, or empty for the slice the run needs.
    pub(crate) fn set_device(&mut self, chip: &str, slice: &str) -> Result<(), String> {
        let chip = tpu_device::chip::describe(chip)?;
        let slice = match slice.trim() {
            "" => None,
            shape => Some(Slice::new(&chip, shape).map_err(|e| e.to_string())?),
        };
        let single_slice = match &slice {
            Some(s) => s.clone(),
            None => Slice::new(&chip, "1").map_err(|e| e.to_string())?,
        };
        self.single.set_device(chip.clone(), single_slice);
        self.chip = chip;
        self.slice = slice;
        Ok(())
    }

    /// The slice a run of `nproc` ranks runs on, or why it cannot run.
    fn rank_slice(&self, nproc: usize) -> Result<Slice, String> {
        rank_slice(&self.chip, self.slice.as_ref(), nproc, "ranks")
    }

    /// How the single runtime's program starts a world of processes
    /// (`torch.multiprocessing.spawn`): fresh runtimes on the backend, with
    /// the persisted cache entries, on the slice a run of that many ranks
    /// would have. `jspi`: whether this browser can suspend a run, which the
    /// processes' fibers need.
    pub(crate) fn world_maker(&self, jspi: bool) -> WorldMaker {
        let backend = self.backend.clone();
        let loaded = self.loaded.clone();
        let (chip, slice) = (self.chip.clone(), self.slice.clone());
        Box::new(move |n| {
            if !jspi {
                return Err("processes need JavaScript Promise Integration \
                            (WebAssembly.Suspending), which this browser lacks"
                    .into());
            }
            let slice = rank_slice(&chip, slice.as_ref(), n, "processes")?;
            Ok((0..n)
                .map(|_| {
                    let mut runtime = runtime_on(&backend);
                    runtime.load_cache(loaded.iter().cloned().map(Ok).collect());
                    runtime.set_device(chip.clone(), slice.clone());
                    runtime
                })
                .collect())
        })
    }

    /// The first `nproc` rank runtimes, each on the run's slice (made as
    /// needed), or why the ranks cannot run on the chosen device.
    pub(crate) fn ranks(&mut self, nproc: usize) -> Result<&mut [Runtime], String> {
        let slice = self.rank_slice(nproc)?;
        while self.ranks.len() < nproc {
            let mut runtime = runtime_on(&self.backend);
            runtime.load_cache(self.loaded.iter().cloned().map(Ok).collect());
            self.ranks.push(runtime);
        }
        let ranks = &mut self.ranks[..nproc];
        for runtime in ranks.iter_mut() {
            runtime.set_device(self.chip.clone(), slice.clone());
        }
        Ok(ranks)
    }

    /// Loads persisted cache entries into every runtime, and keeps them for
    /// rank runtimes made later. Unreadable records count as corrupt once,
    /// in the single runtime's cache.
    pub(crate) fn load_cache(&mut self, entries: Vec<Result<CacheEntry, String>>) {
        let readable: Vec<CacheEntry> = entries.iter().filter_map(|e| e.clone().ok()).collect();
        for runtime in &mut self.ranks {
            runtime.load_cache(readable.iter().cloned().map(Ok).collect());
        }
        self.single.load_cache(entries);
        self.loaded.extend(readable);
    }

    /// The cache entries every runtime made since the last call, each
    /// fingerprint once (the ranks compile the same kernels).
    pub(crate) fn take_cache_entries(&mut self) -> Vec<CacheEntry> {
        let mut seen = std::collections::HashSet::new();
        std::iter::once(&mut self.single)
            .chain(self.ranks.iter_mut())
            .flat_map(Runtime::take_cache_entries)
            .filter(|entry| seen.insert(entry.fingerprint.clone()))
            .collect()
    }
}

/// The slice `n` ranks (or processes: `what`) run on: the chosen one, if it
/// has a chip for each, or else the smallest that has.
fn rank_slice(chip: &Chip, chosen: Option<&Slice>, n: usize, what: &str) -> Result<Slice, String> {
    match chosen {
        Some(slice) if slice.chips() < n => Err(format!(
            "the {} slice of {} has {} chips, fewer than the {n} {what}",
            slice.name(),
            chip.name,
            slice.chips()
        )),
        Some(slice) => Ok(slice.clone()),
        None => Slice::smallest_with(chip, n),
    }
}

fn runtime_on(backend: &SharedBackend) -> Runtime {
    let mut runtime = Runtime::new(Box::new(backend.clone()));
    runtime.set_clock(Box::new(js_sys::Date::now));
    runtime
}
