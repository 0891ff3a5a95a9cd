//! What a Report says is the run's own: a Playground runs many programs on one
//! runtime (one compilation cache), and each Report must count only what its
//! run did. It also carries the totals the page shows (matmul FLOPs, the
//! slice's chips and links), so no embedder adds them up itself.

use pollster::block_on;
use tpu_ir::{BinaryOp, DType, Shape};
use tpu_runtime::{Device, ReferenceBackend, Report, Runtime};

const TPU: Device = Device::Tpu(0);

/// One run: `program` dispatches ops on the runtime, then its Report.
fn run(rt: &mut Runtime, program: impl AsyncFnOnce(&mut Runtime)) -> Report {
    rt.reset_session_state();
    block_on(program(rt));
    let mut report = Report::default();
    rt.finish_report(&mut report).unwrap();
    report
}

async fn adds(rt: &mut Runtime) {
    let x = rt
        .full(Shape::new([4]), 1.0, DType::Float32, TPU)
        .await
        .unwrap();
    let y = rt.binary(BinaryOp::Add, &x, &x).await.unwrap();
    let z = rt.binary(BinaryOp::Add, &y, &y).await.unwrap();
    rt.read(&z).await.unwrap();
}

#[test]
fn a_second_run_with_no_ops_reports_no_cache_hits() {
    let mut rt = Runtime::new(Box::new(ReferenceBackend::new()));
    let first = run(&mut rt, adds);
    assert!(
        first.cache.hits > 0 && first.cache.misses > 0,
        "{:?}",
        first.cache
    );
    let again = run(&mut rt, adds);
    assert_eq!(
        (again.cache.hits, again.cache.misses),
        (first.cache.hits + first.cache.misses, 0)
    );
    let empty = run(&mut rt, async |_| {});
    assert!(empty.ops.is_empty());
    assert_eq!(
        (
            empty.cache.hits,
            empty.cache.misses,
            empty.cache.persisted_hits
        ),
        (0, 0, 0)
    );
    // The cache itself still holds every kernel compiled in the session.
    assert_eq!(empty.cache.entries, first.cache.misses as usize);
}

#[test]
fn the_device_summary_totals_matmul_flops_and_draws_the_slice() {
    let mut rt = Runtime::new(Box::new(ReferenceBackend::new()));
    let (chip, slice) = tpu_device::device("v5e", "2x2").unwrap();
    rt.set_device(chip, slice);
    let report = run(&mut rt, async |rt| {
        let a = rt
            .full(Shape::new([8, 64]), 1.0, DType::Float32, TPU)
            .await
            .unwrap();
        let b = rt
            .full(Shape::new([64, 32]), 1.0, DType::Float32, TPU)
            .await
            .unwrap();
        for _ in 0..2 {
            let c = rt.matmul(&a, &b).await.unwrap();
            rt.read(&c).await.unwrap();
        }
    });
    let device = report.device.expect("a costed run");
    assert_eq!(device.matmul_kernels, 2);
    assert_eq!(device.matmul_flops, 2.0 * 2.0 * 8.0 * 64.0 * 32.0);
    let mean = device.mean_mxu_utilization.unwrap();
    assert!(mean > 0.0 && mean < 1.0);
    // Both matmuls get the same two hints, counted once each with 2 kernels.
    assert_eq!(device.hints.len(), 2, "{:?}", device.hints);
    assert!(device.hints.iter().all(|h| h.kernels == 2));
    assert_eq!(device.layout.chips, [[0, 0], [0, 1], [1, 0], [1, 1]]);
    assert_eq!(device.layout.links.len(), 4);
}
