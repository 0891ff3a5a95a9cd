//! The reference backend's fused kernels: an elementwise or matmul-epilogue
//! group as one blocked pass over its iteration space, a row kernel as one pass
//! per row. Element for element they do the float32 operations the unfused ops
//! do, in the same order, so fused and unfused runs agree exactly.

use super::reduce::reduce_across;
use super::{batched_in_place, offset, reduce_lane, threads};
use tpu_ir::{FusedKernel, FusedNode};

/// Elements a fused kernel evaluates per block: small enough that every node's
/// block stays in cache, large enough for tight, vectorisable loops.
pub(super) const FUSED_BLOCK: usize = 1024;

/// What a row kernel does with each tile: its first row, its width and every
/// node's values (`tile_step`).
type TakeTile<'a> = dyn FnMut(usize, usize, &[Vec<f32>]) + 'a;

/// About how many values a row kernel's node holds per tile of adjacent rows
/// (`tile_step`): rows of `n` values are taken `TILE_VALUES / n` at a time
/// (4 to 64), so that a tile's nodes stay in cache.
const TILE_VALUES: usize = 4096;

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

/// A row kernel, one row at a time: each node is a row of `n` values, or one
/// value where it is constant along the reduced axis; a reduction folds its
/// operand's row with the unfused op's own lane function.
fn run_rows(kernel: &FusedKernel, values: &[&[f32]]) -> Vec<Vec<f32>> {
    let (rows, n, inner) = kernel.row_dims().expect("a row kernel has an axis");
    let constant = kernel.row_constant();
    let strides: Vec<Vec<usize>> = kernel
        .inputs
        .iter()
        .map(|i| i.shape.broadcast_strides(&kernel.shape))
        .collect();
    // The loops run over the shape with its other dimensions merged where
    // every input steps through them as one, so that a tile of adjacent rows
    // can be as wide as those dimensions together.
    let (dims, strides, axis) = merge_dims(
        kernel.shape.dims(),
        &strides,
        kernel.reduce_axis.expect("a row kernel has an axis"),
    );
    let mut outs: Vec<Vec<f32>> = kernel
        .outputs
        .iter()
        .map(|&node| {
            let len = if constant[node] {
                rows
            } else {
                kernel.shape.numel()
            };
            vec![0f32; len]
        })
        .collect();
    let mut row_shape = dims.clone();
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
    // Rows `span` in order, a tile of adjacent ones at a time (`tile_step`),
    // each tile handed to `take` with its first row, its width and every
    // node's values.
    let last = dims.len() - 1;
    let each_row = |span: std::ops::Range<usize>, take: &mut TakeTile| {
        let mut index = threads::unravel(span.start, &row_shape);
        let mut tile: Vec<Vec<f32>> = vec![Vec::new(); kernel.nodes.len()];
        let mut r = span.start;
        while r < span.end {
            let width = if axis == last {
                1
            } else {
                let run = row_shape[last] - index[last];
                (TILE_VALUES / n).clamp(4, 64).min(run).min(span.end - r)
            };
            tile_step(
                kernel,
                values,
                (&strides, axis),
                &repeated,
                &index,
                width,
                &mut tile,
            );
            take(r, width, &tile);
            for _ in 0..width {
                threads::advance(&mut index, &row_shape);
            }
            r += width;
        }
    };
    let outer = rows / inner.max(1);
    let work = kernel.shape.numel() * kernel.nodes.len();
    let (groups, spans) = (threads::chunks(outer, work), threads::chunks(rows, work));
    if groups.len() >= spans.len() {
        // The threads take whole groups of `inner` rows, whose outputs are
        // contiguous: `inner` per-row values, `n * inner` full-size ones.
        let mut parts: Vec<Vec<&mut [f32]>> = groups.iter().map(|_| Vec::new()).collect();
        for (o, &node) in outs.iter_mut().zip(&kernel.outputs) {
            let unit = if constant[node] { inner } else { n * inner };
            for (c, part) in threads::split(o, &groups, unit).into_iter().enumerate() {
                parts[c].push(part);
            }
        }
        let jobs: Vec<_> = groups.into_iter().zip(parts).collect();
        threads::run(jobs, |(groups, mut outs)| {
            let first = groups.start * inner;
            let skipped = groups.start * n * inner;
            each_row(first..groups.end * inner, &mut |r, width, tile| {
                // The tile's rows are adjacent in the outputs too.
                let base = (r / inner) * n * inner + r % inner - skipped;
                for (o, &node) in outs.iter_mut().zip(&kernel.outputs) {
                    if constant[node] {
                        o[r - first..r - first + width].copy_from_slice(&tile[node]);
                    } else {
                        for (j, lane) in tile[node].chunks(width).enumerate() {
                            o[base + j * inner..base + j * inner + width].copy_from_slice(lane);
                        }
                    }
                }
            });
        });
        return outs;
    }
    // Fewer groups than threads (a reduction over the first axis): the
    // threads take spans of rows, which lie interleaved in the outputs, so
    // each computes its rows into buffers of its own, laid out as the
    // outputs are (`[n][rows of the span]`), then copied into place a run of
    // rows at a time.
    let mut spilled: Vec<Vec<Vec<f32>>> = spans.iter().map(|_| Vec::new()).collect();
    let jobs: Vec<_> = spans.iter().cloned().zip(spilled.iter_mut()).collect();
    threads::run(jobs, |(span, spill)| {
        let len = span.len();
        *spill = kernel
            .outputs
            .iter()
            .map(|&node| vec![0f32; if constant[node] { len } else { len * n }])
            .collect();
        let first = span.start;
        each_row(span, &mut |r, width, tile| {
            let at = r - first;
            for (o, &node) in spill.iter_mut().zip(&kernel.outputs) {
                if constant[node] {
                    o[at..at + width].copy_from_slice(&tile[node]);
                } else {
                    for (j, lane) in tile[node].chunks(width).enumerate() {
                        o[j * len + at..j * len + at + width].copy_from_slice(lane);
                    }
                }
            }
        });
    });
    for (span, spill) in spans.into_iter().zip(spilled) {
        let (first, len) = (span.start, span.len());
        for ((o, &node), part) in outs.iter_mut().zip(&kernel.outputs).zip(spill) {
            if constant[node] {
                o[span.clone()].copy_from_slice(&part);
                continue;
            }
            // The span's rows cut where a group of `inner` rows ends.
            let mut r = span.start;
            while r < span.end {
                let end = span.end.min((r / inner + 1) * inner);
                let base = (r / inner) * n * inner + r % inner;
                for j in 0..n {
                    let from = j * len + r - first;
                    o[base + j * inner..base + j * inner + end - r]
                        .copy_from_slice(&part[from..from + end - r]);
                }
                r = end;
            }
        }
    }
    outs
}

/// `dims` with each input's `strides` through them, size-1 dimensions
/// dropped and neighbours merged where every input steps through them as
/// one, `axis` kept as it is: the same elements in the same order in fewer
/// dimensions, and where `axis` went.
fn merge_dims(
    dims: &[usize],
    strides: &[Vec<usize>],
    axis: usize,
) -> (Vec<usize>, Vec<Vec<usize>>, usize) {
    let mut merged: Vec<usize> = Vec::new();
    let mut through: Vec<Vec<usize>> = vec![Vec::new(); strides.len()];
    let mut at = 0;
    for (d, &size) in dims.iter().enumerate() {
        if d == axis {
            at = merged.len();
        } else if size == 1 {
            continue;
        } else if let Some(last) = merged.len().checked_sub(1)
            && (last != at || axis > d)
            && strides
                .iter()
                .zip(&through)
                .all(|(s, t)| t[last] == s[d] * size)
        {
            merged[last] *= size;
            for (s, t) in strides.iter().zip(through.iter_mut()) {
                t[last] = s[d];
            }
            continue;
        }
        merged.push(size);
        for (s, t) in strides.iter().zip(through.iter_mut()) {
            t.push(s[d]);
        }
    }
    (merged, through, at)
}

/// A tile of `width` adjacent rows of a row kernel (adjacent along the
/// shape's last dimension; one row when the kernel reduces along it), the
/// first at multi-index `index`: each node's values in `tile`, as `[n][width]`
/// (the rows side by side, so that every loop runs across them) or `[width]`
/// where the node is one value per row. Each row gets the float32 operations,
/// in the order, that it gets alone.
fn tile_step(
    kernel: &FusedKernel,
    values: &[&[f32]],
    (strides, axis): (&[Vec<usize>], usize),
    repeated: &[bool],
    index: &[usize],
    width: usize,
    tile: &mut [Vec<f32>],
) {
    let n = kernel.shape.dims()[kernel.reduce_axis.expect("a row kernel has an axis")];
    let constant = &kernel.per_row;
    let w = width;
    for (k, node) in kernel.nodes.iter().enumerate() {
        let (done, rest) = tile.split_at_mut(k);
        let out = &mut rest[0];
        // An op over per-row values alone whose result is a full row is
        // computed once per row, then repeated along it.
        let len = if constant[k] || repeated[k] { w } else { n * w };
        out.resize(len, 0.0);
        let of = |x: usize| &done[x][..];
        // Element `i` of `out` from operand `x`, which is per row when it
        // is shorter.
        let at = |x: &[f32], i: usize| if x.len() == len { x[i] } else { x[i % w] };
        match node {
            FusedNode::Input { index: i } => {
                let base = offset(index, &strides[*i]);
                let (step, across) = (strides[*i][axis], *strides[*i].last().unwrap_or(&0));
                for (j, lane) in out.chunks_mut(w).enumerate() {
                    let at = base + j * step;
                    if across == 1 {
                        lane.copy_from_slice(&values[*i][at..at + w]);
                    } else {
                        for (t, slot) in lane.iter_mut().enumerate() {
                            *slot = values[*i][at + t * across];
                        }
                    }
                }
            }
            FusedNode::Const { value } => out.fill(*value as f32),
            FusedNode::Binary { op, a, b } => {
                let (x, y) = (of(*a), of(*b));
                if x.len() == len && y.len() == len {
                    binary_block(*op, x, y, out);
                } else if w == 1 {
                    // One row: a per-row operand is a number.
                    if x.len() == len {
                        scalar_block(*op, x, y[0], false, out);
                    } else {
                        scalar_block(*op, y, x[0], true, out);
                    }
                } else {
                    for (j, lane) in out.chunks_mut(w).enumerate() {
                        let xs = if x.len() == len {
                            &x[j * w..j * w + w]
                        } else {
                            x
                        };
                        let ys = if y.len() == len {
                            &y[j * w..j * w + w]
                        } else {
                            y
                        };
                        binary_block(*op, xs, ys, lane);
                    }
                }
            }
            FusedNode::Scalar {
                op,
                x,
                scalar,
                scalar_on_left,
            } => scalar_block(*op, of(*x), *scalar as f32, *scalar_on_left, out),
            FusedNode::Unary { op, x } => op.map_f32(of(*x), out),
            FusedNode::Where { cond, a, b } => {
                let (c, x, y) = (of(*cond), of(*a), of(*b));
                for (i, slot) in out.iter_mut().enumerate() {
                    *slot = if at(c, i) != 0.0 { at(x, i) } else { at(y, i) };
                }
            }
            FusedNode::Compare { op, a, b } => {
                let (x, y) = (of(*a), of(*b));
                for (i, slot) in out.iter_mut().enumerate() {
                    *slot = f32::from(u8::from(op.apply(at(x, i), at(y, i))));
                }
            }
            FusedNode::CompareScalar { op, x, scalar } => {
                compare_scalar_block(*op, of(*x), *scalar as f32, out);
            }
            FusedNode::Cast { x, to } => cast_block(*to, of(*x), out),
            FusedNode::Reduce { op, x } => {
                let x = of(*x);
                if x.len() == w {
                    // A per-row operand: each row's `n` copies of it.
                    for (slot, &v) in out.iter_mut().zip(x) {
                        *slot = reduce_lane(*op, &vec![v; n]);
                    }
                } else if w == 1 {
                    out[0] = reduce_lane(*op, x);
                } else {
                    reduce_across(*op, x, w, out);
                }
            }
            FusedNode::MatMul { .. } => unreachable!("a row kernel has no matmul"),
        }
        if repeated[k] {
            let lane = out.clone();
            out.resize(n * w, 0.0);
            for part in out.chunks_mut(w) {
                part.copy_from_slice(&lane);
            }
        }
    }
}

#[cfg(test)]
mod tests;
