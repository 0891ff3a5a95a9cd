//! The reference backend's threads in the browser: Web Workers that each
//! hold an instance of this module and compute shares of the large float32
//! matrix products (`tpu-runtime`'s `product_helpers`).
//!
//! ```js
//! playground.setHelpers(count, (shares) => promise);  // the runtime's worker
//! productShare(a, b, batch, m, k, n);                  // in each helper
//! ```
//!
//! The instances share no memory: a threaded (`atomics`) build of this crate
//! would lose JavaScript Promise Integration, which wasm-bindgen compiles out
//! under `atomics` and on which every run waits. So a share's operands are
//! copied to a helper and its product copied back, and while the helpers
//! compute, the run's wasm stack computes its own share and then suspends on
//! their promise. The page's worker starts the helpers (`web/src/helper.ts`)
//! and hands each its share.

use crate::Playground;
use std::rc::Rc;
use tpu_runtime::product_helpers::{self, Awaiting, Helpers, ProductShare};
use wasm_bindgen::prelude::*;

/// The helpers the page's worker started: how many, and the function that
/// hands them shares (`(shares) => Promise<Float32Array[]>`, share `i` to
/// helper `i`).
pub(crate) struct PageHelpers {
    count: usize,
    send: js_sys::Function,
}

impl Helpers for PageHelpers {
    fn count(&self) -> usize {
        self.count
    }

    fn send(&self, shares: Vec<ProductShare>) -> Option<Box<dyn Awaiting>> {
        let list = js_sys::Array::new();
        for share in &shares {
            let entry = js_sys::Object::new();
            let dims = [
                ("batch", share.batch),
                ("m", share.m),
                ("k", share.k),
                ("n", share.n),
            ];
            for (name, value) in dims {
                js_sys::Reflect::set(&entry, &name.into(), &(value as f64).into()).ok()?;
            }
            let a = js_sys::Float32Array::from(&share.a[..]);
            let b = js_sys::Float32Array::from(&share.b[..]);
            js_sys::Reflect::set(&entry, &"a".into(), &a).ok()?;
            js_sys::Reflect::set(&entry, &"b".into(), &b).ok()?;
            let flags = [("aT", share.a_transposed), ("bT", share.b_transposed)];
            for (name, value) in flags {
                js_sys::Reflect::set(&entry, &name.into(), &value.into()).ok()?;
            }
            list.push(&entry);
        }
        let promise = self.send.call1(&JsValue::NULL, &list).ok()?;
        Some(Box::new(Pending(promise.dyn_into().ok()?)))
    }
}

/// The helpers' promise of their products.
struct Pending(js_sys::Promise);

impl Awaiting for Pending {
    fn wait(self: Box<Self>) -> Option<Vec<Vec<f32>>> {
        // Experimental in wasm-bindgen 0.2.130, hence deprecated there.
        #[allow(deprecated)]
        let products = js_sys::futures::jspi_block_on_promise(&self.0).ok()?;
        let products: js_sys::Array = products.dyn_into().ok()?;
        products
            .iter()
            .map(|p| Some(p.dyn_into::<js_sys::Float32Array>().ok()?.to_vec()))
            .collect()
    }
}

#[wasm_bindgen]
impl Playground {
    /// Gives the reference backend `count` helpers for its large float32
    /// products: `send(shares)` hands share `i` (`{ batch, m, k, n, a, b,
    /// aT, bT }`, the operands as dense `Float32Array`s, row-major or where
    /// `aT`/`bT` says so transposed) to helper `i` and
    /// resolves to their products in order (each computed there by
    /// `productShare`). Used by runs of one process in a browser with
    /// JavaScript Promise Integration (a run waits for its helpers by
    /// suspending); `count` 0 removes them.
    #[wasm_bindgen(js_name = setHelpers)]
    pub fn set_helpers(&self, count: u32, send: js_sys::Function) {
        *self.helpers.borrow_mut() = (count > 0).then(|| {
            Rc::new(PageHelpers {
                count: count as usize,
                send,
            }) as Rc<dyn Helpers>
        });
    }

    /// How many threads the reference backend's large matrix products use:
    /// 1, or 1 and the helpers `setHelpers` gave it.
    #[wasm_bindgen(getter, js_name = productThreads)]
    pub fn product_threads(&self) -> u32 {
        1 + self
            .helpers
            .borrow()
            .as_ref()
            .map_or(0, |h| h.count() as u32)
    }
}

/// The helpers a run of one process registers for its duration (where the
/// browser can suspend it while they compute), restored when it ends.
pub(crate) struct Registered(Option<Rc<dyn Helpers>>);

impl Registered {
    pub(crate) fn for_run(helpers: Option<Rc<dyn Helpers>>) -> Registered {
        Registered(product_helpers::set_helpers(helpers))
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        product_helpers::set_helpers(self.0.take());
    }
}

/// A helper's share of a product, `[batch, m, k] @ [batch, k, n]` with both
/// operands dense, row-major or stored transposed where `a_t`/`b_t` say so
/// (`a` as `[batch, k, m]`, `b` as `[batch, n, k]`), computed by the
/// reference backend's own kernel: what a helper worker calls with each
/// share it is handed.
#[wasm_bindgen(js_name = productShare)]
#[allow(clippy::too_many_arguments)] // One per field of the share.
pub fn product_share(
    a: Vec<f32>,
    b: Vec<f32>,
    batch: usize,
    m: usize,
    k: usize,
    n: usize,
    a_t: bool,
    b_t: bool,
) -> Result<Vec<f32>, JsError> {
    let sizes = (batch.checked_mul(m).and_then(|x| x.checked_mul(k)))
        .zip(batch.checked_mul(k).and_then(|x| x.checked_mul(n)));
    if sizes != Some((a.len(), b.len())) {
        return Err(JsError::new(&format!(
            "productShare: {} and {} elements are not [{batch}, {m}, {k}] and [{batch}, {k}, {n}]",
            a.len(),
            b.len()
        )));
    }
    let share = ProductShare {
        batch,
        m,
        k,
        n,
        a,
        b,
        a_transposed: a_t,
        b_transposed: b_t,
    };
    Ok(product_helpers::compute_share(&share))
}
