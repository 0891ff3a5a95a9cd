//! What the browser test binaries share: a playground as JavaScript holds
//! it, with CPython's standard library served by the test server from
//! `python-lib/` (which `cargo xtask` lays out beside this crate), and its
//! methods called through JavaScript, as the page calls them: `run` is a
//! JSPI export, which suspends (at a device read, a rank's turn) only when
//! entered from JavaScript.
// Each test binary uses its own part of this.
#![allow(dead_code)]

use tpu_runtime::Report;
use tpu_wasm::Playground;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen(inline_js = "export function read_sync(url) { \
    const x = new XMLHttpRequest(); x.open('GET', url, false); x.send(); \
    return x.status === 200 ? x.responseText : undefined; }")]
extern "C" {
    pub fn read_sync(url: &str) -> Option<String>;
}

#[wasm_bindgen(inline_js = "export function next_task() { \
    return new Promise(resolve => setTimeout(resolve, 0)); }")]
extern "C" {
    fn next_task() -> js_sys::Promise;
}

/// Returns to the browser's event loop for one task. A run on the reference
/// backend never suspends, and an `await` on a settled promise only queues a
/// microtask, so a test that runs program after program would hold the page
/// for minutes: ChromeDriver, whose requests (the test runner's polls of the
/// output) wait for a task, gives up after 300 s.
pub async fn yield_to_the_browser() {
    JsFuture::from(next_task())
        .await
        .expect("setTimeout's promise resolves");
}

/// A `Playground` as JavaScript holds it.
pub struct Page(pub JsValue);

impl Page {
    /// A playground on `backend` with the standard library set.
    pub async fn create(backend: &str) -> Result<Page, JsValue> {
        let playground = Playground::create(Some(backend.into())).await?;
        let index: Vec<String> = serde_json::from_str(
            &read_sync("/python-lib/index.json")
                .expect("python-lib/ is laid out beside the crate (cargo xtask test does)"),
        )
        .expect("index.json lists the files");
        let index: std::collections::HashSet<String> = index.into_iter().collect();
        let read = Closure::<dyn Fn(String) -> JsValue>::new(move |path: String| {
            match index.contains(&path) {
                true => {
                    read_sync(&format!("/python-lib/{path}")).map_or(JsValue::UNDEFINED, Into::into)
                }
                false => JsValue::UNDEFINED,
            }
        });
        playground.set_python_library(read.into_js_value().unchecked_into());
        Ok(Page(playground.into()))
    }

    /// A property (`backendLabel`, `software`, `backend`).
    pub fn get(&self, name: &str) -> JsValue {
        js_sys::Reflect::get(&self.0, &name.into()).unwrap_or(JsValue::UNDEFINED)
    }

    /// Calls the method `name`; what it returns, or what it threw.
    pub fn call(&self, name: &str, args: &[JsValue]) -> Result<JsValue, JsValue> {
        let method: js_sys::Function =
            js_sys::Reflect::get(&self.0, &name.into())?.unchecked_into();
        let args: js_sys::Array = args.iter().collect();
        method.apply(&self.0, &args)
    }

    /// `run(source, mode, options)`, after a turn of the event loop: the
    /// Report, or why the promise was rejected.
    pub async fn try_run(
        &self,
        source: &str,
        mode: Option<&str>,
        options: Option<js_sys::Object>,
    ) -> Result<Report, JsValue> {
        yield_to_the_browser().await;
        let mode = mode.map_or(JsValue::UNDEFINED, JsValue::from);
        let options = options.map_or(JsValue::UNDEFINED, JsValue::from);
        let promise: js_sys::Promise = self
            .call("run", &[source.into(), mode, options])?
            .unchecked_into();
        let value = JsFuture::from(promise).await?;
        Ok(serde_wasm_bindgen::from_value(value).expect("a Report"))
    }

    /// `run`'s Report, which must come.
    pub async fn run(
        &self,
        source: &str,
        mode: Option<&str>,
        options: Option<js_sys::Object>,
    ) -> Report {
        self.try_run(source, mode, options)
            .await
            .unwrap_or_else(|e| panic!("the run resolves: {e:?}"))
    }
}

/// `object[name] = value`.
pub fn set(object: &js_sys::Object, name: &str, value: &JsValue) {
    js_sys::Reflect::set(object, &name.into(), value).expect("an object takes a property");
}
