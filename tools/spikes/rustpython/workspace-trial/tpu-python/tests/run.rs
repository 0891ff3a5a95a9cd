//! One small program through the whole interpreter: stdlib imports, both streams,
//! argv, an uncaught exception and `SystemExit`.

#[test]
fn runs_a_program_with_the_standard_library() {
    let src = r#"
import sys, json, re, collections, dataclasses, os
@dataclasses.dataclass
class P:
    x: int
    y: int = 2
print(json.dumps({"b": [1, 2], "a": P(1).y}, sort_keys=True))
print(re.sub(r"(\d+)", r"<\1>", "a1b22"), collections.Counter("abca").most_common(1))
print(sys.argv, os.sep)
print("to stderr", file=sys.stderr)
"#;
    let (out, err, status) = tpu_python::run(src, "prog.py");
    assert_eq!(
        out,
        "{\"a\": 2, \"b\": [1, 2]}\na<1>b<22> [('a', 2)]\n['prog.py'] /\n"
    );
    assert_eq!(err, "to stderr\n");
    assert_eq!(status, 0);
}

#[test]
fn uncaught_exception_and_system_exit() {
    let (out, err, status) = tpu_python::run("print('hi')\n1/0\n", "boom.py");
    assert_eq!(out, "hi\n");
    assert!(
        err.starts_with("Traceback (most recent call last):\n"),
        "{err}"
    );
    assert!(err.contains("File \"boom.py\", line 2"), "{err}");
    assert!(
        err.ends_with("ZeroDivisionError: division by zero\n"),
        "{err}"
    );
    assert_eq!(status, 1);

    assert_eq!(
        tpu_python::run("import sys\nsys.exit(3)\n", "x.py"),
        (String::new(), String::new(), 3)
    );
    assert_eq!(
        tpu_python::run("raise SystemExit('bye')\n", "x.py"),
        (String::new(), "bye\n".to_owned(), 1)
    );
}
