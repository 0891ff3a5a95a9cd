//! Graph breaks in Dynamo 2.15's words (`tests/corpus/compile/DYNAMO_NOTES.md`).

use tpu_ir::DType;

const ITEM: &str = "Unsupported Tensor.item() call with capture_scalar_outputs=False\n  Explanation: Dynamo does not support tracing `Tensor.item()` with config.capture_scalar_outputs=False.\n  Hint: Set `torch._dynamo.config.capture_scalar_outputs = True` or `export TORCHDYNAMO_CAPTURE_SCALAR_OUTPUTS=1` to include these operations in the captured graph.";
const PRINT: &str = "Failed to trace builtin operator\n  Explanation: Dynamo does not know how to trace builtin operator `print` with argument types ['Tensor'] (has_kwargs False)\n  Hint: Avoid calling builtin `print` with argument types ['Tensor']. Consider using an equivalent alternative function/method to `print`.";
const BRANCH: &str = "generic_jump TensorVariable()";
const BRANCH_FULLGRAPH: &str = "Data-dependent branching\n  Explanation: Detected data-dependent branching (e.g. `if my_tensor.sum() > 0:`). Dynamo does not support tracing dynamic control flow.";
const TOLIST_FLOAT: &str = "Tensor.tolist() with non-integer tensor\n  Explanation: Dynamo currently does not support tracing `tolist()` on non-integer tensors.\n  Hint: Ensure the input tensor to `tolist()` is an integer type (e.g., int8, int16, int32, int64).";
const DATA_DEPENDENT: &str = "Data dependent operator\n  Explanation: Operator `aten._local_scalar_dense.default` has a non-Tensor output whose value is dependent on the data of Tensor inputs.\n  Hint: Enable tracing of data-dependent output operators with `torch._dynamo.config.capture_scalar_outputs = True`";
const DYNAMIC_SHAPE: &str = "Dynamic shape operator\n  Explanation: Operator `aten.nonzero.default`'s output shape depends on input Tensor data.\n  Hint: Enable tracing of dynamic shape operators with `torch._dynamo.config.capture_dynamic_output_shape_ops = True`";

/// A graph break for a read whose sync reason is one the program asked
/// for, in Dynamo 2.15's words: the reason `explain` gives, and the error
/// `fullgraph=True` raises (none where fullgraph captures the value instead:
/// `.item()` and data-dependent shapes, as Dynamo's fullgraph mode does).
/// `None` for the runtime's own reads, which are host steps.
pub(crate) fn break_reason(
    sync_reason: &str,
    dtype: DType,
) -> Option<(&'static str, Option<&'static str>)> {
    match sync_reason {
        ".item()" => Some((ITEM, None)),
        "print / repr" => Some((PRINT, Some(PRINT))),
        "a Python condition reads a tensor" => Some((BRANCH, Some(BRANCH_FULLGRAPH))),
        ".tolist()" if dtype.is_floating() => Some((TOLIST_FLOAT, Some(TOLIST_FLOAT))),
        ".tolist()" => Some((DATA_DEPENDENT, None)),
        r if r.starts_with("nonzero") || r.starts_with("a boolean mask") => {
            Some((DYNAMIC_SHAPE, None))
        }
        _ => None,
    }
}
