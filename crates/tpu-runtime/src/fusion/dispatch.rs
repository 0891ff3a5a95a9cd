//! `FusingBackend` as the runtime sees it, a `Backend`: in Fused mode an op
//! joins the pending graph and returns a buffer id at once; otherwise it is
//! launched as a kernel of its own. Reads run the pending graph first; the
//! rest passes through to the wrapped backend.

use super::{FusingBackend, MAX_PENDING_OPS, Pending, PendingInput, Slot};
use crate::backend::{
    Backend, BackendError, BackendKind, BufferId, Dispatched, Operand, ReadFuture,
};
use crate::data::HostData;
use tpu_ir::{DType, Op, Shape};

impl Backend for FusingBackend {
    fn kind(&self) -> BackendKind {
        self.inner.kind()
    }

    fn device_description(&self) -> String {
        self.inner.device_description()
    }

    fn label(&self) -> crate::backend::BackendLabel {
        self.inner.label()
    }

    fn upload(&mut self, data: &HostData) -> Result<BufferId, BackendError> {
        let real = self.inner.upload(data)?;
        Ok(self.fresh(Slot::Real(real)))
    }

    fn execute(
        &mut self,
        op: &Op,
        inputs: &[Operand<'_>],
        out_shape: &Shape,
        out_dtype: DType,
    ) -> Result<Dispatched, BackendError> {
        if self.deferring {
            self.inner.check(op, inputs, out_shape, out_dtype)?;
            let out = self.next_id + 1;
            self.pending.push(Pending {
                op: op.clone(),
                inputs: inputs
                    .iter()
                    .map(|i| PendingInput {
                        id: i.buffer.0,
                        shape: i.shape.clone(),
                        dtype: i.dtype,
                        view: None,
                        constant: None,
                    })
                    .collect(),
                out_shape: out_shape.clone(),
                out_dtype,
                out,
                op_index: self.op_index,
            });
            let id = self.fresh(Slot::Pending { freed: false });
            debug_assert_eq!(id.0, out);
            if self.pending.len() >= MAX_PENDING_OPS {
                self.flush()?;
            }
            return Ok(Dispatched {
                buffer: id,
                kernel: "deferred".into(),
                kernel_language: "",
                launch: None,
            });
        }
        let mut reals = Vec::with_capacity(inputs.len());
        for i in inputs {
            reals.push(self.real(i.buffer)?);
        }
        let operands: Vec<Operand> = inputs
            .iter()
            .zip(&reals)
            .map(|(i, &buffer)| Operand {
                buffer,
                shape: i.shape,
                dtype: i.dtype,
            })
            .collect();
        let done = self.launch_op(op, &operands, out_shape, out_dtype, self.op_index)?;
        let id = self.fresh(Slot::Real(done.buffer));
        Ok(Dispatched {
            buffer: id,
            kernel: done.kernel,
            kernel_language: done.kernel_language,
            launch: done.launch,
        })
    }

    fn read(&mut self, buffer: BufferId, dtype: DType, len: usize) -> ReadFuture<'_> {
        // A value that exists needs nothing pending to run first (pending
        // ops only make new values); a pending one runs with the graph.
        let real = match self.slots.get(&buffer.0) {
            Some(Slot::Real(b)) => Ok(*b),
            _ => self.flush().and_then(|()| self.real(buffer)),
        };
        match real {
            Ok(real) => self.inner.read(real, dtype, len),
            Err(e) => Box::pin(async move { Err(e) }),
        }
    }

    fn free(&mut self, buffer: BufferId) {
        let read_by_pending = || {
            self.pending
                .iter()
                .any(|p| p.inputs.iter().any(|i| i.id == buffer.0))
        };
        if matches!(self.slots.get(&buffer.0), Some(Slot::Real(_))) && read_by_pending() {
            // A pending op still reads it: free it after the graph runs.
            self.doomed.push(buffer.0);
            return;
        }
        match self.slots.get_mut(&buffer.0) {
            Some(Slot::Real(b)) => {
                let b = *b;
                self.slots.remove(&buffer.0);
                self.inner.free(b);
            }
            Some(Slot::Pending { freed }) => *freed = true,
            None => {}
        }
    }

    fn fuses_masks(&self) -> bool {
        self.inner.fuses_masks()
    }

    fn start_precompiling(&mut self) {
        self.inner.start_precompiling()
    }

    fn precompile(&mut self, max: usize) -> usize {
        self.inner.precompile(max)
    }

    fn take_precompiled(&mut self) -> bool {
        self.inner.take_precompiled()
    }

    fn driver_cache_key(&self) -> Option<String> {
        self.inner.driver_cache_key()
    }

    fn load_driver_cache(&mut self, data: &[u8]) {
        self.inner.load_driver_cache(data)
    }

    fn driver_cache_data(&self) -> Option<Vec<u8>> {
        self.inner.driver_cache_data()
    }

    fn pallas_source(&self, kernel: &tpu_ir::PallasKernel) -> Option<String> {
        self.inner.pallas_source(kernel)
    }

    fn op_source(&self, op: &Op) -> Option<String> {
        self.inner.op_source(op)
    }

    fn submissions(&self) -> u64 {
        self.inner.submissions()
    }

    fn measured(&mut self, launch: u64) -> Option<crate::backend::Measured> {
        self.inner.measured(launch)
    }

    fn live_buffers(&self) -> usize {
        self.inner.live_buffers()
            + self
                .slots
                .values()
                .filter(|s| matches!(s, Slot::Pending { freed: false }))
                .count()
    }
}
