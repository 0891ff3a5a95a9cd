//! The `tpu` command. `tpu run FILE ARGS...` runs a PyTorch program with its `tpu`
//! tensors on the selected backend, on RustPython (`tpu-torch`), as `python FILE
//! ARGS...` would: it prints what the program printed, and on error a Python
//! traceback to stderr, and exits with the program's status. `--report out.json` writes the Report;
//! `--mode debug|strict|fused` picks the eager mode the program starts in;
//! `--cache-dir DIR` persists the compilation cache between runs; `--timeout
//! SECONDS` ends a run that takes longer in `TimeoutError`. The program's
//! output is printed as it is written, not at the end. `tpu python FILE ARGS`
//! runs a plain Python program on `tpu-python` (RustPython and CPython's
//! standard library), the interpreter the playground is moving to. `run.rs`
//! holds `tpu run`; `bench` and `device` the other subcommands.

mod allocator;
mod bench;
mod cache_dir;
mod device;
mod run;
mod runtime_dir;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use tpu_runtime::EagerMode;

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
    allocator::init();
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
                    let outputs = run::Outputs {
                        report: report.as_deref(),
                        cache_dir: cache_dir.as_deref(),
                        trace: trace.as_deref(),
                        stablehlo: emit_stablehlo.as_deref(),
                    };
                    let device = run::Placement {
                        chip: &chip,
                        slice: slice.as_deref(),
                        nproc: nproc_per_node,
                    };
                    run::run(&file, backend, mode, device, timeout, outputs, args)
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
