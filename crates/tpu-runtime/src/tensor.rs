//! Tensor handles. A `Tensor` is metadata (shape, dtype, device) plus a shared
//! reference to a device buffer. Dropping the last handle to a buffer queues it for
//! release; the runtime frees queued buffers before its next dispatch, so memory
//! follows Python's reference counting without the backend being borrowed in `Drop`.

use crate::backend::BufferId;
use std::cell::{Cell, RefCell};
use std::fmt;
use std::rc::Rc;
use tpu_ir::{DType, Shape};

/// Where a tensor lives. `Tpu(0)` prints as `tpu:0`, as CUDA tensors print `cuda:0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Device {
    Cpu,
    Tpu(u32),
    /// PyTorch's meta device: shapes and dtypes without data. Its tensors
    /// are computed on the host like `cpu` ones (the values are never shown),
    /// draw no random numbers, and refuse every read.
    Meta,
}

impl Device {
    /// Whether the device's tensors live on the host (`cpu`, and `meta`,
    /// whose placeholder values are never read).
    pub fn is_host(self) -> bool {
        matches!(self, Device::Cpu | Device::Meta)
    }
}

impl fmt::Display for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Device::Cpu => f.write_str("cpu"),
            Device::Tpu(i) => write!(f, "tpu:{i}"),
            Device::Meta => f.write_str("meta"),
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

/// A device buffer shared by a tensor and its views. In-place updates write a new
/// buffer and swap it in here, so every view sees them.
pub(crate) struct Storage {
    buffer: Cell<BufferId>,
    home: Cell<Home>,
    /// Elements in the buffer.
    len: usize,
    release: ReleaseQueue,
    /// How many in-place writes it has had (PyTorch's version counter, shared
    /// by every tensor on the storage): autograd checks that the tensors a
    /// node saved are still at the version it saved them at.
    version: Cell<u64>,
}

impl Storage {
    pub(crate) fn buffer(&self) -> BufferId {
        self.buffer.get()
    }

    pub(crate) fn home(&self) -> Home {
        self.home.get()
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Exchanges buffers with `other` (of the same length): this storage takes
    /// the new values, and `other` frees the old ones when it is dropped.
    /// Takes `other`'s values (an in-place write into this storage), so its
    /// version moves on.
    pub(crate) fn swap(&self, other: &Storage) {
        debug_assert_eq!(self.len, other.len);
        self.buffer.swap(&other.buffer);
        self.home.swap(&other.home);
        self.version.set(self.version.get() + 1);
    }

    pub(crate) fn version(&self) -> u64 {
        self.version.get()
    }
}

impl Drop for Storage {
    fn drop(&mut self) {
        self.release
            .borrow_mut()
            .push((self.home.get(), self.buffer.get()));
    }
}

/// What a tensor is a window of: its storage, and the shape, strides and offset
/// (in elements) through which it reads it. Views share a storage.
#[derive(Clone)]
pub(crate) struct Layout {
    pub shape: Shape,
    pub strides: Vec<usize>,
    pub offset: usize,
    pub dtype: DType,
    pub device: Device,
    pub storage: Rc<Storage>,
}

impl Layout {
    /// Row-major with no gaps over the whole storage: the form backends read.
    pub fn is_dense(&self) -> bool {
        self.offset == 0 && self.storage.len() == self.shape.numel() && self.is_contiguous()
    }

    /// Row-major strides (size-1 dimensions may have any stride).
    pub fn is_contiguous(&self) -> bool {
        let expected = self.shape.strides();
        self.shape
            .dims()
            .iter()
            .zip(self.strides.iter().zip(&expected))
            .all(|(&d, (s, e))| d <= 1 || s == e)
    }
}

/// Autograd state of a tensor object.
#[derive(Default)]
pub(crate) struct GradState {
    pub requires_grad: bool,
    pub grad: Option<Tensor>,
    pub grad_fn: Option<Rc<crate::autograd::Node>>,
    /// `nn.Parameter`: prints as `Parameter containing:`.
    pub is_parameter: bool,
    /// `retain_grad()` on a non-leaf.
    pub retains_grad: bool,
}

/// A tensor object. Clones are the same Python object (as `b = a` is in Python):
/// identity, and later `.grad`, belong to the object, not to its values.
#[derive(Clone)]
pub struct Tensor(Rc<TensorInner>);

struct TensorInner {
    layout: RefCell<Layout>,
    grad: RefCell<GradState>,
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
        let storage = Rc::new(Storage {
            buffer: Cell::new(buffer),
            home: Cell::new(home),
            len: shape.numel(),
            release,
            version: Cell::new(0),
        });
        Tensor::from_layout(Layout {
            strides: shape.strides(),
            shape,
            offset: 0,
            dtype,
            device,
            storage,
        })
    }

    pub(crate) fn from_layout(layout: Layout) -> Self {
        Tensor(Rc::new(TensorInner {
            layout: RefCell::new(layout),
            grad: RefCell::new(GradState::default()),
        }))
    }

    pub(crate) fn layout(&self) -> Layout {
        self.0.layout.borrow().clone()
    }

    /// Points this tensor object at other values (`param.data = ...`, `.to()` of
    /// a module's parameters), keeping its identity and autograd state.
    pub(crate) fn set_layout(&self, layout: Layout) {
        *self.0.layout.borrow_mut() = layout;
    }

    pub(crate) fn grad_state(&self) -> std::cell::RefMut<'_, GradState> {
        self.0.grad.borrow_mut()
    }

    pub fn shape(&self) -> Shape {
        self.0.layout.borrow().shape.clone()
    }

    pub fn dims(&self) -> Vec<usize> {
        self.0.layout.borrow().shape.dims().to_vec()
    }

    pub fn rank(&self) -> usize {
        self.0.layout.borrow().shape.rank()
    }

    pub fn dtype(&self) -> DType {
        self.0.layout.borrow().dtype
    }

    pub fn device(&self) -> Device {
        self.0.layout.borrow().device
    }

    pub fn numel(&self) -> usize {
        self.0.layout.borrow().shape.numel()
    }

    pub fn strides(&self) -> Vec<usize> {
        self.0.layout.borrow().strides.clone()
    }

    pub fn is_contiguous(&self) -> bool {
        self.0.layout.borrow().is_contiguous()
    }

    /// Where this window starts in its storage, in elements
    /// (`Tensor.storage_offset()`).
    pub fn storage_offset(&self) -> usize {
        self.0.layout.borrow().offset
    }

    /// A number unique to this tensor's storage while it lives, and the
    /// storage's length in elements: what `Tensor.data_ptr()` is built from.
    pub fn storage_key(&self) -> (usize, usize) {
        let layout = self.0.layout.borrow();
        (Rc::as_ptr(&layout.storage) as usize, layout.storage.len())
    }

    /// A number unique to this tensor object while it lives, for `is` and hashing.
    pub fn identity(&self) -> usize {
        Rc::as_ptr(&self.0) as usize
    }

    /// Whether two tensors are windows of the same storage.
    pub fn shares_storage(&self, other: &Tensor) -> bool {
        Rc::ptr_eq(
            &self.0.layout.borrow().storage,
            &other.0.layout.borrow().storage,
        )
    }

    pub fn requires_grad(&self) -> bool {
        self.0.grad.borrow().requires_grad
    }

    /// Whether the two are windows of one storage.
    pub(crate) fn same_storage(&self, other: &Tensor) -> bool {
        Rc::ptr_eq(
            &self.0.layout.borrow().storage,
            &other.0.layout.borrow().storage,
        )
    }

    /// `tensor._version`: the in-place writes its storage has had.
    pub fn version(&self) -> u64 {
        self.0.layout.borrow().storage.version()
    }

    pub fn is_leaf(&self) -> bool {
        self.0.grad.borrow().grad_fn.is_none()
    }

    pub fn is_parameter(&self) -> bool {
        self.0.grad.borrow().is_parameter
    }

    pub fn grad(&self) -> Option<Tensor> {
        self.0.grad.borrow().grad.clone()
    }

    pub fn set_grad(&self, grad: Option<Tensor>) {
        self.0.grad.borrow_mut().grad = grad;
    }

    /// The name of the autograd node that made this tensor (`AddBackward0`).
    pub fn grad_fn_name(&self) -> Option<String> {
        self.0.grad.borrow().grad_fn.as_ref().map(|n| n.name())
    }

    /// `nn.Parameter(t)` marks the tensor object itself; see `Runtime::parameter`.
    pub fn mark_parameter(&self) {
        let mut g = self.0.grad.borrow_mut();
        g.is_parameter = true;
        g.requires_grad = true;
    }

    /// Whether anything else holds this tensor object or its storage, so that
    /// handing it out (as a `.grad`, or swapping its buffer) could alias another.
    pub(crate) fn shares_storage_with_any(&self) -> bool {
        Rc::strong_count(&self.0) > 1 || Rc::strong_count(&self.0.layout.borrow().storage) > 1
    }

    pub(crate) fn is_dense(&self) -> bool {
        self.0.layout.borrow().is_dense()
    }

    pub(crate) fn buffer(&self) -> BufferId {
        self.0.layout.borrow().storage.buffer()
    }

    pub(crate) fn home(&self) -> Home {
        self.0.layout.borrow().storage.home()
    }
}

impl fmt::Debug for Tensor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let l = self.0.layout.borrow();
        write!(
            f,
            "Tensor({:?}, {:?}, {})",
            l.shape.dims(),
            l.dtype,
            l.device
        )
    }
}
