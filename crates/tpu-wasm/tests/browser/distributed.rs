//! Runs of several ranks (`run`'s `nproc` option) in headless Chromium, each
//! rank a RustPython interpreter on a JSPI stack of its own: the shared
//! corpus's mismatched-collective program ending in a deadlock named rank by
//! rank; sixteen ranks, with the memory they take; and the slice rule (the
//! smallest slice with a chip per rank by default, a chosen slice with too
//! few chips refused naming both); and ranks a one-process run starts itself
//! (`torch.multiprocessing`). The distributed corpora themselves run in
//! `tests/corpus.rs`.

use crate::common::{Page, set};
use std::cell::RefCell;
use std::rc::Rc;
use tpu_runtime::Report;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

/// The shared corpus's program that real PyTorch hangs on.
#[cfg(tpu_shared)]
const DEADLOCK: &str = include_str!(concat!(
    env!("TPU_SHARED_CORPUS"),
    "/distributed/mismatch_deadlock.py"
));
#[cfg(not(tpu_shared))]
const DEADLOCK: &str = "";

/// A program of four ranks from the project's own corpus.
const FOUR_RANKS: &str = include_str!("../../../../tests/corpus/distributed/all_gather_forms.py");

/// Runs `source` as `nproc` ranks in `mode`; the Report, and every piece of
/// text `onOutput` received.
async fn run_ranks(
    playground: &Page,
    source: &str,
    mode: &str,
    nproc: f64,
) -> Result<(Report, String), JsValue> {
    let streamed = Rc::new(RefCell::new(String::new()));
    let on_output = {
        let streamed = streamed.clone();
        Closure::<dyn FnMut(String)>::new(move |text: String| streamed.borrow_mut().push_str(&text))
    };
    let options = js_sys::Object::new();
    set(&options, "nproc", &nproc.into());
    set(&options, "onOutput", on_output.as_ref());
    let report = playground
        .try_run(source, Some(mode), Some(options))
        .await?;
    let streamed = streamed.borrow().clone();
    Ok((report, streamed))
}

/// Sixteen ranks, each averaging its tensor with the others a hundred times,
/// end with the same values as natively; the growth of the wasm memory over
/// a single run of the same program is printed per extra rank (a
/// measurement for `docs/performance.md`, not a check).
#[wasm_bindgen_test]
async fn sixteen_ranks_take_turns_in_one_instance() {
    let program = "import torch\nimport torch.distributed as dist\ndist.init_process_group('gloo')\nr = dist.get_rank()\nt = torch.ones(4) * r\nfor i in range(100):\n    dist.all_reduce(t)\n    t = t / dist.get_world_size()\nprint(r, t.tolist())\ndist.destroy_process_group()\n";
    let playground = Page::create("reference")
        .await
        .expect("the reference backend");
    let bytes = || {
        let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
        memory
            .buffer()
            .unchecked_into::<js_sys::ArrayBuffer>()
            .byte_length() as f64
    };
    let (one, _) = run_ranks(&playground, program, "strict", 1.0)
        .await
        .unwrap();
    assert!(one.ok(), "{:?}", one.diagnostics);
    let before = bytes();
    let started = js_sys::Date::now();
    let (report, _) = run_ranks(&playground, program, "strict", 16.0)
        .await
        .unwrap();
    let took = js_sys::Date::now() - started;
    assert!(report.ok(), "{:?}", report.diagnostics);
    let expected: String = (0..16)
        .map(|r| format!("[rank{r}]:{r} [7.5, 7.5, 7.5, 7.5]\n"))
        .collect();
    assert_eq!(report.stdout, expected);
    console_log!(
        "16 ranks x 100 all_reduces: {took:.0} ms, wasm memory {:.1} MB more than one rank's, {:.1} MB per extra rank (Chromium, measured)",
        (bytes() - before) / 1e6,
        (bytes() - before) / 15.0 / 1e6
    );
}

#[wasm_bindgen_test]
#[cfg_attr(
    not(tpu_shared),
    ignore = "the shared corpus (../shared/conformance) is absent: set TPU_SHARED_DIR"
)]
async fn mismatched_collectives_end_in_a_deadlock_naming_each_ranks_line() {
    let playground = Page::create("reference")
        .await
        .expect("the reference backend");
    let (report, _) = run_ranks(&playground, DEADLOCK, "strict", 4.0)
        .await
        .expect("the run resolves");
    // The program's own text says where each rank stops: rank 0 in the
    // all_reduce only it reaches, the others in the broadcast of the else.
    let line_of = |call: &str| {
        DEADLOCK
            .lines()
            .position(|l| l.trim_start().starts_with(call))
            .map(|i| i as u32 + 1)
            .unwrap_or_else(|| panic!("the program calls {call}"))
    };
    let all_reduce = DEADLOCK
        .lines()
        .enumerate()
        .filter(|(_, l)| l.trim_start().starts_with("dist.all_reduce(t)"))
        .map(|(i, _)| i as u32 + 1)
        .last()
        .expect("a second all_reduce");
    let broadcast = line_of("dist.broadcast(");
    let last = report.diagnostics.last().expect("a diagnostic");
    assert_eq!(last.kind, "DistDeadlockError", "{:?}", report.diagnostics);
    assert!(
        last.message.contains("rank 0: waits in all_reduce")
            && last.message.contains(&format!("at line {all_reduce}")),
        "{}",
        last.message
    );
    for rank in 1..4 {
        assert!(
            last.message.contains(&format!(
                "rank {rank}: waits in broadcast (default group, collective #2, shape [4], float32) at line {broadcast}"
            )),
            "{}",
            last.message
        );
    }
    let deadlock = report
        .world
        .as_ref()
        .and_then(|w| w.deadlock.as_ref())
        .expect("the world names the deadlock");
    let lines: Vec<Option<u32>> = deadlock.ranks.iter().map(|r| r.line).collect();
    assert_eq!(
        lines,
        [
            Some(all_reduce),
            Some(broadcast),
            Some(broadcast),
            Some(broadcast)
        ]
    );
    // What the ranks printed before they stopped is kept.
    for rank in 0..4 {
        assert!(
            report.stdout.contains(&format!(
                "[rank{rank}]:first all_reduce [6.0, 6.0, 6.0, 6.0]"
            )),
            "{}",
            report.stdout
        );
    }
    assert!(!report.stdout.contains("unreachable"), "{}", report.stdout);
    // The playground runs the next program as usual.
    let (report, _) = run_ranks(&playground, FOUR_RANKS, "strict", 4.0)
        .await
        .expect("the run resolves");
    assert!(report.ok(), "{:?}", report.diagnostics);
}

#[wasm_bindgen_test]
async fn ranks_run_on_the_smallest_slice_with_a_chip_each_unless_a_slice_was_chosen() {
    let playground = Page::create("reference")
        .await
        .expect("the reference backend");
    let program = FOUR_RANKS;
    let slice_of = |report: &Report| report.device.as_ref().map(|d| d.slice.clone());
    // No slice chosen: the ranks get the generation's smallest slice with a
    // chip each, which the device model names; a single run one chip.
    assert!(
        playground
            .call("setDevice", &["v5e".into(), "".into()])
            .is_ok()
    );
    let (report, _) = run_ranks(&playground, program, "strict", 4.0)
        .await
        .unwrap();
    let smallest = tpu_device::Slice::smallest_with(&tpu_device::chip::describe("v5e").unwrap(), 4)
        .unwrap()
        .name();
    assert_eq!(slice_of(&report), Some(smallest));
    let world = report.world.as_ref().expect("a world");
    let mut chips: Vec<usize> = world.ranks.iter().map(|r| r.chip).collect();
    chips.sort_unstable();
    chips.dedup();
    assert_eq!(chips.len(), 4, "one chip per rank: {chips:?}");
    let single = playground.run("x = 1", None, None).await;
    assert_eq!(slice_of(&single).as_deref(), Some("1"));
    assert!(single.world.is_none());

    // A chosen slice with enough chips is used; one with too few is refused
    // naming both, and nothing runs.
    assert!(
        playground
            .call("setDevice", &["v5e".into(), "4x4".into()])
            .is_ok()
    );
    let (report, _) = run_ranks(&playground, program, "strict", 4.0)
        .await
        .unwrap();
    assert_eq!(slice_of(&report).as_deref(), Some("4x4"));
    assert!(
        playground
            .call("setDevice", &["v5e".into(), "2x2".into()])
            .is_ok()
    );
    let (report, _) = run_ranks(&playground, program, "strict", 8.0)
        .await
        .unwrap();
    let refusal = report.diagnostics.first().expect("a refusal");
    assert!(
        refusal
            .message
            .contains("the 2x2 slice of TPU v5e has 4 chips, fewer than the 8 ranks"),
        "{}",
        refusal.message
    );
    assert!(report.stdout.is_empty());

    // A number of ranks outside 1..=64 is a wrong option, not a run.
    for nproc in [0.0, 65.0, 2.5] {
        let error = run_ranks(&playground, program, "strict", nproc)
            .await
            .expect_err("refused");
        let text: String = error
            .dyn_into::<js_sys::Error>()
            .expect("an Error")
            .message()
            .into();
        assert!(text.contains("nproc must be"), "{nproc}: {text}");
    }
}

/// The DDP tutorial's launch from inside a one-process run: the parent's
/// fiber sets its state aside while the spawned ranks' fibers run, their
/// output streams into the parent's, and the Report is the world's.
const SPAWN: &str = include_str!("../../../../tests/corpus/single/mp_spawn_ddp_tutorial.py");
const SPAWN_EXPECTED: &str =
    include_str!("../../../../tests/corpus/single/mp_spawn_ddp_tutorial.expected");
const PROCESSES: &str = include_str!("../../../../tests/corpus/single/mp_process_p2p_tutorial.py");
const PROCESSES_EXPECTED: &str =
    include_str!("../../../../tests/corpus/single/mp_process_p2p_tutorial.expected");

#[wasm_bindgen_test]
async fn a_program_that_spawns_its_ranks_runs_them_as_fibers_of_its_run() {
    let playground = Page::create("reference")
        .await
        .expect("the reference backend");
    for (source, expected, nproc) in [
        (SPAWN, SPAWN_EXPECTED, 2),
        (PROCESSES, PROCESSES_EXPECTED, 2),
    ] {
        let streamed = Rc::new(RefCell::new(String::new()));
        let on_output = {
            let streamed = streamed.clone();
            Closure::<dyn FnMut(String, String)>::new(move |text: String, stream: String| {
                if stream == "stdout" {
                    streamed.borrow_mut().push_str(&text)
                }
            })
        };
        let options = js_sys::Object::new();
        set(&options, "onOutput", on_output.as_ref());
        let report = playground
            .try_run(source, Some("fused"), Some(options))
            .await
            .unwrap();
        assert!(report.ok(), "{:?}", report.diagnostics);
        tpu_runtime::conformance::agree(expected, &report.stdout)
            .unwrap_or_else(|e| panic!("{e}\n{}", report.stdout));
        assert_eq!(*streamed.borrow(), report.stdout);
        let world = report.world.as_ref().expect("the spawned world");
        assert_eq!(world.nproc, nproc);
        assert!(world.ranks.iter().all(|r| r.ops > 0), "{:?}", world.ranks);
    }
}
