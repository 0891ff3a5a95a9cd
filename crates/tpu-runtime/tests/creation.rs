//! The creation ops as the runtime computes them: float64 creations step in
//! double as PyTorch's CPU kernels do, integer `arange` counts and steps
//! exactly, every creation runs in each eager mode with the same values, and
//! each is an op in the log.

use pollster::block_on;
use tpu_ir::{DType, IntOrFloat, Shape};
use tpu_runtime::{Device, EagerMode, HostData, ReferenceBackend, Runtime, Tensor};

const TPU: Device = Device::Tpu(0);

fn runtime(mode: EagerMode) -> Runtime {
    let mut rt = Runtime::new(Box::new(ReferenceBackend::new()));
    rt.set_mode(mode).unwrap();
    rt
}

fn read(rt: &mut Runtime, t: &Tensor) -> HostData {
    block_on(rt.read(t)).unwrap()
}

#[test]
fn float64_arange_and_linspace_step_in_double() {
    let mut rt = runtime(EagerMode::Strict);
    let a = block_on(rt.arange(
        IntOrFloat::Int(0),
        IntOrFloat::Int(1),
        IntOrFloat::Float(0.1),
        Some(DType::Float64),
        TPU,
    ))
    .unwrap();
    let HostData::F64(a) = read(&mut rt, &a) else {
        panic!("arange(dtype=float64) is float64")
    };
    assert_eq!(a.len(), 10);
    assert_eq!(a[3], 0.30000000000000004);
    let l = block_on(rt.linspace(0.0, 1.0, 7, DType::Float64, TPU)).unwrap();
    let HostData::F64(l) = read(&mut rt, &l) else {
        panic!("linspace(dtype=float64) is float64")
    };
    assert_eq!(l[1], 1.0 / 6.0);
    assert_eq!(l[6], 1.0);
    // Float32 keeps PyTorch's double arithmetic rounded once to float.
    let f = block_on(rt.arange(
        IntOrFloat::Int(0),
        IntOrFloat::Int(1),
        IntOrFloat::Float(0.1),
        None,
        TPU,
    ))
    .unwrap();
    let HostData::F32(f) = read(&mut rt, &f) else {
        panic!("arange with a float step is float32")
    };
    assert_eq!(f[3], 0.30000000000000004f64 as f32);
}

#[test]
fn integer_arange_counts_and_steps_exactly() {
    let mut rt = runtime(EagerMode::Strict);
    let big = 1i64 << 60;
    let a = block_on(rt.arange(
        IntOrFloat::Int(big),
        IntOrFloat::Int(big + 3),
        IntOrFloat::Int(1),
        None,
        TPU,
    ))
    .unwrap();
    assert_eq!(
        read(&mut rt, &a),
        HostData::I64(vec![big, big + 1, big + 2])
    );
    let down = block_on(rt.arange(
        IntOrFloat::Int(5),
        IntOrFloat::Int(0),
        IntOrFloat::Int(-2),
        Some(DType::Int32),
        Device::Cpu,
    ))
    .unwrap();
    assert_eq!(read(&mut rt, &down), HostData::I32(vec![5, 3, 1]));
}

/// Every creation, in every mode, gives the same values and one op each.
#[test]
fn creations_agree_across_modes_and_are_logged() {
    let mut results = Vec::new();
    for mode in [EagerMode::Debug, EagerMode::Strict, EagerMode::Fused] {
        let mut rt = runtime(mode);
        let made = [
            block_on(rt.arange(
                IntOrFloat::Float(-1.5),
                IntOrFloat::Int(2),
                IntOrFloat::Float(0.25),
                None,
                TPU,
            )),
            block_on(rt.linspace(-3.0, 7.0, 11, DType::Float32, TPU)),
            block_on(rt.eye(3, 4, DType::Float32, TPU)),
            block_on(rt.randint(0, 100, Shape::new([5]), DType::Int64, TPU)),
            block_on(rt.randperm(6, DType::Int64, TPU)),
            block_on(rt.random(Shape::new([4]), true, DType::Float32, TPU)),
        ];
        let made: Vec<Tensor> = made.into_iter().map(Result::unwrap).collect();
        let eye = made[2].clone();
        let nonzero = block_on(rt.nonzero(&eye)).unwrap();
        let values: Vec<HostData> = made
            .iter()
            .chain([&nonzero])
            .map(|t| read(&mut rt, t))
            .collect();
        assert_eq!(
            values[6],
            HostData::I64(vec![0, 0, 1, 1, 2, 2]),
            "nonzero of eye(3, 4) in {mode:?}"
        );
        let names: Vec<String> = rt.take_ops().into_iter().map(|op| op.name).collect();
        assert_eq!(
            names,
            [
                "aten::arange",
                "aten::linspace",
                "aten::eye",
                "aten::randint",
                "aten::randperm",
                "aten::normal_",
                "aten::nonzero"
            ],
            "{mode:?}"
        );
        results.push(values);
    }
    assert_eq!(results[0], results[1]);
    assert_eq!(results[1], results[2]);
}

#[test]
fn a_creation_too_large_is_refused_before_allocation() {
    let mut rt = runtime(EagerMode::Strict);
    let err = block_on(rt.eye(1 << 20, 1 << 20, DType::Float32, TPU)).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("out of memory: a tensor of shape [1048576, 1048576] needs"),
        "{err}"
    );
    let err = block_on(rt.randint(0, 2, Shape::new([1 << 40]), DType::Int64, TPU)).unwrap_err();
    assert!(err.to_string().starts_with("out of memory"), "{err}");
    assert!(rt.take_ops().is_empty());
}

#[test]
fn writing_a_float_into_an_int32_tensor_is_refused() {
    let err = Runtime::check_cast(DType::Float32, DType::Int32).unwrap_err();
    assert_eq!(
        err.to_string(),
        "result type Float can't be cast to the desired output type Int"
    );
    assert!(Runtime::check_cast(DType::Int32, DType::Int64).is_ok());
    assert!(Runtime::check_cast(DType::Int64, DType::Int32).is_ok());
    assert!(Runtime::check_cast(DType::Int32, DType::Bool).is_err());
    assert!(Runtime::check_cast(DType::Float64, DType::Float32).is_ok());
}
