//! One backend shared by the runtimes of several ranks: the ranks of a run
//! use one device (one wgpu adapter, one pipeline cache) and their buffers
//! live side by side in it, told apart by the ids the backend hands out.
//! The rank scheduler never polls two ranks inside backend calls at once
//! (a rank suspended in a read runs again before any other), so the borrow
//! a read holds across its await is never contended.

use super::{Backend, BackendKind, BackendLabel, BufferId, Dispatched, FusedDispatch, Operand};
use crate::backend::{BackendError, ReadFuture};
use crate::data::HostData;
use std::cell::RefCell;
use std::rc::Rc;
use tpu_ir::{DType, FusedKernel, Op, Shape};

/// A handle on a backend that several runtimes hold.
#[derive(Clone)]
pub struct SharedBackend(Rc<RefCell<Box<dyn Backend>>>);

impl SharedBackend {
    pub fn new(backend: Box<dyn Backend>) -> Self {
        SharedBackend(Rc::new(RefCell::new(backend)))
    }
}

impl Backend for SharedBackend {
    fn kind(&self) -> BackendKind {
        self.0.borrow().kind()
    }

    fn device_description(&self) -> String {
        self.0.borrow().device_description()
    }

    fn label(&self) -> BackendLabel {
        self.0.borrow().label()
    }

    fn upload(&mut self, data: &HostData) -> Result<BufferId, BackendError> {
        self.0.borrow_mut().upload(data)
    }

    fn execute(
        &mut self,
        op: &Op,
        inputs: &[Operand<'_>],
        out_shape: &Shape,
        out_dtype: DType,
    ) -> Result<Dispatched, BackendError> {
        self.0
            .borrow_mut()
            .execute(op, inputs, out_shape, out_dtype)
    }

    fn check(
        &self,
        op: &Op,
        inputs: &[Operand<'_>],
        out_shape: &Shape,
        out_dtype: DType,
    ) -> Result<(), BackendError> {
        self.0.borrow().check(op, inputs, out_shape, out_dtype)
    }

    fn supports_fused(&self) -> bool {
        self.0.borrow().supports_fused()
    }

    fn fuses_masks(&self) -> bool {
        self.0.borrow().fuses_masks()
    }

    fn start_precompiling(&mut self) {
        self.0.borrow_mut().start_precompiling()
    }

    fn precompile(&mut self, max: usize) -> usize {
        self.0.borrow_mut().precompile(max)
    }

    fn take_precompiled(&mut self) -> bool {
        self.0.borrow_mut().take_precompiled()
    }

    fn execute_fused(
        &mut self,
        kernel: &FusedKernel,
        inputs: &[BufferId],
    ) -> Result<FusedDispatch, BackendError> {
        self.0.borrow_mut().execute_fused(kernel, inputs)
    }

    // The borrow is held across the read's await on purpose: the scheduler
    // polls no other rank until this one's read is done (module docs).
    #[allow(clippy::await_holding_refcell_ref)]
    fn read(&mut self, buffer: BufferId, dtype: DType, len: usize) -> ReadFuture<'_> {
        let shared = self.0.clone();
        Box::pin(async move {
            let mut backend = shared.borrow_mut();
            backend.read(buffer, dtype, len).await
        })
    }

    fn free(&mut self, buffer: BufferId) {
        self.0.borrow_mut().free(buffer)
    }

    fn live_buffers(&self) -> usize {
        self.0.borrow().live_buffers()
    }

    fn submissions(&self) -> u64 {
        self.0.borrow().submissions()
    }

    fn measured(&mut self, launch: u64) -> Option<super::Measured> {
        self.0.borrow_mut().measured(launch)
    }

    fn driver_cache_key(&self) -> Option<String> {
        self.0.borrow().driver_cache_key()
    }

    fn load_driver_cache(&mut self, data: &[u8]) {
        self.0.borrow_mut().load_driver_cache(data)
    }

    fn driver_cache_data(&self) -> Option<Vec<u8>> {
        self.0.borrow().driver_cache_data()
    }

    fn pallas_source(&self, kernel: &tpu_ir::PallasKernel) -> Option<String> {
        self.0.borrow().pallas_source(kernel)
    }

    fn op_source(&self, op: &Op) -> Option<String> {
        self.0.borrow().op_source(op)
    }
}
