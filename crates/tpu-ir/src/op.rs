//! The op set a backend implements. An `Op` names the computation only; operands
//! and the output shape travel beside it, so that an op stream can be logged,
//! compared and (later) fingerprinted without holding any tensor data.
//! Kernel text lives in `tpu-wgpu`, not here; the elementwise ops and their
//! reference math are in `op/elementwise.rs`, the creation ops' constants in
//! `op/creation.rs`.

use serde::{Deserialize, Serialize};

/// Declares an op enum with each variant's name written beside it, and
/// derives from that one list `ALL` (every variant, in order), `name` and
/// `from_name`. Every other list of op names (the `torch._C` primitives' op
/// strings, the edge-value check) iterates `ALL` or calls `from_name`, so a
/// new variant is one line here. A name is the one PyTorch's dispatcher
/// gives the op (`aten::<name>`), which is also the string the prelude passes.
macro_rules! named_ops {
    (
        $(#[$meta:meta])*
        pub enum $enum:ident {
            $($(#[$doc:meta])* $variant:ident => $name:literal,)+
        }
    ) => {
        $(#[$meta])*
        pub enum $enum {
            $($(#[$doc])* $variant,)+
        }

        impl $enum {
            /// Every variant, in declaration order.
            pub const ALL: [$enum; [$($name),+].len()] = [$($enum::$variant),+];

            /// The op's name: `aten::<name>` in the Report, `unary_<name>`
            /// and the like for its kernel, the op string of `torch._C`.
            pub fn name(self) -> &'static str {
                match self {
                    $($enum::$variant => $name,)+
                }
            }

            /// The op `name` names, if any (the inverse of `name`).
            pub fn from_name(name: &str) -> Option<$enum> {
                match name {
                    $($name => Some($enum::$variant),)+
                    _ => None,
                }
            }
        }
    };
}

mod creation;
mod elementwise;
pub mod f32math;
pub use creation::{IntOrFloat, RandomDraw};
pub use elementwise::{BinaryOp, CompareOp, Real, UnaryOp, erf, pow, pow_f32};

named_ops! {
    /// Reductions along one axis.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
    #[serde(rename_all = "lowercase")]
    pub enum ReduceOp {
        Sum => "sum",
        Prod => "prod",
        Max => "max",
        Min => "min",
        /// The index of the first maximum (NaN counts as the maximum), as int64.
        ArgMax => "argmax",
        /// The index of the first minimum (NaN counts as the minimum), as int64.
        ArgMin => "argmin",
    }
}

/// The most tensors one `Op::Concat` joins: with its parameters and its
/// output, each a storage buffer of the kernel, WebGPU's guaranteed 8 per
/// shader stage.
pub const MAX_CONCAT_PARTS: usize = 6;

/// One computation on device tensors. Scalars from Python (`x * 2`) are carried
/// in the op, as PyTorch treats them as wrapped numbers rather than tensors.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Op {
    /// A tensor filled with one value (`zeros`, `ones`, `full`), converted to the
    /// output dtype.
    Fill { value: f64 },
    /// Two tensors combined elementwise with broadcasting.
    Binary { op: BinaryOp },
    /// A tensor combined with a Python number; `scalar_on_left` is `2 - x`.
    BinaryScalar {
        op: BinaryOp,
        scalar: f64,
        scalar_on_left: bool,
    },
    /// An elementwise function of one tensor.
    Unary { op: UnaryOp },
    /// Two tensors compared elementwise with broadcasting, into bools.
    Compare { op: CompareOp },
    /// A tensor compared with a Python number (`x > 0`), into bools.
    CompareScalar { op: CompareOp, scalar: f64 },
    /// A copy converted to another dtype (`.to(dtype)`, `.float()`, promotion).
    Cast { to: crate::DType },
    /// A matrix product `[m, k] @ [k, n]`, or batched `[b, m, k] @ [b, k, n]`.
    /// A transposed operand is passed as stored (`[k, m]` for `a`, `[n, k]` for
    /// `b`), so a transposed view is read in place rather than copied first.
    MatMul {
        #[serde(default)]
        transpose_a: bool,
        #[serde(default)]
        transpose_b: bool,
    },
    /// The sum of every element, to a 0-d tensor.
    SumAll,
    /// A dense copy of a strided window of a flat buffer: output element at
    /// multi-index `i` is `input[offset + sum(i[d] * strides[d])]`. Materialises
    /// views (transposes, slices, broadcasts) for ops that read dense operands.
    Strided { offset: usize, strides: Vec<usize> },
    /// `out[i] = input[index[i]]` over a flat input and an int64 index tensor of
    /// the output's shape: advanced indexing, `index_select`, embedding lookups.
    Gather,
    /// A copy of the flat `base` with `base[index[i]] = values[i]`, or `+=` when
    /// `accumulate` (duplicates then add up): assignment through an index and the
    /// gradient of `Gather`.
    Scatter { accumulate: bool },
    /// `torch.where(cond, a, b)` with broadcasting of all three.
    Where,
    /// `F.pad` with a constant: the input surrounded by `before[d]` and
    /// `after[d]` elements of `value` along each dimension `d`.
    Pad {
        before: Vec<usize>,
        after: Vec<usize>,
        value: f64,
    },
    /// `torch.cat` of `parts` tensors of one dtype along `axis` (at most
    /// `MAX_CONCAT_PARTS`; the runtime chains longer lists): the inputs in
    /// order, each dense, alike in every dimension but `axis`.
    Concat { axis: usize, parts: usize },
    /// The gradient of `unfold(axis, size, step)`: the input is the unfolded
    /// shape (`axis` holds the window count, the last dimension the window),
    /// and each output element along `axis` is the sum of every window
    /// element that read it (PyTorch's `aten::unfold_backward`).
    UnfoldBackward {
        axis: usize,
        size: usize,
        step: usize,
    },
    /// A reduction along `axis`; the output keeps the axis with size 1.
    Reduce { op: ReduceOp, axis: usize },
    /// Running sums along `axis`, from the end when `reverse` (the gradient).
    Cumsum { axis: usize, reverse: bool },
    /// `torch.arange`: `start + step * i`, exact in int64 for integer bounds and
    /// output, else in double rounded to the output dtype (PyTorch's CPU kernel).
    Arange { start: IntOrFloat, step: IntOrFloat },
    /// `torch.linspace`: the first half steps up from `start`, the second down
    /// from `end`, in the output's float type (float32 below float64).
    Linspace { start: f64, end: f64 },
    /// `torch.eye`: ones on the diagonal of a `[n, m]` output, zeros elsewhere.
    Eye,
    /// `torch.nonzero`: the int64 coordinates (one row each) of the nonzero
    /// elements; the runtime reads the values first, as they fix the size.
    Nonzero,
    /// Values drawn on the host from the runtime's generator (PyTorch's CPU
    /// stream) and uploaded. Only the runtime handles it, drawing the values
    /// and logging the op; every backend refuses it.
    Random { draw: RandomDraw },
    /// A Pallas kernel (`pl.pallas_call`): its inputs in order, and one output
    /// buffer holding every output, each padded to whole blocks
    /// (`PallasKernel::output_offsets`).
    Pallas { kernel: Box<crate::PallasKernel> },
}

impl Op {
    /// The plain matrix product (neither operand transposed).
    pub const MATMUL: Op = Op::MatMul {
        transpose_a: false,
        transpose_b: false,
    };

    /// `(batch, m, k, n)` of a `MatMul` from its stored operand shapes.
    pub fn matmul_dims(
        a: &[usize],
        b: &[usize],
        transpose_a: bool,
        transpose_b: bool,
    ) -> (usize, usize, usize, usize) {
        let batch = if a.len() == 3 { a[0] } else { 1 };
        let (ra, ca) = (a[a.len() - 2], a[a.len() - 1]);
        let (rb, cb) = (b[b.len() - 2], b[b.len() - 1]);
        let (m, k) = if transpose_a { (ca, ra) } else { (ra, ca) };
        let n = if transpose_b { rb } else { cb };
        (batch, m, k, n)
    }

    /// The name PyTorch's dispatcher would use (`aten::mul`), shown in the Report.
    pub fn aten_name(&self) -> String {
        match self {
            Op::Fill { .. } => "aten::fill".into(),
            Op::Binary { op } | Op::BinaryScalar { op, .. } => format!("aten::{}", op.name()),
            Op::MatMul { .. } => "aten::mm".into(),
            Op::SumAll => "aten::sum".into(),
            Op::Cast { .. } => "aten::_to_copy".into(),
            Op::Unary { op } => format!("aten::{}", op.name()),
            Op::Compare { op } | Op::CompareScalar { op, .. } => format!("aten::{}", op.name()),
            Op::Strided { .. } => "aten::contiguous".into(),
            Op::Gather => "aten::index".into(),
            Op::Scatter { accumulate: false } => "aten::index_put_".into(),
            Op::Scatter { accumulate: true } => "aten::index_add_".into(),
            Op::Where => "aten::where".into(),
            Op::Pad { .. } => "aten::constant_pad_nd".into(),
            Op::Concat { .. } => "aten::cat".into(),
            Op::UnfoldBackward { .. } => "aten::unfold_backward".into(),
            Op::Reduce { op, .. } => format!("aten::{}", op.name()),
            Op::Cumsum { .. } => "aten::cumsum".into(),
            Op::Arange { .. } => "aten::arange".into(),
            Op::Linspace { .. } => "aten::linspace".into(),
            Op::Eye => "aten::eye".into(),
            Op::Nonzero => "aten::nonzero".into(),
            Op::Random { draw } => draw.aten_name().into(),
            Op::Pallas { kernel } => format!("pallas::{}", kernel.name),
        }
    }

    /// The name of the kernel that computes this op, the same on every backend:
    /// ops that need different code get different names (`_rev` puts the scalar on
    /// the left), ops that differ only in their constants share one.
    pub fn kernel_name(&self) -> String {
        match self {
            Op::Fill { .. } => "fill".into(),
            Op::Binary { op } => format!("binary_{}", op.name()),
            Op::BinaryScalar {
                op, scalar_on_left, ..
            } => {
                let rev = if *scalar_on_left { "_rev" } else { "" };
                format!("binary_scalar_{}{rev}", op.name())
            }
            Op::MatMul {
                transpose_a,
                transpose_b,
            } => format!(
                "matmul{}{}",
                if *transpose_a { "_ta" } else { "" },
                if *transpose_b { "_tb" } else { "" }
            ),
            Op::SumAll => "sum_all".into(),
            Op::Cast { to } => format!("cast_{}", to.torch_name().trim_start_matches("torch.")),
            Op::Unary { op } => format!("unary_{}", op.name()),
            Op::Compare { op } => format!("compare_{}", op.name()),
            Op::CompareScalar { op, .. } => format!("compare_scalar_{}", op.name()),
            Op::Strided { .. } => "strided_copy".into(),
            Op::Gather => "gather".into(),
            Op::Scatter { accumulate } => if *accumulate {
                "scatter_add"
            } else {
                "scatter"
            }
            .into(),
            Op::Where => "where".into(),
            Op::Pad { .. } => "pad".into(),
            // One pipeline per count of parts: each is a binding of its own.
            Op::Concat { parts, .. } => format!("concat{parts}"),
            Op::UnfoldBackward { .. } => "unfold_backward".into(),
            Op::Reduce { op, .. } => format!("reduce_{}", op.name()),
            Op::Cumsum { reverse, .. } => if *reverse { "cumsum_rev" } else { "cumsum" }.into(),
            Op::Arange { .. } => "arange".into(),
            Op::Linspace { .. } => "linspace".into(),
            Op::Eye => "eye".into(),
            Op::Nonzero => "nonzero".into(),
            Op::Random { draw } => format!("host_{}", draw.name()),
            // The code is specialised to the whole kernel, shapes included.
            Op::Pallas { kernel } => format!("pallas_{}_{}", kernel.name, kernel.fingerprint()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Debug;

    /// What `named_ops!` derives for one enum. `ALL` holds every variant by
    /// construction (the macro writes the enum and `ALL` from one list);
    /// this checks it keeps declaration order (`as usize` is a variant's
    /// declaration index, so a variant left out or repeated shifts the
    /// rest), that each name comes back through `from_name` (two variants
    /// given one name would not), and that other strings name nothing.
    fn check_names<T: Copy + PartialEq + Debug>(
        all: &[T],
        index: fn(T) -> usize,
        name: fn(T) -> &'static str,
        from_name: fn(&str) -> Option<T>,
    ) {
        for (i, &op) in all.iter().enumerate() {
            assert_eq!(index(op), i, "{op:?} out of place in ALL");
            assert_eq!(from_name(name(op)), Some(op), "{op:?}'s name");
        }
        assert_eq!(from_name("no such op"), None);
    }

    #[test]
    fn all_and_from_name_agree_with_name() {
        check_names(
            &BinaryOp::ALL,
            |o| o as usize,
            BinaryOp::name,
            BinaryOp::from_name,
        );
        check_names(
            &UnaryOp::ALL,
            |o| o as usize,
            UnaryOp::name,
            UnaryOp::from_name,
        );
        check_names(
            &CompareOp::ALL,
            |o| o as usize,
            CompareOp::name,
            CompareOp::from_name,
        );
        check_names(
            &ReduceOp::ALL,
            |o| o as usize,
            ReduceOp::name,
            ReduceOp::from_name,
        );
    }
}
