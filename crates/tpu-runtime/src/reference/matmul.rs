//! The reference matrix product: `[m, k] @ [k, n]` per batch entry. Every
//! output accumulates its products one at a time in increasing `k`, from
//! zero, with no fused multiply-add: the order the WGSL kernel uses too, so the
//! result does not depend on how the loops below are tiled or threaded. The
//! unfused `MatMul` op and the fused matmul groups (`fused.rs`) both call
//! `batched`, so their sums are the same.
//!
//! For speed the loops are those of a packed BLAS kernel, with the summation
//! order kept: `b` is packed into panels of `NR` columns (`[k][NR]`,
//! contiguous), `a` into tiles of `MR` rows (`[k][MR]`), and each `MR x NR`
//! block of the output is held in registers while `k` runs, the innermost loop
//! over `NR` columns written for the compiler to vectorise, compiled for
//! AVX2 where the CPU has it (chosen at run time). Natively, row
//! blocks, or a batch of small products, are shared among threads
//! (`threads.rs`; each output is still one thread's sequential sum); in wasm
//! a large float32 product is shared with the page's helper workers where
//! there are some (`helpers.rs`), else it runs on one thread.

use super::{helpers, threads};
use tpu_ir::MatrixLayout;

/// Products below which one thread does the whole product.
const THREADED_MACS: usize = 1 << 18;

/// What a product's elements need: float32, float64 and int64 all qualify.
/// Float32 products may also be shared with helpers (`helpers.rs`).
pub(super) trait Element:
    Copy + Default + Send + Sync + std::ops::Add<Output = Self> + std::ops::Mul<Output = Self>
{
    /// The elements as float32, where they are.
    fn floats(_: &[Self]) -> Option<&[f32]> {
        None
    }

    fn floats_mut(_: &mut [Self]) -> Option<&mut [f32]> {
        None
    }
}

impl Element for f32 {
    fn floats(x: &[f32]) -> Option<&[f32]> {
        Some(x)
    }

    fn floats_mut(x: &mut [f32]) -> Option<&mut [f32]> {
        Some(x)
    }
}

impl Element for f64 {}

impl Element for i64 {}

/// The vector instructions a product's loops are compiled for, chosen once
/// per product from what the CPU has. Measured on this project's 2-core Xeon
/// (AVX-512), a 256x512 @ 512x2048 float32 product: the portable 4x16 tile
/// (SSE2) 17.4 ms, AVX2 with an 8x8 tile 9.5 ms (6x16: 10.3, 4x16: 10.8,
/// 16x8: 62.6, the accumulators no longer in registers); AVX-512 was no
/// faster (4x32: 11.8 ms, 8x8: 9.6 ms; 8x32 and 6x32: 60-80 ms), so AVX2 it
/// is. The loop it replaced, i-k-j over rows, took 30.8 ms.
#[derive(Clone, Copy)]
enum Isa {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

fn isa() -> Isa {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            return Isa::Avx2;
        }
    }
    Isa::Portable
}

/// Where an operand's elements lie: element `(r, c)` of `a` (`r` < m, `c` <
/// k) or of `b` (`r` < k, `c` < n) is at `base + r * rows + c * cols`. A
/// transposed or strided operand is read in place through its strides.
#[derive(Clone, Copy, Debug)]
pub(super) struct Strides {
    pub base: usize,
    pub rows: usize,
    pub cols: usize,
}

impl Strides {
    #[inline(always)]
    pub(super) fn at(&self, r: usize, c: usize) -> usize {
        self.base + r * self.rows + c * self.cols
    }
}

/// `[m, k] @ [k, n]` into `c`, the operands read through `sa` and `sb`.
pub(super) fn matmul_into<T: Element>(
    a: &[T],
    b: &[T],
    dims: (usize, usize, usize),
    (sa, sb): (Strides, Strides),
    c: &mut [T],
) {
    match isa() {
        Isa::Portable => tiled::<T, 4, 16>(a, b, dims, (sa, sb), Isa::Portable, c),
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => tiled::<T, 8, 8>(a, b, dims, (sa, sb), Isa::Avx2, c),
    }
}

/// The product with `MR x NR` register tiles into `c`, its rows shared among
/// threads.
fn tiled<T: Element, const MR: usize, const NR: usize>(
    a: &[T],
    b: &[T],
    (m, k, n): (usize, usize, usize),
    (sa, sb): (Strides, Strides),
    isa: Isa,
    c: &mut [T],
) {
    if m == 0 || n == 0 {
        return;
    }
    // An empty contraction sums no products: every output is the zero it
    // starts from, as in PyTorch. The panels below are `k` rows long, so
    // `k == 0` must not reach them (a chunk size of zero panics).
    if k == 0 {
        c.fill(T::default());
        return;
    }
    let panels = pack_b::<T, NR>(b, k, n, sb);
    let per_thread = rows_per_thread::<MR>(m, k, n);
    let run = |first_row: usize, c: &mut [T]| {
        let job = Rows {
            a,
            panels: &panels,
            k,
            n,
            sa,
            first_row,
        };
        match isa {
            Isa::Portable => job.run::<MR, NR>(c),
            // Safety: `isa()` chose these only where the CPU has them.
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => unsafe { job.run_avx2::<MR, NR>(c) },
        }
    };
    if per_thread >= m {
        run(0, c);
    } else {
        let jobs: Vec<(usize, &mut [T])> = c
            .chunks_mut(per_thread * n)
            .enumerate()
            .map(|(t, chunk)| (t * per_thread, chunk))
            .collect();
        threads::run(jobs, |(first_row, chunk)| run(first_row, chunk));
    }
}

/// How many output rows each thread takes: all of them for a small product
/// (and always in wasm), else an even share rounded up to whole tiles.
fn rows_per_thread<const MR: usize>(m: usize, k: usize, n: usize) -> usize {
    let threads = threads::threads();
    if threads > 1 && m * k * n >= THREADED_MACS && m > MR {
        return m.div_ceil(threads).div_ceil(MR) * MR;
    }
    m
}

/// One thread's rows of the output: `c` holds rows `first_row ..`.
struct Rows<'a, T> {
    a: &'a [T],
    panels: &'a [T],
    k: usize,
    n: usize,
    sa: Strides,
    first_row: usize,
}

impl<T: Element> Rows<'_, T> {
    #[inline(always)]
    fn run<const MR: usize, const NR: usize>(&self, c: &mut [T]) {
        let (k, n) = (self.k, self.n);
        let rows = c.len() / n;
        let mut tile = vec![T::default(); k * MR];
        for i0 in (0..rows).step_by(MR) {
            let height = MR.min(rows - i0);
            pack_a::<T, MR>(self.a, k, self.first_row + i0, height, self.sa, &mut tile);
            for (p, panel) in self.panels.chunks(k * NR).enumerate() {
                let j0 = p * NR;
                let width = NR.min(n - j0);
                let acc = block::<T, MR, NR>(&tile, panel, k);
                for (r, acc_row) in acc.iter().enumerate().take(height) {
                    c[(i0 + r) * n + j0..(i0 + r) * n + j0 + width]
                        .copy_from_slice(&acc_row[..width]);
                }
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn run_avx2<const MR: usize, const NR: usize>(&self, c: &mut [T]) {
        self.run::<MR, NR>(c)
    }
}

/// One `MR x NR` block of the output: row `r` of the `a` tile against column
/// `j` of the `b` panel, summed in increasing `k` (a multiply, then an add:
/// never fused).
#[inline(always)]
fn block<T: Element, const MR: usize, const NR: usize>(
    tile: &[T],
    panel: &[T],
    k: usize,
) -> [[T; NR]; MR] {
    let mut acc = [[T::default(); NR]; MR];
    let (rows, _) = tile.as_chunks::<MR>();
    let (cols, _) = panel.as_chunks::<NR>();
    for (ap, bp) in rows.iter().zip(cols).take(k) {
        for r in 0..MR {
            let x = ap[r];
            for j in 0..NR {
                acc[r][j] = acc[r][j] + x * bp[j];
            }
        }
    }
    acc
}

/// `b` as column panels of `NR`, each `[k][NR]` row-major, the last padded
/// with zeros (their products land in columns that are never stored).
fn pack_b<T: Element, const NR: usize>(b: &[T], k: usize, n: usize, sb: Strides) -> Vec<T> {
    let count = n.div_ceil(NR);
    let mut panels = vec![T::default(); count * k * NR];
    for (p, panel) in panels.chunks_mut(k * NR).enumerate() {
        let j0 = p * NR;
        let width = NR.min(n - j0);
        for kk in 0..k {
            for j in 0..width {
                panel[kk * NR + j] = b[sb.at(kk, j0 + j)];
            }
        }
    }
    panels
}

/// Rows `i0 .. i0 + height` of `a` as a `[k][MR]` tile, padded with zeros.
#[inline(always)]
fn pack_a<T: Element, const MR: usize>(
    a: &[T],
    k: usize,
    i0: usize,
    height: usize,
    sa: Strides,
    tile: &mut [T],
) {
    tile.fill(T::default());
    for r in 0..height {
        for kk in 0..k {
            tile[kk * MR + r] = a[sa.at(i0 + r, kk)];
        }
    }
}

/// A product per batch entry of `[batch, m, k] @ [batch, k, n]`, each operand
/// read transposed in place when its flag says it is stored that way.
#[allow(clippy::too_many_arguments)]
pub(super) fn batched<T: Element>(
    a: &[T],
    b: &[T],
    batch: usize,
    m: usize,
    k: usize,
    n: usize,
    ta: bool,
    tb: bool,
) -> Vec<T> {
    let a_dims = if ta { [k, m] } else { [m, k] };
    let b_dims = if tb { [n, k] } else { [k, n] };
    let (la, lb) = (MatrixLayout::dense(&a_dims), MatrixLayout::dense(&b_dims));
    batched_in_place(a, b, (batch, m, k, n), (la, ta), (lb, tb))
}

/// `batched` with each operand read through its layout (see `MatrixLayout`),
/// transposed where its flag says so: the fused kernels' matmul, whose
/// operands may be strided views read in place.
pub(super) fn batched_in_place<T: Element>(
    a: &[T],
    b: &[T],
    (batch, m, k, n): (usize, usize, usize, usize),
    (la, ta): (MatrixLayout, bool),
    (lb, tb): (MatrixLayout, bool),
) -> Vec<T> {
    let mut out = vec![T::default(); batch * m * n];
    if m * n == 0 {
        return out;
    }
    // Element (r, c) of the matrix the product reads, through the stored one.
    let strides = |l: &MatrixLayout, i: usize, transposed: bool| {
        let (rows, cols) = if transposed {
            (l.col_stride, l.row_stride)
        } else {
            (l.row_stride, l.col_stride)
        };
        Strides {
            base: l.batch_offset(i),
            rows,
            cols,
        }
    };
    let both = |i: usize| (strides(&la, i, ta), strides(&lb, i, tb));
    // Float32 products large enough for the helpers' round trip, where
    // there are helpers (in the browser).
    if let (Some(fa), Some(fb), Some(fout)) = (T::floats(a), T::floats(b), T::floats_mut(&mut out))
        && helpers::share_product(fa, fb, (batch, m, k, n), &both, fout)
    {
        return out;
    }
    let product = |i: usize, c: &mut [T]| matmul_into(a, b, (m, k, n), both(i), c);
    // Small products, or at least as many as threads (a convolution's, one
    // per image): the batch is shared among threads, each product (its
    // packing included) on one. Fewer large ones share their rows instead
    // (`tiled`).
    if batch > 1 && (m * k * n < THREADED_MACS || batch >= threads::threads()) {
        let cost = k.max(1);
        threads::for_chunks(&mut out, m * n, cost, |first, part| {
            for (j, c) in part.chunks_mut(m * n).enumerate() {
                product(first + j, c);
            }
        });
    } else {
        for (i, c) in out.chunks_mut(m * n).enumerate() {
            product(i, c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain i-k-j loop the tiled one replaces: each output summed in
    /// increasing k.
    fn naive(a: &[f32], b: &[f32], m: usize, k: usize, n: usize) -> Vec<f32> {
        let mut c = vec![0.0f32; m * n];
        for i in 0..m {
            for p in 0..k {
                for j in 0..n {
                    c[i * n + j] += a[i * k + p] * b[p * n + j];
                }
            }
        }
        c
    }

    fn values(n: usize, seed: u32) -> Vec<f32> {
        (0..n)
            .map(|i| (((i as u32).wrapping_mul(2_654_435_761) ^ seed) % 1000) as f32 / 97.0 - 5.0)
            .collect()
    }

    fn transposed(x: &[f32], rows: usize, cols: usize) -> Vec<f32> {
        (0..cols)
            .flat_map(|c| (0..rows).map(move |r| x[r * cols + c]))
            .collect()
    }

    #[test]
    fn tiled_and_threaded_products_equal_the_plain_loop_bit_for_bit() {
        for (m, k, n) in [
            (1, 1, 1),
            (3, 5, 7),
            (4, 16, 16),
            (37, 129, 70),
            (256, 96, 130),
        ] {
            let (a, b) = (values(m * k, 1), values(k * n, 7));
            let want = naive(&a, &b, m, k, n);
            assert_eq!(
                batched(&a, &b, 1, m, k, n, false, false),
                want,
                "{m}x{k}x{n}"
            );
            let (at, bt) = (transposed(&a, m, k), transposed(&b, k, n));
            assert_eq!(
                batched(&at, &bt, 1, m, k, n, true, true),
                want,
                "{m}x{k}x{n} transposed"
            );
            // The portable tile too, whatever this CPU has.
            let mut c = vec![0.0; m * n];
            let s = (
                Strides {
                    base: 0,
                    rows: k,
                    cols: 1,
                },
                Strides {
                    base: 0,
                    rows: n,
                    cols: 1,
                },
            );
            tiled::<f32, 4, 16>(&a, &b, (m, k, n), s, Isa::Portable, &mut c);
            assert_eq!(c, want, "{m}x{k}x{n} portable");
        }
    }

    /// A fuzz campaign found `[4, 0] @ [0, 3]` panicking in the panel
    /// packing (`chunk size must be non-zero`); an empty contraction is a
    /// `[m, n]` of zeros in PyTorch, and an empty `m`, `n` or batch an empty
    /// output, whatever the operands' layouts.
    #[test]
    fn empty_dimensions_give_zeros_or_an_empty_output() {
        for (batch, m, k, n) in [
            (1, 4, 0, 3),
            (3, 4, 0, 3),
            (1, 1, 0, 1),
            (2, 1000, 0, 700),
            (1, 0, 5, 3),
            (1, 4, 5, 0),
            (0, 4, 5, 3),
            (1, 0, 0, 0),
            (2, 0, 0, 3),
        ] {
            let (a, b) = (values(batch * m * k, 1), values(batch * k * n, 7));
            let want: Vec<f32> = (0..batch)
                .flat_map(|i| {
                    let (ai, bi) = (
                        &a[i * m * k..(i + 1) * m * k],
                        &b[i * k * n..(i + 1) * k * n],
                    );
                    naive(ai, bi, m, k, n)
                })
                .collect();
            assert_eq!(want.len(), batch * m * n);
            for (ta, tb) in [(false, false), (true, false), (false, true), (true, true)] {
                let got = batched(&a, &b, batch, m, k, n, ta, tb);
                assert_eq!(got, want, "{batch}x{m}x{k}x{n} ta={ta} tb={tb}");
            }
            // The portable tile, and an output that held other values: an
            // empty contraction must write its zeros, not leave them.
            if batch == 1 {
                let mut c = vec![7.0; m * n];
                let s = |rows| Strides {
                    base: 0,
                    rows,
                    cols: 1,
                };
                tiled::<f32, 4, 16>(&a, &b, (m, k, n), (s(k), s(n)), Isa::Portable, &mut c);
                assert_eq!(c, want, "{m}x{k}x{n} portable");
            }
        }
    }
}
