//! The Report's run summary on programs of each kind: many tiny kernels with
//! a read after each (dispatch-bound), one big matmul on a chip with few
//! FLOPs (compute-bound), one big addition on a chip with slow HBM
//! (memory-bound); host fallbacks and syncs grouped by op and reason; and
//! Debug mode's first non-finite value with its line and message.

use pollster::block_on;
use tpu_ir::{BinaryOp, CompareOp, DType, Op, Shape};
use tpu_runtime::{
    Backend, BackendError, BackendKind, BufferId, Device, Dispatched, EagerMode, HostData, Operand,
    ReadFuture, ReferenceBackend, Report, RunBound, Runtime,
};

const TPU: Device = Device::Tpu(0);

fn run_on(rt: &mut Runtime, chip: &str, program: impl AsyncFnOnce(&mut Runtime)) -> Report {
    let (chip, slice) = tpu_device::device(chip, "1").unwrap();
    rt.set_device(chip, slice);
    rt.reset_session_state();
    block_on(program(rt));
    let mut report = Report::default();
    rt.finish_report(&mut report).unwrap();
    report
}

fn reference() -> Runtime {
    Runtime::new(Box::new(ReferenceBackend::new()))
}

#[test]
fn tiny_kernels_read_one_by_one_are_dispatch_bound() {
    let report = run_on(&mut reference(), "v5e", async |rt| {
        let mut x = rt
            .full(Shape::new([1]), 0.0, DType::Float32, TPU)
            .await
            .unwrap();
        for line in 1..=20 {
            rt.set_line(Some(line));
            x = rt
                .binary_scalar(BinaryOp::Add, &x, 1.0, tpu_ir::ScalarKind::Float, false)
                .await
                .unwrap();
            rt.set_sync_reason("item()");
            rt.item(&x).await.unwrap();
        }
    });
    let summary = report.summary.expect("a summary");
    assert_eq!(summary.bound, RunBound::Dispatch, "{summary:?}");
    assert!(summary.chip_busy_fraction < 0.1, "{summary:?}");
    assert_eq!(summary.simulated_us, report.timeline.unwrap().total_us);
    assert!(
        summary.explanation.starts_with("The chip is busy ")
            && summary.explanation.contains("dispatch-bound")
            && summary
                .explanation
                .ends_with("Fused mode launches fewer kernels."),
        "{}",
        summary.explanation
    );
    assert_eq!(summary.syncs.len(), 1, "{:?}", summary.syncs);
    let syncs = &summary.syncs[0];
    assert_eq!((syncs.reason.as_str(), syncs.count), ("item()", 20));
    assert_eq!(syncs.lines, (1..=20).collect::<Vec<u32>>());
    assert!(summary.fallbacks.is_empty());
}

#[test]
fn a_big_matmul_on_a_chip_with_few_flops_is_compute_bound() {
    // 1e11 FLOP/s: the 34 MFLOP matmul takes hundreds of microseconds, far
    // past the launches and the read.
    let report = run_on(&mut reference(), "v5e:bf16_flops=1e11", async |rt| {
        let a = rt
            .full(Shape::new([256, 256]), 1.0, DType::Float32, TPU)
            .await
            .unwrap();
        let c = rt.matmul(&a, &a).await.unwrap();
        rt.read(&c).await.unwrap();
    });
    let summary = report.summary.expect("a summary");
    assert_eq!(summary.bound, RunBound::Compute, "{summary:?}");
    assert!(summary.chip_busy_fraction > 0.5, "{summary:?}");
    assert!(
        summary.explanation.contains("compute-bound"),
        "{}",
        summary.explanation
    );
}

#[test]
fn a_big_addition_on_a_chip_with_slow_hbm_is_memory_bound() {
    let report = run_on(&mut reference(), "v5e:hbm_bandwidth=1e9", async |rt| {
        let a = rt
            .full(Shape::new([1 << 20]), 1.0, DType::Float32, TPU)
            .await
            .unwrap();
        let b = rt.binary(BinaryOp::Add, &a, &a).await.unwrap();
        let total = rt.sum(&b).await.unwrap();
        rt.set_sync_reason("item()");
        rt.item(&total).await.unwrap();
    });
    let summary = report.summary.expect("a summary");
    assert_eq!(summary.bound, RunBound::Memory, "{summary:?}");
    assert!(
        summary.explanation.contains("memory-bound"),
        "{}",
        summary.explanation
    );
}

#[test]
fn a_run_without_kernels_is_idle() {
    let report = run_on(&mut reference(), "v5e", async |_| {});
    let summary = report.summary.expect("a summary");
    assert_eq!(summary.bound, RunBound::Idle);
    assert_eq!(summary.chip_busy_fraction, 0.0);
}

/// The reference backend posing as an accelerator without comparison
/// kernels: comparisons fall back to the host.
struct NoCompare(ReferenceBackend);

impl Backend for NoCompare {
    fn kind(&self) -> BackendKind {
        BackendKind::Wgpu
    }
    fn device_description(&self) -> String {
        "an accelerator without comparisons".into()
    }
    fn upload(&mut self, data: &HostData) -> Result<BufferId, BackendError> {
        self.0.upload(data)
    }
    fn execute(
        &mut self,
        op: &Op,
        inputs: &[Operand<'_>],
        out_shape: &Shape,
        out_dtype: DType,
    ) -> Result<Dispatched, BackendError> {
        self.check(op, inputs, out_shape, out_dtype)?;
        self.0.execute(op, inputs, out_shape, out_dtype)
    }
    fn check(
        &self,
        op: &Op,
        inputs: &[Operand<'_>],
        out_shape: &Shape,
        out_dtype: DType,
    ) -> Result<(), BackendError> {
        if matches!(op, Op::Compare { .. } | Op::CompareScalar { .. }) {
            return Err(BackendError::Unsupported {
                backend: "wgpu",
                what: op.aten_name(),
            });
        }
        self.0.check(op, inputs, out_shape, out_dtype)
    }
    fn read(&mut self, buffer: BufferId, dtype: DType, len: usize) -> ReadFuture<'_> {
        self.0.read(buffer, dtype, len)
    }
    fn free(&mut self, buffer: BufferId) {
        self.0.free(buffer)
    }
    fn live_buffers(&self) -> usize {
        self.0.live_buffers()
    }
}

#[test]
fn host_fallbacks_and_their_reads_are_grouped_by_op_and_reason() {
    let mut rt = Runtime::new(Box::new(NoCompare(ReferenceBackend::new())));
    let report = run_on(&mut rt, "v5e", async |rt| {
        let x = rt
            .full(Shape::new([8]), 1.0, DType::Float32, TPU)
            .await
            .unwrap();
        for i in 0..50 {
            rt.set_line(Some(10 + i % 2));
            rt.compare_scalar(CompareOp::Gt, &x, 0.0).await.unwrap();
            rt.set_line(Some(20));
            rt.compare(CompareOp::Ne, &x, &x).await.unwrap();
        }
    });
    let summary = report.summary.expect("a summary");
    let groups: Vec<(&str, usize, &[u32])> = summary
        .fallbacks
        .iter()
        .map(|g| (g.op.as_str(), g.count, g.lines.as_slice()))
        .collect();
    assert_eq!(
        groups,
        [("aten::gt", 50, &[10, 11][..]), ("aten::ne", 50, &[20][..])]
    );
    assert!(summary.fallbacks[0].reason.contains("has no kernel for"));
    // Each fallback read its operand back from the accelerator: those reads
    // are one group, named as fallbacks.
    assert_eq!(summary.syncs.len(), 1, "{:?}", summary.syncs);
    assert!(summary.syncs[0].reason.starts_with("host fallback"));
    assert_eq!(summary.syncs[0].count, 150);
}

#[test]
fn debug_mode_names_the_first_non_finite_value_with_its_line() {
    let mut rt = reference();
    rt.set_mode(EagerMode::Debug).unwrap();
    let report = run_on(&mut rt, "v5e", async |rt| {
        let x = rt
            .full(Shape::new([2]), 0.0, DType::Float32, TPU)
            .await
            .unwrap();
        rt.set_line(Some(7));
        rt.binary(BinaryOp::Div, &x, &x).await.unwrap();
    });
    let found = report.first_nonfinite.expect("a non-finite value");
    assert_eq!((found.line, found.value.as_str()), (Some(7), "nan"));
    assert_eq!(
        found.message,
        "aten::div on line 7 produced nan: the first non-finite value in this run \
         (Debug mode checks every op's result)."
    );
}
