//! Runs on RustPython (`tpu-torch` over `tpu-python`), CPython's language and
//! standard library, as `tpu run` does natively:
//!
//! ```js
//! playground.setPythonLibrary((path) => text);  // "json/__init__.py" -> its source, or undefined
//! const report = await playground.run(source, "strict", {
//!   onOutput: (text, stream) => {},   // "stdout" or "stderr", as written
//!   argv: ["--steps", "3"],           // sys.argv[1:]
//! });
//! ```
//!
//! The interpreter runs synchronously; where it waits for the device (a read
//! of a WebGPU buffer) its wasm stack is suspended through JavaScript Promise
//! Integration, so `run` is a `jspi` export and returns a Promise. The
//! program's files are `tpu-python`'s in-memory ones (`memfs`), kept between
//! runs; `files`, `readFile`, `writeFile` and `removeFile` are the page's
//! and the npm API's view of them.
//!
//! With `nproc`, the program runs as that many ranks, as torchrun would,
//! each a fiber (a JSPI stack) with an interpreter of its own in this one
//! instance (`tpu-torch`'s `ranks.rs`); their output streams line by line,
//! each line prefixed `[rankK]:`. Stop is the worker's: it ends the
//! instance.

use crate::Playground;
use tpu_python::Files;
use wasm_bindgen::prelude::*;

/// `Lib/` as the page serves it: `read("json/__init__.py")` is the source, or
/// not a string where there is no such file.
fn stdlib(read: js_sys::Function) -> tpu_python::FindModule {
    tpu_python::library("/lib/python3.14", move |path| {
        read.call1(&JsValue::NULL, &JsValue::from_str(path))
            .ok()
            .and_then(|v| v.as_string())
    })
}

#[wasm_bindgen]
impl Playground {
    /// Where `run` reads CPython's standard library (`Lib/`) from:
    /// `read(path)` returns the text of `path` (relative to `Lib/`, like
    /// `json/__init__.py`) or anything else where there is none. It is
    /// called synchronously, when a module is first imported.
    #[wasm_bindgen(js_name = setPythonLibrary)]
    pub fn set_python_library(&self, read: js_sys::Function) {
        *self.python_library.borrow_mut() = Some(read);
    }

    /// Runs a program on RustPython and resolves to its Report. `mode` is
    /// the eager mode it starts in: `"strict"` (the default), `"debug"` or
    /// `"fused"`. `options`, optional: `{ onOutput?: (text, stream) =>
    /// void, onProgress?: (line, elapsedMs) => void, timeoutMs?: number,
    /// argv?: string[], path?: string, nproc?: number }`: `nproc` runs it as
    /// that many ranks, as torchrun would, on the slice `setDevice` chose or
    /// else the smallest with a chip per rank; `path` is the program's file name
    /// (`main.py` by default) in `/home/user`, where it starts. Progress and the time limit are seen where the
    /// program's own code runs (a loop turning, a function starting). Rejects where the playground cannot run:
    /// a run already in progress, no standard library set.
    #[wasm_bindgen(jspi, js_name = run)]
    #[allow(deprecated)] // JSPI is experimental in wasm-bindgen 0.2.130.
    pub fn run(
        &self,
        source: String,
        mode: Option<String>,
        options: Option<js_sys::Object>,
    ) -> Result<JsValue, JsValue> {
        let mode = match mode.as_deref() {
            None => tpu_runtime::EagerMode::Strict,
            Some(m) => m.parse().map_err(|e: String| JsError::new(&e))?,
        };
        let read = self
            .python_library
            .borrow()
            .clone()
            .ok_or_else(|| JsError::new("no standard library: call setPythonLibrary first"))?;
        let (mut python, nproc) = python_options(options.as_ref())?;
        python.stdlib = Some(stdlib(read));
        let mut runtimes = self
            .runtimes
            .borrow_mut()
            .take()
            .ok_or_else(|| JsError::new("a run is already in progress"))?;
        let mut report = match nproc {
            None => {
                // Helpers only where the run can suspend while they compute;
                // ranks never use them (one rank's suspension must not let
                // another run in the middle of its product).
                let helpers = promise_integration()
                    .then(|| self.helpers.borrow().clone())
                    .flatten();
                let _helpers = crate::helpers::Registered::for_run(helpers);
                let maker = runtimes.world_maker(promise_integration());
                runtimes.single.set_world_maker(maker);
                tpu_runtime::product_helpers::take_helped();
                let mut report =
                    tpu_torch::run_report(&source, &mut runtimes.single, python, mode).0;
                report.helped_products = tpu_runtime::product_helpers::take_helped();
                report
            }
            // Even one rank runs as a fiber, which without JSPI could never
            // hand the turn back.
            Some(_) if !promise_integration() => crate::refused(
                "runs of ranks need JavaScript Promise Integration \
                 (WebAssembly.Suspending), which this browser lacks"
                    .into(),
            ),
            Some(nproc) => match runtimes.ranks(nproc) {
                Ok(ranks) => {
                    let chips = (0..nproc).collect();
                    tpu_torch::run_ranks(&source, ranks, python, mode, chips)
                }
                Err(message) => crate::refused(message),
            },
        };
        *self.runtimes.borrow_mut() = Some(runtimes);
        report.backend_label = self.label.text.clone();
        report.backend_software = self.label.software;
        crate::report_to_js(&report)
    }

    /// The program's files (`open("input.txt")` reads `/home/user/input.txt`):
    /// `[{ path, size }]`, sorted by path.
    pub fn files(&self) -> Result<JsValue, JsError> {
        let list = js_sys::Array::new();
        for file in tpu_python::memfs::list() {
            let entry = js_sys::Object::new();
            js_sys::Reflect::set(&entry, &"path".into(), &file.path.into())
                .map_err(|_| JsError::new("cannot build the list"))?;
            js_sys::Reflect::set(&entry, &"size".into(), &(file.size as f64).into())
                .map_err(|_| JsError::new("cannot build the list"))?;
            list.push(&entry);
        }
        Ok(list.into())
    }

    /// A file's bytes, or `undefined`.
    #[wasm_bindgen(js_name = readFile)]
    pub fn read_file(&self, path: &str) -> Option<Vec<u8>> {
        tpu_python::memfs::read(path)
    }

    /// Puts a file (relative paths are under `/home/user`, where programs
    /// start), making its folders; resolves to its absolute path.
    #[wasm_bindgen(js_name = writeFile)]
    pub fn write_file(&self, path: &str, bytes: Vec<u8>) -> Result<String, JsError> {
        let now_ns = (js_sys::Date::now() * 1e6) as i64;
        tpu_python::memfs::write(path, bytes, now_ns).map_err(|e| JsError::new(&e))
    }

    /// Removes a file or a folder with what it holds; whether it was there.
    #[wasm_bindgen(js_name = removeFile)]
    pub fn remove_file(&self, path: &str) -> bool {
        tpu_python::memfs::remove(path)
    }
}

/// Whether this browser suspends wasm at a promise (JSPI): each rank of a
/// run is a stack that waits for the others so. The page's worker stands in
/// for a missing `WebAssembly.Suspending` with one marked `polyfill`, under
/// which single runs work (the reference backend never waits) but ranks
/// cannot take turns.
fn promise_integration() -> bool {
    let get = |object: &JsValue, name: &str| js_sys::Reflect::get(object, &name.into()).ok();
    get(&js_sys::global(), "WebAssembly")
        .and_then(|wasm| get(&wasm, "Suspending"))
        .is_some_and(|s| s.is_function() && get(&s, "polyfill").is_none_or(|p| p.is_undefined()))
}

/// Reads `run`'s options, and the number of ranks: anything it does
/// not name is ignored, a named field of the wrong type is an error.
fn python_options(
    options: Option<&js_sys::Object>,
) -> Result<(tpu_python::Options, Option<usize>), JsValue> {
    let mut python = tpu_python::Options {
        path: "main.py".into(),
        folder: Some(tpu_python::memfs::HOME.into()),
        files: Files::Memory,
        ..tpu_python::Options::default()
    };
    let Some(options) = options else {
        return Ok((python, None));
    };
    let field = |name: &str| crate::field(options, name);
    let wrong = crate::wrong;
    if let Some(f) = field("onOutput")? {
        let f: js_sys::Function = f.dyn_into().map_err(|_| wrong("onOutput", "a function"))?;
        python.on_output = Some(Box::new(move |stream, text| {
            let stream = match stream {
                tpu_python::Stream::Stdout => "stdout",
                tpu_python::Stream::Stderr => "stderr",
            };
            let _ = f.call2(&JsValue::NULL, &text.into(), &stream.into());
        }));
    }
    if let Some(f) = field("onProgress")? {
        let f: js_sys::Function = f
            .dyn_into()
            .map_err(|_| wrong("onProgress", "a function"))?;
        python.on_progress = Some(Box::new(move |line, elapsed| {
            let _ = f.call2(&JsValue::NULL, &line.into(), &(elapsed * 1e3).into());
        }));
    }
    if let Some(ms) = field("timeoutMs")? {
        python.timeout = Some(crate::timeout(&ms)?);
    }
    if let Some(path) = field("path")? {
        let path = path
            .as_string()
            .filter(|p| !p.is_empty() && !p.contains('/'))
            .ok_or_else(|| wrong("path", "a file name"))?;
        python.path = path;
    }
    if let Some(argv) = field("argv")? {
        let argv: js_sys::Array = argv
            .dyn_into()
            .map_err(|_| wrong("argv", "an array of strings"))?;
        python.args = argv
            .iter()
            .map(|a| {
                a.as_string()
                    .ok_or_else(|| wrong("argv", "an array of strings"))
            })
            .collect::<Result<_, _>>()?;
    }
    Ok((python, crate::nproc(options)?))
}
