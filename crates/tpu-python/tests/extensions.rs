//! An embedder's modules: a native one (`#[pymodule]`) and a Python package
//! served from memory, imported by a program as any module is, with
//! tracebacks that show the served source's lines; and the hook an embedder
//! gets once the program has ended.

use std::rc::Rc;
use tpu_python::rustpython_vm;
use tpu_python::{Extensions, ModuleSource, Options, Outcome};

#[rustpython_vm::pymodule]
mod _doubler {
    #[pyfunction]
    fn double(x: i64) -> i64 {
        2 * x
    }
}

fn served(name: &str) -> Option<ModuleSource> {
    let (is_package, source) = match name {
        "pkg" => (
            true,
            "from ._impl import triple\nfrom ._hidden import check\nVERSION = '1.0'\n",
        ),
        "pkg._hidden" => (
            false,
            "def check(x):\n    if x > 9:\n        raise OverflowError(f'too big: {x}')\n    return x\n",
        ),
        "pkg._impl" => (
            false,
            "import _doubler\n\ndef triple(x):\n    if x < 0:\n        raise ValueError(f'negative: {x}')\n    return _doubler.double(x) + x\n",
        ),
        _ => return None,
    };
    let filename = format!("<served>/{}.py", name.replace('.', "/"));
    Some(ModuleSource {
        filename,
        is_package,
        source: source.to_owned(),
    })
}

fn run(source: &str) -> Outcome {
    let source = source.to_owned();
    std::thread::Builder::new()
        .stack_size(tpu_python::STACK_BYTES)
        .spawn(move || {
            let options = Options {
                path: "prog.py".into(),
                extensions: Extensions {
                    native: vec![_doubler::module_def],
                    find_module: Some(Rc::new(served)),
                    // Prints the program's global `seen` after it ended, even
                    // by an exception.
                    at_end: Some(Rc::new(|vm, globals| {
                        if let Ok(seen) = globals.get_item("seen", vm) {
                            let print = vm.builtins.get_attr("print", vm).unwrap();
                            print.call(("at end:", seen), vm).unwrap();
                        }
                    })),
                    hidden_frames: vec!["<served>/pkg/_hidden".into()],
                },
                ..Options::default()
            };
            tpu_python::run(&source, options)
        })
        .expect("a thread starts")
        .join()
        .expect("the run does not panic")
}

#[test]
fn a_program_imports_the_embedders_modules() {
    let outcome = run(
        "import pkg, importlib.util\nfrom pkg import triple\nprint(triple(5), pkg.VERSION, pkg.__name__, pkg._impl.__name__)\nprint(importlib.util.find_spec('pkg._impl').origin, importlib.util.find_spec('nope'))\n",
    );
    assert_eq!(
        outcome.stdout, "15 1.0 pkg pkg._impl\n<served>/pkg/_impl.py None\n",
        "{}",
        outcome.stderr
    );
}

#[test]
fn a_traceback_through_a_served_module_shows_its_lines() {
    let outcome = run("import pkg\npkg.triple(-2)\n");
    assert_eq!(
        outcome.stderr,
        "Traceback (most recent call last):\n  File \"prog.py\", line 2, in <module>\n    pkg.triple(-2)\n    ~~~~~~~~~~^^^^\n  File \"<served>/pkg/_impl.py\", line 5, in triple\n    raise ValueError(f'negative: {x}')\nValueError: negative: -2\n"
    );
    assert_eq!(outcome.error.map(|f| f.line), Some(Some(2)));
}

#[test]
fn the_embedder_sees_the_programs_globals_once_it_has_ended() {
    let outcome = run("seen = [1]\nseen.append(2)\n");
    assert_eq!(outcome.stdout, "at end: [1, 2]\n");
    let outcome = run("seen = 'before'\n1 / 0\nseen = 'after'\n");
    assert_eq!(outcome.stdout, "at end: before\n");
    assert_eq!(
        outcome.error.map(|f| f.kind),
        Some("ZeroDivisionError".into())
    );
}

#[test]
fn the_embedders_hidden_frames_are_left_out_of_a_traceback() {
    let outcome = run("import pkg\npkg.check(10)\n");
    assert_eq!(
        outcome.stderr,
        "Traceback (most recent call last):\n  File \"prog.py\", line 2, in <module>\n    pkg.check(10)\n    ~~~~~~~~~^^^^\nOverflowError: too big: 10\n"
    );
}
