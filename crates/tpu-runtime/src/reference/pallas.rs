//! The definition of a Pallas kernel (`Op::Pallas`): the grid in order, the
//! last axis fastest; at each point the body runs on its blocks. Loads read
//! the arrays directly (an input's elements past its edge read the padding
//! value, an output is its padded buffer, NaN before anything is stored), and
//! stores write the output buffer, so a later point sees an earlier point's
//! stores. Every value is held in float64 and rounded to its dtype after each
//! operation (float32, bfloat16, int32 or bool); sums and dot products
//! accumulate in float32 in index order, as the generated WGSL does.

use crate::data::{bf16_to_f32, f32_to_bf16};
use tpu_ir::{BlockOp, BlockRef, DType, Inst, PallasKernel, ReduceOp, Shape, Window};

/// The value an element past an array's edge reads, and an output holds
/// before it is written (Pallas's interpret mode: `uninitialized_value`).
pub(crate) fn padding_value(dtype: DType) -> f64 {
    match dtype {
        DType::Int32 => i32::MIN as f64,
        DType::Int64 => i64::MIN as f64,
        DType::Bool => 0.0,
        _ => f64::NAN,
    }
}

/// `x` rounded to `dtype`, as an op computing in that dtype would leave it.
pub(crate) fn round(x: f64, dtype: DType) -> f64 {
    match dtype {
        DType::Float32 => x as f32 as f64,
        DType::BFloat16 => bf16_to_f32(f32_to_bf16(x as f32)) as f64,
        DType::Float16 => crate::data::f16_to_f32(crate::data::f32_to_f16(x as f32)) as f64,
        DType::UInt8 => {
            if x.is_nan() {
                0.0
            } else {
                (x as i64) as u8 as f64
            }
        }
        DType::Int32 => {
            if x.is_nan() {
                0.0
            } else {
                (x as i64) as i32 as f64
            }
        }
        DType::Int64 => x.trunc(),
        DType::Bool => f64::from(u8::from(x != 0.0)),
        DType::Float64 => x,
    }
}

/// The flat positions of a window's elements (row-major over the dimensions
/// it keeps) in ref `r`'s array at grid point `pids`; `None` past the edge
/// of an input. Outputs are addressed in their padded buffer.
pub(crate) fn window_positions(
    kernel: &PallasKernel,
    r: usize,
    window: &[Window],
    pids: &[usize],
) -> Vec<Option<usize>> {
    let re = &kernel.refs[r];
    let is_output = r >= kernel.inputs;
    let extent = if is_output {
        re.padded_shape()
    } else {
        re.shape.clone()
    };
    let strides = Shape::new(extent.clone()).strides();
    let (starts, counts) = array_window(re, window, pids);
    let total: usize = counts.iter().product();
    let mut out = Vec::with_capacity(total);
    let mut coord = vec![0usize; counts.len()];
    for _ in 0..total {
        let mut flat = Some(0usize);
        for d in 0..counts.len() {
            let c = starts[d] + coord[d];
            flat = match flat {
                Some(f) if c < extent[d] => Some(f + c * strides[d]),
                _ => None,
            };
        }
        out.push(flat);
        for d in (0..counts.len()).rev() {
            coord[d] += 1;
            if coord[d] < counts[d] {
                break;
            }
            coord[d] = 0;
        }
    }
    out
}

/// Per array dimension, where a window of ref `re` starts at grid point
/// `pids`, and how many elements it takes.
pub(crate) fn array_window(
    re: &BlockRef,
    window: &[Window],
    pids: &[usize],
) -> (Vec<usize>, Vec<usize>) {
    let start = re.block_start(pids);
    let mut windows = window.iter();
    let mut starts = Vec::with_capacity(start.len());
    let mut counts = Vec::with_capacity(start.len());
    for (d, &s) in start.iter().enumerate() {
        if re.squeezed[d] {
            starts.push(s);
            counts.push(1);
        } else {
            let w = windows.next().copied().unwrap_or(Window {
                start: 0,
                size: re.block[d],
                drop: false,
            });
            starts.push(s + w.start);
            counts.push(w.size);
        }
    }
    (starts, counts)
}

/// Runs `kernel` over its inputs (as float64 values); returns the output
/// buffer, every output padded to whole blocks, one after another.
pub(crate) fn run_pallas(kernel: &PallasKernel, inputs: &[Vec<f64>]) -> Vec<f64> {
    let (offsets, total) = kernel.output_offsets();
    let mut out = vec![0.0; total];
    for (j, r) in kernel.outputs().iter().enumerate() {
        let n: usize = r.padded_shape().iter().product();
        out[offsets[j]..offsets[j] + n].fill(padding_value(r.dtype));
    }
    let mut shapes = vec![Vec::new(); kernel.values];
    for inst in kernel.instructions() {
        if !matches!(inst.op, BlockOp::Store { .. } | BlockOp::When { .. }) {
            shapes[inst.out] = inst.shape.clone();
        }
    }
    let mut state = State {
        kernel,
        inputs,
        out,
        offsets,
        values: vec![Vec::new(); kernel.values],
        shapes,
        pids: Vec::new(),
    };
    for p in 0..kernel.grid_points() {
        state.pids = kernel.program_ids(p);
        state.run(&kernel.body);
    }
    state.out
}

struct State<'a> {
    kernel: &'a PallasKernel,
    inputs: &'a [Vec<f64>],
    out: Vec<f64>,
    offsets: Vec<usize>,
    values: Vec<Vec<f64>>,
    shapes: Vec<Vec<usize>>,
    pids: Vec<usize>,
}

impl State<'_> {
    fn run(&mut self, body: &[Inst]) {
        for inst in body {
            let v = match &inst.op {
                BlockOp::Store { r, window, value } => {
                    let positions = window_positions(self.kernel, *r, window, &self.pids);
                    let base = self.offsets[*r - self.kernel.inputs];
                    for (pos, &x) in positions.iter().zip(&self.values[*value]) {
                        if let Some(p) = pos {
                            self.out[base + p] = x;
                        }
                    }
                    continue;
                }
                BlockOp::When { cond, body } => {
                    if self.values[*cond][0] != 0.0 {
                        self.run(body);
                    }
                    continue;
                }
                op => self.eval(inst, op),
            };
            let dtype = inst.dtype;
            self.values[inst.out] = v.into_iter().map(|x| round(x, dtype)).collect();
        }
    }

    fn eval(&self, inst: &Inst, op: &BlockOp) -> Vec<f64> {
        let numel: usize = inst.shape.iter().product();
        let val = |v: &usize| &self.values[*v];
        // An elementwise operand: the result's shape, or a scalar.
        let at = |v: &[f64], i: usize| if v.len() == 1 { v[0] } else { v[i] };
        match op {
            BlockOp::Load { r, window } => {
                let positions = window_positions(self.kernel, *r, window, &self.pids);
                let pad = padding_value(self.kernel.refs[*r].dtype);
                positions
                    .iter()
                    .map(|p| match p {
                        Some(p) if *r < self.kernel.inputs => self.inputs[*r][*p],
                        Some(p) => self.out[self.offsets[*r - self.kernel.inputs] + p],
                        None => pad,
                    })
                    .collect()
            }
            BlockOp::Const { value } => vec![value.0],
            BlockOp::ProgramId { axis } => vec![self.pids[*axis] as f64],
            BlockOp::Binary { op, a, b } => {
                let (a, b) = (val(a), val(b));
                (0..numel).map(|i| op.apply(at(a, i), at(b, i))).collect()
            }
            BlockOp::Unary { op, a } => val(a).iter().map(|&x| op.apply(x)).collect(),
            BlockOp::Compare { op, a, b } => {
                let (a, b) = (val(a), val(b));
                (0..numel)
                    .map(|i| f64::from(u8::from(op.apply(at(a, i), at(b, i)))))
                    .collect()
            }
            BlockOp::Where { cond, a, b } => {
                let (c, a, b) = (val(cond), val(a), val(b));
                (0..numel)
                    .map(|i| if at(c, i) != 0.0 { at(a, i) } else { at(b, i) })
                    .collect()
            }
            BlockOp::Reduce { op, a, axes, .. } => self.reduce(*op, *a, axes, inst.dtype),
            BlockOp::Dot { a, b } => {
                let (sa, sb) = (self.shape_of(*a), self.shape_of(*b));
                let (m, k, n) = (sa[0], sa[1], sb[1]);
                let (a, b) = (val(a), val(b));
                let mut out = Vec::with_capacity(m * n);
                for i in 0..m {
                    for j in 0..n {
                        let mut acc = 0.0f32;
                        for t in 0..k {
                            acc += (a[i * k + t] as f32) * (b[t * n + j] as f32);
                        }
                        out.push(acc as f64);
                    }
                }
                out
            }
            BlockOp::Cast { a } | BlockOp::Reshape { a } => val(a).clone(),
            BlockOp::Broadcast { a } => {
                let from = self.shape_of(*a);
                let strides =
                    Shape::new(from.clone()).broadcast_strides(&Shape::new(inst.shape.clone()));
                let a = val(a);
                gather(&inst.shape, &strides, a)
            }
            BlockOp::Transpose { a } => {
                let s = self.shape_of(*a);
                gather(&inst.shape, &[1, s[1]], val(a))
            }
            BlockOp::Store { .. } | BlockOp::When { .. } => Vec::new(),
        }
    }

    fn shape_of(&self, v: usize) -> Vec<usize> {
        self.shapes[v].clone()
    }

    fn reduce(&self, op: ReduceOp, a: usize, axes: &[usize], dtype: DType) -> Vec<f64> {
        let shape = self.shape_of(a);
        let x = &self.values[a];
        // The result laid out with the reduced axes kept at size 1.
        let kept: Vec<usize> = shape
            .iter()
            .enumerate()
            .map(|(i, &n)| if axes.contains(&i) { 1 } else { n })
            .collect();
        let out_strides = Shape::new(kept.clone()).strides();
        let numel: usize = kept.iter().product();
        let init = match op {
            ReduceOp::Max => f64::NEG_INFINITY,
            ReduceOp::Min => f64::INFINITY,
            _ => 0.0,
        };
        let mut acc = vec![init; numel];
        let in_strides = Shape::new(shape.clone()).strides();
        let float = dtype.is_floating();
        for (flat, &v) in x.iter().enumerate() {
            let mut o = 0;
            for d in 0..shape.len() {
                if !axes.contains(&d) {
                    o += (flat / in_strides[d]) % shape[d] * out_strides[d];
                }
            }
            acc[o] = match op {
                // Sums of floats accumulate in float32 (bfloat16 widened, as
                // `jnp.sum` computes), of integers exactly.
                ReduceOp::Sum if float => (acc[o] as f32 + v as f32) as f64,
                ReduceOp::Sum => acc[o] + v,
                ReduceOp::Max if v.is_nan() || acc[o].is_nan() => f64::NAN,
                ReduceOp::Max => acc[o].max(v),
                ReduceOp::Min if v.is_nan() || acc[o].is_nan() => f64::NAN,
                _ => acc[o].min(v),
            };
        }
        acc
    }
}

/// The elements of `src` read at `out`'s row-major positions through `strides`.
fn gather(out: &[usize], strides: &[usize], src: &[f64]) -> Vec<f64> {
    let numel: usize = out.iter().product();
    let mut values = Vec::with_capacity(numel);
    for flat in 0..numel {
        let mut rest = flat;
        let mut pos = 0;
        for d in (0..out.len()).rev() {
            pos += (rest % out[d]) * strides[d];
            rest /= out[d];
        }
        values.push(src[pos]);
    }
    values
}
