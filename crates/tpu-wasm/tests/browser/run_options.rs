//! Runs in headless Chromium (`wasm-pack test --headless --chrome`): `run`'s
//! options object as JavaScript passes it (`onOutput`, `onProgress`,
//! `timeoutMs`, `argv`), the two-argument call, and the backend's label.

use crate::common::{Page, set};
use std::cell::RefCell;
use std::rc::Rc;
use tpu_runtime::Report;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

async fn run(page: &Page, source: &str, options: Option<js_sys::Object>) -> Report {
    page.run(source, None, options).await
}

#[wasm_bindgen_test]
async fn output_and_progress_reach_the_callbacks_and_the_time_limit_stops_the_run() {
    let playground = Page::create("reference")
        .await
        .expect("the reference backend");
    let printed = Rc::new(RefCell::new(Vec::<String>::new()));
    let progress = Rc::new(RefCell::new(Vec::<(f64, f64)>::new()));
    let on_output = {
        let printed = printed.clone();
        Closure::<dyn FnMut(String, String)>::new(move |text: String, stream: String| {
            printed.borrow_mut().push(format!("{stream}: {text}"))
        })
    };
    let on_progress = {
        let progress = progress.clone();
        Closure::<dyn FnMut(f64, f64)>::new(move |line: f64, ms: f64| {
            progress.borrow_mut().push((line, ms))
        })
    };
    let options = js_sys::Object::new();
    set(&options, "onOutput", on_output.as_ref().unchecked_ref());
    set(&options, "onProgress", on_progress.as_ref().unchecked_ref());
    // Long enough that the loop reports its progress several times even when
    // starting the interpreter takes most of a second on a loaded machine (at
    // 450 ms it once reported nothing, with both cores busy).
    set(&options, "timeoutMs", &JsValue::from(1500.0));
    let argv: js_sys::Array = ["--steps", "3"].iter().map(|&a| JsValue::from(a)).collect();
    set(&options, "argv", &argv);
    let started = js_sys::Date::now();
    let report = run(
        &playground,
        "import sys\nprint('start', sys.argv[1:])\nprint('to stderr', file=sys.stderr)\nx = 0\nwhile True:\n    x += 1\n",
        Some(options),
    )
    .await;
    let took = js_sys::Date::now() - started;
    let d = &report.diagnostics[0];
    assert_eq!(d.kind, "TimeoutError");
    assert_eq!(d.message, "the program ran past its time limit of 1.5 s");
    assert!(matches!(d.span.map(|s| s.line), Some(5 | 6)), "{d:?}");
    assert!((1_500.0..8_000.0).contains(&took), "{took} ms");
    // Each write arrives as it is made (`print` writes its pieces apart).
    let stream = |name: &str| -> String {
        let prefix = format!("{name}: ");
        printed
            .borrow()
            .iter()
            .filter_map(|piece| piece.strip_prefix(&prefix))
            .collect()
    };
    assert_eq!(stream("stdout"), "start ['--steps', '3']\n");
    // The traceback is stderr's too, as under CPython.
    let stderr = stream("stderr");
    assert!(
        stderr.starts_with("to stderr\nTraceback (most recent call last):\n")
            && stderr.ends_with("TimeoutError: the program ran past its time limit of 1.5 s\n"),
        "{stderr}"
    );
    let progress = progress.borrow().clone();
    assert!((2..=15).contains(&progress.len()), "{progress:?}");
    assert!(progress.iter().all(|&(line, _)| line == 5.0 || line == 6.0));
    for pair in progress.windows(2) {
        assert!(pair[1].1 - pair[0].1 >= 99.0, "{progress:?}");
    }
    // The two-argument call runs, with no limit and no callbacks.
    let streamed = printed.borrow().len();
    let report = run(&playground, "print(6 * 7)\n", None).await;
    assert_eq!(report.stdout, "42\n");
    assert_eq!(printed.borrow().len(), streamed);
}

#[wasm_bindgen_test]
async fn an_option_of_the_wrong_type_rejects_the_run() {
    let playground = Page::create("reference").await.unwrap();
    let options = js_sys::Object::new();
    set(&options, "onOutput", &JsValue::from(3));
    let result = playground.try_run("print(1)\n", None, Some(options)).await;
    let error = result.expect_err("a rejected promise");
    let message = js_sys::Reflect::get(&error, &"message".into()).unwrap();
    assert_eq!(message.as_string().unwrap(), "onOutput must be a function");
}

#[wasm_bindgen_test]
async fn the_backend_label_names_the_adapter_and_says_software() {
    let reference = Page::create("reference").await.unwrap();
    assert_eq!(reference.get("backendLabel"), "CPU reference");
    assert_eq!(reference.get("software"), true);
    let report = run(&reference, "print(1)\n", None).await;
    assert_eq!(report.backend_label, "CPU reference");
    assert!(report.backend_software);

    let webgpu = Page::create("wgpu").await.expect("WebGPU is available");
    let label = webgpu.get("backendLabel").as_string().expect("a label");
    web_sys_log(&format!("WebGPU adapter label: {label}"));
    // Headless Chromium here runs WebGPU on SwiftShader, a software adapter.
    assert_eq!(label, "WebGPU (SwiftShader, software)");
    assert_eq!(webgpu.get("software"), true);
    let report = run(&webgpu, "print(1)\n", None).await;
    assert_eq!(report.backend_label, label);
    assert!(report.backend_software);
}

fn web_sys_log(text: &str) {
    let console = js_sys::Reflect::get(&js_sys::global(), &"console".into()).unwrap();
    let log: js_sys::Function = js_sys::Reflect::get(&console, &"log".into())
        .unwrap()
        .unchecked_into();
    log.call1(&console, &text.into()).unwrap();
}
