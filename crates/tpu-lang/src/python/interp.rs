//! The interpreter's state and limits: an async tree walker over ruff's AST. It
//! is async because a tensor read (`print`, `.item()`) must await the GPU, and in
//! a browser that await has to return control to the event loop; every `await`
//! is a point where the whole program is suspended and later resumed.
//!
//! Each statement costs fuel (and tensor ops cost fuel by their size), so an
//! endless loop ends in an error naming its line;
//! nesting is bounded, so runaway recursion ends in `RecursionError`, not a stack
//! overflow. The statements themselves are in `statements`.

use crate::python::env::{Env, ScopeKind};
use crate::python::error::PyErr;
use crate::python::source::SourceFile;
use crate::python::value::{Class, Function, Value};
use crate::python::watch::Watch;
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use tpu_runtime::Runtime;

pub type PyResult<T> = Result<T, PyErr>;
pub type Boxed<'a, T> = Pin<Box<dyn Future<Output = PyResult<T>> + 'a>>;

/// How deeply expressions, blocks and calls may nest in all before `RecursionError`
/// (a Python call is about five levels). Sized, like `MAX_CALLS`, to the stack.
#[cfg(not(target_arch = "wasm32"))]
const MAX_DEPTH: usize = 10_000;
#[cfg(target_arch = "wasm32")]
const MAX_DEPTH: usize = 900;

/// How many Python calls may be active at once: CPython's default recursion limit
/// natively. In a browser the bound is the engine's own call stack (about 1 MB in
/// Chromium, which no page can raise), so the wasm limits are lower. Measured in a
/// release build after V8 has tiered the interpreter up (optimised frames are
/// larger than baseline ones): 100 calls down, a 500-deep expression fits and a
/// 700-deep one overflows; cold, 990 fit. The limits keep a margin under the warm
/// figure. An interpreter with an explicit stack would lift this; see
/// ARCHITECTURE.md.
#[cfg(not(target_arch = "wasm32"))]
pub const MAX_CALLS: usize = 1_000;
#[cfg(target_arch = "wasm32")]
pub const MAX_CALLS: usize = 180;

pub enum Flow {
    Normal,
    Break,
    Continue,
    Return(Value),
}

pub struct Interpreter<'r> {
    pub runtime: &'r mut Runtime,
    /// Everything the program printed; private so that every write goes through
    /// `write_stdout`, which also streams it to the output sink.
    stdout: String,
    /// The file whose code is running now (the user's, or the prelude's).
    pub file: Rc<SourceFile>,
    pub env: Rc<Env>,
    /// Modules by dotted name (`torch`, `torch.nn`, `math`).
    pub modules: HashMap<String, Value>,
    /// Built-in exception classes by name.
    pub exceptions: HashMap<String, Rc<Class>>,
    /// The function running in each active call, innermost last (for `super()`).
    pub frames: Vec<(Rc<Function>, Option<Value>)>,
    /// What to restore when `with torch.no_grad():` (and the other torch
    /// context managers') blocks end, innermost last.
    pub torch_context_stack: Vec<crate::torch::contexts::SavedTorchState>,
    /// Whether a `torch.inference_mode()` block is running.
    pub inference_mode: bool,
    /// Containers whose `repr` is being built, to print cycles as `[...]`.
    pub repr_stack: Vec<usize>,
    /// The last `torch.manual_seed`, for `torch.initial_seed()`.
    pub seed: u64,
    /// The engines of the `torch.Generator` objects a program made, by handle;
    /// a draw with `generator=` swaps one in for the default for its length.
    pub generators: Vec<tpu_runtime::rng::Generator>,
    /// The prelude's `torch.Tensor` class: Python methods of tensors.
    pub tensor_class: Option<Rc<Class>>,
    /// The prelude's `nn.Parameter`, for `isinstance`.
    pub parameter_class: Option<Rc<Class>>,
    fuel: u64,
    fuel_budget: u64,
    depth: usize,
    /// See `RunOptions::suspend_every_calls`.
    pub suspend_every_calls: Option<u32>,
    /// The scopes the prelude's modules ran in, cleared by `teardown`.
    pub library_envs: Vec<Rc<Env>>,
    /// Every class this run made: a class's MRO starts with the class itself,
    /// an `Rc` cycle that `teardown` breaks.
    pub classes: Vec<std::rc::Weak<Class>>,
    calls: u64,
    /// The output sink, progress hook and wall-clock limit (`watch.rs`).
    pub watch: Watch,
    /// What `os.environ` holds: empty, or a rank's torchrun variables.
    pub environ: Vec<(String, String)>,
    /// `Tensor.data_ptr()`'s address space: each storage met gets the next
    /// 64-byte-aligned range (a storage freed and its key reused takes the
    /// old range, as an allocator reuses freed memory).
    pub data_ptrs: HashMap<usize, u64>,
    pub next_data_ptr: u64,
}

/// A future that is `Pending` once (waking its task at once) and then ready:
/// one turn given back to the executor.
struct YieldNow(bool);

impl Future for YieldNow {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<()> {
        if self.0 {
            std::task::Poll::Ready(())
        } else {
            self.0 = true;
            cx.waker().wake_by_ref();
            std::task::Poll::Pending
        }
    }
}

impl<'r> Interpreter<'r> {
    pub fn new(runtime: &'r mut Runtime, file: Rc<SourceFile>, fuel_budget: u64) -> Self {
        let mut interp = Interpreter {
            runtime,
            stdout: String::new(),
            file,
            env: Env::new(ScopeKind::Module, None),
            modules: HashMap::new(),
            exceptions: HashMap::new(),
            frames: Vec::new(),
            torch_context_stack: Vec::new(),
            inference_mode: false,
            repr_stack: Vec::new(),
            seed: tpu_runtime::rng::DEFAULT_SEED,
            generators: Vec::new(),
            tensor_class: None,
            parameter_class: None,
            fuel: fuel_budget,
            fuel_budget,
            depth: 0,
            suspend_every_calls: None,
            library_envs: Vec::new(),
            classes: Vec::new(),
            calls: 0,
            watch: Watch::default(),
            environ: Vec::new(),
            data_ptrs: HashMap::new(),
            next_data_ptr: 0x1000_0000,
        };
        interp.install_exceptions();
        // `if __name__ == "__main__":` runs, as the program is the main module.
        interp.env.set("__name__", Value::str("__main__"));
        interp
    }

    /// One step of the program: a statement, a loop iteration or a call. It
    /// costs one unit of fuel plus what the tensor ops since the last step
    /// cost (`Runtime::take_work_fuel`, scaled by their size), so a loop of
    /// tensor work runs out of fuel as surely as a loop of Python does.
    pub fn burn_fuel(&mut self) -> PyResult<()> {
        self.spend_fuel(1)
    }

    /// Charges the tensor work done since the last step, if any.
    pub fn charge_work(&mut self) -> PyResult<()> {
        self.spend_fuel(0)
    }

    fn spend_fuel(&mut self, steps: u64) -> PyResult<()> {
        let work = self.runtime.take_work_fuel();
        let cost = steps + work;
        if cost == 0 {
            return Ok(());
        }
        if self.fuel < cost {
            self.fuel = 0;
            return Err(PyErr::fatal(
                "TimeoutError",
                format!(
                    "the program ran past its budget of {} steps (an endless loop?)",
                    self.fuel_budget
                ),
            ));
        }
        self.fuel -= cost;
        self.watch.step(work > 0)
    }

    /// Ends a run: a function's closure is the module scope that holds the
    /// function, an `Rc` cycle, so module scopes (the program's and the
    /// prelude's) are emptied here, which frees every object and tensor the
    /// program left behind.
    pub fn teardown(&mut self) {
        let mut envs = std::mem::take(&mut self.library_envs);
        envs.push(self.env.module());
        for env in envs {
            env.vars.borrow_mut().clear();
        }
        for module in self.modules.values() {
            if let Value::Module(m) = module {
                m.attrs.borrow_mut().clear();
            }
        }
        self.modules.clear();
        let exceptions = self.exceptions.drain().map(|(_, c)| Rc::downgrade(&c));
        let classes: Vec<_> = self.classes.drain(..).chain(exceptions).collect();
        for class in classes.iter().filter_map(std::rc::Weak::upgrade) {
            class.mro.borrow_mut().clear();
            class.attrs.borrow_mut().clear();
        }
        self.tensor_class = None;
        self.parameter_class = None;
        self.frames.clear();
    }

    /// Counts a Python call, and gives the executor a turn every
    /// `suspend_every_calls` calls.
    pub async fn call_boundary(&mut self) {
        self.calls += 1;
        if let Some(n) = self.suspend_every_calls
            && n > 0
            && self.calls.is_multiple_of(n as u64)
        {
            YieldNow(false).await;
        }
    }

    /// Writes text to the program's stdout, handing it to the output sink at
    /// once.
    /// The program's whole stdout, taken at the end of a run for the Report.
    pub fn take_stdout(&mut self) -> String {
        std::mem::take(&mut self.stdout)
    }

    pub fn write_stdout(&mut self, text: &str) {
        self.stdout.push_str(text);
        self.watch.output(text);
    }

    pub fn enter(&mut self) -> PyResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.depth -= 1;
            return Err(PyErr::fatal(
                "RecursionError",
                "maximum recursion depth exceeded",
            ));
        }
        Ok(())
    }

    pub fn leave(&mut self) {
        self.depth -= 1;
    }
}
