//! The reference ops that move elements rather than compute them: the
//! positions a strided window reads, picking elements by position (strided
//! copies, gathers, `where`'s branches), the mask selection of `where`, and
//! scatters that overwrite or accumulate in index order.

use super::loops::{Offsets, coalesce};
use super::threads;
use crate::data::{HostData, bf16_to_f32, f16_to_f32, f32_to_bf16, f32_to_f16};
use tpu_ir::Shape;

/// The strided window of `data` at `start` with `strides`, in row-major
/// order of `shape` (a strided copy), read row by row without listing the
/// positions first.
pub(super) fn strided_pick(
    data: &HostData,
    shape: &Shape,
    start: usize,
    strides: &[usize],
) -> HostData {
    fn rows<T: Copy + Default + Send + Sync>(
        v: &[T],
        shape: &Shape,
        start: usize,
        strides: &[usize],
    ) -> Vec<T> {
        let mut out = vec![T::default(); shape.numel()];
        if out.is_empty() {
            return out;
        }
        // Blocks of the last two dimensions (after merging those that step
        // as one), so that short rows (a window's 2 or 3 taps) share the
        // cost of finding their block.
        let (mut dims, mut strides) = coalesce(shape.dims(), strides);
        while dims.len() < 2 {
            dims.insert(0, 1);
            strides.insert(0, 0);
        }
        let rank = dims.len();
        let (m, n, sm, sn) = (
            dims[rank - 2],
            dims[rank - 1],
            strides[rank - 2],
            strides[rank - 1],
        );
        let outer = &dims[..rank - 2];
        // Blocks are shared among threads (`threads.rs`).
        threads::for_chunks(&mut out, m * n, 1, |first_block, part| {
            let mut blocks = Offsets::new(first_block, outer, [&strides[..rank - 2]]);
            for block in part.chunks_mut(m * n) {
                let [base] = blocks.at;
                for (i, row) in block.chunks_mut(n).enumerate() {
                    let first = start + base + i * sm;
                    if sn == 1 {
                        row.copy_from_slice(&v[first..first + n]);
                    } else {
                        for (j, slot) in row.iter_mut().enumerate() {
                            *slot = v[first + j * sn];
                        }
                    }
                }
                blocks.advance();
            }
        });
        out
    }
    match data {
        HostData::F32(v) => HostData::F32(rows(v, shape, start, strides)),
        HostData::F64(v) => HostData::F64(rows(v, shape, start, strides)),
        HostData::BF16(v) => HostData::BF16(rows(v, shape, start, strides)),
        HostData::F16(v) => HostData::F16(rows(v, shape, start, strides)),
        HostData::I32(v) => HostData::I32(rows(v, shape, start, strides)),
        HostData::U8(v) => HostData::U8(rows(v, shape, start, strides)),
        HostData::I64(v) => HostData::I64(rows(v, shape, start, strides)),
        HostData::Bool(v) => HostData::Bool(rows(v, shape, start, strides)),
    }
}

/// The elements of `data` at `positions`, in that order.
pub(super) fn pick(data: &HostData, positions: &[usize]) -> HostData {
    match data {
        HostData::F32(v) => HostData::F32(positions.iter().map(|&p| v[p]).collect()),
        HostData::F64(v) => HostData::F64(positions.iter().map(|&p| v[p]).collect()),
        HostData::BF16(v) => HostData::BF16(positions.iter().map(|&p| v[p]).collect()),
        HostData::F16(v) => HostData::F16(positions.iter().map(|&p| v[p]).collect()),
        HostData::I32(v) => HostData::I32(positions.iter().map(|&p| v[p]).collect()),
        HostData::U8(v) => HostData::U8(positions.iter().map(|&p| v[p]).collect()),
        HostData::I64(v) => HostData::I64(positions.iter().map(|&p| v[p]).collect()),
        HostData::Bool(v) => HostData::Bool(positions.iter().map(|&p| v[p]).collect()),
    }
}

/// `a[i]` where `mask[i]`, else `b[i]`, for two vectors of one dtype.
pub(super) fn select(mask: &[bool], a: HostData, b: HostData) -> HostData {
    fn sel<T: Copy>(mask: &[bool], a: &[T], b: &[T]) -> Vec<T> {
        mask.iter()
            .enumerate()
            .map(|(i, &m)| if m { a[i] } else { b[i] })
            .collect()
    }
    match (a, b) {
        (HostData::F32(a), HostData::F32(b)) => HostData::F32(sel(mask, &a, &b)),
        (HostData::F64(a), HostData::F64(b)) => HostData::F64(sel(mask, &a, &b)),
        (HostData::BF16(a), HostData::BF16(b)) => HostData::BF16(sel(mask, &a, &b)),
        (HostData::F16(a), HostData::F16(b)) => HostData::F16(sel(mask, &a, &b)),
        (HostData::I32(a), HostData::I32(b)) => HostData::I32(sel(mask, &a, &b)),
        (HostData::U8(a), HostData::U8(b)) => HostData::U8(sel(mask, &a, &b)),
        (HostData::I64(a), HostData::I64(b)) => HostData::I64(sel(mask, &a, &b)),
        (HostData::Bool(a), HostData::Bool(b)) => HostData::Bool(sel(mask, &a, &b)),
        _ => unreachable!("the dispatcher casts both branches to one dtype"),
    }
}

/// `base[index[i]] = values[i]`, or `+=` when accumulating (in order, so that
/// float sums of duplicates match a sequential `index_add_`).
pub(super) fn scatter(base: &mut HostData, index: &[i64], values: &HostData, accumulate: bool) {
    match (base, values) {
        (HostData::F32(b), HostData::F32(v)) => {
            for (&i, &x) in index.iter().zip(v) {
                let slot = &mut b[i as usize];
                *slot = if accumulate { *slot + x } else { x };
            }
        }
        (HostData::BF16(b), HostData::BF16(v)) => {
            for (&i, &x) in index.iter().zip(v) {
                let slot = &mut b[i as usize];
                *slot = if accumulate {
                    f32_to_bf16(bf16_to_f32(*slot) + bf16_to_f32(x))
                } else {
                    x
                };
            }
        }
        (HostData::F16(b), HostData::F16(v)) => {
            for (&i, &x) in index.iter().zip(v) {
                let slot = &mut b[i as usize];
                *slot = if accumulate {
                    f32_to_f16(f16_to_f32(*slot) + f16_to_f32(x))
                } else {
                    x
                };
            }
        }
        (HostData::F64(b), HostData::F64(v)) => {
            for (&i, &x) in index.iter().zip(v) {
                let slot = &mut b[i as usize];
                *slot = if accumulate { *slot + x } else { x };
            }
        }
        (HostData::I64(b), HostData::I64(v)) => {
            for (&i, &x) in index.iter().zip(v) {
                let slot = &mut b[i as usize];
                *slot = if accumulate { slot.wrapping_add(x) } else { x };
            }
        }
        (HostData::I32(b), HostData::I32(v)) => {
            for (&i, &x) in index.iter().zip(v) {
                let slot = &mut b[i as usize];
                *slot = if accumulate { slot.wrapping_add(x) } else { x };
            }
        }
        (HostData::U8(b), HostData::U8(v)) => {
            for (&i, &x) in index.iter().zip(v) {
                let slot = &mut b[i as usize];
                *slot = if accumulate { slot.wrapping_add(x) } else { x };
            }
        }
        (HostData::Bool(b), HostData::Bool(v)) => {
            for (&i, &x) in index.iter().zip(v) {
                let slot = &mut b[i as usize];
                *slot = if accumulate { *slot || x } else { x };
            }
        }
        _ => unreachable!("the dispatcher casts values to the base's dtype"),
    }
}
