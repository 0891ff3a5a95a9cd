//! Every corpus program in headless Chromium through the wasm package, judged by
//! the corpus rule against what real PyTorch printed: the project's own corpora
//! (`tests/corpus/`) and the shared conformance corpus, as `build.rs` lists them
//! from `tests/corpus/layout.rs`, so a new program runs here with nothing edited.
//!
//! Every program runs on RustPython (`runPython`, with `nproc` for ranks),
//! as the page runs it, with CPython's standard library served from
//! `python-lib/` (which `cargo xtask` lays out beside this crate for the
//! test server).
//!
//! Natively every program runs in every eager mode (`crates/tpu-cli/tests/
//! corpus.rs`); what the browser adds is the wasm build and WebGPU (SwiftShader
//! on CI), not another pass over the programs. So the browser runs every
//! program of the shared corpus and every third program of each of the
//! project's own kinds (the first, the fourth...: `BROWSER_SHARE`), each once,
//! in one mode on one backend, rotating through all six pairings program by
//! program within each kind: every kind is exercised in every mode on both
//! backends. Every program once took 22 minutes here, 2.2 s a program on
//! average, the largest part of the test command. Programs of several ranks
//! (a `# nproc: N` first line, or their kind's default) also check that the
//! streamed output is the Report's and that the world has N ranks.
//!
//! Natively, before any browser starts, `coverage` checks that the list holds
//! every corpus program on disk, in every folder under `tests/corpus/` at any
//! depth and in the shared corpus where it exists: a folder that
//! `tests/corpus/layout.rs` does not name fails there, as the native runner's
//! own check does (`crates/tpu-cli/tests/corpus.rs`).

/// One corpus program, as `build.rs` lists it.
#[allow(dead_code)] // Natively only the paths are read.
struct Program {
    kind: &'static str,
    shared: bool,
    name: &'static str,
    path: &'static str,
    source: &'static str,
    expected: &'static str,
    nproc: Option<u32>,
    /// Why the program does not print what was recorded on RustPython (its
    /// `NAME.differs`, or `NAME.differs_in_browser` for what RustPython lacks
    /// on wasm32 alone): it must still differ, as natively.
    differs: Option<&'static str>,
}

const CORPUS: &[Program] = include!(concat!(env!("OUT_DIR"), "/corpus.rs"));

/// The browser runs the `i`-th program of each of the project's own kinds when
/// `i % BROWSER_SHARE == 0` (every program of the shared corpus).
#[allow(dead_code)] // Natively nothing reads it.
const BROWSER_SHARE: usize = 3;

/// One real program of `../shared/real` (other people's code), as `build.rs`
/// lists it.
#[allow(dead_code)] // Natively nothing reads them.
struct Real {
    name: &'static str,
    source: &'static str,
    expected: &'static str,
}

#[allow(dead_code)] // Natively nothing reads them.
const REAL: &[Real] = include!(concat!(env!("OUT_DIR"), "/real.rs"));

include!("../../tpu-torch/tests/real/agree.rs");

#[cfg(target_arch = "wasm32")]
mod common;

#[cfg(target_arch = "wasm32")]
mod browser {
    use super::{AGREE, BROWSER_SHARE, CORPUS, Program, REAL};
    use crate::common::{Page, set};
    use std::cell::RefCell;
    use std::rc::Rc;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen_test::*;

    wasm_bindgen_test_configure!(run_in_browser);

    /// The backend and mode of the i-th program of a kind, in turn.
    const PAIRINGS: [(&str, &str); 6] = [
        ("cpu", "debug"),
        ("wgpu", "strict"),
        ("cpu", "fused"),
        ("wgpu", "debug"),
        ("cpu", "strict"),
        ("wgpu", "fused"),
    ];

    /// Runs `program` in `mode` (as its ranks, where it has several); why it
    /// disagrees with what was recorded, if it does.
    async fn check(page: &Page, program: &Program, mode: &str) -> Result<(), String> {
        let streamed = Rc::new(RefCell::new(String::new()));
        let on_output = {
            let streamed = streamed.clone();
            Closure::<dyn FnMut(String, JsValue)>::new(move |text: String, stream: JsValue| {
                if stream.as_string().is_some_and(|s| s == "stdout") {
                    streamed.borrow_mut().push_str(&text)
                }
            })
        };
        let options = js_sys::Object::new();
        set(&options, "onOutput", on_output.as_ref());
        if let Some(n) = program.nproc {
            set(&options, "nproc", &n.into());
        }
        // Named as it was recorded, for `__file__` and tracebacks.
        set(&options, "path", &format!("{}.py", program.name).into());
        let report = page
            .try_run(program.source, Some(mode), Some(options))
            .await
            .map_err(|e| format!("the run was refused: {e:?}"))?;
        let agreed = match report.diagnostics.first() {
            Some(d) => Err(format!("{:?}", d.traceback)),
            None => tpu_runtime::conformance::agree(program.expected, &report.stdout),
        };
        match (agreed, program.differs) {
            (Ok(()), Some(_)) => {
                return Err("now prints what was recorded: delete its .differs".into());
            }
            (Err(_), Some(_)) => return Ok(()),
            (Err(why), None) => return Err(why),
            (Ok(()), None) => {}
        }
        if let Some(n) = program.nproc {
            let world = report.world.as_ref().ok_or("a run of ranks has no world")?;
            if world.nproc != n as usize || world.ranks.len() != n as usize {
                return Err(format!("a world of {} ranks, not {n}", world.nproc));
            }
            // The streamed output interleaves the ranks as they ran; the Report
            // groups them by rank.
            let mut streamed: Vec<String> = streamed.borrow().lines().map(String::from).collect();
            let mut held: Vec<&str> = report.stdout.lines().collect();
            streamed.sort_unstable();
            held.sort_unstable();
            if streamed != held {
                return Err(format!(
                    "onOutput received other lines than the Report holds:\n{streamed:?}"
                ));
            }
        } else if *streamed.borrow() != report.stdout {
            return Err("onOutput received other text than the Report holds".into());
        }
        Ok(())
    }

    /// Runs every program of `kind` (the shared corpus's or the project's own),
    /// each in its turn's pairing, and fails naming each that disagreed.
    async fn kind_agrees(kind: &str, shared: bool) {
        let programs: Vec<&Program> = CORPUS
            .iter()
            .filter(|p| p.kind == kind && p.shared == shared)
            .enumerate()
            .filter(|(i, _)| shared || i % BROWSER_SHARE == 0)
            .map(|(_, p)| p)
            .collect();
        assert!(
            !programs.is_empty(),
            "no {kind} programs (shared: {shared})"
        );
        let mut playgrounds: Vec<(&str, Page)> = Vec::new();
        let mut failures = Vec::new();
        for (i, program) in programs.iter().enumerate() {
            let (backend, mode) = PAIRINGS[i % PAIRINGS.len()];
            if !playgrounds.iter().any(|(b, _)| *b == backend) {
                let page = Page::create(backend)
                    .await
                    .unwrap_or_else(|e| panic!("the {backend} backend starts: {e:?}"));
                playgrounds.push((backend, page));
            }
            let playground = &playgrounds.iter().find(|(b, _)| *b == backend).unwrap().1;
            if let Err(why) = check(playground, program, mode).await {
                failures.push(format!("{} on {backend} in {mode}: {why}", program.path));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    /// The real programs that agree natively (`AGREE`), on RustPython in
    /// Chromium (the reference backend, Strict), as `real_progress.rs` runs
    /// them natively: each must agree here too. The others are left to the
    /// native test, which prints where each stops (the one that does not
    /// agree trains a ResNet-18, minutes of the browser stage). A program
    /// named `NAME_N` runs as N ranks. A run that traps the wasm instance
    /// fails the test.
    #[wasm_bindgen_test]
    #[cfg_attr(
        not(tpu_real),
        ignore = "the real programs (../shared/real) are absent: set TPU_SHARED_DIR to the shared conformance folder beside them"
    )]
    async fn the_real_programs_that_agree_natively_agree_in_the_browser() {
        let page = Page::create("reference")
            .await
            .expect("the reference backend");
        let mut problems = Vec::new();
        let listed: Vec<_> = REAL.iter().filter(|r| AGREE.contains(&r.name)).collect();
        assert_eq!(
            listed.len(),
            AGREE.len(),
            "AGREE names a program not in ../shared/real"
        );
        for real in listed {
            let nproc = real
                .name
                .rsplit('_')
                .next()
                .and_then(|n| n.parse::<u32>().ok());
            let options = js_sys::Object::new();
            set(&options, "path", &format!("{}.py", real.name).into());
            set(&options, "timeoutMs", &120_000.into());
            if let Some(n) = nproc {
                set(&options, "nproc", &n.into());
            }
            let ran = page
                .try_run(real.source, Some("strict"), Some(options))
                .await;
            let verdict = match ran {
                Err(e) => {
                    problems.push(format!(
                        "{}: the run failed in the runtime: {e:?}",
                        real.name
                    ));
                    continue;
                }
                Ok(report) => match report.diagnostics.first() {
                    Some(d) => Err(format!(
                        "{}: {} (line {:?})",
                        d.kind,
                        d.message,
                        d.span.as_ref().map(|s| s.line)
                    )),
                    None => tpu_runtime::conformance::agree(real.expected, &report.stdout),
                },
            };
            if let Err(why) = verdict {
                problems.push(format!(
                    "{}: does not agree in the browser: {why}",
                    real.name
                ));
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[wasm_bindgen_test]
    async fn the_single_device_corpus_agrees_with_pytorch() {
        kind_agrees("single", false).await;
    }

    #[wasm_bindgen_test]
    async fn the_cnn_corpus_agrees_with_pytorch() {
        kind_agrees("cnn", false).await;
    }

    #[wasm_bindgen_test]
    async fn the_compile_corpus_agrees_with_pytorch() {
        kind_agrees("compile", false).await;
    }

    #[wasm_bindgen_test]
    async fn the_distributed_corpus_agrees_with_torchrun() {
        kind_agrees("distributed", false).await;
    }

    #[wasm_bindgen_test]
    async fn the_pallas_corpus_agrees_with_jax() {
        kind_agrees("pallas", false).await;
    }

    #[wasm_bindgen_test]
    async fn the_standard_library_corpus_agrees_with_cpython() {
        kind_agrees("stdlib", false).await;
    }

    #[wasm_bindgen_test]
    #[cfg_attr(
        not(tpu_shared),
        ignore = "the shared corpus (../shared/conformance) is absent: set TPU_SHARED_DIR"
    )]
    async fn the_shared_single_device_corpus_agrees_with_pytorch() {
        kind_agrees("single", true).await;
    }

    #[wasm_bindgen_test]
    #[cfg_attr(
        not(tpu_shared),
        ignore = "the shared corpus (../shared/conformance) is absent: set TPU_SHARED_DIR"
    )]
    async fn the_shared_cnn_corpus_agrees_with_pytorch() {
        kind_agrees("cnn", true).await;
    }

    #[wasm_bindgen_test]
    #[cfg_attr(
        not(tpu_shared),
        ignore = "the shared corpus (../shared/conformance) is absent: set TPU_SHARED_DIR"
    )]
    async fn the_shared_compile_corpus_agrees_with_pytorch() {
        kind_agrees("compile", true).await;
    }

    #[wasm_bindgen_test]
    #[cfg_attr(
        not(tpu_shared),
        ignore = "the shared corpus (../shared/conformance) is absent: set TPU_SHARED_DIR"
    )]
    async fn the_shared_distributed_corpus_agrees_with_torchrun() {
        kind_agrees("distributed", true).await;
    }

    #[wasm_bindgen_test]
    #[cfg_attr(
        not(tpu_shared),
        ignore = "the shared corpus (../shared/conformance) is absent: set TPU_SHARED_DIR"
    )]
    async fn the_shared_pallas_corpus_agrees_with_jax() {
        kind_agrees("pallas", true).await;
    }

    /// Every kind `build.rs` listed has a test above: a kind added to
    /// `tests/corpus/layout.rs` without one fails here.
    #[wasm_bindgen_test]
    fn every_listed_kind_has_a_browser_test() {
        let tested = [
            "single",
            "cnn",
            "compile",
            "distributed",
            "pallas",
            "stdlib",
        ];
        for p in CORPUS {
            assert!(
                tested.contains(&p.kind),
                "{} is of kind {}, which no browser test runs",
                p.path,
                p.kind
            );
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
#[path = "../../../tests/corpus/layout.rs"]
#[allow(dead_code)] // Only part of it is needed here.
mod layout;

#[cfg(not(target_arch = "wasm32"))]
mod coverage {
    use super::{CORPUS, layout};
    use std::path::{Path, PathBuf};

    #[test]
    fn the_browser_lists_every_corpus_program_on_disk() {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut on_disk = layout::every_program_under(&layout::own_root(&repo));
        assert!(on_disk.len() >= 200, "the own corpora went missing");
        let shared = layout::shared_root(&repo);
        if shared.is_dir() {
            on_disk.extend(layout::every_program_under(&shared));
        }
        let listed: Vec<PathBuf> = CORPUS.iter().map(|p| PathBuf::from(p.path)).collect();
        let missing: Vec<String> = on_disk
            .iter()
            .filter(|p| !listed.contains(p))
            .map(|p| p.display().to_string())
            .collect();
        assert!(
            missing.is_empty(),
            "the browser runs none of these (name their folder in tests/corpus/layout.rs, or rebuild):\n{}",
            missing.join("\n")
        );
    }
}
