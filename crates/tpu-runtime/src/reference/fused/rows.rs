//! The reference backend's row kernels: a fused group with a reduction,
//! computed a tile of adjacent rows at a time, each row's nodes in the order
//! the unfused ops would compute them.

use super::super::reduce::reduce_across;
use super::super::{offset, reduce_lane, threads};
use super::{binary_block, cast_block, compare_scalar_block, scalar_block};
use tpu_ir::{FusedKernel, FusedNode};

/// What a row kernel does with each tile: its first row, its width and every
/// node's values (`tile_step`).
type TakeTile<'a> = dyn FnMut(usize, usize, &[Vec<f32>]) + 'a;

/// About how many values a row kernel's node holds per tile of adjacent rows
/// (`tile_step`): rows of `n` values are taken `TILE_VALUES / n` at a time
/// (4 to 64), so that a tile's nodes stay in cache.
const TILE_VALUES: usize = 4096;

/// A row kernel, one row at a time: each node is a row of `n` values, or one
/// value where it is constant along the reduced axis; a reduction folds its
/// operand's row with the unfused op's own lane function.
pub(super) fn run_rows(kernel: &FusedKernel, values: &[&[f32]]) -> Vec<Vec<f32>> {
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
pub(super) fn merge_dims(
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
