//! A custom backend's side: the graph inputs of the latest call, and
//! `gm.forward`, the captured graph run again op by op.

use crate::tensor::{Device, Tensor};
use std::collections::HashMap;
use tpu_ir::Shape;

impl crate::Runtime {
    /// The input tensors of each graph of the compiled call that ended last
    /// (what a custom backend's compiled callable is called with).
    pub fn last_graph_inputs(&self) -> Vec<Vec<Tensor>> {
        self.compiled.last_inputs.clone()
    }

    /// Runs graph `graph` of compile `compile` of `function` (as its latest
    /// call captured it) on `inputs`, op by op: a custom backend's
    /// `gm.forward`.
    pub async fn graph_replay(
        &mut self,
        function: usize,
        compile: usize,
        graph: usize,
        inputs: &[Tensor],
    ) -> Result<Vec<Tensor>, crate::RuntimeError> {
        let Some(g) = self
            .compiled
            .latest
            .get(&(function, compile, graph))
            .cloned()
        else {
            return Err(crate::RuntimeError::Message(
                "this GraphModule's graph is no longer held (torch.compiler.reset())".into(),
            ));
        };
        if inputs.len() != g.inputs.len() {
            return Err(crate::RuntimeError::Type(format!(
                "forward() takes {} tensors ({} given)",
                g.inputs.len(),
                inputs.len()
            )));
        }
        let device = inputs.first().map_or(Device::Tpu(0), |t| t.device());
        let mut values: HashMap<u64, Tensor> = HashMap::new();
        for ((id, shape, dtype), t) in g.inputs.iter().zip(inputs) {
            if t.shape() != *shape || t.dtype() != *dtype {
                return Err(crate::RuntimeError::Message(format!(
                    "the graph was captured for a {} tensor of shape {:?}, not {} of shape {:?}",
                    dtype.torch_name(),
                    shape.dims(),
                    t.dtype().torch_name(),
                    t.dims()
                )));
            }
            values.insert(*id, self.dense(t).await?);
        }
        for node in &g.nodes {
            let mut args = Vec::with_capacity(node.inputs.len());
            for (id, shape, _) in &node.inputs {
                let t = values.get(id).ok_or_else(|| {
                    crate::RuntimeError::Message("internal: a replayed graph lost a value".into())
                })?;
                args.push(as_shape(t, shape));
            }
            let refs: Vec<&Tensor> = args.iter().collect();
            let out = self
                .dispatch_dense(
                    node.op.clone(),
                    &refs,
                    node.out_shape.clone(),
                    node.out_dtype,
                    device,
                )
                .await?;
            values.insert(node.out, out);
        }
        g.outputs
            .iter()
            .map(|(id, shape, _)| {
                values.get(id).map(|t| as_shape(t, shape)).ok_or_else(|| {
                    crate::RuntimeError::Message("internal: a replayed graph lost a result".into())
                })
            })
            .collect()
    }
}

/// `t` (dense) read as `shape`, which has as many elements.
pub(super) fn as_shape(t: &Tensor, shape: &Shape) -> Tensor {
    if t.shape() == *shape {
        return t.clone();
    }
    let layout = t.layout();
    Tensor::from_layout(crate::tensor::Layout {
        strides: shape.strides(),
        shape: shape.clone(),
        ..layout
    })
}
