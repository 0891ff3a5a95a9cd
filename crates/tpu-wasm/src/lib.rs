//! The only crate that knows `JsValue`. It exposes one class to JavaScript:
//!
//! ```js
//! const playground = await Playground.create("auto");   // or "wgpu" / "cpu"
//! const report = await playground.run(source);          // a plain Report object
//! ```
//!
//! A `Playground` owns one runtime (and so one GPU device and its compiled
//! kernels) for all its runs. Errors in the user's program are part of the Report;
//! a rejected promise means the playground itself could not run (no adapter when
//! `wgpu` was forced, or a run already in progress).

use std::cell::RefCell;
use std::rc::Rc;
use tpu_lang::RunOptions;
use tpu_runtime::{Report, Runtime};
use tpu_wgpu::BackendChoice;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
pub struct Playground {
    /// `None` while a run holds the runtime.
    runtime: Rc<RefCell<Option<Runtime>>>,
    fallback_reason: Option<String>,
}

#[wasm_bindgen]
impl Playground {
    /// Picks the backend (`"auto"`, `"wgpu"` or `"cpu"`) and opens its device.
    pub async fn create(backend: Option<String>) -> Result<Playground, JsError> {
        console_error_panic_hook::set_once();
        let choice: BackendChoice = backend
            .as_deref()
            .unwrap_or("auto")
            .parse()
            .map_err(|e: String| JsError::new(&e))?;
        let selected = tpu_wgpu::select_backend(choice)
            .await
            .map_err(|e| JsError::new(&e.to_string()))?;
        let mut runtime = Runtime::new(selected.backend);
        runtime.set_clock(Box::new(js_sys::Date::now));
        Ok(Playground {
            runtime: Rc::new(RefCell::new(Some(runtime))),
            fallback_reason: selected.fallback_reason,
        })
    }

    /// Which backend runs `tpu` tensors: `"wgpu"` or `"reference"`.
    #[wasm_bindgen(getter)]
    pub fn backend(&self) -> String {
        self.with_runtime(|rt| rt.tpu_backend_kind().name().to_string())
            .unwrap_or_default()
    }

    /// Why `auto` fell back to the reference backend, if it did.
    #[wasm_bindgen(getter, js_name = fallbackReason)]
    pub fn fallback_reason(&self) -> Option<String> {
        self.fallback_reason.clone()
    }

    /// Runs a program; resolves to its Report. `mode` is the eager mode the
    /// program starts in (`"debug"`, `"strict"` (the default) or `"fused"`).
    pub fn run(&self, source: String, mode: Option<String>) -> js_sys::Promise {
        let slot = self.runtime.clone();
        wasm_bindgen_futures::future_to_promise(async move {
            let mode = match mode.as_deref() {
                None => tpu_runtime::EagerMode::Strict,
                Some(m) => m
                    .parse()
                    .map_err(|e: String| JsValue::from(JsError::new(&e)))?,
            };
            let options = RunOptions {
                mode,
                ..RunOptions::default()
            };
            let mut runtime = slot
                .borrow_mut()
                .take()
                .ok_or_else(|| JsValue::from(JsError::new("a run is already in progress")))?;
            let report = tpu_lang::run(&source, &mut runtime, &options).await;
            *slot.borrow_mut() = Some(runtime);
            report_to_js(&report)
        })
    }
}

#[wasm_bindgen]
impl Playground {
    /// Chooses the simulated TPU every later run is costed on: `chip` as
    /// `tpu run --chip` takes it (`v5e`, `v5e:mxu_width=256`), `slice` like
    /// `2x2`. A program can still choose another for itself
    /// (`torch_tpu.set_chip`).
    #[wasm_bindgen(js_name = setDevice)]
    pub fn set_device(&self, chip: &str, slice: &str) -> Result<(), JsError> {
        let (chip, slice) = tpu_device::device(chip, slice).map_err(|e| JsError::new(&e))?;
        let mut slot = self.runtime.borrow_mut();
        let runtime = slot
            .as_mut()
            .ok_or_else(|| JsError::new("a run is in progress"))?;
        runtime.set_device(chip, slice);
        Ok(())
    }

    /// Loads compilation cache entries persisted by earlier sessions (the
    /// page keeps them in IndexedDB). A record that is not an entry is
    /// counted as corrupt, and its kernel is rebuilt.
    #[wasm_bindgen(js_name = loadCache)]
    pub fn load_cache(&self, records: Vec<JsValue>) -> Result<(), JsError> {
        let entries = records
            .into_iter()
            .map(|r| {
                serde_wasm_bindgen::from_value::<tpu_runtime::CacheEntry>(r.clone()).map_err(|_| {
                    js_sys::Reflect::get(&r, &"fingerprint".into())
                        .ok()
                        .and_then(|f| f.as_string())
                        .unwrap_or_else(|| "an unreadable record".into())
                })
            })
            .collect();
        let mut slot = self.runtime.borrow_mut();
        let runtime = slot
            .as_mut()
            .ok_or_else(|| JsError::new("a run is in progress"))?;
        runtime.load_cache(entries);
        Ok(())
    }

    /// The compilation cache entries made since the last call, for the page
    /// to persist.
    #[wasm_bindgen(js_name = takeCacheEntries)]
    pub fn take_cache_entries(&self) -> Result<JsValue, JsError> {
        let mut slot = self.runtime.borrow_mut();
        let runtime = slot
            .as_mut()
            .ok_or_else(|| JsError::new("a run is in progress"))?;
        use serde::Serialize;
        runtime
            .take_cache_entries()
            .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
            .map_err(|e| JsError::new(&e.to_string()))
    }
}

impl Playground {
    fn with_runtime<T>(&self, f: impl FnOnce(&Runtime) -> T) -> Option<T> {
        self.runtime.borrow().as_ref().map(f)
    }
}

/// Reports cross to JavaScript as plain objects (maps become objects).
/// A run's simulated timeline (`Report.timeline`) as Chrome Trace Event JSON,
/// as `tpu run --trace` writes it, for Perfetto or chrome://tracing.
#[wasm_bindgen(js_name = chromeTrace)]
pub fn chrome_trace(timeline: JsValue, chip_name: &str) -> Result<JsValue, JsError> {
    use serde::Serialize;
    let timeline: tpu_device::timeline::Timeline =
        serde_wasm_bindgen::from_value(timeline).map_err(|e| JsError::new(&e.to_string()))?;
    tpu_device::timeline::chrome_trace(&timeline, chip_name)
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&e.to_string()))
}

/// The device model's chip presets, each figure with its source (as `tpu
/// chips --json` prints them).
#[wasm_bindgen(js_name = chipPresets)]
pub fn chip_presets() -> Result<JsValue, JsError> {
    use serde::Serialize;
    tpu_device::chip::presets()
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&e.to_string()))
}

/// Simulates one collective link by link on the device model (simulated time,
/// not measured): `chip` as `tpu run --chip` takes it, `slice` like `4x4`,
/// `axes` indices of the slice's shape, `kind` like `all-reduce`, `bytes` the
/// whole array. Resolves to the simulation with its step-by-step schedule.
#[wasm_bindgen(js_name = simulateCollective)]
pub fn simulate_collective(
    chip: &str,
    slice: &str,
    axes: Vec<usize>,
    kind: &str,
    bytes: f64,
) -> Result<JsValue, JsError> {
    use serde::Serialize;
    let (chip, slice) = tpu_device::device(chip, slice).map_err(|e| JsError::new(&e))?;
    let kind = kind.parse().map_err(|e: String| JsError::new(&e))?;
    let request = tpu_device::Collective { kind, axes, bytes };
    let sim = tpu_device::collective::simulate(&chip, &slice, &request)
        .map_err(|e| JsError::new(&e.to_string()))?;
    sim.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&e.to_string()))
}

fn report_to_js(report: &Report) -> Result<JsValue, JsValue> {
    use serde::Serialize;
    report
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsValue::from(JsError::new(&e.to_string())))
}
