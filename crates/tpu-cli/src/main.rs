//! The `tpu` command. `tpu run FILE ARGS...` runs a PyTorch program with its `tpu`
//! tensors on the selected backend, on RustPython (`tpu-torch`), as `python FILE
//! ARGS...` would: it prints what the program printed, and on error a Python
//! traceback to stderr, and exits with the program's status. `--report out.json` writes the Report;
//! `--mode debug|strict|fused` picks the eager mode the program starts in;
//! `--cache-dir DIR` persists the compilation cache between runs; `--timeout
//! SECONDS` ends a run that takes longer in `TimeoutError`. The program's
//! output is printed as it is written, not at the end. `tpu python FILE ARGS`
//! runs a plain Python program on `tpu-python` (RustPython and CPython's
//! standard library), the interpreter the playground is moving to.

mod bench;
mod cache_dir;
mod device;
mod runtime_dir;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use tpu_runtime::{EagerMode, Runtime};
use tpu_wgpu::BackendChoice;

#[derive(Parser)]
#[command(name = "tpu", version, about = "PyTorch on a simulated TPU")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a PyTorch program.
    Run {
        /// Which backend runs `tpu` tensors: auto (wgpu when an adapter exists), cpu or wgpu.
        #[arg(long, default_value = "auto")]
        backend: BackendChoice,
        /// Write the run's Report as JSON to this path.
        #[arg(long)]
        report: Option<PathBuf>,
        /// The eager mode the program starts in: debug, strict or fused.
        #[arg(long, default_value = "strict")]
        mode: EagerMode,
        /// Persist the compilation cache in this directory: kernels compiled
        /// by earlier runs are found there (corrupt entries are rebuilt).
        #[arg(long)]
        cache_dir: Option<PathBuf>,
        /// The simulated TPU the Report's costs and timeline are for: v4,
        /// v5e, v5p, v6e, tpu7x, tpu8t, tpu8i (see `tpu chips`), or a custom
        /// chip as a preset with figures replaced: `v5e:mxu_width=256`.
        #[arg(long, default_value = "v5e")]
        chip: String,
        /// The simulated slice's shape, like 1, 2x2 or 4x4x4 (default: 1, or
        /// with --nproc-per-node N the generation's smallest slice of N chips).
        #[arg(long)]
        slice: Option<String>,
        /// Run N ranks of the program, one per chip of the slice, as
        /// `torchrun --nproc-per-node N` would (torch.distributed). Every
        /// rank's output is printed after the run, grouped by rank, each
        /// line prefixed `[rankK]:`.
        #[arg(long, value_name = "N")]
        nproc_per_node: Option<usize>,
        /// Write the simulated timeline as Chrome Trace Event JSON (open it
        /// in Perfetto or chrome://tracing).
        #[arg(long)]
        trace: Option<PathBuf>,
        /// End the run with `TimeoutError` once it has run this many seconds
        /// (wall time on this machine).
        #[arg(long, value_parser = parse_timeout)]
        timeout: Option<std::time::Duration>,
        /// Write each graph `torch.compile` captured (its first call) to this
        /// directory as a StableHLO module `NAME.mlir`, with the values of
        /// that call's inputs (`NAME.inputs.json`) and the outputs this
        /// runtime computed (`NAME.outputs.json`), for real XLA to check.
        #[arg(long, value_name = "DIR")]
        emit_stablehlo: Option<PathBuf>,
        /// The program, a `.py` file, and its arguments (its `sys.argv`):
        /// everything after the file is the program's, as with `python`.
        #[arg(
            required = true,
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "FILE [ARGS]"
        )]
        program: Vec<String>,
    },
    /// Run a plain Python program (no torch yet) on the playground's next
    /// interpreter, RustPython with CPython's standard library, as `python
    /// FILE ARGS...` would: the exit status is the program's.
    Python {
        /// The program, a `.py` file.
        file: PathBuf,
        /// End the run with `TimeoutError` once it has run this many seconds.
        #[arg(long, value_parser = parse_timeout)]
        timeout: Option<std::time::Duration>,
        /// The program's arguments, its `sys.argv[1:]`.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// List the TPU generations the device model knows, with their figures.
    Chips {
        /// One JSON object per chip, with every figure's source.
        #[arg(long)]
        json: bool,
    },
    /// Simulate on the device model (simulated time, not measured).
    Sim {
        #[command(subcommand)]
        what: Sim,
    },
    /// Strict against Fused on the same backend: an MLP training step and a
    /// transformer block, measured on this machine (wall time, not simulated).
    Bench {
        /// cpu, wgpu, or auto (wgpu when an adapter exists).
        #[arg(long, default_value = "auto")]
        backend: BackendChoice,
        /// Steps measured per run (after one step that absorbs compilation).
        #[arg(long, default_value_t = 3)]
        steps: usize,
        /// Tiny sizes, for a smoke test of the harness.
        #[arg(long)]
        small: bool,
        /// One JSON object per line.
        #[arg(long)]
        json: bool,
        /// Instead: time the device model simulating whole-pod all-reduces.
        #[arg(long)]
        collectives: bool,
        /// Instead: a DDP training step as 1 and as 8 ranks (torch.distributed),
        /// measured per step: what running ranks costs the scheduler.
        #[arg(long)]
        ranks: bool,
        /// Instead: the wgpu backend's cost of one kernel launch (batched and
        /// submitted one by one) and its matmul's GFLOP/s at 1024 and 4096.
        #[arg(long)]
        dispatch: bool,
    },
}

#[derive(Subcommand)]
enum Sim {
    /// One collective on a slice, simulated link by link.
    Collective {
        /// The generation: v4, v5e, v5p, v6e, tpu7x, tpu8t (see `tpu chips`),
        /// or a custom chip: `v5e:ici_link_bandwidth=1e11`.
        #[arg(long)]
        chip: String,
        /// The slice's shape, like 4x4 or 4x4x4.
        #[arg(long)]
        slice: String,
        /// Axis indices of the slice shape, like 0,1.
        #[arg(long, default_value = "0")]
        axes: String,
        /// all-gather, reduce-scatter, all-reduce, all-to-all or send-recv.
        #[arg(long)]
        kind: String,
        /// Bytes of the whole (gathered) array: 1e9, 64MiB, ...
        #[arg(long)]
        bytes: String,
        /// One JSON object.
        #[arg(long)]
        json: bool,
        /// Include the step-by-step schedule and the bytes on every link.
        #[arg(long)]
        schedule: bool,
    },
}

fn main() -> ExitCode {
    // Parsing exits on `--help` and on errors, before anything is made; the
    // runtime directory comes next, before any thread (see `runtime_dir`).
    let cli = Cli::parse();
    let runtime_dir = runtime_dir::set();
    let code = command(cli.command);
    runtime_dir.remove();
    code
}

fn command(command: Command) -> ExitCode {
    match command {
        Command::Python {
            file,
            timeout,
            args,
        } => python(&file, timeout, args),
        Command::Chips { json } => finish("chips", device::chips(json)),
        Command::Sim {
            what:
                Sim::Collective {
                    chip,
                    slice,
                    axes,
                    kind,
                    bytes,
                    json,
                    schedule,
                },
        } => finish(
            "sim collective",
            device::sim_collective(&chip, &slice, &axes, &kind, &bytes, json, schedule),
        ),
        Command::Bench {
            collectives: true,
            json,
            ..
        } => finish("bench --collectives", bench::collectives(json)),
        Command::Bench {
            dispatch: true,
            json,
            ..
        } => finish("bench --dispatch", bench::dispatch::run(json)),
        Command::Bench {
            backend,
            steps,
            small,
            json,
            collectives: false,
            ranks,
            ..
        } => {
            let worker = std::thread::Builder::new()
                .name("tpu-bench".into())
                .stack_size(tpu_python::STACK_BYTES)
                .spawn(move || {
                    if ranks {
                        bench::ranks(backend, steps.max(1), small, json)
                    } else {
                        bench::run(backend, steps.max(1), small, json)
                    }
                });
            match worker.map(|w| w.join()) {
                Ok(Ok(Ok(()))) => ExitCode::SUCCESS,
                Ok(Ok(Err(e))) => {
                    eprintln!("tpu bench: {e}");
                    ExitCode::FAILURE
                }
                _ => {
                    eprintln!("tpu: the bench thread failed");
                    ExitCode::from(3)
                }
            }
        }
        Command::Run {
            backend,
            report,
            mode,
            cache_dir,
            chip,
            slice,
            nproc_per_node,
            trace,
            timeout,
            emit_stablehlo,
            program,
        } => {
            let file = PathBuf::from(&program[0]);
            let args = program[1..].to_vec();
            // The interpreter recurses on the native stack; give it the stack its
            // recursion limit was measured against.
            let worker = std::thread::Builder::new()
                .name("tpu-run".into())
                .stack_size(tpu_python::STACK_BYTES)
                .spawn(move || {
                    let outputs = Outputs {
                        report: report.as_deref(),
                        cache_dir: cache_dir.as_deref(),
                        trace: trace.as_deref(),
                        stablehlo: emit_stablehlo.as_deref(),
                    };
                    let device = Placement {
                        chip: &chip,
                        slice: slice.as_deref(),
                        nproc: nproc_per_node,
                    };
                    run(&file, backend, mode, device, timeout, outputs, args)
                });
            match worker.map(|w| w.join()) {
                Ok(Ok(code)) => code,
                _ => {
                    eprintln!("tpu: the run thread failed");
                    ExitCode::from(3)
                }
            }
        }
    }
}

/// The simulated TPU a run is for, and how many ranks it has.
struct Placement<'a> {
    chip: &'a str,
    slice: Option<&'a str>,
    /// `--nproc-per-node`: none for an ordinary run of one process.
    nproc: Option<usize>,
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
struct Outputs<'a> {
    report: Option<&'a std::path::Path>,
    cache_dir: Option<&'a std::path::Path>,
    trace: Option<&'a std::path::Path>,
    stablehlo: Option<&'a std::path::Path>,
}

fn run(
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
    // starts (the ranks share one backend).
    runtimes[0].start_precompiling();
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

/// `tpu python FILE ARGS...`: the program's output straight to this process's
/// stdout and stderr as it is written; its exit status.
fn python(
    file: &std::path::Path,
    timeout: Option<std::time::Duration>,
    args: Vec<String>,
) -> ExitCode {
    let source = match std::fs::read_to_string(file) {
        Ok(source) => source,
        Err(e) => {
            eprintln!("tpu python: can't open file '{}': {e}", file.display());
            return ExitCode::from(2);
        }
    };
    let path = file.display().to_string();
    let worker = std::thread::Builder::new()
        .name("tpu-python".into())
        .stack_size(tpu_python::STACK_BYTES)
        .spawn(move || {
            use std::io::Write;
            let on_output: tpu_python::OnOutput = Box::new(|stream, text| {
                let _ = match stream {
                    tpu_python::Stream::Stdout => {
                        let mut out = std::io::stdout().lock();
                        out.write_all(text.as_bytes()).and_then(|()| out.flush())
                    }
                    tpu_python::Stream::Stderr => std::io::stderr().write_all(text.as_bytes()),
                };
            });
            let options = tpu_python::Options {
                path,
                folder: std::env::current_dir().ok(),
                args,
                timeout,
                on_output: Some(on_output),
                ..tpu_python::Options::default()
            };
            tpu_python::run(&source, options).exit_code
        });
    match worker.map(|w| w.join()) {
        Ok(Ok(code)) => ExitCode::from(code.clamp(0, 255) as u8),
        _ => {
            eprintln!("tpu: the run thread failed");
            ExitCode::from(3)
        }
    }
}

/// `--timeout SECONDS`: a positive number of seconds, fractions allowed.
fn parse_timeout(text: &str) -> Result<std::time::Duration, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if !(seconds > 0.0 && seconds.is_finite()) {
        return Err(format!(
            "the timeout must be a positive number of seconds, not {text}"
        ));
    }
    Ok(std::time::Duration::from_secs_f64(seconds))
}

/// Exit status for a subcommand's outcome: errors go to stderr, status 2.
fn finish(what: &str, outcome: Result<(), String>) -> ExitCode {
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tpu {what}: {e}");
            ExitCode::from(2)
        }
    }
}

/// Milliseconds since the process started, for the runtime's compile times.
pub fn wall_clock() -> Box<dyn Fn() -> f64> {
    let start = std::time::Instant::now();
    Box::new(move || start.elapsed().as_secs_f64() * 1e3)
}
