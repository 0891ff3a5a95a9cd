//! `tpu bench`: Strict against Fused on the same backend, in one process,
//! alternating, and the same workload through `torch.compile` (in Fused
//! mode: the compiled forward and backward graphs, the optimiser eager). Each
//! workload is a PyTorch program run once untimed per mode (compiling its
//! kernels), then twice per mode, with a short and a longer step count; the
//! difference divided by the extra steps is the per-step figure, so start-up
//! and the program's own first steps cancel out. Measured time is this machine's wall clock, not
//! simulated TPU time.

pub mod dispatch;

use serde::Serialize;
use std::time::Instant;
use tpu_runtime::{EagerMode, Report, Runtime};
use tpu_wgpu::BackendChoice;

struct Workload {
    name: &'static str,
    source: &'static str,
    full: &'static [(&'static str, usize)],
    small: &'static [(&'static str, usize)],
}

const WORKLOADS: &[Workload] = &[
    Workload {
        name: "mlp_train_step",
        source: include_str!("bench/mlp.py"),
        full: &[("BATCH", 256), ("D_IN", 512), ("D_HIDDEN", 2048)],
        small: &[("BATCH", 8), ("D_IN", 16), ("D_HIDDEN", 32)],
    },
    Workload {
        name: "transformer_block_fwd_bwd",
        source: include_str!("bench/transformer.py"),
        full: &[("BATCH", 8), ("TOKENS", 128), ("WIDTH", 256), ("HEADS", 4)],
        small: &[("BATCH", 2), ("TOKENS", 8), ("WIDTH", 16), ("HEADS", 4)],
    },
    Workload {
        name: "cnn_train_step",
        source: include_str!("bench/cnn.py"),
        full: &[("BATCH", 32), ("CH", 32), ("SIZE", 32)],
        small: &[("BATCH", 4), ("CH", 4), ("SIZE", 8)],
    },
];

/// One line of `tpu bench --json`.
#[derive(Serialize)]
pub struct BenchLine {
    pub name: String,
    pub backend: String,
    pub strict_ms: f64,
    pub fused_ms: f64,
    pub speedup: f64,
    pub strict_kernels_per_step: f64,
    pub fused_kernels_per_step: f64,
    /// The workload with its model through `torch.compile`, in Fused mode.
    pub compiled_ms: f64,
    pub compiled_kernels_per_step: f64,
    /// `fused_ms / compiled_ms`.
    pub compiled_vs_fused: f64,
    pub cache_hits: u64,
    pub cache_misses: u64,
    /// Time to the first result, per mode (`FirstRuns`).
    pub first_run_strict: FirstRuns,
    pub first_run_fused: FirstRuns,
}

/// Time to the first result of a one-step run, in ms of wall time: on a
/// fresh backend as `tpu run` starts one (opening the device, the
/// precompiled library compiling on its thread), on a fresh backend without
/// the library, and the same run again on the first (warm: every kernel
/// compiled and cached).
#[derive(Serialize)]
pub struct FirstRuns {
    pub cold_ms: f64,
    pub cold_without_library_ms: f64,
    pub warm_ms: f64,
}

fn first_runs(backend: BackendChoice, source: &str, mode: EagerMode) -> Result<FirstRuns, String> {
    let fresh = |library: bool| -> Result<(f64, Runtime), String> {
        let start = Instant::now();
        let selected =
            pollster::block_on(tpu_wgpu::select_backend(backend)).map_err(|e| e.to_string())?;
        let mut runtime = Runtime::new(selected.backend);
        runtime.set_clock(crate::wall_clock());
        if library {
            runtime.start_precompiling();
        }
        timed(&mut runtime, source, mode)?;
        Ok((start.elapsed().as_secs_f64() * 1e3, runtime))
    };
    let (cold_without_library_ms, _) = fresh(false)?;
    let (cold_ms, mut runtime) = fresh(true)?;
    let (warm, _) = timed(&mut runtime, source, mode)?;
    Ok(FirstRuns {
        cold_ms,
        cold_without_library_ms,
        warm_ms: warm * 1e3,
    })
}

fn program(w: &Workload, steps: usize, small: bool, compiled: bool) -> String {
    let compiled = if compiled { "True" } else { "False" };
    let mut text = format!("STEPS = {steps}\nCOMPILED = {compiled}\n");
    for (k, v) in if small { w.small } else { w.full } {
        text.push_str(&format!("{k} = {v}\n"));
    }
    text + w.source
}

fn timed(runtime: &mut Runtime, source: &str, mode: EagerMode) -> Result<(f64, Report), String> {
    let options = tpu_python::Options {
        path: "bench.py".into(),
        ..tpu_python::Options::default()
    };
    let start = Instant::now();
    let (report, _) = tpu_torch::run_report(source, runtime, options, mode);
    let seconds = start.elapsed().as_secs_f64();
    match report.diagnostics.first() {
        Some(d) => Err(d.traceback.clone()),
        None => Ok((seconds, report)),
    }
}

/// Runs every workload on `backend`, printing one line each.
pub fn run(backend: BackendChoice, steps: usize, small: bool, json: bool) -> Result<(), String> {
    let selected =
        pollster::block_on(tpu_wgpu::select_backend(backend)).map_err(|e| e.to_string())?;
    let mut runtime = Runtime::new(selected.backend);
    runtime.set_clock(crate::wall_clock());
    let backend_name = runtime.tpu_backend_kind().name().to_string();
    let device = runtime.tpu_device_description();
    for w in WORKLOADS {
        let short = program(w, 1, small, false);
        let long = program(w, 1 + steps, small, false);
        let short_compiled = program(w, 1, small, true);
        let long_compiled = program(w, 1 + steps, small, true);
        // Each program once untimed first: its kernels compile then, not in
        // the short run (on a fast GPU compiling outweighs several steps, and
        // the difference came out negative).
        for (source, mode) in [
            (&short, EagerMode::Strict),
            (&short, EagerMode::Fused),
            (&short_compiled, EagerMode::Fused),
        ] {
            timed(&mut runtime, source, mode)?;
        }
        let (s1, rs1) = timed(&mut runtime, &short, EagerMode::Strict)?;
        let (f1, rf1) = timed(&mut runtime, &short, EagerMode::Fused)?;
        let (c1, rc1) = timed(&mut runtime, &short_compiled, EagerMode::Fused)?;
        let (s2, rs2) = timed(&mut runtime, &long, EagerMode::Strict)?;
        let (f2, rf2) = timed(&mut runtime, &long, EagerMode::Fused)?;
        let (c2, rc2) = timed(&mut runtime, &long_compiled, EagerMode::Fused)?;
        for (what, r) in [("Fused", &rf2), ("compiled", &rc2)] {
            if rs2.stdout != r.stdout {
                return Err(format!(
                    "{}: Strict printed {:?} and {what} {:?}",
                    w.name, rs2.stdout, r.stdout
                ));
            }
        }
        let per_step = |a: f64, b: f64| (b - a) / steps as f64;
        let kernels =
            |a: &Report, b: &Report| per_step(a.kernels.len() as f64, b.kernels.len() as f64);
        let strict_ms = per_step(s1, s2) * 1e3;
        let fused_ms = per_step(f1, f2) * 1e3;
        let compiled_ms = per_step(c1, c2) * 1e3;
        let line = BenchLine {
            name: w.name.to_string(),
            backend: backend_name.clone(),
            strict_ms,
            fused_ms,
            speedup: strict_ms / fused_ms,
            strict_kernels_per_step: kernels(&rs1, &rs2),
            fused_kernels_per_step: kernels(&rf1, &rf2),
            compiled_ms,
            compiled_kernels_per_step: kernels(&rc1, &rc2),
            compiled_vs_fused: fused_ms / compiled_ms,
            cache_hits: rf2.cache.hits,
            cache_misses: rf2.cache.misses,
            first_run_strict: first_runs(backend, &short, EagerMode::Strict)?,
            first_run_fused: first_runs(backend, &short, EagerMode::Fused)?,
        };
        if json {
            println!("{}", serde_json::to_string(&line).expect("plain data"));
        } else {
            println!(
                "{:<28} {:<9} strict {:>9.2} ms  fused {:>9.2} ms  speedup {:>5.2}x  kernels/step {:>7.1} -> {:>7.1}  compiled {:>9.2} ms ({:>5.2}x fused, {:>7.1} kernels/step)  ({device}; measured wall time)",
                line.name,
                line.backend,
                line.strict_ms,
                line.fused_ms,
                line.speedup,
                line.strict_kernels_per_step,
                line.fused_kernels_per_step,
                line.compiled_ms,
                line.compiled_vs_fused,
                line.compiled_kernels_per_step
            );
            let first = |f: &FirstRuns| {
                format!(
                    "cold {:.0} ms (without the library {:.0} ms), warm {:.0} ms",
                    f.cold_ms, f.cold_without_library_ms, f.warm_ms
                )
            };
            println!(
                "{:<28} first result of one step: strict {}; fused {}",
                "",
                first(&line.first_run_strict),
                first(&line.first_run_fused)
            );
        }
    }
    Ok(())
}

/// One line of `tpu bench --ranks --json`.
#[derive(Serialize)]
pub struct RanksLine {
    pub name: String,
    pub backend: String,
    pub mode: String,
    pub ranks: usize,
    /// Wall time per DDP step of all ranks together, measured here.
    pub step_ms: f64,
    /// `step_ms` over the one-rank figure: the ranks run one after another
    /// on this machine, so `ranks` is the ideal and the excess is the
    /// scheduler's and the collectives' cost.
    pub vs_one_rank: f64,
    /// Collectives per step (the DDP bucket all-reduces).
    pub collectives_per_step: f64,
}

/// Times `source` as `nproc` ranks on runtimes sharing `backend`.
fn timed_ranks(
    backend: &tpu_runtime::SharedBackend,
    source: &str,
    nproc: usize,
    mode: EagerMode,
) -> Result<(f64, Report), String> {
    let mut runtimes: Vec<Runtime> = (0..nproc)
        .map(|_| {
            let mut r = Runtime::new(Box::new(backend.clone()));
            let chip = tpu_device::chip::preset("v5e").expect("a preset");
            let slice = tpu_device::Slice::smallest_with(&chip, nproc).expect("a v5e slice");
            r.set_device(chip, slice);
            r
        })
        .collect();
    let options = tpu_python::Options {
        path: "bench.py".into(),
        ..tpu_python::Options::default()
    };
    let start = Instant::now();
    let report = tpu_torch::run_ranks(source, &mut runtimes, options, mode, (0..nproc).collect());
    let seconds = start.elapsed().as_secs_f64();
    match report.diagnostics.first() {
        Some(d) => Err(d.traceback.clone()),
        None => Ok((seconds, report)),
    }
}

/// `tpu bench --ranks`: a DDP step as 1 and as 8 ranks, Strict, per step
/// (a short and a longer run's difference, as for the other workloads).
pub fn ranks(backend: BackendChoice, steps: usize, small: bool, json: bool) -> Result<(), String> {
    let selected =
        pollster::block_on(tpu_wgpu::select_backend(backend)).map_err(|e| e.to_string())?;
    let shared = tpu_runtime::SharedBackend::new(selected.backend);
    let backend_name = tpu_runtime::Backend::kind(&shared).name().to_string();
    let w = Workload {
        name: "ddp_train_step",
        source: include_str!("bench/ddp.py"),
        full: &[("BATCH", 64), ("D_IN", 128), ("D_HIDDEN", 512)],
        small: &[("BATCH", 4), ("D_IN", 8), ("D_HIDDEN", 16)],
    };
    let mode = EagerMode::Strict;
    let mut one_rank_ms = None;
    for nproc in [1, 8] {
        let (t1, r1) = timed_ranks(&shared, &program(&w, 1, small, false), nproc, mode)?;
        let (t2, r2) = timed_ranks(&shared, &program(&w, 1 + steps, small, false), nproc, mode)?;
        let per_step = |a: f64, b: f64| (b - a) / steps as f64;
        let step_ms = per_step(t1, t2) * 1e3;
        let collectives = |r: &Report| r.world.as_ref().map_or(0, |w| w.collectives.len()) as f64;
        let line = RanksLine {
            name: w.name.to_string(),
            backend: backend_name.clone(),
            mode: format!("{mode:?}").to_lowercase(),
            ranks: nproc,
            step_ms,
            vs_one_rank: step_ms / *one_rank_ms.get_or_insert(step_ms),
            collectives_per_step: per_step(collectives(&r1), collectives(&r2)),
        };
        if json {
            println!("{}", serde_json::to_string(&line).expect("plain data"));
        } else {
            println!(
                "{:<16} {:<9} {} ranks  {:>9.2} ms per step  {:>5.2}x one rank  {:>4.1} collectives/step  (measured wall time)",
                line.name,
                line.backend,
                line.ranks,
                line.step_ms,
                line.vs_one_rank,
                line.collectives_per_step
            );
        }
    }
    Ok(())
}

/// One line of `tpu bench --collectives --json`.
#[derive(Serialize)]
pub struct CollectiveLine {
    pub name: String,
    pub chip: String,
    pub slice: String,
    pub chips: usize,
    pub directed_links: usize,
    pub steps: usize,
    /// Link updates the simulation made (its cost grows as links x steps).
    pub work: u64,
    /// Simulated duration of the collective (not measured).
    pub simulated_us: f64,
    /// Wall time to simulate it on this machine (the median of 5 runs).
    pub measured_ms: f64,
}

/// `tpu bench --collectives`: how long the device model takes to simulate
/// whole-pod all-reduces link by link, measured on this machine.
pub fn collectives(json: bool) -> Result<(), String> {
    for (chip, shape, c) in tpu_device::collective::pod_benchmarks() {
        let chip = tpu_device::chip::preset(chip)?;
        let slice = tpu_device::Slice::new(&chip, shape).map_err(|e| e.to_string())?;
        let mut times = Vec::new();
        let mut last = None;
        for _ in 0..5 {
            let t0 = Instant::now();
            let sim =
                tpu_device::collective::simulate(&chip, &slice, &c).map_err(|e| e.to_string())?;
            times.push(t0.elapsed().as_secs_f64() * 1e3);
            last = Some(sim);
        }
        times.sort_by(f64::total_cmp);
        let sim = last.expect("five runs");
        let line = CollectiveLine {
            name: format!("{}_pod_all_reduce", chip.id),
            chip: chip.id.to_string(),
            slice: slice.name(),
            chips: slice.chips(),
            directed_links: 2 * slice.links_per_axis().iter().sum::<usize>(),
            steps: sim.steps.len(),
            work: sim.work,
            simulated_us: sim.simulated_us,
            measured_ms: times[2],
        };
        if json {
            println!("{}", serde_json::to_string(&line).expect("plain data"));
        } else {
            println!(
                "{:<24} {:>6} chips {:>7} links {:>5} steps  simulated {:>10.1} us  took {:>7.2} ms to simulate (measured here)",
                line.name,
                line.chips,
                line.directed_links,
                line.steps,
                line.simulated_us,
                line.measured_ms
            );
        }
    }
    Ok(())
}
