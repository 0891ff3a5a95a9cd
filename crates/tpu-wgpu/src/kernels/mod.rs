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
mod concat;
mod creation;
mod elementwise;
pub(crate) mod expr;
pub(crate) mod half;
mod index;
pub(crate) mod int64;
mod ints;
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
/// output's dtype and the inputs' as the kernels hold them (bfloat16 and
/// float16 as float32, `half.rs`), and the half dtype the output is rounded
/// to, if it is one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Variant {
    pub matmul: MatmulKernel,
    pub out: DType,
    pub inputs: [Option<DType>; 3],
    pub rounds_to: Option<DType>,
}

impl Variant {
    pub(crate) fn of(matmul: MatmulKernel, inputs: &[Operand<'_>], out: DType) -> Variant {
        let dtypes: Vec<DType> = inputs.iter().map(|i| i.dtype).collect();
        Variant::new(matmul, out, &dtypes)
    }

    /// The variant for an output of `out` from inputs of `inputs`.
    pub(crate) fn new(matmul: MatmulKernel, out: DType, inputs: &[DType]) -> Variant {
        let mut dtypes = [None; 3];
        for (slot, &dtype) in dtypes.iter_mut().zip(inputs) {
            *slot = Some(half::storage(dtype));
        }
        Variant {
            matmul,
            out: half::storage(out),
            inputs: dtypes,
            rounds_to: half::is_half(out).then_some(out),
        }
    }

    /// Float32 throughout, as the precompiled library's kernels are.
    pub(crate) fn float(matmul: MatmulKernel) -> Variant {
        Variant::new(matmul, DType::Float32, &[DType::Float32; 3])
    }

    /// The first input's dtype.
    fn input(&self) -> DType {
        self.inputs[0].unwrap_or(DType::Float32)
    }

    /// Whether this is a bool tensor's fill, strided copy or padding.
    fn bool_data(&self, op: &Op) -> bool {
        matches!(op, Op::Fill { .. } | Op::Strided { .. } | Op::Pad { .. })
            && self.out == DType::Bool
    }

    /// Whether `op` runs on the integer kernels (`ints.rs`, `index.rs`,
    /// `creation.rs`), or on bool data where a float32 kernel of the same
    /// name exists (`where` and `eye` of bools): an int32 or int64 anywhere, or bools
    /// compared, reduced or summed as integers.
    fn integer(&self, op: &Op) -> bool {
        let wide = |d: DType| matches!(d, DType::UInt8 | DType::Int32 | DType::Int64);
        let bool_in = self.input() == DType::Bool;
        wide(self.out)
            || self.inputs.iter().flatten().any(|&d| wide(d))
            || (matches!(op, Op::Where | Op::Eye) && self.out == DType::Bool)
            || (bool_in
                && matches!(
                    op,
                    Op::Compare { .. }
                        | Op::CompareScalar { .. }
                        | Op::Reduce { .. }
                        | Op::SumAll
                        | Op::Cumsum { .. }
                ))
    }

    /// What sets an integer kernel's name apart: its dtypes, the output's
    /// first (`_i64_f32` is an int64 out of a float32).
    fn signature(&self) -> String {
        let code = |d: DType| match d {
            DType::Float32 => "f32",
            DType::Bool => "b",
            DType::UInt8 => "u8",
            DType::Int32 => "i32",
            DType::Int64 => "i64",
            _ => "x",
        };
        std::iter::once(self.out)
            .chain(self.inputs.iter().flatten().copied())
            .map(|d| format!("_{}", code(d)))
            .collect()
    }
}

/// The dtypes the kernels see: float32 (which holds bfloat16 and float16,
/// `half.rs`), bool and uint8 (one `u32` word), int32 and int64 (two words,
/// `int64.rs`). Not float64: WGSL has no 64-bit floats.
fn on_device(d: DType) -> bool {
    matches!(
        d,
        DType::Float32 | DType::Bool | DType::UInt8 | DType::Int32 | DType::Int64
    )
}

/// Whether the backend has a kernel for `op` on these dtypes: float32 (and
/// the half dtypes) throughout, and bool, uint8, int32 and int64 where an op
/// takes them.
pub(crate) fn check_dtypes(
    op: &Op,
    inputs: &[Operand<'_>],
    out: DType,
) -> Result<(), BackendError> {
    use DType::{Bool, Float32, Int32, Int64, UInt8};
    let (original, out) = (out, half::storage(out));
    // Per launch: no allocation, the dtypes are read in place.
    let types = || inputs.iter().map(|i| half::storage(i.dtype));
    let is = |want: &[DType]| types().eq(want.iter().copied());
    let int = |d: DType| matches!(d, UInt8 | Int32 | Int64);
    let first = types().next().unwrap_or(Float32);
    let all_first = || types().all(|t| t == first);
    let fits = match op {
        Op::Compare { .. } | Op::CompareScalar { .. } => {
            out == Bool && (types().all(|t| t == Float32) || types().all(ints::integral))
        }
        Op::Where => on_device(out) && types().eq([Bool, out, out]) && inputs[1].dtype == original,
        Op::Cast { to } => on_device(out) && on_device(first) && original == *to,
        Op::Fill { .. } | Op::Eye => on_device(out),
        Op::Strided { .. } | Op::Pad { .. } => on_device(out) && is(&[out]),
        Op::Concat { .. } => on_device(out) && types().all(|t| t == out),
        Op::Gather => on_device(out) && is(&[out, Int64]),
        Op::Scatter { accumulate } => {
            on_device(out) && is(&[out, Int64, out]) && !(*accumulate && out == Bool)
        }
        Op::Binary { .. } | Op::BinaryScalar { .. } | Op::Unary { .. } if int(out) => {
            all_first() && first == out && unary_keeps(op)
        }
        Op::Reduce {
            op: ReduceOp::ArgMax | ReduceOp::ArgMin,
            ..
        } => out == Int64 && (first == Float32 || int(first)),
        Op::Reduce { op: r, .. } if ints::integral(first) => {
            ints::check_reduce(*r, first)?;
            on_device(out)
        }
        Op::Cumsum { .. } | Op::SumAll if ints::integral(first) => int(out),
        Op::Arange { .. } => matches!(out, Float32 | Int32 | Int64),
        Op::Linspace { .. } => out == Float32,
        _ => out == Float32 && types().all(|t| t == Float32),
    };
    if fits {
        return Ok(());
    }
    let odd = std::iter::once(original)
        .chain(inputs.iter().map(|i| i.dtype))
        .find(|&d| !on_device(half::storage(d)))
        .unwrap_or(original);
    Err(unsupported_dtype(odd))
}

/// A unary op on integers must be one that keeps them (the reference's
/// others compute in float).
fn unary_keeps(op: &Op) -> bool {
    match op {
        Op::Unary { op } => op.keeps_integers(),
        _ => true,
    }
}

/// The name `op`'s pipeline is kept under, and its kernel is called in the
/// Report: its kernel's name, which determines its source, and what sets a
/// variant apart (`_tiled` for the tiled matmul, `_bool` for bool data, a
/// cast's source dtype, an integer kernel's dtypes).
pub(crate) fn pipeline_name(op: &Op, variant: Variant) -> String {
    let name = unrounded_name(op, variant);
    match variant.rounds_to {
        // A copy of values already rounded to their dtype.
        Some(_) if matches!(op, Op::Concat { .. }) => name,
        Some(dtype) => format!("{name}{}", half::suffix(dtype)),
        None => name,
    }
}

/// `pipeline_name` but for the suffix of an output rounded to a half dtype.
fn unrounded_name(op: &Op, variant: Variant) -> String {
    let name = op.kernel_name();
    match op {
        // Words copied whatever they hold.
        Op::Concat { .. } => name,
        Op::MatMul { .. } if variant.matmul == MatmulKernel::Tiled => format!("{name}_tiled"),
        _ if variant.integer(op) => format!("{name}{}", variant.signature()),
        Op::Cast { .. } if variant.input() == DType::Bool => format!("{name}_from_bool"),
        _ if variant.bool_data(op) => format!("{name}_bool"),
        _ => name,
    }
}

/// `source`, for `variant`.
pub(crate) fn source_with(op: &Op, variant: Variant) -> String {
    if let Op::Concat { parts, .. } = op {
        // Words copied whatever they hold: no dtype's helpers, no rounding.
        return concat::source(*parts);
    }
    let source = written(op, variant);
    let helped = variant.integer(op) || matches!(op, Op::Arange { .. } | Op::Eye);
    let source = if helped {
        int64::prune(&source)
    } else {
        source
    };
    match variant.rounds_to {
        Some(dtype) => half::rounded_stores(&source, dtype),
        None => source,
    }
}

/// The WGSL `source_with` returns, before `int64::prune`.
fn written(op: &Op, variant: Variant) -> String {
    let out = variant.out;
    let input = variant.input();
    match op {
        Op::MatMul {
            transpose_a,
            transpose_b,
        } if variant.matmul == MatmulKernel::Tiled => {
            matmul::tiled_source(*transpose_a, *transpose_b)
        }
        Op::Fill { .. } if variant.bool_data(op) => mask::fill(),
        Op::Fill { .. } if variant.integer(op) => creation::fill(out),
        Op::Strided { .. } if out != DType::Float32 => strided::copy_of(int64::storage(out)),
        Op::Cast { .. } if variant.integer(op) => ints::cast(input, out),
        Op::Cast { .. } => mask::cast(input, out),
        Op::Where => mask::select(int64::storage(out)),
        Op::Pad { .. } => window::pad(out),
        Op::Arange { .. } => creation::arange(out),
        Op::Linspace { .. } => creation::linspace(),
        Op::Eye => creation::eye(out),
        Op::Gather => index::gather(out),
        Op::Scatter { accumulate } => index::scatter(out, *accumulate),
        _ if !variant.integer(op) => source(op),
        Op::Binary { op } => ints::binary(*op, out),
        Op::BinaryScalar {
            op, scalar_on_left, ..
        } => ints::binary_scalar(*op, *scalar_on_left, out),
        Op::Unary { op } => ints::unary(*op, out),
        Op::Compare { op } => ints::compare(*op, input, variant.inputs[1].unwrap_or(input)),
        Op::CompareScalar { op, .. } => ints::compare_scalar(*op, input),
        Op::Reduce {
            op: r @ (ReduceOp::ArgMax | ReduceOp::ArgMin),
            ..
        } => ints::arg_reduce(*r, input, out),
        Op::Reduce { op, .. } => ints::reduce(*op, input, out),
        Op::Cumsum { reverse, .. } => ints::cumsum(*reverse, input, out),
        Op::SumAll => ints::sum_all(input, out),
        _ => source(op),
    }
}

/// The launches of `op` for `variant`: one, but for a scatter's phases
/// (`index.rs`).
pub(crate) fn launch_with(
    op: &Op,
    inputs: &[Operand<'_>],
    out: &Shape,
    variant: Variant,
) -> Result<Vec<Launch>, BackendError> {
    check_dtypes(op, inputs, variant.rounds_to.unwrap_or(variant.out))?;
    let one = match op {
        Op::MatMul {
            transpose_a,
            transpose_b,
        } if variant.matmul == MatmulKernel::Tiled => {
            matmul::tiled_launch(inputs[0].shape, inputs[1].shape, *transpose_a, *transpose_b)
        }
        Op::Fill { value } if variant.bool_data(op) => mask::fill_launch(out, *value),
        Op::Fill { value } if variant.integer(op) => {
            creation::fill_launch(out, variant.out, *value)
        }
        Op::Arange { start, step } => creation::arange_launch(*start, *step, out, variant.out)?,
        Op::Linspace { start, end } => creation::linspace_launch(*start, *end, out)?,
        Op::Eye => creation::eye_launch(out),
        Op::Pad { before, value, .. } => {
            window::pad_launch(inputs[0].shape, before, *value, out, variant.out)?
        }
        Op::Concat { axis, .. } => concat::launch(inputs, *axis, out, variant.out)?,
        Op::Gather => index::gather_launch(out.numel()),
        Op::Scatter { accumulate } => {
            return index::scatter_launches(
                inputs[1].shape.numel(),
                inputs[2].shape.dims().last().copied().unwrap_or(1),
                inputs[0].shape.numel(),
                *accumulate,
            );
        }
        Op::Reduce { op: r, axis }
            if variant.integer(op) || matches!(r, ReduceOp::ArgMax | ReduceOp::ArgMin) =>
        {
            axis::launch(inputs[0].shape, *axis)
        }
        Op::BinaryScalar { scalar, .. } if variant.integer(op) => {
            ints::binary_scalar_launch(out, *scalar)
        }
        Op::CompareScalar { op: c, scalar } if variant.integer(op) => {
            ints::compare_scalar_launch(*c, *scalar, out)
        }
        Op::CompareScalar { scalar, .. } if half::is_half(inputs[0].dtype) => {
            elementwise::with_scalar(out, half::round_number(inputs[0].dtype, *scalar))
        }
        _ => launch(op, inputs, out)?,
    };
    Ok(vec![one])
}

/// The words of scratch `op`'s kernel binds after its output: a
/// last-wins scatter's marks, one per element of its base; an accumulating
/// scatter's flag (`index.rs`).
pub(crate) fn scratch_words(op: &Op, inputs: &[Operand<'_>]) -> usize {
    match op {
        Op::Scatter { accumulate: false } => inputs[0].shape.numel(),
        Op::Scatter { accumulate: true } => 1,
        _ => 0,
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
        Op::Pad { .. } => window::pad(DType::Float32),
        Op::Concat { parts, .. } => concat::source(*parts),
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
        Op::Where => mask::select("f32"),
        Op::Cast { to } => mask::cast(DType::Float32, *to),
        Op::Gather | Op::Scatter { .. } | Op::Arange { .. } | Op::Linspace { .. } | Op::Eye => {
            unreachable!("`source_with` writes {}", op.kernel_name())
        }
        Op::Nonzero | Op::Random { .. } | Op::Pallas { .. } => {
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
        Op::Pad { before, value, .. } => {
            window::pad_launch(inputs[0].shape, before, *value, out, DType::Float32)?
        }
        Op::Concat { axis, .. } => concat::launch(inputs, *axis, out, DType::Float32)?,
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

/// Refuses an op on `dtype`: float64 because WGSL has no 64-bit floats;
/// any other dtype because this op has no kernel for it.
pub(crate) fn unsupported_dtype(dtype: DType) -> BackendError {
    let what = if dtype == DType::Float64 {
        "torch.float64 tensors (WGSL has no 64-bit floats)".to_string()
    } else {
        format!("this op on {} tensors yet", dtype.torch_name())
    };
    BackendError::Unsupported {
        backend: "wgpu",
        what,
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
mod tests;
