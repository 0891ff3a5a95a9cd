//! The only crate that knows `JsValue`. It exposes one class to JavaScript:
//!
//! ```js
//! const playground = await Playground.create("auto");   // or "wgpu" / "reference" ("cpu")
//! playground.backendLabel;   // "WebGPU (SwiftShader, software)", "CPU reference", ...
//! playground.software;       // true when tensors are computed by the CPU
//! playground.setPythonLibrary((path) => text);          // CPython's Lib/, read as imported
//! const report = await playground.run(source, "strict", {
//!   timeoutMs: 30000,                          // TimeoutError past it
//!   onOutput: (text, stream) => {},            // "stdout" or "stderr", as written
//!   onProgress: (line, elapsedMs) => {},       // at most every 100 ms
//!   argv: ["--steps", "3"],                    // sys.argv[1:]
//!   nproc: 4,                                  // 4 ranks, as torchrun would
//! });                                          // a plain Report object
//! ```
//!
//! Programs run on RustPython with CPython's standard library (`python.rs`),
//! as `tpu run` runs them natively. A `Playground` owns one backend (and so
//! one GPU device) for all its runs, and the runtimes over it
//! (`runtimes.rs`): one for single runs, one per rank for runs with `nproc`,
//! each keeping its compiled kernels. Errors in the user's program are part
//! of the Report; a rejected promise means the playground itself could not
//! run (no adapter when `wgpu` was forced, no standard library set, or a run
//! already in progress).

mod helpers;
mod python;
mod runtimes;

use runtimes::Runtimes;
use std::cell::RefCell;
use std::rc::Rc;
use tpu_runtime::{BackendKind, BackendLabel, Diagnostic, Report, SharedBackend};
use tpu_wgpu::BackendChoice;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
pub struct Playground {
    /// `None` while a run holds the runtimes.
    runtimes: Rc<RefCell<Option<Runtimes>>>,
    fallback_reason: Option<String>,
    /// The backend as a person is shown it, named from the browser's own
    /// adapter info where wgpu's copy has no name.
    label: BackendLabel,
    /// Where `run` reads `Lib/` from (`python.rs`).
    python_library: RefCell<Option<js_sys::Function>>,
    /// Web Workers that take shares of the reference's large products
    /// (`helpers.rs`), once the page's worker has started them.
    helpers: RefCell<Option<Rc<dyn tpu_runtime::product_helpers::Helpers>>>,
}

#[wasm_bindgen]
impl Playground {
    /// Picks the backend (`"auto"`, `"wgpu"`, or `"reference"` (also `"cpu"`))
    /// and opens its device.
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
        let mut runtimes = Runtimes::new(SharedBackend::new(selected.backend));
        // Queued: the worker compiles it a few kernels at a time while idle.
        runtimes.single.start_precompiling();
        let mut label = runtimes.single.tpu_backend_label();
        if runtimes.single.tpu_backend_kind() == BackendKind::Wgpu
            && let Some((name, fallback)) = browser_adapter().await
        {
            label = tpu_wgpu::label_for("WebGPU", &name, fallback || label.software);
        }
        Ok(Playground {
            runtimes: Rc::new(RefCell::new(Some(runtimes))),
            fallback_reason: selected.fallback_reason,
            label,
            python_library: RefCell::new(None),
            helpers: RefCell::new(None),
        })
    }

    /// Compiles up to `max` more kernels of the precompiled library (the
    /// common per-op kernels and fused patterns, `tpu-wgpu`'s `library.rs`)
    /// and returns how many remain; the worker calls it while idle, so a Run
    /// never waits for more than one step. During a run it compiles nothing
    /// and returns `undefined`.
    pub fn precompile(&self, max: u32) -> Option<u32> {
        let mut runtimes = self.runtimes.borrow_mut();
        let runtimes = runtimes.as_mut()?;
        Some(runtimes.single.precompile(max as usize) as u32)
    }

    /// The backend as a person is shown it: `"WebGPU (SwiftShader,
    /// software)"` for a software adapter, `"WebGPU (<adapter name>)"`
    /// otherwise, `"CPU reference"` for the reference backend. Each Report
    /// carries it too (`backend_label`).
    #[wasm_bindgen(getter, js_name = backendLabel)]
    pub fn backend_label(&self) -> String {
        self.label.text.clone()
    }

    /// Whether `tpu` tensors are computed by the CPU (a software WebGPU
    /// adapter, or the reference backend): measured times then say little
    /// about a GPU. Each Report carries it too (`backend_software`).
    #[wasm_bindgen(getter)]
    pub fn software(&self) -> bool {
        self.label.software
    }

    /// Which backend runs `tpu` tensors: `"wgpu"` or `"reference"`.
    #[wasm_bindgen(getter)]
    pub fn backend(&self) -> String {
        self.with_runtimes(|r| r.single.tpu_backend_kind().name().to_string())
            .unwrap_or_default()
    }

    /// Why `auto` fell back to the reference backend, if it did.
    #[wasm_bindgen(getter, js_name = fallbackReason)]
    pub fn fallback_reason(&self) -> Option<String> {
        self.fallback_reason.clone()
    }
}

/// The Report of a run of ranks that could not start on the chosen device:
/// one `ValueError` without a line, as `tpu run` refuses the same choice.
fn refused(message: String) -> Report {
    Report {
        diagnostics: vec![Diagnostic {
            kind: "ValueError".into(),
            traceback: format!("ValueError: {message}"),
            message,
            span: None,
        }],
        ..Report::default()
    }
}

/// The `nproc` option: how many ranks, as torchrun's `--nproc-per-node`.
fn nproc(options: &js_sys::Object) -> Result<Option<usize>, JsValue> {
    let Some(n) = field(options, "nproc")? else {
        return Ok(None);
    };
    let max = tpu_torch::MAX_RANKS;
    let n = n
        .as_f64()
        .filter(|n| n.fract() == 0.0 && (1.0..=max as f64).contains(n))
        .ok_or_else(|| wrong("nproc", &format!("a whole number from 1 to {max}")))?;
    Ok(Some(n as usize))
}

/// An options object's field `name`, or `None` where it is absent (undefined
/// or null).
fn field(options: &js_sys::Object, name: &str) -> Result<Option<JsValue>, JsValue> {
    let value = js_sys::Reflect::get(options, &JsValue::from_str(name))?;
    Ok((!value.is_undefined() && !value.is_null()).then_some(value))
}

/// The error for a field of the wrong type: `{name} must be {what}`.
fn wrong(name: &str, what: &str) -> JsValue {
    JsValue::from(JsError::new(&format!("{name} must be {what}")))
}

/// `timeoutMs`: a positive number of milliseconds.
fn timeout(ms: &JsValue) -> Result<std::time::Duration, JsValue> {
    let ms = ms
        .as_f64()
        .filter(|ms| *ms > 0.0 && ms.is_finite())
        .ok_or_else(|| wrong("timeoutMs", "a positive number of milliseconds"))?;
    Ok(std::time::Duration::from_secs_f64(ms / 1e3))
}

/// What the browser says of its WebGPU adapter: a name (the description,
/// else the architecture such as `swiftshader`, else the vendor) and whether
/// it is a fallback (software) adapter. wgpu keeps only the description,
/// which browsers usually leave empty. `None` where the browser does not say.
async fn browser_adapter() -> Option<(String, bool)> {
    use js_sys::Reflect;
    let get = |object: &JsValue, name: &str| Reflect::get(object, &JsValue::from_str(name)).ok();
    let navigator = get(&js_sys::global().into(), "navigator")?;
    let gpu = get(&navigator, "gpu").filter(|g| !g.is_undefined())?;
    let request: js_sys::Function = get(&gpu, "requestAdapter")?.dyn_into().ok()?;
    let wish = js_sys::Object::new();
    Reflect::set(&wish, &"powerPreference".into(), &"high-performance".into()).ok()?;
    let promise: js_sys::Promise = request.call1(&gpu, &wish).ok()?.dyn_into().ok()?;
    let adapter = wasm_bindgen_futures::JsFuture::from(promise).await.ok()?;
    if adapter.is_null() || adapter.is_undefined() {
        return None;
    }
    let info = get(&adapter, "info").filter(|i| !i.is_undefined())?;
    let text = |object: &JsValue, name: &str| {
        get(object, name)
            .and_then(|v| v.as_string())
            .filter(|s| !s.trim().is_empty())
    };
    let name = text(&info, "description")
        .or_else(|| text(&info, "architecture"))
        .or_else(|| text(&info, "vendor"))
        .unwrap_or_default();
    // Newer browsers put the flag on the info, older ones on the adapter.
    let fallback = [
        get(&info, "isFallbackAdapter"),
        get(&adapter, "isFallbackAdapter"),
    ]
    .into_iter()
    .flatten()
    .any(|v| v.as_bool() == Some(true));
    Some((name, fallback))
}

#[wasm_bindgen]
impl Playground {
    /// Chooses the simulated TPU every later run is costed on: `chip` as
    /// `tpu run --chip` takes it (`v5e`, `v5e:mxu_width=256`), `slice` like
    /// `2x2`, or empty (the default) for one chip, or for a run of ranks the
    /// smallest slice with a chip per rank. A program can still choose
    /// another for itself (`torch_tpu.set_chip`).
    #[wasm_bindgen(js_name = setDevice)]
    pub fn set_device(&self, chip: &str, slice: &str) -> Result<(), JsError> {
        let mut slot = self.runtimes.borrow_mut();
        let runtimes = slot
            .as_mut()
            .ok_or_else(|| JsError::new("a run is in progress"))?;
        runtimes
            .set_device(chip, slice)
            .map_err(|e| JsError::new(&e))
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
        let mut slot = self.runtimes.borrow_mut();
        let runtimes = slot
            .as_mut()
            .ok_or_else(|| JsError::new("a run is in progress"))?;
        runtimes.load_cache(entries);
        Ok(())
    }

    /// The compilation cache entries made since the last call, for the page
    /// to persist.
    #[wasm_bindgen(js_name = takeCacheEntries)]
    pub fn take_cache_entries(&self) -> Result<JsValue, JsError> {
        let mut slot = self.runtimes.borrow_mut();
        let runtimes = slot
            .as_mut()
            .ok_or_else(|| JsError::new("a run is in progress"))?;
        use serde::Serialize;
        runtimes
            .take_cache_entries()
            .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
            .map_err(|e| JsError::new(&e.to_string()))
    }
}

impl Playground {
    fn with_runtimes<T>(&self, f: impl FnOnce(&Runtimes) -> T) -> Option<T> {
        self.runtimes.borrow().as_ref().map(f)
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
