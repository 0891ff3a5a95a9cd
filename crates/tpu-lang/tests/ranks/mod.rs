//! `run_ranks`: several ranks of one program on one shared backend, their
//! Report (each rank's output and chip, every collective with its members'
//! lines and simulated arrivals) and the properties the world promises:
//! the same run gives the same Report, a rank that arrives early waits for
//! the last, DDP's buckets start as backward makes their gradients, ranks
//! share one memory budget, and 64 ranks run. (A module of the suspend test
//! binary, whose hook the ranks are built on, so it costs no link of its own.)

use tpu_lang::{RunOptions, run_ranks};
use tpu_runtime::{EagerMode, ReferenceBackend, Report, Runtime, SharedBackend};

/// Runs `source` as `nproc` ranks on a v5e slice of `nproc` chips (on a
/// thread with the interpreter's stack).
fn ranks(source: &str, nproc: usize, mode: EagerMode) -> Report {
    let source = source.to_string();
    std::thread::Builder::new()
        .stack_size(tpu_lang::NATIVE_STACK_BYTES)
        .spawn(move || {
            let shared = SharedBackend::new(Box::new(ReferenceBackend::new()));
            let chip = tpu_device::chip::preset("v5e").unwrap();
            let slice = tpu_device::Slice::smallest_with(&chip, nproc).unwrap();
            let mut runtimes: Vec<Runtime> = (0..nproc)
                .map(|_| {
                    let mut r = Runtime::new(Box::new(shared.clone()));
                    r.set_device(chip.clone(), slice.clone());
                    r
                })
                .collect();
            let options = RunOptions {
                mode,
                ..RunOptions::default()
            };
            pollster::block_on(run_ranks(
                &source,
                &mut runtimes,
                &options,
                (0..nproc).collect(),
            ))
        })
        .unwrap()
        .join()
        .unwrap()
}

const UNEVEN: &str = r#"
import torch
import torch.distributed as dist
dist.init_process_group()
rank = dist.get_rank()
x = torch.ones(64, 64, device="tpu")
for _ in range(8 * rank):
    x = x @ x / 64
t = torch.full((4,), float(rank), device="tpu")
dist.all_reduce(t)
print(t.tolist())
"#;

#[test]
fn the_report_has_each_ranks_output_chip_and_every_collective() {
    let report = ranks(UNEVEN, 4, EagerMode::Strict);
    assert!(report.ok(), "{:?}", report.diagnostics);
    let world = report.world.as_ref().expect("a world part");
    assert_eq!(world.nproc, 4);
    for (r, rank) in world.ranks.iter().enumerate() {
        assert_eq!(rank.rank, r);
        assert_eq!(rank.chip, r);
        assert_eq!(rank.stdout, "[6.0, 6.0, 6.0, 6.0]\n");
        assert!(
            report
                .stdout
                .contains(&format!("[rank{r}]:[6.0, 6.0, 6.0, 6.0]\n"))
        );
    }
    let c = &world.collectives[0];
    assert_eq!(
        (c.name.as_str(), c.ranks.clone()),
        ("all_reduce", vec![0, 1, 2, 3])
    );
    assert_eq!((c.bytes, c.dtype.as_str()), (16, "float32"));
    assert!(c.complete && c.arrivals.iter().all(|a| a.line == Some(10)));
    // Ops and kernels are every rank's, each tagged.
    for r in 0..4 {
        assert!(report.kernels.iter().any(|k| k.rank == r));
    }
    // The timeline has five lanes per chip.
    let timeline = report.timeline.as_ref().unwrap();
    assert_eq!(timeline.lanes.len(), 20);
}

#[test]
fn a_rank_that_arrives_early_waits_for_the_last() {
    let report = ranks(UNEVEN, 4, EagerMode::Strict);
    let world = report.world.unwrap();
    let c = &world.collectives[0];
    let start = c.start_us.expect("it ran");
    let arrivals: Vec<f64> = c.arrivals.iter().map(|a| a.arrival_us.unwrap()).collect();
    // Rank r did 8r matmuls first: the later the rank, the later it arrives,
    // and the collective starts with the last.
    assert!(arrivals.windows(2).all(|w| w[0] < w[1]), "{arrivals:?}");
    assert_eq!(start, arrivals[3]);
    for (a, arrival) in c.arrivals.iter().zip(&arrivals) {
        assert!((a.wait_us - (start - arrival)).abs() < 1e-9);
    }
    assert!(world.ranks[0].wait_us > world.ranks[2].wait_us);
    assert_eq!(world.ranks[3].wait_us, 0.0);
}

#[test]
fn the_same_run_gives_the_same_report() {
    for mode in [EagerMode::Debug, EagerMode::Strict, EagerMode::Fused] {
        let a = serde_json::to_string(&ranks(UNEVEN, 3, mode)).unwrap();
        let b = serde_json::to_string(&ranks(UNEVEN, 3, mode)).unwrap();
        assert_eq!(a, b, "{mode:?}");
    }
}

#[test]
fn ddp_buckets_are_rebuilt_and_start_as_backward_makes_their_gradients() {
    // The first backward reduces one bucket of every gradient; the second,
    // the rebuilt buckets, here one per parameter but the last layer's
    // bias, which shares the first bucket with its weight (a cap of 104
    // bytes, closed once passed: 32 bytes of bias, then 8 KiB): the last layer's gradients are made first, so its bucket
    // starts first.
    let source = r#"
import torch
import torch.nn as nn
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group()
torch.manual_seed(0)
model = DDP(nn.Sequential(nn.Linear(32, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 8)).to("tpu"), bucket_cap_mb=0.0001)
x = torch.randn(64, 32, device="tpu")
model(x).square().mean().backward()
model(x).square().mean().backward()
print(model.module[0].bias.grad.abs().sum().item() > 0)
"#;
    let report = ranks(source, 2, EagerMode::Strict);
    assert!(report.ok(), "{:?}", report.diagnostics);
    let world = report.world.unwrap();
    let buckets: Vec<_> = world
        .collectives
        .iter()
        .filter(|c| {
            c.cause
                .as_deref()
                .is_some_and(|c| c.starts_with("DDP bucket"))
        })
        .collect();
    assert_eq!(buckets.len(), 6, "one bucket, then five");
    assert!(
        buckets[0]
            .cause
            .as_deref()
            .unwrap()
            .contains("(6 gradients")
    );
    let buckets = &buckets[1..];
    // The last layer's gradients are made first, so its bucket starts
    // first, and backward's matrix products (its only ones: what follows it
    // is elementwise) still run on rank 0's TensorCore after it started:
    // the all-reduces overlap the rest of backward.
    let starts: Vec<f64> = buckets.iter().map(|c| c.start_us.unwrap()).collect();
    assert!(starts.windows(2).all(|w| w[0] < w[1]), "{starts:?}");
    let timeline = report.timeline.unwrap();
    let tensor_core = timeline
        .lanes
        .iter()
        .find(|l| l.rank == Some(0) && l.name == "TensorCore")
        .unwrap();
    let matmuls_after = tensor_core
        .events
        .iter()
        .filter(|e| e.name.starts_with("matmul") && e.start_us >= starts[0])
        .count();
    assert!(
        matmuls_after >= 3,
        "starts {starts:?}: {:?}",
        tensor_core.events
    );
}

#[test]
fn ranks_share_one_memory_budget() {
    // 4 GiB natively across all ranks: each of 32 ranks may hold 128 MiB,
    // so a 160 MB tensor, which one process could make, is refused.
    let source = "import torch\nx = torch.empty(40_000_000)\nprint('made')\n";
    let report = ranks(source, 32, EagerMode::Strict);
    let d = &report.diagnostics[0];
    assert!(d.message.contains("out of memory"), "{}", d.message);
    assert!(
        d.message
            .contains(&format!("{} bytes", (4usize << 30) / 32)),
        "{}",
        d.message
    );
    assert!(!report.stdout.contains("made"));
}

#[test]
fn sixty_four_ranks_reduce_together() {
    let source = "import torch\nimport torch.distributed as dist\ndist.init_process_group()\nt = torch.ones(2, device='tpu') * dist.get_rank()\ndist.all_reduce(t)\nprint(t.tolist())\n";
    let report = ranks(source, 64, EagerMode::Strict);
    assert!(report.ok(), "{:?}", report.diagnostics);
    let total = (0..64).sum::<usize>() as f64;
    assert_eq!(
        report.world.unwrap().ranks[63].stdout,
        format!("{:?}\n", vec![total, total])
    );
}
