//! The loops the reference kernels share: visiting the rows or the indices
//! of a shape in row-major order, offsets through strides, and broadcasting
//! two operands into an output, shared among threads (`threads.rs`) by rows.

use super::threads;
use tpu_ir::Shape;

/// `f(a[i], b[i])` over the broadcast output shape, reading each input through
/// its broadcast strides; rows of the output are shared among threads.
pub(super) fn broadcast<T: Copy + Sync, U: Copy + Default + Send>(
    out: &Shape,
    a: &[T],
    sa: &[usize],
    b: &[T],
    sb: &[usize],
    f: impl Fn(T, T) -> U + Sync,
) -> Vec<U> {
    let mut result = vec![U::default(); out.numel()];
    let (la, lb) = (
        sa.last().copied().unwrap_or(0),
        sb.last().copied().unwrap_or(0),
    );
    let dims = out.dims();
    let (n, outer) = match dims.split_last() {
        Some((&n, outer)) => (n, outer),
        None => (1, &[][..]),
    };
    threads::for_chunks(&mut result, n, 2, |first_row, part| {
        let mut index = threads::unravel(first_row, outer);
        for row in part.chunks_mut(n.max(1)) {
            let (oa, ob) = (offset(&index, sa), offset(&index, sb));
            for (j, slot) in row.iter_mut().enumerate() {
                *slot = f(a[oa + j * la], b[ob + j * lb]);
            }
            threads::advance(&mut index, outer);
        }
    });
    result
}

/// Visits every row (run along the last dimension) of `shape` in row-major
/// order: the multi-index of the row's first element, and the row's length.
/// A 0-d shape is one row of one element.
pub(super) fn for_each_row(shape: &Shape, mut visit: impl FnMut(&[usize], usize)) {
    let dims = shape.dims();
    match dims.split_last() {
        None => visit(&[], 1),
        Some((&last, outer)) => {
            if last == 0 {
                return;
            }
            let mut index = vec![0usize; dims.len()];
            for_each_index(&Shape::new(outer.to_vec()), |o| {
                index[..outer.len()].copy_from_slice(o);
                visit(&index, last);
            });
        }
    }
}

/// Visits every multi-index of `shape` in row-major order.
pub(super) fn for_each_index(shape: &Shape, mut visit: impl FnMut(&[usize])) {
    let dims = shape.dims();
    if dims.contains(&0) {
        return;
    }
    let mut index = vec![0usize; dims.len()];
    loop {
        visit(&index);
        let mut axis = dims.len();
        loop {
            if axis == 0 {
                return;
            }
            axis -= 1;
            index[axis] += 1;
            if index[axis] < dims[axis] {
                break;
            }
            index[axis] = 0;
        }
    }
}

/// The flat position of multi-index `index` through `strides`.
pub(super) fn offset(index: &[usize], strides: &[usize]) -> usize {
    index.iter().zip(strides).map(|(i, s)| i * s).sum()
}
