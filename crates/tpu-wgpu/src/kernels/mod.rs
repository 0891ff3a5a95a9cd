//! The per-op kernels, one module per family: each module holds its kernels'
//! WGSL and the packing of their `params`, both written from the same named
//! word offsets, so the shader and the host cannot disagree about where a size
//! lives. `source` and `launch` are what the backend asks of an op.
//!
//! Every kernel reads its sizes from a `params` array of `u32` (floats travel
//! bit-cast) so that one compiled pipeline serves every shape, and every
//! elementwise kernel indexes a 2-D grid of 256-wide workgroups so that tensors
//! past 65,535 workgroups still fit WebGPU's per-dimension dispatch limit.

mod axis;
mod broadcast;
mod elementwise;
pub(crate) mod expr;
mod matmul;
mod strided;
mod sum_all;
mod window;

use tpu_ir::{DType, Op, ReduceOp, Shape};
use tpu_runtime::{BackendError, Operand};

/// Threads per workgroup for 1-D kernels.
pub const WORKGROUP_SIZE: u32 = 256;
/// The highest rank the broadcasting and strided-copy kernels handle.
pub const MAX_RANK: usize = 8;

/// Where every kernel on the elementwise grid (all but matmul and sum_all)
/// keeps its thread count: word 0 of `params`.
const COUNT: usize = 0;

/// What a kernel launch needs besides its pipeline: the `params` array the
/// kernel reads its sizes and constants from, and the grid.
#[derive(Debug, PartialEq)]
pub(crate) struct Launch {
    pub params: Vec<u32>,
    pub workgroups: (u32, u32, u32),
}

/// The WGSL of the kernel for `op`; ops with the same `Op::kernel_name` share
/// it. Only asked for ops `launch` accepted.
pub(crate) fn source(op: &Op) -> String {
    match op {
        Op::Fill { .. } => elementwise::fill(),
        Op::BinaryScalar {
            op, scalar_on_left, ..
        } => elementwise::binary_scalar(*op, *scalar_on_left),
        Op::Unary { op } => elementwise::unary(*op),
        Op::Binary { op } => broadcast::binary(*op),
        Op::Strided { .. } => strided::copy(),
        Op::Pad { .. } => window::pad(),
        Op::UnfoldBackward { .. } => window::unfold_backward(),
        Op::Reduce { op, .. } => axis::reduce(*op),
        Op::Cumsum { reverse, .. } => axis::cumsum(*reverse),
        Op::MatMul {
            transpose_a,
            transpose_b,
        } => matmul::source(*transpose_a, *transpose_b),
        Op::SumAll => sum_all::source(),
        Op::Cast { .. }
        | Op::Compare { .. }
        | Op::CompareScalar { .. }
        | Op::Gather
        | Op::Scatter { .. }
        | Op::Where => {
            unreachable!("the wgpu backend refuses non-float32 operands before planning")
        }
        Op::Arange { .. }
        | Op::Linspace { .. }
        | Op::Eye
        | Op::Nonzero
        | Op::Random { .. }
        | Op::Pallas { .. } => {
            unreachable!(
                "the wgpu backend refuses {} when planning",
                op.kernel_name()
            )
        }
    }
}

/// The `params` and grid of `op` on `inputs` into `out`, or why the backend
/// has no kernel for it (the runtime then runs it on the host).
pub(crate) fn launch(op: &Op, inputs: &[Operand<'_>], out: &Shape) -> Result<Launch, BackendError> {
    Ok(match op {
        Op::Fill { value } => elementwise::with_scalar(out, *value),
        Op::BinaryScalar { scalar, .. } => elementwise::with_scalar(out, *scalar),
        Op::Unary { .. } => elementwise::plain(out),
        Op::Binary { .. } => broadcast::launch(inputs[0].shape, inputs[1].shape, out)?,
        Op::Strided { offset, strides } => strided::launch(*offset, strides, out)?,
        Op::Pad { before, value, .. } => window::pad_launch(inputs[0].shape, before, *value, out)?,
        Op::UnfoldBackward { axis, size, step } => {
            window::unfold_backward_launch(inputs[0].shape, *axis, *size, *step, out)?
        }
        Op::Reduce { op, axis } => {
            if matches!(op, ReduceOp::ArgMax | ReduceOp::ArgMin) {
                return Err(unsupported_dtype(DType::Int64));
            }
            axis::launch(inputs[0].shape, *axis)
        }
        Op::Cumsum { axis, .. } => axis::launch(inputs[0].shape, *axis),
        Op::MatMul {
            transpose_a,
            transpose_b,
        } => matmul::launch(inputs[0].shape, inputs[1].shape, *transpose_a, *transpose_b),
        Op::SumAll => sum_all::launch(inputs[0].shape),
        Op::Gather | Op::Scatter { .. } | Op::Where => {
            return Err(unsupported_dtype(DType::Int64));
        }
        Op::Cast { to } => return Err(unsupported_dtype(*to)),
        Op::Compare { .. } | Op::CompareScalar { .. } => {
            return Err(unsupported_dtype(DType::Bool));
        }
        // No kernels yet for the creation ops and `nonzero`: they run on the
        // host reference, recorded as fallbacks.
        Op::Arange { .. } | Op::Linspace { .. } | Op::Eye | Op::Nonzero => {
            return Err(BackendError::Unsupported {
                backend: "wgpu",
                what: op.kernel_name(),
            });
        }
        Op::Pallas { .. } => {
            return Err(BackendError::Unsupported {
                backend: "wgpu",
                what: "Pallas kernels yet".into(),
            });
        }
        // The runtime draws random values on the host; no backend runs them.
        Op::Random { draw } => {
            return Err(BackendError::Unsupported {
                backend: "wgpu",
                what: format!("{} draws (the runtime's generator makes them)", draw.name()),
            });
        }
    })
}

/// The kernels are float32 only so far; other dtypes are refused by name.
pub(crate) fn unsupported_dtype(dtype: DType) -> BackendError {
    BackendError::Unsupported {
        backend: "wgpu",
        what: format!("{} tensors yet (only torch.float32)", dtype.torch_name()),
    }
}

/// Refuses ranks past `MAX_RANK`, naming what was asked (`strided copies`).
fn check_rank(out: &Shape, what: &str) -> Result<(), BackendError> {
    if out.rank() > MAX_RANK {
        return Err(BackendError::Unsupported {
            backend: "wgpu",
            what: format!("{what} of rank {} (at most {MAX_RANK})", out.rank()),
        });
    }
    Ok(())
}

/// The opening of every kernel on the elementwise grid: thread `i` of a 2-D
/// grid of 256-wide workgroups, returning past `count` (a WGSL expression).
pub(crate) fn elementwise_index(count: &str) -> String {
    format!(
        "
@compute @workgroup_size({WORKGROUP_SIZE})
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {{
    let i = gid.y * groups.x * {WORKGROUP_SIZE}u + gid.x;
    if (i >= {count}) {{
        return;
    }}"
    )
}

/// `elementwise_index` for a per-op kernel, whose count is `params[COUNT]`.
fn per_op_index() -> String {
    elementwise_index(&format!("params[{COUNT}]"))
}

/// A 2-D grid of 256-wide workgroups covering `n` threads.
pub(crate) fn elementwise_grid(n: usize) -> (u32, u32, u32) {
    let groups = n.div_ceil(WORKGROUP_SIZE as usize).max(1) as u32;
    let x = groups.min(65_535);
    (x, groups.div_ceil(x), 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::expect;
    use tpu_ir::{BinaryOp, UnaryOp};

    #[test]
    fn binary_scalar_kernel_text() {
        expect![[r#"
            @group(0) @binding(0) var<storage, read> params: array<u32>;
            @group(0) @binding(1) var<storage, read> a: array<f32>;
            @group(0) @binding(2) var<storage, read_write> out: array<f32>;

            @compute @workgroup_size(256)
            fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
                let i = gid.y * groups.x * 256u + gid.x;
                if (i >= params[0]) {
                    return;
                }
                let s = bitcast<f32>(params[1]);
                out[i] = (s - a[i]);
            }
        "#]]
        .assert_eq(&elementwise::binary_scalar(BinaryOp::Sub, true));
    }

    #[test]
    fn every_kernel_parses_and_validates_as_wgsl() {
        let sources = [
            elementwise::fill(),
            elementwise::binary_scalar(BinaryOp::Mul, false),
            elementwise::binary_scalar(BinaryOp::Remainder, true),
            elementwise::unary(UnaryOp::Relu),
            elementwise::unary(UnaryOp::Sigmoid),
            elementwise::unary(UnaryOp::Erf),
            broadcast::binary(BinaryOp::Add),
            broadcast::binary(BinaryOp::Pow),
            broadcast::binary(BinaryOp::Maximum),
            matmul::source(false, false),
            matmul::source(true, true),
            sum_all::source(),
            strided::copy(),
            axis::reduce(ReduceOp::Sum),
            axis::reduce(ReduceOp::Max),
            axis::cumsum(true),
        ];
        for source in sources {
            crate::codegen::tests::validate(&source);
        }
    }
}
