//! Index expressions as the runtime plans them: int32 index tensors index like
//! int64 ones, results past the memory limits are refused before the positions
//! are computed, and PyTorch's IndexError wording is kept.

use pollster::block_on;
use tpu_ir::{DType, IntOrFloat, Shape};
use tpu_runtime::{Device, HostData, IndexItem, ReferenceBackend, Runtime, RuntimeError};

const TPU: Device = Device::Tpu(0);

fn runtime() -> Runtime {
    Runtime::new(Box::new(ReferenceBackend::new()))
}

fn arange(rt: &mut Runtime, n: i64, dtype: DType) -> tpu_runtime::Tensor {
    block_on(rt.arange(
        IntOrFloat::Int(0),
        IntOrFloat::Int(n),
        IntOrFloat::Int(1),
        Some(dtype),
        TPU,
    ))
    .unwrap()
}

#[test]
fn int32_index_tensors_gather_and_scatter() {
    let mut rt = runtime();
    let x = arange(&mut rt, 5, DType::Float32);
    let index = block_on(rt.from_data(HostData::I32(vec![4, -5]), Shape::new([2]), TPU)).unwrap();
    let items = [IndexItem::Tensor(index)];
    let picked = block_on(rt.index(&x, &items)).unwrap();
    assert_eq!(
        block_on(rt.read(&picked)).unwrap(),
        HostData::F32(vec![4.0, 0.0])
    );
    let value = block_on(rt.full(Shape::scalar(), -1.0, DType::Float32, TPU)).unwrap();
    block_on(rt.index_put(&x, &items, &value)).unwrap();
    assert_eq!(
        block_on(rt.read(&x)).unwrap(),
        HostData::F32(vec![-1.0, 1.0, 2.0, 3.0, -1.0])
    );
}

#[test]
fn an_index_result_past_the_limits_is_refused_naming_its_shape() {
    let mut rt = runtime();
    let x = block_on(rt.full(Shape::new([2, 100_000]), 0.0, DType::Float32, TPU)).unwrap();
    let rows = block_on(rt.full(Shape::new([100_000, 1]), 0.0, DType::Int64, TPU)).unwrap();
    let cols = arange(&mut rt, 100_000, DType::Int64);
    let err =
        block_on(rt.index(&x, &[IndexItem::Tensor(rows), IndexItem::Tensor(cols)])).unwrap_err();
    assert!(matches!(err, RuntimeError::OutOfMemory { .. }), "{err}");
    assert!(
        err.to_string().starts_with(
            "out of memory: a tensor of shape [100000, 100000] needs 80000000000 bytes"
        ),
        "{err}"
    );
}

#[test]
fn index_errors_keep_pytorchs_wording() {
    let mut rt = runtime();
    let x = arange(&mut rt, 5, DType::Float32);
    let float_index = arange(&mut rt, 2, DType::Float32);
    let err = block_on(rt.index(&x, &[IndexItem::Tensor(float_index)])).unwrap_err();
    assert_eq!(err.python_kind(), "IndexError");
    assert_eq!(
        err.to_string(),
        "tensors used as indices must be long, int, byte or bool tensors"
    );
    let err = block_on(rt.index(&x, &[IndexItem::List(vec![5])])).unwrap_err();
    assert_eq!(err.python_kind(), "IndexError");
    assert_eq!(
        err.to_string(),
        "index 5 is out of bounds for dimension 0 with size 5"
    );
    let err = block_on(rt.index(&x, &[IndexItem::Int(0), IndexItem::Int(0)])).unwrap_err();
    assert_eq!(
        err.to_string(),
        "too many indices for tensor of dimension 1"
    );
}
