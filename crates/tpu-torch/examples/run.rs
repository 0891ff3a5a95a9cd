//! Runs a torch program on the new interpreter, on the reference backend, as
//! `python FILE ARGS...` would: `cargo run -p tpu-torch --example run --
//! [--mode MODE] FILE`.
//! For trying the port by hand; `tpu run` still uses the own interpreter.

fn main() -> std::process::ExitCode {
    let mut args = std::env::args().skip(1).peekable();
    let mut mode = tpu_runtime::EagerMode::Strict;
    if args.peek().is_some_and(|a| a == "--mode") {
        args.next();
        match args.next().map(|m| m.parse()) {
            Some(Ok(m)) => mode = m,
            _ => {
                eprintln!("usage: run [--mode debug|strict|fused] FILE [ARGS...]");
                return std::process::ExitCode::from(2);
            }
        }
    }
    let Some(path) = args.next() else {
        eprintln!("usage: run [--mode debug|strict|fused] FILE [ARGS...]");
        return std::process::ExitCode::from(2);
    };
    let rest: Vec<String> = args.collect();
    let source = match std::fs::read_to_string(&path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("run: can't open file '{path}': {e}");
            return std::process::ExitCode::from(2);
        }
    };
    let code = std::thread::Builder::new()
        .stack_size(tpu_python::STACK_BYTES)
        .spawn(move || {
            use std::io::Write;
            let mut runtime =
                tpu_runtime::Runtime::new(Box::new(tpu_runtime::ReferenceBackend::new()));
            let on_output: tpu_python::OnOutput = Box::new(|stream, text| {
                let _ = match stream {
                    tpu_python::Stream::Stdout => std::io::stdout().write_all(text.as_bytes()),
                    tpu_python::Stream::Stderr => std::io::stderr().write_all(text.as_bytes()),
                };
            });
            let options = tpu_python::Options {
                path,
                folder: std::env::current_dir().ok(),
                args: rest,
                on_output: Some(on_output),
                ..tpu_python::Options::default()
            };
            tpu_torch::run_report(&source, &mut runtime, options, mode)
                .1
                .exit_code
        })
        .expect("a thread starts")
        .join()
        .unwrap_or(3);
    std::process::ExitCode::from(code.clamp(0, 255) as u8)
}
