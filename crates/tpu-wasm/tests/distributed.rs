//! Runs of several ranks (`run`'s `nproc` option) in headless Chromium: the
//! distributed conformance programs (`tests/conformance/distributed/`) as four
//! ranks, compared with what `torchrun --nproc-per-node 4` printed under real
//! PyTorch by the corpus rule, on the reference backend in every eager mode
//! and on WebGPU (SwiftShader on CI) in Fused mode; the mismatched-collective
//! program ending in a deadlock named rank by rank; and the slice rule (the
//! smallest slice with a chip per rank by default, a chosen slice with too
//! few chips refused naming both); and the project's own DeviceMesh, DTensor
//! and FSDP2 programs in Fused mode on the reference backend.
#![cfg(target_arch = "wasm32")]

use std::cell::RefCell;
use std::rc::Rc;
use tpu_runtime::Report;
use tpu_wasm::Playground;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

macro_rules! corpus {
    ($name:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/conformance/distributed/",
            $name
        ))
    };
}

/// The programs with what real PyTorch printed for them on four ranks.
const PROGRAMS: &[(&str, &str, &str)] = &[
    (
        "collectives",
        corpus!("collectives.py"),
        corpus!("collectives.expected"),
    ),
    (
        "ddp_train",
        corpus!("ddp_train.py"),
        corpus!("ddp_train.expected"),
    ),
    (
        "mpmd_logging",
        corpus!("mpmd_logging.py"),
        corpus!("mpmd_logging.expected"),
    ),
    (
        "dtensor_basics",
        corpus!("dtensor_basics.py"),
        corpus!("dtensor_basics.expected"),
    ),
    (
        "fsdp2_train",
        corpus!("fsdp2_train.py"),
        corpus!("fsdp2_train.expected"),
    ),
];

const DEADLOCK: &str = corpus!("mismatch_deadlock.py");

macro_rules! own {
    ($name:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/distributed/",
            $name
        ))
    };
}

/// The project's own DeviceMesh, DTensor and FSDP2 programs, recorded under
/// torchrun (each says its number of ranks on its first line); the one the
/// native test's `NOT_YET` list names is left out here too.
const OWN_SHARDING: &[(&str, &str, &str)] = &[
    (
        "dtensor_autograd",
        own!("dtensor_autograd.py"),
        own!("dtensor_autograd.expected"),
    ),
    (
        "dtensor_comm_counts",
        own!("dtensor_comm_counts.py"),
        own!("dtensor_comm_counts.expected"),
    ),
    (
        "dtensor_comm_debug",
        own!("dtensor_comm_debug.py"),
        own!("dtensor_comm_debug.expected"),
    ),
    (
        "dtensor_elementwise_partial",
        own!("dtensor_elementwise_partial.py"),
        own!("dtensor_elementwise_partial.expected"),
    ),
    (
        "dtensor_errors",
        own!("dtensor_errors.py"),
        own!("dtensor_errors.expected"),
    ),
    (
        "dtensor_from_local",
        own!("dtensor_from_local.py"),
        own!("dtensor_from_local.expected"),
    ),
    (
        "dtensor_matmul",
        own!("dtensor_matmul.py"),
        own!("dtensor_matmul.expected"),
    ),
    (
        "dtensor_nn_ops",
        own!("dtensor_nn_ops.py"),
        own!("dtensor_nn_ops.expected"),
    ),
    (
        "dtensor_redistribute_1d",
        own!("dtensor_redistribute_1d.py"),
        own!("dtensor_redistribute_1d.expected"),
    ),
    (
        "dtensor_redistribute_2d",
        own!("dtensor_redistribute_2d.py"),
        own!("dtensor_redistribute_2d.expected"),
    ),
    (
        "dtensor_redistribute_grad",
        own!("dtensor_redistribute_grad.py"),
        own!("dtensor_redistribute_grad.expected"),
    ),
    (
        "dtensor_reductions_views",
        own!("dtensor_reductions_views.py"),
        own!("dtensor_reductions_views.expected"),
    ),
    (
        "dtensor_uneven",
        own!("dtensor_uneven.py"),
        own!("dtensor_uneven.expected"),
    ),
    (
        "fsdp2_embedding_adamw",
        own!("fsdp2_embedding_adamw.py"),
        own!("fsdp2_embedding_adamw.expected"),
    ),
    (
        "fsdp2_hsdp",
        own!("fsdp2_hsdp.py"),
        own!("fsdp2_hsdp.expected"),
    ),
    (
        "fsdp2_repr",
        own!("fsdp2_repr.py"),
        own!("fsdp2_repr.expected"),
    ),
    (
        "fsdp2_reshard",
        own!("fsdp2_reshard.py"),
        own!("fsdp2_reshard.expected"),
    ),
    (
        "fsdp2_reshard_int",
        own!("fsdp2_reshard_int.py"),
        own!("fsdp2_reshard_int.expected"),
    ),
    (
        "fsdp2_uneven",
        own!("fsdp2_uneven.py"),
        own!("fsdp2_uneven.expected"),
    ),
    ("mesh_2x4", own!("mesh_2x4.py"), own!("mesh_2x4.expected")),
    (
        "mesh_basics",
        own!("mesh_basics.py"),
        own!("mesh_basics.expected"),
    ),
];

/// Runs `source` as `nproc` ranks in `mode`; the Report, and every piece of
/// text `onOutput` received.
async fn run_ranks(
    playground: &Playground,
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
    js_sys::Reflect::set(&options, &"nproc".into(), &nproc.into())?;
    js_sys::Reflect::set(&options, &"onOutput".into(), on_output.as_ref())?;
    let value =
        JsFuture::from(playground.run(source.into(), Some(mode.into()), Some(options))).await?;
    let report = serde_wasm_bindgen::from_value(value).expect("a Report");
    let streamed = streamed.borrow().clone();
    Ok((report, streamed))
}

/// The lines of `text`, sorted: the streamed output interleaves the ranks
/// as they ran, the Report's groups them by rank.
fn sorted_lines(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.lines().collect();
    lines.sort_unstable();
    lines
}

async fn programs_agree_on(backend: &str, modes: &[&str]) {
    let playground = Playground::create(Some(backend.into()))
        .await
        .expect("the backend starts");
    let mut failures = Vec::new();
    for mode in modes {
        for (name, source, expected) in PROGRAMS {
            let (report, streamed) = run_ranks(&playground, source, mode, 4.0)
                .await
                .expect("the run resolves");
            let world = report.world.as_ref().expect("a run of ranks has a world");
            if !report.ok() {
                let why = report.diagnostics.first().map(|d| d.traceback.clone());
                failures.push(format!("{name} in {mode}: {why:?}"));
            } else if let Err(why) = tpu_lang::conformance::agree(expected, &report.stdout) {
                failures.push(format!("{name} in {mode}: {why}"));
            } else if sorted_lines(&streamed) != sorted_lines(&report.stdout) {
                failures.push(format!(
                    "{name} in {mode}: onOutput received\n{streamed}\nbut the Report holds\n{}",
                    report.stdout
                ));
            } else if world.nproc != 4 || world.ranks.len() != 4 {
                failures.push(format!("{name} in {mode}: world of {}", world.nproc));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "on {backend}:\n{}",
        failures.join("\n")
    );
}

#[wasm_bindgen_test]
async fn the_distributed_programs_agree_with_torchrun_on_the_reference_backend_in_every_mode() {
    programs_agree_on("reference", &["debug", "strict", "fused"]).await;
}

#[wasm_bindgen_test]
async fn the_distributed_programs_agree_with_torchrun_fused_on_webgpu() {
    programs_agree_on("wgpu", &["fused"]).await;
}

/// `# nproc: N` on a program's first line.
fn nproc_of(source: &str) -> f64 {
    source
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# nproc: "))
        .and_then(|n| n.trim().parse().ok())
        .expect("a first line `# nproc: N`")
}

#[wasm_bindgen_test]
async fn the_own_sharding_programs_agree_with_torchrun_fused_on_the_reference_backend() {
    let playground = Playground::create(Some("reference".into()))
        .await
        .expect("the reference backend");
    let mut failures = Vec::new();
    for (name, source, expected) in OWN_SHARDING {
        let (report, _) = run_ranks(&playground, source, "fused", nproc_of(source))
            .await
            .expect("the run resolves");
        if let Err(why) = tpu_lang::conformance::agree(expected, &report.stdout) {
            let error = report.diagnostics.first().map(|d| d.traceback.clone());
            failures.push(format!("{name}: {why} {error:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[wasm_bindgen_test]
async fn mismatched_collectives_end_in_a_deadlock_naming_each_ranks_line() {
    let playground = Playground::create(Some("reference".into()))
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
    let (report, _) = run_ranks(&playground, PROGRAMS[0].1, "strict", 4.0)
        .await
        .expect("the run resolves");
    assert!(report.ok(), "{:?}", report.diagnostics);
}

#[wasm_bindgen_test]
async fn ranks_run_on_the_smallest_slice_with_a_chip_each_unless_a_slice_was_chosen() {
    let playground = Playground::create(Some("reference".into()))
        .await
        .expect("the reference backend");
    let program = PROGRAMS[0].1;
    let slice_of = |report: &Report| report.device.as_ref().map(|d| d.slice.clone());
    // No slice chosen: the ranks get the generation's smallest slice with a
    // chip each, which the device model names; a single run one chip.
    assert!(playground.set_device("v5e", "").is_ok());
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
    let single = JsFuture::from(playground.run("x = 1".into(), None, None))
        .await
        .unwrap();
    let single: Report = serde_wasm_bindgen::from_value(single).unwrap();
    assert_eq!(slice_of(&single).as_deref(), Some("1"));
    assert!(single.world.is_none());

    // A chosen slice with enough chips is used; one with too few is refused
    // naming both, and nothing runs.
    assert!(playground.set_device("v5e", "4x4").is_ok());
    let (report, _) = run_ranks(&playground, program, "strict", 4.0)
        .await
        .unwrap();
    assert_eq!(slice_of(&report).as_deref(), Some("4x4"));
    assert!(playground.set_device("v5e", "2x2").is_ok());
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
