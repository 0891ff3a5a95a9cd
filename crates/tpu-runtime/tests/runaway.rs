//! What bounds a program that never stops: every op charges the interpreter's
//! fuel budget by its size (`Runtime::take_work_fuel`), and in Fused mode a
//! graph that is never read runs every 1,024 ops rather than growing into one
//! kernel without bound.

use pollster::block_on;
use tpu_ir::{BinaryOp, DType, ScalarKind, Shape};
use tpu_runtime::{Device, EagerMode, ReferenceBackend, Report, Runtime};

const TPU: Device = Device::Tpu(0);

fn add_one(rt: &mut Runtime, x: &tpu_runtime::Tensor) -> tpu_runtime::Tensor {
    block_on(rt.binary_scalar(BinaryOp::Add, x, 1.0, ScalarKind::Float, false)).unwrap()
}

#[test]
fn ops_charge_fuel_by_their_size() {
    let mut rt = Runtime::new(Box::new(ReferenceBackend::new()));
    let small = block_on(rt.full(Shape::new([10]), 0.0, DType::Float32, TPU)).unwrap();
    let big = block_on(rt.full(Shape::new([1_000_000]), 0.0, DType::Float32, TPU)).unwrap();
    rt.take_work_fuel();
    add_one(&mut rt, &small);
    let small_cost = rt.take_work_fuel();
    add_one(&mut rt, &big);
    let big_cost = rt.take_work_fuel();
    assert!(
        small_cost >= 50,
        "a launch costs fifty steps or more: {small_cost}"
    );
    assert!(
        big_cost > small_cost + 1_000,
        "{small_cost} against {big_cost}"
    );
    assert_eq!(rt.take_work_fuel(), 0, "taking the fuel resets it");
}

#[test]
fn a_fused_graph_never_read_runs_every_1024_ops() {
    let mut rt = Runtime::new(Box::new(ReferenceBackend::new()));
    rt.set_mode(EagerMode::Fused).unwrap();
    let mut x = block_on(rt.full(Shape::new([8]), 0.0, DType::Float32, TPU)).unwrap();
    for _ in 0..2_500 {
        x = add_one(&mut rt, &x);
    }
    let mut report = Report::default();
    rt.finish_report(&mut report).unwrap();
    assert!(
        report.syncs.is_empty(),
        "no read waited: {:?}",
        report.syncs
    );
    let sizes: Vec<usize> = report.kernels.iter().map(|k| k.ops.len()).collect();
    assert_eq!(sizes, [1024, 1024, 453], "the fill and 2,500 additions");
    let values = block_on(rt.read(&x)).unwrap().to_f64();
    assert_eq!(values, vec![2_500.0; 8]);
}
