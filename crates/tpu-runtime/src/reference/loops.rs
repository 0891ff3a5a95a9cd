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
    let dense = out.strides();
    if sa == dense && sb == dense {
        // Neither operand broadcast: one run over the whole output.
        threads::for_chunks(&mut result, 1, 2, |first, part| {
            let (a, b) = (&a[first..first + part.len()], &b[first..first + part.len()]);
            for ((slot, &x), &y) in part.iter_mut().zip(a).zip(b) {
                *slot = f(x, y);
            }
        });
        return result;
    }
    let (la, lb) = (
        sa.last().copied().unwrap_or(0),
        sb.last().copied().unwrap_or(0),
    );
    let dims = out.dims();
    let (n, outer) = match dims.split_last() {
        Some((&n, outer)) => (n, outer),
        None => (1, &[][..]),
    };
    let rank = outer.len();
    threads::for_chunks(&mut result, n, 2, |first_row, part| {
        let mut rows = Offsets::new(first_row, outer, [&sa[..rank], &sb[..rank]]);
        for row in part.chunks_mut(n.max(1)) {
            let [oa, ob] = rows.at;
            for (j, slot) in row.iter_mut().enumerate() {
                *slot = f(a[oa + j * la], b[ob + j * lb]);
            }
            rows.advance();
        }
    });
    result
}

/// The offsets of `K` operands at the multi-indices of `dims` in row-major
/// order, each through its own strides, advanced one index at a time without
/// recomputing them from the index.
pub(super) struct Offsets<'a, const K: usize> {
    dims: &'a [usize],
    strides: [&'a [usize]; K],
    index: Vec<usize>,
    /// Each operand's offset at the current index.
    pub at: [usize; K],
}

impl<'a, const K: usize> Offsets<'a, K> {
    /// At flat position `first` of `dims`.
    pub fn new(first: usize, dims: &'a [usize], strides: [&'a [usize]; K]) -> Self {
        let index = threads::unravel(first, dims);
        let at = strides.map(|s| offset(&index, s));
        Offsets {
            dims,
            strides,
            index,
            at,
        }
    }

    /// To the next multi-index (all zeros after the last).
    pub fn advance(&mut self) {
        for axis in (0..self.dims.len()).rev() {
            self.index[axis] += 1;
            if self.index[axis] < self.dims[axis] {
                for (at, s) in self.at.iter_mut().zip(self.strides) {
                    *at += s[axis];
                }
                return;
            }
            for (at, s) in self.at.iter_mut().zip(self.strides) {
                *at -= s[axis] * (self.dims[axis] - 1);
            }
            self.index[axis] = 0;
        }
    }
}

/// `dims` read through `strides` with the dimensions of size 1 dropped and
/// neighbours that step as one dimension merged (`[a, b]` with strides
/// `[b * s, s]` is `[a * b]` with stride `s`): the same positions in the same
/// order, in as few dimensions as they take.
pub(super) fn coalesce(dims: &[usize], strides: &[usize]) -> (Vec<usize>, Vec<usize>) {
    let mut out: (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
    for (&d, &s) in dims.iter().zip(strides) {
        if d == 1 {
            continue;
        }
        match (out.0.last_mut(), out.1.last_mut()) {
            (Some(pd), Some(ps)) if *ps == s * d => {
                *pd *= d;
                *ps = s;
            }
            _ => {
                out.0.push(d);
                out.1.push(s);
            }
        }
    }
    out
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Merged dimensions visit the same positions in the same order, and
    /// `Offsets` started anywhere agrees with offsets computed from indices.
    #[test]
    fn coalesced_dimensions_and_running_offsets_visit_the_same_positions() {
        let positions = |dims: &[usize], strides: &[usize]| {
            let mut out = Vec::new();
            for_each_index(&Shape::new(dims.to_vec()), |i| out.push(offset(i, strides)));
            out
        };
        // Windows of 2 over a [2, 3, 8] tensor: [2, 3, 4, 2] with strides [24, 8, 2, 1]
        // (dense, all one run), a transposed view, a broadcast one.
        for (dims, strides) in [
            (vec![2, 3, 4, 2], vec![24, 8, 2, 1]),
            (vec![3, 1, 4], vec![1, 7, 3]),
            (vec![5, 2, 3], vec![0, 3, 1]),
            (vec![2, 3, 3, 2], vec![36, 6, 2, 1]),
        ] {
            let (merged, through) = coalesce(&dims, &strides);
            assert!(merged.len() <= dims.len());
            assert_eq!(
                positions(&merged, &through),
                positions(&dims, &strides),
                "{dims:?}"
            );
            let all = positions(&dims, &strides);
            for first in [0, 1, all.len() / 2] {
                let mut walk = Offsets::new(first, &dims, [&strides[..]]);
                for &want in &all[first..] {
                    assert_eq!(walk.at, [want], "{dims:?} from {first}");
                    walk.advance();
                }
            }
        }
        assert_eq!(coalesce(&[2, 3, 4, 2], &[24, 8, 2, 1]), (vec![48], vec![1]));
    }
}
