//! Long batches: more launches between two reads than the timestamp query
//! set and the parameter arena hold, so the batch is submitted in the
//! middle. Every launch must keep its own parameters (each adds a different
//! number) and, where the device measures, get its measured time.

use tpu_ir::{BinaryOp, DType, Op, Shape};
use tpu_runtime::{Backend, HostData, Operand};

#[test]
#[cfg_attr(
    not(tpu_gpu),
    ignore = "needs a wgpu adapter: set TPU_REQUIRE_GPU=1 when building the tests (the test command does), or run with --include-ignored"
)]
fn a_batch_split_in_the_middle_keeps_every_launch_and_its_parameters() {
    let mut gpu = pollster::block_on(tpu_wgpu::wgpu_for_tests());
    let shape = Shape::new([16]);
    let one_shape = Shape::new([1]);
    let one = gpu.upload(&HostData::F32(vec![1.0])).unwrap();
    let mut x = gpu.upload(&HostData::F32(vec![0.0; 16])).unwrap();
    let submitted = gpu.submissions();
    // 2,048 launches fill the query set; 4,096 the arena. The first half
    // have short parameters and the rest long ones, so that the second
    // batch's parameters cover every offset the first batch used: a launch
    // reading another's parameters reads another number.
    let launches = 5_000;
    let mut numbers = Vec::new();
    let mut expected = 0.0f32;
    for i in 0..launches {
        let input = Operand {
            buffer: x,
            shape: &shape,
            dtype: DType::Float32,
        };
        let done = if i < launches / 2 {
            let add = Op::BinaryScalar {
                op: BinaryOp::Add,
                scalar: (i % 5) as f64,
                scalar_on_left: false,
            };
            expected += (i % 5) as f32;
            gpu.execute(&add, &[input], &shape, DType::Float32)
        } else {
            let broadcast = Operand {
                buffer: one,
                shape: &one_shape,
                dtype: DType::Float32,
            };
            let add = Op::Binary { op: BinaryOp::Add };
            expected += 1.0;
            gpu.execute(&add, &[input, broadcast], &shape, DType::Float32)
        }
        .unwrap();
        numbers.push(done.launch.expect("wgpu numbers its launches"));
        gpu.free(x);
        x = done.buffer;
    }
    let values = pollster::block_on(gpu.read(x, DType::Float32, 16)).unwrap();
    assert_eq!(values, HostData::F32(vec![expected; 16]));
    assert!(gpu.submissions() - submitted >= 2, "the batch was split");
    if gpu.measures() {
        let measured = numbers.iter().filter(|&&n| gpu.measured(n).is_some());
        assert_eq!(measured.count(), launches);
    }
}
