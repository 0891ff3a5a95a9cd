//! `posix` where the files are `memfs.rs`'s (the browser, or a native run
//! asked to use memory): the module `os` is built on, registered as
//! `_tpu_posix` and put in `sys.modules` as `posix` before anything imports
//! `os` (see `MEMORY_FILES` in `lib.rs`). Its native half is the store's
//! primitives (`_fs_*`, inodes by number); the rest, what CPython's
//! `posixmodule.c` does above the kernel (descriptors, `stat_result`,
//! `scandir`, the errors and their `errno`), is `posix.py`, run into the same
//! module when it is imported.

#[rustpython_vm::pymodule(name = "_tpu_posix")]
pub(crate) mod memory_posix {
    use crate::memfs;
    use rustpython_vm::builtins::{PyBytesRef, PyModule};
    use rustpython_vm::scope::Scope;
    use rustpython_vm::{Py, PyObjectRef, PyResult, VirtualMachine, compiler::Mode};

    const SOURCE: &str = include_str!("posix.py");

    #[pyfunction]
    fn _fs_lookup(path: String) -> Option<u64> {
        memfs::lookup(&path)
    }

    /// `(is_folder, size, mtime_ns)`, or None for an inode that is gone.
    #[pyfunction]
    fn _fs_info(ino: u64, vm: &VirtualMachine) -> PyObjectRef {
        match memfs::info(ino) {
            None => vm.ctx.none(),
            Some((folder, size, mtime)) => vm
                .ctx
                .new_tuple(vec![
                    vm.ctx.new_bool(folder).into(),
                    vm.ctx.new_int(size).into(),
                    vm.ctx.new_int(mtime).into(),
                ])
                .into(),
        }
    }

    #[pyfunction]
    fn _fs_create_file(path: String, mtime_ns: i64) -> u64 {
        memfs::create_file(&path, mtime_ns)
    }

    #[pyfunction]
    fn _fs_create_folder(path: String, mtime_ns: i64) -> u64 {
        memfs::create_folder(&path, mtime_ns)
    }

    #[pyfunction]
    fn _fs_pread(ino: u64, offset: usize, n: usize, vm: &VirtualMachine) -> PyBytesRef {
        vm.ctx.new_bytes(memfs::pread(ino, offset, n))
    }

    #[pyfunction]
    fn _fs_pwrite(
        ino: u64,
        offset: usize,
        data: rustpython_vm::function::ArgBytesLike,
        now_ns: i64,
    ) -> usize {
        data.with_ref(|bytes| memfs::pwrite(ino, offset, bytes, now_ns))
    }

    #[pyfunction]
    fn _fs_truncate(ino: u64, size: usize, now_ns: i64) {
        memfs::truncate(ino, size, now_ns)
    }

    #[pyfunction]
    fn _fs_set_mtime(ino: u64, ns: i64) {
        memfs::set_mtime(ino, ns)
    }

    #[pyfunction]
    fn _fs_children(path: String, vm: &VirtualMachine) -> PyObjectRef {
        let names = memfs::children(&path)
            .into_iter()
            .map(|n| vm.ctx.new_str(n).into())
            .collect();
        vm.ctx.new_list(names).into()
    }

    #[pyfunction]
    fn _fs_unlink(path: String) {
        memfs::unlink(&path)
    }

    #[pyfunction]
    fn _fs_rename(from: String, to: String) {
        memfs::rename(&from, &to)
    }

    #[pyfunction]
    fn _fs_used() -> usize {
        memfs::used()
    }

    #[pyattr]
    fn _fs_home(_vm: &VirtualMachine) -> &'static str {
        memfs::HOME
    }

    pub(crate) fn module_exec(vm: &VirtualMachine, module: &Py<PyModule>) -> PyResult<()> {
        __module_exec(vm, module);
        // Compiled and run directly, not through `run_string`, which would
        // import `linecache` and so `os`, which is importing this module.
        let code = vm
            .compile(SOURCE, Mode::Exec, "<tpu-python>/posix.py")
            .map_err(|err| err.into_pyexception(vm, Some(SOURCE)))?;
        vm.run_code_obj(code, Scope::with_builtins(None, module.dict(), vm))?;
        Ok(())
    }
}
