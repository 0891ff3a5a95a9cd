//! `torch._C.pallas_call(kernel, tensors)`: a kernel the prelude's `jax.experimental.pallas`
//! traced, as the JSON of a `tpu_ir::PallasKernel`, run by the runtime on the
//! tensors; returns the outputs as a list.

use super::args::Args;
use super::sharding::tensors;
use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::value::Value;
use std::cell::RefCell;
use std::rc::Rc;

impl Interpreter<'_> {
    pub(super) async fn native_pallas(&mut self, a: Args<'_>) -> PyResult<Value> {
        let text = a.str(0)?;
        let kernel: tpu_ir::PallasKernel = serde_json::from_str(&text).map_err(|e| {
            PyErr::new(
                "SystemError",
                format!("the traced Pallas kernel does not decode: {e}"),
            )
        })?;
        let inputs = tensors(a.get(1)?)?;
        let outputs = self.runtime.pallas_call(kernel, &inputs).await?;
        let values = outputs.into_iter().map(Value::Tensor).collect();
        Ok(Value::List(Rc::new(RefCell::new(values))))
    }
}
