//! Tensor handles. A `Tensor` is metadata (shape, dtype, device) plus a shared
//! reference to a device buffer. Dropping the last handle to a buffer queues it for
//! release; the runtime frees queued buffers before its next dispatch, so memory
//! follows Python's reference counting without the backend being borrowed in `Drop`.

use crate::backend::BufferId;
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;
use tpu_ir::{DType, Shape};

/// Where a tensor lives. `Tpu(0)` prints as `tpu:0`, as CUDA tensors print `cuda:0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Device {
    Cpu,
    Tpu(u32),
}

impl fmt::Display for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Device::Cpu => f.write_str("cpu"),
            Device::Tpu(i) => write!(f, "tpu:{i}"),
        }
    }
}

/// Which backend holds a tensor's buffer. A `tpu` tensor normally lives on the
/// accelerator backend; when that backend has no kernel for an op (or cannot
/// store the dtype) the op runs on the host reference instead and its result
/// stays there, still a `tpu` tensor to the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Home {
    Host,
    Accelerator,
}

pub(crate) type ReleaseQueue = Rc<RefCell<Vec<(Home, BufferId)>>>;

struct Storage {
    buffer: BufferId,
    home: Home,
    release: ReleaseQueue,
}

impl Drop for Storage {
    fn drop(&mut self) {
        self.release.borrow_mut().push((self.home, self.buffer));
    }
}

/// A tensor object. Clones are the same Python object (as `b = a` is in Python):
/// identity, and later `.grad`, belong to the object, not to its values.
#[derive(Clone)]
pub struct Tensor(Rc<TensorInner>);

struct TensorInner {
    shape: Shape,
    dtype: DType,
    device: Device,
    storage: Rc<Storage>,
}

impl Tensor {
    pub(crate) fn new(
        shape: Shape,
        dtype: DType,
        device: Device,
        home: Home,
        buffer: BufferId,
        release: ReleaseQueue,
    ) -> Self {
        Tensor(Rc::new(TensorInner {
            shape,
            dtype,
            device,
            storage: Rc::new(Storage {
                buffer,
                home,
                release,
            }),
        }))
    }

    pub fn shape(&self) -> &Shape {
        &self.0.shape
    }

    pub fn dtype(&self) -> DType {
        self.0.dtype
    }

    pub fn device(&self) -> Device {
        self.0.device
    }

    pub fn numel(&self) -> usize {
        self.0.shape.numel()
    }

    /// A number unique to this tensor object while it lives, for `is` and hashing.
    pub fn identity(&self) -> usize {
        Rc::as_ptr(&self.0) as usize
    }

    pub(crate) fn buffer(&self) -> BufferId {
        self.0.storage.buffer
    }

    pub(crate) fn home(&self) -> Home {
        self.0.storage.home
    }
}

impl fmt::Debug for Tensor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Tensor({:?}, {:?}, {})",
            self.0.shape.dims(),
            self.0.dtype,
            self.0.device
        )
    }
}
