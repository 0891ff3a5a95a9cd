//! Helpers: other threads that take a share of a float32 matrix product where
//! the reference kernels cannot start threads of their own. In the browser
//! the runtime's wasm memory is not shared (a shared-memory build would lose
//! JavaScript Promise Integration, on which runs wait), so the page's worker
//! starts Web Workers, each with an instance of the same module, and hands
//! them shares by copy: a share is some of the product's batch entries, or
//! some rows of each, with its operands gathered into dense arrays; it comes
//! back as dense rows and is put where it belongs. The calling thread computes
//! the first share meanwhile, then waits (the run's wasm stack suspends).
//!
//! Every output is still one sequential sum in increasing `k`, the order
//! `matmul.rs` keeps however its loops are cut, so a product is the same bit
//! for bit with or without helpers. Natively the reference has its own
//! threads and no helpers are registered (tests register fake ones).

use super::matmul::{Strides, matmul_into};
use super::threads::even;
use std::cell::{Cell, RefCell};
use std::ops::Range;
use std::rc::Rc;

/// Products below this many multiply-adds stay on the calling thread: a
/// share's round trip (two messages between workers, the run suspended and
/// resumed) costs about as much as this much arithmetic. Measured in
/// Chromium (docs/performance.md, "In Chromium").
const HELPED_MACS: usize = 1 << 20;

/// Nor is a product shared whose helpers' shares would do fewer
/// multiply-adds than this per element copied (their operands out, their
/// products back): a convolution's, `[32, 288] @ [288, 1024]` per image,
/// does 28, and was slower shared than not; a 512x512 @ 512x1024 product
/// split in two does 146 and is 1.5x faster.
const MACS_PER_ELEMENT_MOVED: u64 = 64;

/// One helper's share of a product: `[batch, m, k] @ [batch, k, n]`, each
/// operand dense, row-major or, where its flag says so, stored transposed
/// (`a` as `[batch, k, m]`, `b` as `[batch, n, k]`): copied in the order
/// its elements lie, so a transposed view is not gathered across rows.
#[derive(Clone, Debug, PartialEq)]
pub struct ProductShare {
    pub batch: usize,
    pub m: usize,
    pub k: usize,
    pub n: usize,
    pub a: Vec<f32>,
    pub b: Vec<f32>,
    pub a_transposed: bool,
    pub b_transposed: bool,
}

/// What the reference hands shares to: registered with [`set_helpers`] by
/// the code that started the helpers (the wasm package, for a run).
pub trait Helpers {
    /// How many helpers take shares (the calling thread is not one).
    fn count(&self) -> usize;
    /// Hands share `i` to helper `i` and returns at once, the helpers
    /// computing meanwhile; `None` where they cannot be reached (the caller
    /// then computes every share itself).
    fn send(&self, shares: Vec<ProductShare>) -> Option<Box<dyn Awaiting>>;
}

/// Shares handed out and not yet back.
pub trait Awaiting {
    /// Waits for every share's product (`[batch, m, n]`, row-major), in the
    /// order they were sent; `None` if any failed.
    fn wait(self: Box<Self>) -> Option<Vec<Vec<f32>>>;
}

thread_local! {
    static HELPERS: RefCell<Option<Rc<dyn Helpers>>> = const { RefCell::new(None) };
    /// Products handed to helpers since `take_helped` last read it.
    static HELPED: Cell<usize> = const { Cell::new(0) };
}

/// How many products were shared with helpers on this thread since the
/// last call (the Report's `helped_products`).
pub fn take_helped() -> usize {
    HELPED.with(|h| h.replace(0))
}

/// Registers the helpers the reference's products on this thread may use
/// (`None`: none), returning the ones registered before.
pub fn set_helpers(helpers: Option<Rc<dyn Helpers>>) -> Option<Rc<dyn Helpers>> {
    HELPERS.with(|h| std::mem::replace(&mut *h.borrow_mut(), helpers))
}

/// A share's product, as a helper computes it: the reference's own kernel.
pub fn compute_share(share: &ProductShare) -> Vec<f32> {
    let ProductShare { batch, m, k, n, .. } = *share;
    let (ta, tb) = (share.a_transposed, share.b_transposed);
    super::matmul::batched(&share.a, &share.b, batch, m, k, n, ta, tb)
}

/// Batch entries and rows of each: one share of a product.
type Part = (Range<usize>, Range<usize>);

/// Computes `[batch, m, k] @ [batch, k, n]` into `out` with the registered
/// helpers, batch entry `i`'s operands read through `strides(i)`; returns
/// false (and leaves `out` alone) where there are none, or the product is
/// too small to be worth their round trip, or its shares would copy too
/// much for their arithmetic.
pub(super) fn share_product(
    a: &[f32],
    b: &[f32],
    (batch, m, k, n): (usize, usize, usize, usize),
    strides: &dyn Fn(usize) -> (Strides, Strides),
    out: &mut [f32],
) -> bool {
    let Some(helpers) = HELPERS.with(|h| h.borrow().clone()) else {
        return false;
    };
    if batch.saturating_mul(m).saturating_mul(k).saturating_mul(n) < HELPED_MACS {
        return false;
    }
    let parts = helpers.count() + 1;
    let plan: Vec<Part> = if batch >= parts {
        even(batch, parts)
            .into_iter()
            .map(|bs| (bs, 0..m))
            .collect()
    } else {
        even(m, parts)
            .into_iter()
            .map(|rs| (0..batch, rs))
            .collect()
    };
    if plan.len() < 2 {
        return false;
    }
    // In 64 bits: a product's multiply-adds overflow wasm's 32-bit usize.
    let (k64, n64) = (k as u64, n as u64);
    let (macs, moved) = plan[1..]
        .iter()
        .fold((0u64, 0u64), |(macs, moved), (entries, rows)| {
            let (e, r) = (entries.len() as u64, rows.len() as u64);
            (
                macs + e * r * k64 * n64,
                moved + e * (r * k64 + k64 * n64 + r * n64),
            )
        });
    if macs < moved.saturating_mul(MACS_PER_ELEMENT_MOVED) {
        return false;
    }
    let dims = (m, k, n);
    let shares = plan[1..]
        .iter()
        .map(|part| gather(a, b, part, dims, strides))
        .collect();
    let awaiting = helpers.send(shares);
    if awaiting.is_some() {
        HELPED.with(|h| h.set(h.get() + 1));
    }
    compute_part(a, b, &plan[0], dims, strides, out);
    let products = awaiting.and_then(|w| w.wait());
    for (i, part) in plan.iter().enumerate().skip(1) {
        let rows = part.1.len();
        match products.as_ref().and_then(|p| p.get(i - 1)) {
            Some(product) if product.len() == part.0.len() * rows * n => {
                for (j, entry) in part.0.clone().enumerate() {
                    let at = entry * m * n + part.1.start * n;
                    out[at..at + rows * n]
                        .copy_from_slice(&product[j * rows * n..(j + 1) * rows * n]);
                }
            }
            // A helper that failed (or vanished): its share here instead.
            _ => compute_part(a, b, part, dims, strides, out),
        }
    }
    true
}

/// A part's operands as a share: its rows of `a` and its entries of `b`,
/// dense, each copied in the order its elements lie where it is stored
/// transposed.
fn gather(
    a: &[f32],
    b: &[f32],
    (entries, rows): &Part,
    (_, k, n): (usize, usize, usize),
    strides: &dyn Fn(usize) -> (Strides, Strides),
) -> ProductShare {
    // Transposed where the columns are the contiguous axis.
    let (sa0, sb0) = strides(entries.start);
    let a_transposed = sa0.rows == 1 && sa0.cols != 1;
    let b_transposed = sb0.rows == 1 && sb0.cols != 1;
    let mut dense_a = Vec::with_capacity(entries.len() * rows.len() * k);
    let mut dense_b = Vec::with_capacity(entries.len() * k * n);
    for entry in entries.clone() {
        let (sa, sb) = strides(entry);
        copy_matrix(a, sa, (rows.clone(), 0..k), a_transposed, &mut dense_a);
        copy_matrix(b, sb, (0..k, 0..n), b_transposed, &mut dense_b);
    }
    ProductShare {
        batch: entries.len(),
        m: rows.len(),
        k,
        n,
        a: dense_a,
        b: dense_b,
        a_transposed,
        b_transposed,
    }
}

/// Rows `rows` and columns `cols` of the matrix read through `s`, appended
/// row by row, or column by column where `by_columns`; a run of adjacent
/// elements is copied as a slice.
fn copy_matrix(
    x: &[f32],
    s: Strides,
    (rows, cols): (Range<usize>, Range<usize>),
    by_columns: bool,
    out: &mut Vec<f32>,
) {
    let (outer, inner, step) = if by_columns {
        (cols, rows, s.rows)
    } else {
        (rows, cols, s.cols)
    };
    for o in outer {
        let at = |i: usize| if by_columns { s.at(i, o) } else { s.at(o, i) };
        if step == 1 {
            let first = at(inner.start);
            out.extend_from_slice(&x[first..first + inner.len()]);
        } else {
            out.extend(inner.clone().map(|i| x[at(i)]));
        }
    }
}

/// A part's product computed here, into its place in `out`.
fn compute_part(
    a: &[f32],
    b: &[f32],
    (entries, rows): &Part,
    (m, k, n): (usize, usize, usize),
    strides: &dyn Fn(usize) -> (Strides, Strides),
    out: &mut [f32],
) {
    for entry in entries.clone() {
        let (sa, sb) = strides(entry);
        let first = Strides {
            base: sa.base + rows.start * sa.rows,
            ..sa
        };
        let at = entry * m * n + rows.start * n;
        matmul_into(
            a,
            b,
            (rows.len(), k, n),
            (first, sb),
            &mut out[at..at + rows.len() * n],
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Helpers that compute each share at once on the calling thread, as a
    /// worker would (from the share alone), counting what they were sent;
    /// or that fail, when `fail` is set.
    struct Inline {
        count: usize,
        sent: Cell<usize>,
        fail: bool,
    }

    struct Done(Option<Vec<Vec<f32>>>);

    impl Awaiting for Done {
        fn wait(self: Box<Self>) -> Option<Vec<Vec<f32>>> {
            self.0
        }
    }

    impl Helpers for Inline {
        fn count(&self) -> usize {
            self.count
        }
        fn send(&self, shares: Vec<ProductShare>) -> Option<Box<dyn Awaiting>> {
            self.sent.set(self.sent.get() + shares.len());
            // As in a worker, which has no helpers of its own.
            let registered = set_helpers(None);
            let products = shares.iter().map(compute_share).collect();
            set_helpers(registered);
            Some(Box::new(Done((!self.fail).then_some(products))))
        }
    }

    fn values(n: usize, seed: u32) -> Vec<f32> {
        (0..n)
            .map(|i| {
                let x = (i as u32).wrapping_mul(2654435761).wrapping_add(seed) >> 8;
                (x % 2001) as f32 / 997.0 - 1.0
            })
            .collect()
    }

    /// Large products (several batch entries, or one with many rows;
    /// operands transposed in place) with 1 and 3 helpers, and with helpers
    /// that fail, equal the product computed without helpers bit for bit.
    #[test]
    fn shared_products_equal_the_unshared_bit_for_bit() {
        // Each large enough to be shared with 1 to 3 helpers.
        let cases = [
            (1, 1024, 256, 256, false, false),
            (2, 512, 256, 384, true, false),
            (6, 256, 256, 256, false, true),
            (3, 512, 512, 256, true, true),
        ];
        for (batch, m, k, n, ta, tb) in cases {
            let a = values(batch * m * k, 1);
            let b = values(batch * k * n, 2);
            let plain = super::super::matmul::batched(&a, &b, batch, m, k, n, ta, tb);
            assert!(batch * m * k * n >= HELPED_MACS);
            for (count, fail) in [(1, false), (3, false), (2, true)] {
                let helpers = Rc::new(Inline {
                    count,
                    sent: Cell::new(0),
                    fail,
                });
                set_helpers(Some(helpers.clone()));
                take_helped();
                let shared = super::super::matmul::batched(&a, &b, batch, m, k, n, ta, tb);
                set_helpers(None);
                assert_eq!(take_helped(), 1);
                let sent = helpers.sent.get();
                assert!(
                    (1..=count).contains(&sent),
                    "{batch}x{m}x{k}x{n}: {sent} shares sent"
                );
                let same = plain
                    .iter()
                    .zip(&shared)
                    .all(|(x, y)| x.to_bits() == y.to_bits());
                assert!(
                    same && plain.len() == shared.len(),
                    "{batch}x{m}x{k}x{n} (ta {ta}, tb {tb}) with {count} helpers (failing: {fail})"
                );
            }
        }
    }

    /// A product too small for the round trip is not shared, nor one
    /// whose shares would copy too much for their arithmetic (a
    /// convolution's: 32 images of `[32, 288] @ [288, 1024]`).
    #[test]
    fn small_and_thin_products_stay_on_the_calling_thread() {
        let helpers = Rc::new(Inline {
            count: 1,
            sent: Cell::new(0),
            fail: false,
        });
        set_helpers(Some(helpers.clone()));
        for (batch, m, k, n) in [(1, 32, 32, 32), (32, 32, 288, 1024)] {
            let (a, b) = (values(batch * m * k, 1), values(batch * k * n, 2));
            let _ = super::super::matmul::batched(&a, &b, batch, m, k, n, false, false);
        }
        set_helpers(None);
        assert_eq!(helpers.sent.get(), 0);
    }
}
