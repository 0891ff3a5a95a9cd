//! The reference matrix product: `[m, k] @ [k, n]` in i-k-j order, per batch
//! entry, with operands stored transposed packed first. The unfused `MatMul` op
//! and the fused matmul groups (`fused.rs`) both call `batched`, so their sums
//! are the same.

/// `[m, k] @ [k, n]`. i-k-j order streams rows of `b`; each output still
/// accumulates its products in increasing k, the order the WGSL kernel uses too.
/// `ta`: `a` is stored `[k, m]`; `tb`: `b` is stored `[n, k]`.
fn matmul<T: Copy + Default + std::ops::Add<Output = T> + std::ops::Mul<Output = T>>(
    a: &[T],
    b: &[T],
    (m, k, n): (usize, usize, usize),
    ta: bool,
    tb: bool,
) -> Vec<T> {
    // A transposed operand is packed row-major first, as BLAS packs panels,
    // so the loop below streams both operands; the sums are unchanged.
    let packed_a;
    let a = if ta {
        packed_a = transpose(a, k, m);
        &packed_a[..]
    } else {
        a
    };
    let packed_b;
    let b = if tb {
        packed_b = transpose(b, n, k);
        &packed_b[..]
    } else {
        b
    };
    let mut c = vec![T::default(); m * n];
    for i in 0..m {
        for p in 0..k {
            let aip = a[i * k + p];
            for j in 0..n {
                c[i * n + j] = c[i * n + j] + aip * b[p * n + j];
            }
        }
    }
    c
}

/// A product per batch entry of `[batch, m, k] @ [batch, k, n]`, each operand
/// read transposed in place when its flag says it is stored that way.
#[allow(clippy::too_many_arguments)]
pub(super) fn batched<T: Copy + Default + std::ops::Add<Output = T> + std::ops::Mul<Output = T>>(
    a: &[T],
    b: &[T],
    batch: usize,
    m: usize,
    k: usize,
    n: usize,
    ta: bool,
    tb: bool,
) -> Vec<T> {
    let mut out = Vec::with_capacity(batch * m * n);
    for i in 0..batch {
        out.extend(matmul(
            &a[i * m * k..(i + 1) * m * k],
            &b[i * k * n..(i + 1) * k * n],
            (m, k, n),
            ta,
            tb,
        ));
    }
    out
}

/// The `[cols, rows]` transpose of a row-major `[rows, cols]` matrix.
fn transpose<T: Copy>(x: &[T], rows: usize, cols: usize) -> Vec<T> {
    let mut out = Vec::with_capacity(rows * cols);
    for c in 0..cols {
        for r in 0..rows {
            out.push(x[r * cols + c]);
        }
    }
    out
}
