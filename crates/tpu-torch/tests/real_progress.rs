//! The real programs of `../shared/real/` (other people's code: makemore,
//! minGPT, nanoGPT, pytorch/examples) through the new interpreter on the
//! reference backend, judged by the corpus rule against what PyTorch printed.
//! The programs that agree are listed in `AGREE` (the test fails when one
//! stops agreeing or one not listed starts to); every other program's first
//! error is printed, which is where it stops next. Reports itself ignored
//! where `../shared/real` is absent. Multi-rank programs (`_N.py`) are left
//! out: ranks are not ported yet.

use std::path::{Path, PathBuf};
use std::time::Duration;

/// The real programs that print what PyTorch printed on the new interpreter.
/// None yet: past the standard library (argparse, sys, io, pickle, dataclasses
/// all run), each stops at PyTorch's long tail (`torch.multinomial`,
/// `nn.LSTM`, `torch.save`, `torch.cuda`, `torch.backends`, `torch.fx`,
/// `torch.utils.data.dataloader`) or at numpy, which the run prints.
const AGREE: &[&str] = &[];

fn real_dir() -> PathBuf {
    match std::env::var_os("TPU_SHARED_DIR") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir).join("../real"),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/real"),
    }
}

fn run(path: &Path) -> Result<(), String> {
    let source = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let expected =
        std::fs::read_to_string(path.with_extension("expected")).map_err(|e| e.to_string())?;
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let outcome = std::thread::Builder::new()
        .stack_size(tpu_python::STACK_BYTES)
        .spawn(move || {
            let mut runtime =
                tpu_runtime::Runtime::new(Box::new(tpu_runtime::ReferenceBackend::new()));
            tpu_torch::run(
                &source,
                &mut runtime,
                tpu_python::Options {
                    path: name,
                    timeout: Some(Duration::from_secs(120)),
                    ..tpu_python::Options::default()
                },
            )
        })
        .map_err(|e| e.to_string())?
        .join()
        .map_err(|_| "the run panicked".to_string())?;
    if let Some(f) = &outcome.error {
        return Err(format!("{}: {} (line {:?})", f.kind, f.message, f.line));
    }
    tpu_lang::conformance::agree(&expected, &outcome.stdout)
}

#[test]
fn the_real_programs_that_agree_still_do_and_the_list_is_complete() {
    let dir = real_dir();
    if !dir.is_dir() {
        eprintln!("ignored: {} is absent", dir.display());
        return;
    }
    let mut programs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the real corpus is readable")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|x| x == "py")
                && p.with_extension("expected").is_file()
                && !p.file_stem().is_some_and(|s| {
                    s.to_string_lossy()
                        .rsplit('_')
                        .next()
                        .is_some_and(|n| n.parse::<u32>().is_ok())
                })
        })
        .collect();
    programs.sort();
    let mut problems = Vec::new();
    let mut agree = 0;
    for path in &programs {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let listed = AGREE.contains(&name.as_str());
        match run(path) {
            Ok(()) => {
                agree += 1;
                if !listed {
                    problems.push(format!("{name}: now agrees; add it to AGREE"));
                }
            }
            Err(why) => {
                let head: String = why.lines().take(3).collect::<Vec<_>>().join(" | ");
                eprintln!("{name}: {head}");
                if listed {
                    problems.push(format!("{name}: no longer agrees: {why}"));
                }
            }
        }
    }
    eprintln!(
        "{agree} of {} real programs agree on the new interpreter",
        programs.len()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
