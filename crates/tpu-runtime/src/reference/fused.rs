//! The reference backend's fused kernels: an elementwise or matmul-epilogue
//! group as one blocked pass over its iteration space, a row kernel as one pass
//! per row. Element for element they do the float32 operations the unfused ops
//! do, in the same order, so fused and unfused runs agree exactly.

use super::{batched_in_place, offset, threads};
use tpu_ir::{FusedKernel, FusedNode};

mod rows;

use rows::run_rows;

/// Elements a fused kernel evaluates per block: small enough that every node's
/// block stays in cache, large enough for tight, vectorisable loops.
pub(super) const FUSED_BLOCK: usize = 1024;

/// A fusion group as one pass over its iteration space, block by block: each
/// node is evaluated for a block of elements before the next node, so the
/// intermediates live in cache-sized buffers and never in memory at full size,
/// while each node's loop is as tight as an unfused kernel's; a dense input's
/// block, and a matmul's, are read where they lie. Element for element it does
/// the float32 operations the unfused ops do, in the same order.
pub(super) fn run_fused(kernel: &FusedKernel, values: &[&[f32]]) -> Vec<Vec<f32>> {
    if kernel.reduce_axis.is_some() {
        return run_rows(kernel, values);
    }
    // A matmul node's product, computed whole as the unfused op computes it.
    let product = kernel.matmul().map(|mm| {
        let (a, b) = (&values[mm.a], &values[mm.b]);
        let la = (kernel.operand_layout(mm.a), mm.transpose_a);
        let lb = (kernel.operand_layout(mm.b), mm.transpose_b);
        batched_in_place(a, b, (mm.batch, mm.m, mm.k, mm.n), la, lb)
    });
    let n = kernel.shape.numel();
    // A matmul's operands are read whole, never element for element, and may
    // have more dimensions than the kernel (a batch of one folded into rows),
    // so they get no strides, as in the wgpu codegen.
    let strides: Vec<Vec<usize>> = kernel
        .inputs
        .iter()
        .enumerate()
        .map(|(k, i)| {
            if kernel.is_matmul_operand(k) {
                vec![0; kernel.shape.rank()]
            } else {
                i.shape.broadcast_strides(&kernel.shape)
            }
        })
        .collect();
    let dense: Vec<bool> = kernel
        .inputs
        .iter()
        .map(|i| i.shape.dims() == kernel.shape.dims())
        .collect();
    let nodes = kernel.nodes.len();
    // The outputs, cut at the same whole blocks for the threads.
    let mut outs: Vec<Vec<f32>> = kernel.outputs.iter().map(|_| vec![0f32; n]).collect();
    let ranges = threads::chunks(n.div_ceil(FUSED_BLOCK), n.saturating_mul(nodes));
    let mut parts: Vec<Vec<&mut [f32]>> = ranges.iter().map(|_| Vec::new()).collect();
    for o in outs.iter_mut() {
        for (c, part) in threads::split(o, &ranges, FUSED_BLOCK)
            .into_iter()
            .enumerate()
        {
            parts[c].push(part);
        }
    }
    let jobs: Vec<_> = ranges.into_iter().zip(parts).collect();
    threads::run(jobs, |(blocks, mut outs)| {
        let first = blocks.start * FUSED_BLOCK;
        let end = (blocks.end * FUSED_BLOCK).min(n);
        // Each broadcast input is read through a cursor that walks the
        // kernel's shape with the input's broadcast strides, one row run at
        // a time.
        let mut cursors: Vec<Option<Cursor>> = strides
            .iter()
            .zip(&dense)
            .enumerate()
            .map(|(index, (s, &d))| {
                let read = !d && !kernel.is_matmul_operand(index);
                read.then(|| Cursor::at(kernel.shape.dims(), s, first))
            })
            .collect();
        let mut block = vec![vec![0f32; FUSED_BLOCK]; nodes];
        // A dense input's block, and the product's, are read where they lie
        // instead of being copied into the node's buffer first.
        let mut lies: Vec<Option<&[f32]>> = vec![None; nodes];
        let mut start = first;
        while start < end {
            let len = FUSED_BLOCK.min(end - start);
            for (k, node) in kernel.nodes.iter().enumerate() {
                let (done, rest) = block.split_at_mut(k);
                let at = |j: usize| lies[j].unwrap_or(&done[j][..len]);
                let out = &mut rest[0][..len];
                let lying = match node {
                    FusedNode::Input { index } => match &mut cursors[*index] {
                        None => Some(&values[*index][start..start + len]),
                        Some(cursor) => {
                            cursor.read(values[*index], out);
                            None
                        }
                    },
                    FusedNode::MatMul { .. } => {
                        let product = product.as_ref().expect("a matmul node has its product");
                        Some(&product[start..start + len])
                    }
                    FusedNode::Const { value } => {
                        out.fill(*value as f32);
                        None
                    }
                    FusedNode::Binary { op, a, b } => {
                        binary_block(*op, at(*a), at(*b), out);
                        None
                    }
                    FusedNode::Scalar {
                        op,
                        x,
                        scalar,
                        scalar_on_left,
                    } => {
                        scalar_block(*op, at(*x), *scalar as f32, *scalar_on_left, out);
                        None
                    }
                    FusedNode::Unary { op, x } => {
                        op.map_f32(at(*x), out);
                        None
                    }
                    FusedNode::Where { cond, a, b } => {
                        let (c, a, b) = (at(*cond), at(*a), at(*b));
                        for (((slot, &c), &x), &y) in out.iter_mut().zip(c).zip(a).zip(b) {
                            *slot = if c != 0.0 { x } else { y };
                        }
                        None
                    }
                    FusedNode::Compare { op, a, b } => {
                        let (a, b) = (at(*a), at(*b));
                        for ((slot, &x), &y) in out.iter_mut().zip(a).zip(b) {
                            *slot = f32::from(u8::from(op.apply(x, y)));
                        }
                        None
                    }
                    FusedNode::CompareScalar { op, x, scalar } => {
                        compare_scalar_block(*op, at(*x), *scalar as f32, out);
                        None
                    }
                    FusedNode::Cast { x, to } => {
                        cast_block(*to, at(*x), out);
                        None
                    }
                    FusedNode::Reduce { .. } => unreachable!("reductions run in row kernels"),
                };
                lies[k] = lying;
            }
            for (o, &node) in outs.iter_mut().zip(&kernel.outputs) {
                let value = lies[node].unwrap_or(&block[node][..len]);
                o[start - first..start - first + len].copy_from_slice(value);
            }
            start += len;
        }
    });
    outs
}

/// A position in a kernel's iteration space and the offset it reads in a
/// broadcast input, advanced in row-major order.
struct Cursor {
    dims: Vec<usize>,
    strides: Vec<usize>,
    index: Vec<usize>,
    offset: usize,
}

impl Cursor {
    /// A cursor at flat position `start` of `dims`, which it walks merged
    /// where the input steps through neighbours as one (longer runs).
    fn at(dims: &[usize], strides: &[usize], start: usize) -> Cursor {
        let (dims, strides) = super::loops::coalesce(dims, strides);
        let index = threads::unravel(start, &dims);
        Cursor {
            offset: offset(&index, &strides),
            dims,
            strides,
            index,
        }
    }

    /// Fills `out` with the next `out.len()` elements.
    fn read(&mut self, values: &[f32], out: &mut [f32]) {
        let Some(last) = self.dims.len().checked_sub(1) else {
            out.fill(values[0]);
            return;
        };
        let (n, inner) = (self.dims[last], self.strides[last]);
        let mut done = 0;
        while done < out.len() {
            let run = (n - self.index[last]).min(out.len() - done);
            let into = &mut out[done..done + run];
            match inner {
                0 => into.fill(values[self.offset]),
                1 => into.copy_from_slice(&values[self.offset..self.offset + run]),
                _ => {
                    for (j, slot) in into.iter_mut().enumerate() {
                        *slot = values[self.offset + j * inner];
                    }
                }
            }
            done += run;
            self.index[last] += run;
            self.offset += run * inner;
            // Carry into the outer dimensions at the end of a row.
            let mut axis = last;
            while self.index[axis] == self.dims[axis] && axis > 0 {
                self.offset -= self.dims[axis] * self.strides[axis];
                self.index[axis] = 0;
                axis -= 1;
                self.index[axis] += 1;
                self.offset += self.strides[axis];
            }
        }
    }
}

/// `out[i] = x[i] op s` as a bool held as 0 or 1.
fn compare_scalar_block(op: tpu_ir::CompareOp, x: &[f32], s: f32, out: &mut [f32]) {
    for (slot, &v) in out.iter_mut().zip(x) {
        *slot = f32::from(u8::from(op.apply(v, s)));
    }
}

/// `x` (float32, or a bool held as 0 or 1) converted to `to`: to a bool a
/// float is true unless it is zero (NaN is true); to float32 a bool's 0 or 1
/// is already its value.
fn cast_block(to: tpu_ir::DType, x: &[f32], out: &mut [f32]) {
    if to == tpu_ir::DType::Bool {
        for (slot, &v) in out.iter_mut().zip(x) {
            *slot = f32::from(u8::from(v != 0.0));
        }
    } else {
        out.copy_from_slice(x);
    }
}

/// `out[i] = x[i] op s` (or `s op x[i]`), with the common ops chosen outside
/// the loop so that they compile to vector code.
fn scalar_block(op: tpu_ir::BinaryOp, x: &[f32], s: f32, scalar_on_left: bool, out: &mut [f32]) {
    use tpu_ir::BinaryOp;
    fn each(out: &mut [f32], x: &[f32], f: impl Fn(f32) -> f32) {
        for (slot, &v) in out.iter_mut().zip(x) {
            *slot = f(v);
        }
    }
    match (op, scalar_on_left) {
        (BinaryOp::Add, false) => each(out, x, |v| v + s),
        (BinaryOp::Add, true) => each(out, x, |v| s + v),
        (BinaryOp::Mul, false) => each(out, x, |v| v * s),
        (BinaryOp::Mul, true) => each(out, x, |v| s * v),
        (BinaryOp::Sub, false) => each(out, x, |v| v - s),
        (BinaryOp::Sub, true) => each(out, x, |v| s - v),
        (BinaryOp::Div, false) => each(out, x, |v| v / s),
        (BinaryOp::Div, true) => each(out, x, |v| s / v),
        (op, false) => each(out, x, |v| op.apply(v, s)),
        (op, true) => each(out, x, |v| op.apply(s, v)),
    }
}

/// `out[i] = a[i] op b[i]`, with the op chosen once, outside the loop, so the
/// common ones compile to vector code.
fn binary_block(op: tpu_ir::BinaryOp, a: &[f32], b: &[f32], out: &mut [f32]) {
    use tpu_ir::BinaryOp;
    let each = |out: &mut [f32], f: fn(f32, f32) -> f32| {
        for ((slot, &x), &y) in out.iter_mut().zip(a).zip(b) {
            *slot = f(x, y);
        }
    };
    match op {
        BinaryOp::Add => each(out, |x, y| x + y),
        BinaryOp::Sub => each(out, |x, y| x - y),
        BinaryOp::Mul => each(out, |x, y| x * y),
        BinaryOp::Div => each(out, |x, y| x / y),
        other => {
            for ((slot, &x), &y) in out.iter_mut().zip(a).zip(b) {
                *slot = other.apply(x, y);
            }
        }
    }
}

#[cfg(test)]
mod tests;
