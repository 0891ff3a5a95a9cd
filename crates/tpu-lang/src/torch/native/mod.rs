//! `torch._C`: the primitives the Python prelude (`crates/tpu-lang/prelude/torch/`) builds the
//! torch API from. Each takes positional arguments already normalised by the
//! prelude's Python signatures (defaults, keywords, `*sizes`), so parsing here is
//! only type checking (`args`). Everything with a PyTorch name and signature
//! lives in the prelude; everything that computes lives in the runtime. The
//! primitives are grouped by family, one file each, and `call_native` routes a
//! name to its family.

mod args;
mod autograd;
mod compile;
mod creation;
mod distributed;
mod elementwise;
mod pallas;
mod printing;
mod reductions;
mod sharding;
mod views;
mod writes;

use crate::python::error::PyErr;
use crate::python::interp::{Interpreter, PyResult};
use crate::python::value::Value;
use args::Args;
use tpu_runtime::Tensor;

/// Every primitive, by name, as `torch._C.<name>`, grouped by family.
pub const NATIVE_FUNCTIONS: &[&str] = &[
    // Elementwise (`elementwise.rs`).
    "torch._C.unary",
    "torch._C.binary",
    "torch._C.compare",
    "torch._C.where",
    // Products and reductions (`reductions.rs`).
    "torch._C.matmul",
    "torch._C.mm",
    "torch._C.bmm",
    "torch._C.sum",
    "torch._C.prod",
    "torch._C.mean",
    "torch._C.extremum_dim",
    "torch._C.extremum_all",
    "torch._C.arg_extremum",
    "torch._C.cumsum",
    // Views, layouts and copies (`views.rs`).
    "torch._C.view",
    "torch._C.reshape",
    "torch._C.permute",
    "torch._C.transpose",
    "torch._C.expand",
    "torch._C.unfold",
    "torch._C.pad",
    "torch._C.set_conv",
    "torch._C.unsqueeze",
    "torch._C.squeeze",
    "torch._C.contiguous",
    "torch._C.is_contiguous",
    "torch._C.stride",
    "torch._C.clone",
    "torch._C.slice",
    "torch._C.select",
    "torch._C.cat",
    "torch._C.take",
    "torch._C.cast",
    "torch._C.to_device",
    "torch._C.same_storage",
    "torch._C.storage_offset",
    "torch._C.data_ptr",
    // Autograd state (`autograd.rs`).
    "torch._C.detach",
    "torch._C.detach_",
    "torch._C.backward",
    "torch._C.requires_grad_",
    "torch._C.set_grad_enabled",
    "torch._C.is_grad_enabled",
    "torch._C.retain_grad",
    "torch._C.rename_grad_fn",
    "torch._C.set_data",
    "torch._C.parameter",
    "torch._C.is_parameter",
    "torch._C.grad",
    "torch._C.set_grad",
    "torch._C.autograd_grad",
    "torch._C.custom_grad_node",
    // In-place writes (`writes.rs`).
    "torch._C.assign",
    "torch._C.write",
    "torch._C.fill_random",
    "torch._C.put",
    // Creation (`creation.rs`).
    "torch._C.arange",
    "torch._C.linspace",
    "torch._C.eye",
    "torch._C.randint",
    "torch._C.randperm",
    "torch._C.nonzero",
    "torch._C.generator_new",
    "torch._C.generator_seed",
    "torch._C.generator_swap",
    "torch._C.random_ints",
    // Printing (`printing.rs`).
    "torch._C.set_printoptions",
    // torch.distributed (`distributed.rs`).
    "torch._C.dist_seat",
    "torch._C.dist_set_initialized",
    "torch._C.dist_is_initialized",
    "torch._C.dist_new_group",
    "torch._C.dist_group_ranks",
    "torch._C.dist_collective",
    "torch._C.dist_send",
    "torch._C.dist_recv",
    "torch._C.dist_wait",
    "torch._C.dist_is_completed",
    // The Report's sharding record (`sharding.rs`).
    "torch._C.user_line",
    "torch._C.dist_note_mesh",
    "torch._C.dist_note_dtensor",
    "torch._C.dist_note_memory",
    // torch.compile (`compile.rs`).
    "torch._C.compile_register",
    "torch._C.capture_begin",
    "torch._C.capture_end",
    "torch._C.capture_abort",
    "torch._C.compile_eager_call",
    "torch._C.is_compiling",
    "torch._C.compile_stablehlo",
    "torch._C.param_names",
    "torch._C.compile_info",
    "torch._C.capture_graphs",
    "torch._C.graph_replay",
    "torch._C.capture_break",
    "torch._C.capture_pause",
    "torch._C.capture_resume",
    // Pallas kernels (`pallas.rs`).
    "torch._C.pallas_call",
];

fn tensor(t: Tensor) -> Value {
    Value::Tensor(t)
}

/// The `__tpu_dispatch__` of the first argument (or list element, for
/// `cat`'s list) that is an instance of a class defining one.
fn dispatch_override(values: &[Value]) -> Option<Value> {
    let of = |v: &Value| match v {
        Value::Instance(i) => i.class().lookup("__tpu_dispatch__"),
        _ => None,
    };
    values.iter().find_map(|v| match v {
        Value::List(items) => items.borrow().iter().find_map(of),
        Value::Tuple(items) => items.iter().find_map(of),
        other => of(other),
    })
}

/// A name `call_native` does not know, or that reached a family it is not in.
fn unknown(name: &str) -> PyErr {
    PyErr::not_implemented(format!("torch._C.{name}"))
}

impl Interpreter<'_> {
    /// `torch._C.<name>(*values)`, routed to the primitive's family. A
    /// primitive given an instance of a Python tensor class that defines
    /// `__tpu_dispatch__` (DTensor) calls that instead, with the primitive's
    /// name and its arguments as a list: the class computes on the tensors it
    /// wraps, as a `__torch_dispatch__` subclass does below autograd in
    /// PyTorch (here the primitives sit where ATen ops do).
    pub async fn call_native(&mut self, name: &str, values: Vec<Value>) -> PyResult<Value> {
        if let Some(handler) = dispatch_override(&values) {
            let args = Value::List(std::rc::Rc::new(std::cell::RefCell::new(values)));
            return self
                .call(handler, vec![Value::Str(name.into()), args], Vec::new())
                .await;
        }
        let a = Args { name, values };
        match name {
            "unary" | "binary" | "compare" | "where" => self.native_elementwise(a).await,
            "matmul" | "mm" | "bmm" | "sum" | "prod" | "mean" | "extremum_dim" | "extremum_all"
            | "arg_extremum" | "cumsum" => self.native_reductions(a).await,
            "view" | "reshape" | "permute" | "transpose" | "expand" | "unfold" | "pad"
            | "unsqueeze" | "squeeze" | "contiguous" | "is_contiguous" | "stride" | "clone"
            | "slice" | "select" | "cat" | "take" | "cast" | "to_device" | "same_storage"
            | "storage_offset" | "data_ptr" => self.native_views(a).await,
            "detach" | "detach_" | "backward" | "requires_grad_" | "set_grad_enabled"
            | "is_grad_enabled" | "retain_grad" | "rename_grad_fn" | "set_data" | "parameter"
            | "is_parameter" | "grad" | "set_grad" | "autograd_grad" | "custom_grad_node" => {
                self.native_autograd(a).await
            }
            "assign" | "write" | "fill_random" | "put" => self.native_writes(a).await,
            "arange" | "linspace" | "eye" | "randint" | "randperm" | "nonzero"
            | "generator_new" | "generator_seed" | "generator_swap" | "random_ints" => {
                self.native_creation(a).await
            }
            "set_printoptions" => self.native_set_printoptions(a),
            "set_conv" => {
                // [groups, taps, positions, in_channels, out_channels] per group,
                // or None.
                let conv = a.opt_ints(0)?.map(|v| {
                    let at = |i: usize| v.get(i).copied().unwrap_or(0).max(0) as usize;
                    tpu_runtime::Conv {
                        groups: at(0),
                        taps: at(1),
                        positions: at(2),
                        in_channels: at(3),
                        out_channels: at(4),
                    }
                });
                self.runtime.set_conv(conv);
                Ok(Value::None)
            }
            "dist_seat"
            | "dist_set_initialized"
            | "dist_is_initialized"
            | "dist_new_group"
            | "dist_group_ranks"
            | "dist_collective"
            | "dist_send"
            | "dist_recv"
            | "dist_wait"
            | "dist_is_completed" => self.native_distributed(a).await,
            "user_line" | "dist_note_mesh" | "dist_note_dtensor" | "dist_note_memory" => {
                self.native_sharding(a)
            }
            "compile_register" | "capture_begin" | "capture_end" | "capture_abort"
            | "compile_eager_call" | "is_compiling" | "compile_stablehlo" | "param_names"
            | "compile_info" | "capture_graphs" | "graph_replay" | "capture_break"
            | "capture_pause" | "capture_resume" => self.native_compile(a).await,
            "pallas_call" => self.native_pallas(a).await,
            other => Err(unknown(other)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::NATIVE_FUNCTIONS;
    use crate::python::interp::Interpreter;
    use crate::python::source::SourceFile;
    use std::rc::Rc;
    use tpu_runtime::{ReferenceBackend, Runtime};

    /// Every name `torch._C` lists reaches a primitive: called with no
    /// arguments, each either runs or complains about its arguments, and none
    /// falls through to the "unknown primitive" error of `call_native` or of a
    /// family.
    #[test]
    fn every_listed_primitive_is_routed_to_its_family() {
        let mut runtime = Runtime::new(Box::new(ReferenceBackend::new()));
        let file = Rc::new(SourceFile::new("test.py", ""));
        let mut interp = Interpreter::new(&mut runtime, file, 1_000);
        for qualified in NATIVE_FUNCTIONS {
            let name = qualified.trim_start_matches("torch._C.");
            let result = pollster::block_on(interp.call_native(name, Vec::new()));
            if let Err(e) = result {
                assert_ne!(e.kind, "NotImplementedError", "torch._C.{name}: {e:?}");
            }
        }
        interp.teardown();
    }
}
