//! `tpu run FILE ARGS...`: the runtimes a run needs (one, or a world of
//! ranks on the chosen slice), the program on them, its output printed as it
//! is written, and the Report, trace, cache and StableHLO modules written
//! where asked.

use crate::{cache_dir, wall_clock};
use std::process::ExitCode;
use tpu_runtime::{EagerMode, Runtime};
use tpu_wgpu::BackendChoice;

/// The simulated TPU a run is for, and how many ranks it has.
pub(crate) struct Placement<'a> {
    pub chip: &'a str,
    pub slice: Option<&'a str>,
    /// `--nproc-per-node`: none for an ordinary run of one process.
    pub nproc: Option<usize>,
}

/// The chip and slice of a run of `nproc` ranks: the slice asked for, which
/// must have a chip per rank, or the smallest that has.
fn rank_device(
    chip: &str,
    slice: Option<&str>,
    nproc: usize,
) -> Result<(tpu_device::Chip, tpu_device::Slice), String> {
    if nproc == 0 || nproc > tpu_torch::MAX_RANKS {
        return Err(format!(
            "--nproc-per-node must be between 1 and {}, not {nproc}",
            tpu_torch::MAX_RANKS
        ));
    }
    let (chip, _) = tpu_device::device(chip, "1")?;
    let slice = match slice {
        Some(shape) => {
            let slice = tpu_device::Slice::new(&chip, shape).map_err(|e| e.to_string())?;
            if slice.chips() < nproc {
                return Err(format!(
                    "the {} slice of {} has {} chips, fewer than the {nproc} ranks of --nproc-per-node {nproc}",
                    slice.name(),
                    chip.name,
                    slice.chips()
                ));
            }
            slice
        }
        None => tpu_device::Slice::smallest_with(&chip, nproc)?,
    };
    Ok((chip, slice))
}

/// How a one-process run's program starts a world of processes
/// (`torch.multiprocessing.spawn`): runtimes on the run's backend, on the
/// slice asked for if it has a chip per process, or else the smallest that
/// has.
fn world_maker(
    backend: tpu_runtime::SharedBackend,
    chip: tpu_device::Chip,
    slice: Option<String>,
) -> tpu_runtime::WorldMaker {
    Box::new(move |n| {
        let slice = match &slice {
            Some(shape) => {
                let slice = tpu_device::Slice::new(&chip, shape).map_err(|e| e.to_string())?;
                if slice.chips() < n {
                    return Err(format!(
                        "the {} slice of {} has {} chips, fewer than the {n} processes",
                        slice.name(),
                        chip.name,
                        slice.chips()
                    ));
                }
                slice
            }
            None => tpu_device::Slice::smallest_with(&chip, n)?,
        };
        Ok((0..n)
            .map(|_| {
                let mut runtime = Runtime::new(Box::new(backend.clone()));
                runtime.set_clock(wall_clock());
                runtime.set_device(chip.clone(), slice.clone());
                runtime
            })
            .collect())
    })
}

/// Where `tpu run` writes what it was asked for besides the program's output.
pub(crate) struct Outputs<'a> {
    pub report: Option<&'a std::path::Path>,
    pub cache_dir: Option<&'a std::path::Path>,
    pub trace: Option<&'a std::path::Path>,
    pub stablehlo: Option<&'a std::path::Path>,
}

/// `tpu run`: the program on `backend` in `mode`, as one process or as
/// `--nproc-per-node` ranks, with what `outputs` asks for written after it.
pub(crate) fn run(
    file: &std::path::Path,
    backend: BackendChoice,
    mode: EagerMode,
    placement: Placement<'_>,
    timeout: Option<std::time::Duration>,
    outputs: Outputs<'_>,
    args: Vec<String>,
) -> ExitCode {
    let (report_path, cache_dir) = (outputs.report, outputs.cache_dir);
    let device = match placement.nproc {
        Some(n) => rank_device(placement.chip, placement.slice, n),
        None => tpu_device::device(placement.chip, placement.slice.unwrap_or("1")),
    };
    let (chip, slice) = match device {
        Ok(d) => d,
        Err(e) => {
            eprintln!("tpu: {e}");
            return ExitCode::from(2);
        }
    };
    let source = match std::fs::read_to_string(file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("tpu: cannot read {}: {e}", file.display());
            return ExitCode::from(2);
        }
    };
    let selected = match pollster::block_on(tpu_wgpu::select_backend(backend)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("tpu: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(reason) = &selected.fallback_reason {
        eprintln!("tpu: using the reference backend ({reason})");
    }
    let nproc = placement.nproc.unwrap_or(1);
    let shared = tpu_runtime::SharedBackend::new(selected.backend);
    let chip_name = chip.name;
    let mut runtimes: Vec<Runtime> = (0..nproc)
        .map(|_| {
            let mut runtime = Runtime::new(Box::new(shared.clone()));
            runtime.set_clock(wall_clock());
            runtime.set_device(chip.clone(), slice.clone());
            runtime
        })
        .collect();
    let cache = match cache_dir.map(cache_dir::CacheDir::open).transpose() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("tpu: cannot use the cache directory: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(cache) = &cache {
        for runtime in &mut runtimes {
            cache.load_into(runtime);
        }
    }
    if placement.nproc.is_none() {
        let maker = world_maker(
            shared.clone(),
            chip.clone(),
            placement.slice.map(str::to_owned),
        );
        runtimes[0].set_world_maker(maker);
    }
    // The precompiled kernel library compiles on a thread while the program
    // starts (the ranks share one backend), where a GPU runs the kernels. A
    // software adapter (lavapipe) runs them on the CPU, where that thread
    // only competes with the adapter's own threads: first results were no
    // faster with it (docs/performance.md, "Time to the first result"), and
    // each short run spent up to a core's time compiling kernels it never
    // used.
    if !runtimes[0].tpu_backend_label().software {
        runtimes[0].start_precompiling();
    }
    if outputs.stablehlo.is_some() {
        runtimes[0].set_export_graphs(true);
    }
    // The program runs on RustPython (`tpu-torch`) as `python FILE ARGS`
    // would: one process streams its output and traceback to stdout and
    // stderr as written and exits with the program's status; ranks print
    // their output after the run, grouped by rank as torchrun's log files
    // hold it, then the run's errors.
    let (report, exit_code) = match placement.nproc {
        Some(_) => {
            let chips = (0..nproc).collect();
            let python = tpu_python::Options {
                path: file.display().to_string(),
                folder: std::env::current_dir().ok(),
                args,
                timeout,
                ..tpu_python::Options::default()
            };
            let report = tpu_torch::run_ranks(&source, &mut runtimes, python, mode, chips);
            use std::io::Write;
            let _ = std::io::stdout().lock().write_all(report.stdout.as_bytes());
            for diagnostic in &report.diagnostics {
                eprintln!("{}", diagnostic.traceback);
            }
            let code = if report.ok() { 0 } else { 1 };
            (report, code)
        }
        None => {
            let python = tpu_python::Options {
                path: file.display().to_string(),
                folder: std::env::current_dir().ok(),
                args,
                timeout,
                on_output: Some(Box::new(|stream, text| {
                    use std::io::Write;
                    // A closed pipe (`tpu run f.py | head`) is not the program's error.
                    let _ = match stream {
                        tpu_python::Stream::Stdout => {
                            let mut out = std::io::stdout().lock();
                            out.write_all(text.as_bytes()).and_then(|()| out.flush())
                        }
                        tpu_python::Stream::Stderr => std::io::stderr().write_all(text.as_bytes()),
                    };
                })),
                ..tpu_python::Options::default()
            };
            let (report, outcome) = tpu_torch::run_report(&source, &mut runtimes[0], python, mode);
            // The interpreter printed the program's own traceback; an error
            // the runtime met after the program ended is printed here.
            let mut code = outcome.exit_code;
            if outcome.error.is_none() {
                for diagnostic in &report.diagnostics {
                    eprintln!("{}", diagnostic.traceback);
                    code = 1;
                }
            }
            (report, code)
        }
    };
    if let Some(Err(e)) = cache.as_ref().map(|c| c.save_from(&mut runtimes[0])) {
        // The run's results stand; only the cache is not updated.
        eprintln!("tpu: cannot write the cache directory: {e}");
    }
    if let Some(dir) = outputs.stablehlo
        && let Err(e) = write_stablehlo(dir, runtimes[0].take_exported_graphs())
    {
        eprintln!("tpu: cannot write {}: {e}", dir.display());
        return ExitCode::from(2);
    }
    if let (Some(path), Some(timeline)) = (outputs.trace, &report.timeline) {
        let trace = tpu_device::timeline::chrome_trace(timeline, chip_name);
        let json = serde_json::to_string(&trace).expect("a trace is plain data");
        if let Err(e) = std::fs::write(path, json) {
            eprintln!("tpu: cannot write {}: {e}", path.display());
            return ExitCode::from(2);
        }
    }
    if let Some(path) = report_path {
        let json = serde_json::to_string_pretty(&report).expect("a Report is plain data");
        if let Err(e) = std::fs::write(path, json) {
            eprintln!("tpu: cannot write {}: {e}", path.display());
            return ExitCode::from(2);
        }
    }
    ExitCode::from(exit_code.clamp(0, 255) as u8)
}

/// `--emit-stablehlo DIR`: each graph as `NAME.mlir`, `NAME.inputs.json`
/// and `NAME.outputs.json`.
fn write_stablehlo(
    dir: &std::path::Path,
    graphs: Vec<tpu_runtime::compile::ExportedGraph>,
) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for g in graphs {
        std::fs::write(dir.join(format!("{}.mlir", g.name)), &g.stablehlo)?;
        std::fs::write(dir.join(format!("{}.inputs.json", g.name)), g.inputs_json())?;
        std::fs::write(
            dir.join(format!("{}.outputs.json", g.name)),
            g.outputs_json(),
        )?;
    }
    Ok(())
}
