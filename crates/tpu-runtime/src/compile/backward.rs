//! The compiled backward: a backward pass through a compiled forward's
//! autograd nodes, captured and planned as one graph.

use super::Capture;
use crate::tensor::Tensor;

impl crate::Runtime {
    /// Starts capturing a backward through compile `compile` of `function`
    /// (none if a capture is already running).
    pub(crate) fn backward_capture_begin(
        &mut self,
        function: usize,
        compile: usize,
    ) -> Result<(), crate::RuntimeError> {
        if self.compiled.capture.is_some() {
            return Ok(());
        }
        let Some(record) = self
            .compiled
            .functions
            .get_mut(function)
            .and_then(|f| f.compiles.get_mut(compile))
        else {
            return Ok(());
        };
        record.backward_calls += 1;
        let recording = record.backward.is_empty();
        self.tpu.flush()?;
        self.tpu.set_deferring(true)?;
        self.compiled.capture = Some(Capture::new(
            (function, compile),
            recording,
            false,
            self.tpu.kernels.len(),
            Some(Vec::new()),
        ));
        Ok(())
    }

    /// A leaf's gradient, accumulated during a captured backward: a result
    /// of the backward graph.
    pub(crate) fn capture_gradient(&mut self, leaf: &Tensor, grad: &Tensor) {
        if let Some(Some(grads)) = self.compiled.capture.as_mut().map(|c| c.backward.as_mut()) {
            let id = leaf.identity();
            grads.retain(|(l, _)| *l != id);
            grads.push((id, grad.clone()));
        }
    }

    /// Ends a backward's capture: the graph runs, and on the compile's first
    /// backward it is recorded (and lowered) as its backward graph.
    pub(crate) async fn backward_capture_end(&mut self) -> Result<(), crate::RuntimeError> {
        let grads = match self.compiled.capture.as_ref().map(|c| &c.backward) {
            Some(Some(grads)) => grads.iter().map(|(_, g)| g.clone()).collect::<Vec<_>>(),
            _ => return Ok(()),
        };
        self.capture_end(&grads).await
    }

    /// Abandons a backward's capture (the walk ended in an error).
    pub(crate) fn backward_capture_abort(&mut self) {
        if self
            .compiled
            .capture
            .as_ref()
            .is_some_and(|c| c.backward.is_some())
        {
            self.capture_abort();
        }
    }
}
