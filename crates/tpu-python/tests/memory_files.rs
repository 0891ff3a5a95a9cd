//! A run whose files are in memory (`Files::Memory`, as in the browser):
//! `open`, `os`, `pathlib`, `tempfile`, `shutil`, `glob` and `pickle` over
//! `memfs`, judged by what CPython 3.13 printed for the same program run in
//! an empty folder (`memory/files.expected`); then what the run left, as the
//! embedder sees it, and a second run finding it.

use tpu_python::{Files, Options, memfs};

fn run_twice() -> (
    tpu_python::Outcome,
    Vec<memfs::FileInfo>,
    tpu_python::Outcome,
) {
    std::thread::Builder::new()
        .stack_size(tpu_python::STACK_BYTES)
        .spawn(|| {
            memfs::clear();
            let options = || Options {
                path: "files.py".into(),
                files: Files::Memory,
                ..Options::default()
            };
            let first = tpu_python::run(include_str!("memory/files.py"), options());
            let left = memfs::list();
            let second = tpu_python::run(
                "import os\nprint(open('input.txt').read().split(), sorted(os.listdir('out')))",
                options(),
            );
            (first, left, second)
        })
        .expect("a thread starts")
        .join()
        .expect("the runs do not panic")
}

#[test]
fn files_in_memory_behave_as_cpython_files_do_and_outlive_the_run() {
    let (first, left, second) = run_twice();
    assert_eq!(first.stderr, "");
    assert_eq!(first.stdout, include_str!("memory/files.expected"));
    let paths: Vec<_> = left.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "/home/user/input.txt",
            "/home/user/out/m.json",
            "/home/user/out/moved.txt",
            "/home/user/out/notes.txt",
            "/home/user/uni.txt",
        ]
    );
    assert_eq!(
        memfs_read_in_thread(),
        None,
        "each thread has its own files"
    );
    assert_eq!(
        second.stdout,
        "['hello', 'world', 'more'] ['m.json', 'moved.txt', 'notes.txt']\n"
    );
}

fn memfs_read_in_thread() -> Option<Vec<u8>> {
    memfs::read("input.txt")
}
