//! The reference backend's fused kernels: an elementwise or matmul-epilogue
//! group as one blocked pass over its iteration space, a row kernel as one pass
//! per row. Element for element they do the float32 operations the unfused ops
//! do, in the same order, so fused and unfused runs agree exactly.

use super::{batched_in_place, for_each_index, offset, reduce_lane};
use tpu_ir::{FusedKernel, FusedNode};

/// Elements a fused kernel evaluates per block: small enough that every node's
/// block stays in cache, large enough for tight, vectorisable loops.
pub(super) const FUSED_BLOCK: usize = 1024;

/// A fusion group as one pass over its iteration space, block by block: each
/// node is evaluated for a block of elements before the next node, so the
/// intermediates live in cache-sized buffers and never in memory at full size,
/// while each node's loop is as tight as an unfused kernel's. Element for
/// element it does the float32 operations the unfused ops do, in the same order.
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
    // Each broadcast input is read through a cursor that walks the kernel's
    // shape with the input's broadcast strides, one row run at a time.
    let mut cursors: Vec<Option<Cursor>> = strides
        .iter()
        .zip(&dense)
        .enumerate()
        .map(|(index, (s, &d))| {
            (!d && !kernel.is_matmul_operand(index)).then(|| Cursor::new(kernel.shape.dims(), s))
        })
        .collect();
    let mut outs: Vec<Vec<f32>> = kernel
        .outputs
        .iter()
        .map(|_| Vec::with_capacity(n))
        .collect();
    let mut blocks = vec![vec![0f32; FUSED_BLOCK]; kernel.nodes.len()];
    let mut start = 0;
    while start < n {
        let len = FUSED_BLOCK.min(n - start);
        for (k, node) in kernel.nodes.iter().enumerate() {
            let (done, rest) = blocks.split_at_mut(k);
            let out = &mut rest[0][..len];
            match node {
                FusedNode::Input { index } => match &mut cursors[*index] {
                    None => out.copy_from_slice(&values[*index][start..start + len]),
                    Some(cursor) => cursor.read(values[*index], out),
                },
                FusedNode::Const { value } => out.fill(*value as f32),
                FusedNode::Binary { op, a, b } => {
                    let (a, b) = (&done[*a][..len], &done[*b][..len]);
                    binary_block(*op, a, b, out);
                }
                FusedNode::Scalar {
                    op,
                    x,
                    scalar,
                    scalar_on_left,
                } => {
                    scalar_block(*op, &done[*x][..len], *scalar as f32, *scalar_on_left, out);
                }
                FusedNode::Unary { op, x } => {
                    for (slot, &v) in out.iter_mut().zip(&done[*x][..len]) {
                        *slot = op.apply_f32(v);
                    }
                }
                FusedNode::Where { cond, a, b } => {
                    let (c, a, b) = (&done[*cond][..len], &done[*a][..len], &done[*b][..len]);
                    for (((slot, &c), &x), &y) in out.iter_mut().zip(c).zip(a).zip(b) {
                        *slot = if c != 0.0 { x } else { y };
                    }
                }
                FusedNode::Compare { op, a, b } => {
                    let (a, b) = (&done[*a][..len], &done[*b][..len]);
                    for ((slot, &x), &y) in out.iter_mut().zip(a).zip(b) {
                        *slot = f32::from(u8::from(op.apply(x, y)));
                    }
                }
                FusedNode::CompareScalar { op, x, scalar } => {
                    compare_scalar_block(*op, &done[*x][..len], *scalar as f32, out);
                }
                FusedNode::Cast { x, to } => cast_block(*to, &done[*x][..len], out),
                FusedNode::MatMul { .. } => {
                    let product = product.as_ref().expect("a matmul node has its product");
                    out.copy_from_slice(&product[start..start + len]);
                }
                FusedNode::Reduce { .. } => unreachable!("reductions run in row kernels"),
            }
        }
        for (o, &node) in outs.iter_mut().zip(&kernel.outputs) {
            o.extend_from_slice(&blocks[node][..len]);
        }
        start += len;
    }
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
    fn new(dims: &[usize], strides: &[usize]) -> Cursor {
        Cursor {
            dims: dims.to_vec(),
            strides: strides.to_vec(),
            index: vec![0; dims.len()],
            offset: 0,
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
            for (j, slot) in out[done..done + run].iter_mut().enumerate() {
                *slot = values[self.offset + j * inner];
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

/// A row kernel, one row at a time: each node is a row of `n` values, or one
/// value where it is constant along the reduced axis; a reduction folds its
/// operand's row with the unfused op's own lane function.
fn run_rows(kernel: &FusedKernel, values: &[&[f32]]) -> Vec<Vec<f32>> {
    let axis = kernel.reduce_axis.expect("a row kernel has an axis");
    let (rows, n, inner) = kernel.row_dims().expect("a row kernel has an axis");
    let constant = kernel.row_constant();
    let strides: Vec<Vec<usize>> = kernel
        .inputs
        .iter()
        .map(|i| i.shape.broadcast_strides(&kernel.shape))
        .collect();
    let mut outs: Vec<Vec<f32>> = kernel
        .outputs
        .iter()
        .map(|&node| {
            if constant[node] {
                Vec::with_capacity(rows)
            } else {
                vec![0f32; kernel.shape.numel()]
            }
        })
        .collect();
    let mut row_shape = kernel.shape.dims().to_vec();
    row_shape[axis] = 1;
    // An op over per-row values alone whose result is a full row (it is
    // read as one): computed once, then repeated.
    let repeated: Vec<bool> = (0..kernel.nodes.len())
        .map(|k| {
            let computed = !matches!(
                kernel.nodes[k],
                FusedNode::Input { .. }
                    | FusedNode::Const { .. }
                    | FusedNode::Reduce { .. }
                    | FusedNode::MatMul { .. }
            );
            computed && !constant[k] && kernel.operands(k).iter().all(|&x| constant[x])
        })
        .collect();
    let mut row: Vec<Vec<f32>> = vec![Vec::with_capacity(n); kernel.nodes.len()];
    let mut r = 0;
    for_each_index(&tpu_ir::Shape::new(row_shape), |index| {
        for (k, node) in kernel.nodes.iter().enumerate() {
            let (done, rest) = row.split_at_mut(k);
            let out = &mut rest[0];
            let len = if constant[k] { 1 } else { n };
            let repeated = repeated[k];
            out.resize(if repeated { 1 } else { len }, 0.0);
            // Node `x`'s row, or its one value where it is constant: each op
            // runs as the elementwise kernel's vector loops, a constant
            // operand as a scalar one (the same float32 operations).
            let row_of = |x: usize| &done[x][..];
            match node {
                FusedNode::Input { index: i } => {
                    let base = offset(index, &strides[*i]);
                    let step = strides[*i][axis];
                    if step == 1 {
                        out.copy_from_slice(&values[*i][base..base + len]);
                    } else {
                        for (j, slot) in out.iter_mut().enumerate() {
                            *slot = values[*i][base + j * step];
                        }
                    }
                }
                FusedNode::Const { value } => out.fill(*value as f32),
                FusedNode::Binary { op, a, b } => match (constant[*a], constant[*b]) {
                    (true, true) => out[0] = op.apply(done[*a][0], done[*b][0]),
                    (true, false) => scalar_block(*op, row_of(*b), done[*a][0], true, out),
                    (false, true) => scalar_block(*op, row_of(*a), done[*b][0], false, out),
                    (false, false) => binary_block(*op, row_of(*a), row_of(*b), out),
                },
                FusedNode::Scalar {
                    op,
                    x,
                    scalar,
                    scalar_on_left,
                } => scalar_block(*op, row_of(*x), *scalar as f32, *scalar_on_left, out),
                FusedNode::Unary { op, x } => {
                    for (slot, &v) in out.iter_mut().zip(row_of(*x)) {
                        *slot = op.apply_f32(v);
                    }
                }
                FusedNode::Where { cond, a, b } => {
                    let at = |x: usize, j: usize| if constant[x] { done[x][0] } else { done[x][j] };
                    for (j, slot) in out.iter_mut().enumerate() {
                        *slot = if at(*cond, j) != 0.0 {
                            at(*a, j)
                        } else {
                            at(*b, j)
                        };
                    }
                }
                FusedNode::Compare { op, a, b } => {
                    let at = |x: usize, j: usize| if constant[x] { done[x][0] } else { done[x][j] };
                    for (j, slot) in out.iter_mut().enumerate() {
                        *slot = f32::from(u8::from(op.apply(at(*a, j), at(*b, j))));
                    }
                }
                FusedNode::CompareScalar { op, x, scalar } => {
                    compare_scalar_block(*op, row_of(*x), *scalar as f32, out);
                }
                FusedNode::Cast { x, to } => cast_block(*to, row_of(*x), out),
                FusedNode::Reduce { op, x } => {
                    out[0] = if constant[*x] {
                        let lane = vec![done[*x][0]; n];
                        reduce_lane(*op, &lane)
                    } else {
                        reduce_lane(*op, row_of(*x))
                    };
                }
                FusedNode::MatMul { .. } => unreachable!("a row kernel has no matmul"),
            }
            if repeated {
                let value = out[0];
                out.resize(len, value);
            }
        }
        let base = (r / inner) * n * inner + r % inner;
        for (o, &node) in outs.iter_mut().zip(&kernel.outputs) {
            if constant[node] {
                o.push(row[node][0]);
            } else {
                for (j, &v) in row[node].iter().enumerate() {
                    o[base + j * inner] = v;
                }
            }
        }
        r += 1;
    });
    outs
}
