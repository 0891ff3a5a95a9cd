//! A Pallas kernel as data: what `pl.pallas_call` traced. The kernel body is an
//! SSA program of block operations (`Inst`) over the kernel's refs, run once per
//! point of the grid, in order, the last grid axis fastest. Each ref is an array
//! with a block shape and an `index_map` from grid indices to block indices; a
//! block that runs past the array's edge reads the padding value (NaN for
//! floats, the smallest int32, `False`) and writes its padded part to a padded
//! copy of the output that the caller never sees, as Pallas's interpret mode does.
//!
//! The Python tracer (`crates/tpu-torch/prelude/jax/experimental/pallas/`) writes this as JSON;
//! `validate` checks every shape and operand so that backends may trust it. The
//! reference backend interprets it (the definition), tpu-wgpu generates one WGSL
//! shader from it.

use crate::{BinaryOp, CompareOp, DType, ReduceOp, UnaryOp, fingerprint};
use serde::{Deserialize, Deserializer, Serialize};

mod validate;

/// A block index computed from the grid indices (an `index_map`'s result).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Index {
    Const {
        value: i64,
    },
    ProgramId {
        axis: usize,
    },
    /// `a op b` with Python's integer rules (`//` and `%` floor).
    Binary {
        op: BinaryOp,
        #[cfg_attr(feature = "typescript", ts(type = "Index"))]
        a: Box<Index>,
        #[cfg_attr(feature = "typescript", ts(type = "Index"))]
        b: Box<Index>,
    },
}

impl Index {
    pub fn eval(&self, pids: &[usize]) -> i64 {
        match self {
            Index::Const { value } => *value,
            Index::ProgramId { axis } => pids.get(*axis).copied().unwrap_or(0) as i64,
            Index::Binary { op, a, b } => op.apply_i64(a.eval(pids), b.eval(pids)),
        }
    }

    /// The grid axes this index reads.
    fn axes(&self, into: &mut Vec<usize>) {
        match self {
            Index::Const { .. } => {}
            Index::ProgramId { axis } => into.push(*axis),
            Index::Binary { a, b, .. } => {
                a.axes(into);
                b.axes(into);
            }
        }
    }

    /// `(c, d)` when this index is `c * pid(axis) + d`, with no other grid
    /// axis in it.
    fn affine_in(&self, axis: usize) -> Option<(i64, i64)> {
        match self {
            Index::Const { value } => Some((0, *value)),
            Index::ProgramId { axis: a } if *a == axis => Some((1, 0)),
            Index::ProgramId { .. } => None,
            Index::Binary { op, a, b } => {
                let (a, b) = (a.affine_in(axis)?, b.affine_in(axis)?);
                match op {
                    BinaryOp::Add => Some((a.0 + b.0, a.1 + b.1)),
                    BinaryOp::Sub => Some((a.0 - b.0, a.1 - b.1)),
                    BinaryOp::Mul if a.0 == 0 => Some((a.1 * b.0, a.1 * b.1)),
                    BinaryOp::Mul if b.0 == 0 => Some((a.0 * b.1, a.1 * b.1)),
                    _ => None,
                }
            }
        }
    }

    /// Python source for the Report (`i`, `j`, `k`... for the grid axes).
    pub fn text(&self) -> String {
        match self {
            Index::Const { value } => value.to_string(),
            Index::ProgramId { axis } => axis_name(*axis),
            Index::Binary { op, a, b } => {
                let sym = match op {
                    BinaryOp::Add => "+",
                    BinaryOp::Sub => "-",
                    BinaryOp::Mul => "*",
                    BinaryOp::FloorDiv => "//",
                    BinaryOp::Remainder => "%",
                    _ => "?",
                };
                format!("({} {sym} {})", a.text(), b.text())
            }
        }
    }
}

/// The name the Report gives grid axis `axis`: `i`, `j`, `k`, then `g3`...
pub fn axis_name(axis: usize) -> String {
    match axis {
        0 => "i".into(),
        1 => "j".into(),
        2 => "k".into(),
        n => format!("g{n}"),
    }
}

/// One operand of the kernel: an array in HBM, seen by the kernel as blocks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct BlockRef {
    /// The whole array's shape.
    pub shape: Vec<usize>,
    pub dtype: DType,
    /// The block's shape, one entry per array dimension (1 where squeezed).
    pub block: Vec<usize>,
    /// Dimensions given as `None` in the block shape: size 1, left out of the
    /// ref the kernel sees.
    pub squeezed: Vec<bool>,
    /// The block index along each array dimension.
    pub index_map: Vec<Index>,
}

impl BlockRef {
    /// The shape the kernel sees: the block without its squeezed dims.
    pub fn ref_shape(&self) -> Vec<usize> {
        self.block
            .iter()
            .zip(&self.squeezed)
            .filter(|(_, s)| !**s)
            .map(|(b, _)| *b)
            .collect()
    }

    /// The array padded up to whole blocks: what an output's buffer holds.
    pub fn padded_shape(&self) -> Vec<usize> {
        self.shape
            .iter()
            .zip(&self.block)
            .map(|(&d, &b)| d.div_ceil(b.max(1)).saturating_mul(b))
            .collect()
    }

    pub fn block_numel(&self) -> usize {
        self.block.iter().product()
    }

    /// The first element of the block at grid point `pids`, per dimension, as
    /// interpret mode's dynamic slice places it: clamped into the padded array.
    pub fn block_start(&self, pids: &[usize]) -> Vec<usize> {
        self.index_map
            .iter()
            .zip(self.block.iter().zip(self.padded_shape()))
            .map(|(index, (&b, padded))| {
                let start = index.eval(pids).saturating_mul(b as i64);
                start.clamp(0, padded.saturating_sub(b) as i64) as usize
            })
            .collect()
    }
}

/// A static window of a ref along one of its (unsqueezed) dimensions: `start`
/// and `size`, or one index that drops the dimension (`x_ref[0]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct Window {
    pub start: usize,
    pub size: usize,
    #[serde(default)]
    pub drop: bool,
}

/// One block operation. Elementwise operands have the result's shape or are
/// scalars (shape `[]`); the tracer inserts `Broadcast` and `Cast` so that
/// backends never broadcast or promote.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum BlockOp {
    /// A window of ref `r`.
    Load {
        r: usize,
        window: Vec<Window>,
    },
    /// Writes `value` into a window of ref `r` (no result).
    Store {
        r: usize,
        window: Vec<Window>,
        value: usize,
    },
    Const {
        #[cfg_attr(feature = "typescript", ts(type = "number | string"))]
        value: Number,
    },
    /// `pl.program_id(axis)`, an int32 scalar.
    ProgramId {
        axis: usize,
    },
    Binary {
        op: BinaryOp,
        a: usize,
        b: usize,
    },
    Unary {
        op: UnaryOp,
        a: usize,
    },
    Compare {
        op: CompareOp,
        a: usize,
        b: usize,
    },
    Where {
        cond: usize,
        a: usize,
        b: usize,
    },
    /// A reduction (sum, max or min) over `axes` of `a`; the result keeps them
    /// at size 1 when `keepdims`.
    Reduce {
        op: ReduceOp,
        a: usize,
        axes: Vec<usize>,
        keepdims: bool,
    },
    /// `jnp.dot` of 2-D blocks, accumulated in float32.
    Dot {
        a: usize,
        b: usize,
    },
    /// `a` converted to the result's dtype.
    Cast {
        a: usize,
    },
    /// `a` broadcast (numpy's rule, aligned on the right) to the result's shape.
    Broadcast {
        a: usize,
    },
    /// `a`'s elements, row-major, in the result's shape.
    Reshape {
        a: usize,
    },
    /// `a` with its two axes swapped (2-D).
    Transpose {
        a: usize,
    },
    /// `pl.when(cond)`: `body` runs where the scalar `cond` is true.
    When {
        cond: usize,
        body: Vec<Inst>,
    },
}

/// A block operation and the value it defines (`out`, unused by `Store` and
/// `When`), with that value's shape and dtype.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct Inst {
    pub out: usize,
    pub shape: Vec<usize>,
    pub dtype: DType,
    pub op: BlockOp,
    /// The kernel's source line that made it.
    #[serde(default)]
    pub line: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct PallasKernel {
    /// The kernel function's name.
    pub name: String,
    pub grid: Vec<usize>,
    /// The inputs, then the outputs.
    pub refs: Vec<BlockRef>,
    pub inputs: usize,
    pub body: Vec<Inst>,
    /// How many values the body defines (ids `0..values`).
    pub values: usize,
}

/// A float constant of a kernel. JSON has no NaN or infinities, so those
/// travel as text (`"nan"`, `"inf"`, `"-inf"`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Number(pub f64);

impl Serialize for Number {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0.is_finite() {
            s.serialize_f64(self.0)
        } else {
            s.serialize_str(&self.0.to_string().to_lowercase())
        }
    }
}

impl<'de> Deserialize<'de> for Number {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Form {
            Float(f64),
            Text(String),
        }
        match Form::deserialize(d)? {
            Form::Float(x) => Ok(Number(x)),
            Form::Text(t) => t.parse().map(Number).map_err(serde::de::Error::custom),
        }
    }
}

/// What is wrong with a traced kernel: the tracer's bug, never the user's (the
/// tracer reports the user's mistakes in Python's words first).
#[derive(Clone, Debug, PartialEq)]
pub struct InvalidKernel(pub String);

impl std::fmt::Display for InvalidKernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "invalid Pallas kernel: {}", self.0)
    }
}

impl PallasKernel {
    pub fn outputs(&self) -> &[BlockRef] {
        &self.refs[self.inputs..]
    }

    pub fn grid_points(&self) -> usize {
        self.grid.iter().product()
    }

    /// The program ids of grid point `p` in execution order (last axis fastest).
    pub fn program_ids(&self, mut p: usize) -> Vec<usize> {
        let mut pids = vec![0; self.grid.len()];
        for (axis, &n) in self.grid.iter().enumerate().rev() {
            pids[axis] = p % n.max(1);
            p /= n.max(1);
        }
        pids
    }

    /// Per grid axis, whether its points may run at once: every output has
    /// a block index that moves along it alone (`c * pid + d`, `c != 0`) and
    /// stays inside the array, so no two points on the axis write (or read
    /// back) the same block. Other axes run in order.
    pub fn parallel_axes(&self) -> Vec<bool> {
        (0..self.grid.len())
            .map(|axis| {
                let last = self.grid[axis] as i64 - 1;
                self.outputs().iter().all(|r| {
                    r.index_map.iter().enumerate().any(|(d, i)| {
                        let blocks = r.shape[d].div_ceil(r.block[d].max(1)) as i64;
                        i.affine_in(axis).is_some_and(|(c, off)| {
                            let ends = [off, c * last + off];
                            c != 0 && ends.iter().all(|&e| (0..blocks).contains(&e))
                        })
                    })
                })
            })
            .collect()
    }

    /// Offsets of each output in the kernel's one output buffer (outputs are
    /// stored padded to whole blocks, one after another), and its length.
    pub fn output_offsets(&self) -> (Vec<usize>, usize) {
        let mut offsets = Vec::new();
        let mut total = 0;
        for r in self.outputs() {
            offsets.push(total);
            total += r.padded_shape().iter().product::<usize>();
        }
        (offsets, total)
    }

    /// The compilation cache's key: the whole kernel, shapes included, since
    /// the generated code is specialised to them.
    pub fn fingerprint(&self) -> String {
        fingerprint(&format!("{:?}", (&self.grid, &self.refs, &self.body)))
    }

    /// Each instruction, in program order, nested bodies included.
    pub fn instructions(&self) -> Vec<&Inst> {
        fn walk<'a>(body: &'a [Inst], into: &mut Vec<&'a Inst>) {
            for inst in body {
                into.push(inst);
                if let BlockOp::When { body, .. } = &inst.op {
                    walk(body, into);
                }
            }
        }
        let mut all = Vec::new();
        walk(&self.body, &mut all);
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block_ref(shape: &[usize], block: &[usize], map: Vec<Index>) -> BlockRef {
        BlockRef {
            shape: shape.to_vec(),
            dtype: DType::Float32,
            block: block.to_vec(),
            squeezed: vec![false; shape.len()],
            index_map: map,
        }
    }

    fn pid(axis: usize) -> Index {
        Index::ProgramId { axis }
    }

    #[test]
    fn reduction_axes_run_in_order_and_the_others_at_once() {
        // A blocked matmul's grid (i, j, k): the output's block is (i, j).
        let kernel = PallasKernel {
            name: "mm".into(),
            grid: vec![2, 2, 3],
            refs: vec![
                block_ref(&[8, 8], &[4, 4], vec![pid(0), pid(2)]),
                block_ref(&[8, 8], &[4, 4], vec![pid(0), pid(1)]),
            ],
            inputs: 1,
            body: vec![],
            values: 0,
        };
        assert_eq!(kernel.parallel_axes(), vec![true, true, false]);
        assert_eq!(kernel.program_ids(5), vec![0, 1, 2]);
    }

    #[test]
    fn blocks_past_the_edge_are_clamped_into_the_padded_array() {
        let r = block_ref(&[10], &[4], vec![pid(0)]);
        assert_eq!(r.padded_shape(), vec![12]);
        assert_eq!(r.block_start(&[2]), vec![8]);
        assert_eq!(r.block_start(&[7]), vec![8]);
    }
}
