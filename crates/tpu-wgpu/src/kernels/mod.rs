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
mod mask;
pub(crate) mod matmul;
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

/// Which kernel the backend runs matmuls with (`matmul.rs`): the tiled one
/// on GPUs, the naive one on CPU rasterisers (`WgpuBackend::new`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatmulKernel {
    Naive,
    Tiled,
}

impl MatmulKernel {
    pub const ALL: [MatmulKernel; 2] = [MatmulKernel::Naive, MatmulKernel::Tiled];
}

/// What besides the op decides its kernel: the matmul kernel in use, the
/// output's dtype and the first input's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Variant {
    pub matmul: MatmulKernel,
    pub out: DType,
    pub input: Option<DType>,
}

impl Variant {
    pub(crate) fn of(matmul: MatmulKernel, inputs: &[Operand<'_>], out: DType) -> Variant {
        Variant {
            matmul,
            out,
            input: inputs.first().map(|i| i.dtype),
        }
    }

    /// Whether this is a bool tensor's fill or strided copy.
    fn bool_data(&self, op: &Op) -> bool {
        matches!(op, Op::Fill { .. } | Op::Strided { .. }) && self.out == DType::Bool
    }
}

/// Whether the backend has a kernel for `op` on these dtypes: float32
/// throughout, or bool where a mask is made, read or moved (`mask.rs`).
pub(crate) fn check_dtypes(
    op: &Op,
    inputs: &[Operand<'_>],
    out: DType,
) -> Result<(), BackendError> {
    use DType::{Bool, Float32};
    // Per launch: no allocation, the dtypes are read in place.
    let types = || inputs.iter().map(|i| i.dtype);
    let is = |want: &[DType]| types().eq(want.iter().copied());
    let fits = match op {
        Op::Compare { .. } | Op::CompareScalar { .. } => {
            out == Bool && types().all(|t| t == Float32)
        }
        Op::Where => out == Float32 && is(&[Bool, Float32, Float32]),
        Op::Cast { to } => {
            matches!(to, Bool | Float32) && (is(&[Bool]) || is(&[Float32])) && out == *to
        }
        Op::Fill { .. } => matches!(out, Bool | Float32),
        Op::Strided { .. } => matches!(out, Bool | Float32) && is(&[out]),
        _ => out == Float32 && types().all(|t| t == Float32),
    };
    if fits {
        return Ok(());
    }
    let odd = std::iter::once(out)
        .chain(types())
        .find(|&d| d != Float32)
        .unwrap_or(Float32);
    Err(unsupported_dtype(odd))
}

/// The name `op`'s pipeline is kept under, and its kernel is called in the
/// Report: its kernel's name, which determines its source, and what sets a
/// variant apart (`_tiled` for the tiled matmul, `_bool` for bool data, a
/// cast's source dtype).
pub(crate) fn pipeline_name(op: &Op, variant: Variant) -> String {
    let name = op.kernel_name();
    match op {
        Op::MatMul { .. } if variant.matmul == MatmulKernel::Tiled => format!("{name}_tiled"),
        Op::Cast { .. } if variant.input == Some(DType::Bool) => format!("{name}_from_bool"),
        _ if variant.bool_data(op) => format!("{name}_bool"),
        _ => name,
    }
}

/// `source`, for `variant`.
pub(crate) fn source_with(op: &Op, variant: Variant) -> String {
    match op {
        Op::MatMul {
            transpose_a,
            transpose_b,
        } if variant.matmul == MatmulKernel::Tiled => {
            matmul::tiled_source(*transpose_a, *transpose_b)
        }
        Op::Fill { .. } if variant.bool_data(op) => mask::fill(),
        Op::Strided { .. } if variant.bool_data(op) => strided::copy_of("u32"),
        Op::Cast { to } => mask::cast(variant.input.unwrap_or(DType::Float32), *to),
        _ => source(op),
    }
}

/// `launch`, for `variant`.
pub(crate) fn launch_with(
    op: &Op,
    inputs: &[Operand<'_>],
    out: &Shape,
    variant: Variant,
) -> Result<Launch, BackendError> {
    check_dtypes(op, inputs, variant.out)?;
    match op {
        Op::MatMul {
            transpose_a,
            transpose_b,
        } if variant.matmul == MatmulKernel::Tiled => Ok(matmul::tiled_launch(
            inputs[0].shape,
            inputs[1].shape,
            *transpose_a,
            *transpose_b,
        )),
        Op::Fill { value } if variant.bool_data(op) => Ok(mask::fill_launch(out, *value)),
        _ => launch(op, inputs, out),
    }
}

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
        Op::Strided { .. } => strided::copy_of("f32"),
        Op::Pad { .. } => window::pad(),
        Op::UnfoldBackward { .. } => window::unfold_backward(),
        Op::Reduce { op, .. } => axis::reduce(*op),
        Op::Cumsum { reverse, .. } => axis::cumsum(*reverse),
        Op::MatMul {
            transpose_a,
            transpose_b,
        } => matmul::source(*transpose_a, *transpose_b),
        Op::SumAll => sum_all::source(),
        Op::Compare { op } => mask::compare(*op),
        Op::CompareScalar { op, .. } => mask::compare_scalar(*op),
        Op::Where => mask::select(),
        Op::Cast { to } => mask::cast(DType::Float32, *to),
        Op::Gather | Op::Scatter { .. } => {
            unreachable!("the wgpu backend refuses integer operands before planning")
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
        Op::Gather | Op::Scatter { .. } => {
            return Err(unsupported_dtype(DType::Int64));
        }
        Op::Compare { .. } => mask::broadcast_launch(&[inputs[0].shape, inputs[1].shape], out)?,
        Op::CompareScalar { scalar, .. } => elementwise::with_scalar(out, *scalar),
        Op::Where => {
            mask::broadcast_launch(&[inputs[0].shape, inputs[1].shape, inputs[2].shape], out)?
        }
        Op::Cast { .. } => elementwise::plain(out),
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

/// The kernels hold float32 and bool so far; other dtypes are refused by name.
pub(crate) fn unsupported_dtype(dtype: DType) -> BackendError {
    BackendError::Unsupported {
        backend: "wgpu",
        what: format!(
            "{} tensors yet (only torch.float32, and torch.bool masks)",
            dtype.torch_name()
        ),
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
            matmul::tiled_source(false, false),
            matmul::tiled_source(true, false),
            matmul::tiled_source(false, true),
            sum_all::source(),
            strided::copy_of("f32"),
            strided::copy_of("u32"),
            mask::compare(tpu_ir::CompareOp::Ne),
            mask::compare_scalar(tpu_ir::CompareOp::Gt),
            mask::select(),
            mask::cast(DType::Float32, DType::Bool),
            mask::cast(DType::Bool, DType::Float32),
            mask::fill(),
            axis::reduce(ReduceOp::Sum),
            axis::reduce(ReduceOp::Max),
            axis::cumsum(true),
        ];
        for source in sources {
            crate::codegen::tests::validate(&source);
        }
    }
}
