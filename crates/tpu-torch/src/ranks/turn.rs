//! Taking turns: the turn between the ranks' threads (natively) or fibers
//! (JSPI stacks, in the browser), and what a rank takes off the thread while
//! it waits in the browser (see `ranks.rs`).

#[cfg(target_arch = "wasm32")]
use super::SEAT;
#[cfg(target_arch = "wasm32")]
use super::Shared;
use std::cell::RefCell;
#[cfg(target_arch = "wasm32")]
use std::future::Future;
use std::rc::Rc;
#[cfg(not(target_arch = "wasm32"))]
use std::sync::Mutex;
#[cfg(target_arch = "wasm32")]
use std::task::{Context, Poll};
#[cfg(target_arch = "wasm32")]
use tpu_runtime::Runtime;
use tpu_runtime::distributed::World;

/// Whose turn it is, and who has finished.
pub(super) struct TurnState {
    running: Option<usize>,
    finished: Vec<bool>,
}

/// The turn between threads (natively): handed over under a mutex, waited
/// for on a condition variable.
#[cfg(not(target_arch = "wasm32"))]
pub(super) struct Turn {
    state: Mutex<TurnState>,
    changed: std::sync::Condvar,
}

#[cfg(not(target_arch = "wasm32"))]
impl Turn {
    pub(super) fn new(nproc: usize, _world: &Rc<RefCell<World>>) -> Self {
        Turn {
            state: Mutex::new(TurnState {
                running: None,
                finished: vec![false; nproc],
            }),
            changed: std::sync::Condvar::new(),
        }
    }

    pub(super) fn lock(&self) -> std::sync::MutexGuard<'_, TurnState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The scheduler's side: `rank` runs until it gives the turn back;
    /// returns whether it finished.
    pub(super) fn give(&self, rank: usize) -> bool {
        let mut state = self.lock();
        if state.finished[rank] {
            return true;
        }
        state.running = Some(rank);
        self.changed.notify_all();
        while state.running == Some(rank) {
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        state.finished[rank]
    }

    /// A rank's side: blocks until it is `rank`'s turn.
    pub(super) fn wait_for(&self, rank: usize) {
        let mut state = self.lock();
        while state.running != Some(rank) {
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// A rank's side: gives the turn back and waits for the next.
    pub(super) fn pass(&self, rank: usize) {
        let mut state = self.lock();
        state.running = None;
        self.changed.notify_all();
        while state.running != Some(rank) {
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// A rank's side: gives the turn back for good.
    pub(super) fn finish(&self, rank: usize) {
        let mut state = self.lock();
        state.finished[rank] = true;
        state.running = None;
        self.changed.notify_all();
    }
}

/// The turn between fibers (in the browser): whoever waits suspends its
/// stack on a promise that the one handing over resolves. Only one fiber
/// runs at a time, so the state is a plain cell, never borrowed across a
/// suspension.
#[cfg(target_arch = "wasm32")]
pub(super) struct Turn {
    state: RefCell<TurnState>,
    /// Each rank's wake-up, and the scheduler's.
    ranks: Vec<fiber::Signal>,
    scheduler: fiber::Signal,
    /// Whether a waiting rank waits in a collective.
    world: Rc<RefCell<World>>,
}

#[cfg(target_arch = "wasm32")]
impl Turn {
    pub(super) fn new(nproc: usize, world: &Rc<RefCell<World>>) -> Self {
        Turn {
            state: RefCell::new(TurnState {
                running: None,
                finished: vec![false; nproc],
            }),
            ranks: (0..nproc).map(|_| fiber::Signal::default()).collect(),
            scheduler: fiber::Signal::default(),
            world: world.clone(),
        }
    }

    /// Drives `future` as `rank`: waiting in a collective, the turn passes
    /// on; waiting for the device, the rank keeps the turn and its fiber is
    /// suspended until the device answers (the event loop has to turn for
    /// that, which passing the turn back and forth would never let happen).
    pub(super) fn block_on<F: Future>(&self, rank: usize, future: F) -> F::Output {
        let mut future = std::pin::pin!(future);
        loop {
            let (woken, waker) = fiber::woken();
            if let Poll::Ready(out) = future.as_mut().poll(&mut Context::from_waker(&waker)) {
                return out;
            }
            if self.world.borrow().is_blocked(rank) {
                self.pass(rank);
            } else {
                fiber::suspend(&woken);
            }
        }
    }

    pub(super) fn running(&self) -> Option<usize> {
        self.state.borrow().running
    }

    pub(super) fn give(&self, rank: usize) -> bool {
        if self.state.borrow().finished[rank] {
            return true;
        }
        self.state.borrow_mut().running = Some(rank);
        self.ranks[rank].notify();
        while self.running() == Some(rank) {
            self.scheduler.wait();
        }
        self.state.borrow().finished[rank]
    }

    pub(super) fn wait_for(&self, rank: usize) {
        while self.running() != Some(rank) {
            self.ranks[rank].wait();
        }
    }

    /// Gives the turn back with the rank's state parked, and puts it back
    /// when the rank's turn comes again.
    pub(super) fn pass(&self, rank: usize) {
        let parked = Parked::park();
        self.state.borrow_mut().running = None;
        self.scheduler.notify();
        self.wait_for(rank);
        parked.resume();
    }

    pub(super) fn finish(&self, rank: usize) {
        {
            let mut state = self.state.borrow_mut();
            state.finished[rank] = true;
            state.running = None;
        }
        self.scheduler.notify();
    }
}

/// Suspending and resuming fibers (JSPI stacks) in the browser.
#[cfg(target_arch = "wasm32")]
pub(super) mod fiber {
    use std::cell::RefCell;
    use wasm_bindgen::JsValue;

    /// One fiber's wake-up: `wait` suspends it until `notify`.
    #[derive(Default)]
    pub(crate) struct Signal(RefCell<Option<js_sys::Function>>);

    impl Signal {
        pub(crate) fn wait(&self) {
            let mut resolve = None;
            let promise = js_sys::Promise::new(&mut |yes, _no| resolve = Some(yes));
            *self.0.borrow_mut() = resolve;
            suspend(&promise);
        }

        /// Wakes the fiber waiting, if one is: it resumes once the one
        /// calling this suspends.
        pub(crate) fn notify(&self) {
            if let Some(resolve) = self.0.borrow_mut().take() {
                let _ = resolve.call0(&JsValue::UNDEFINED);
            }
        }
    }

    /// Suspends the running fiber until `promise` settles.
    pub(crate) fn suspend(promise: &js_sys::Promise) {
        // Experimental in wasm-bindgen 0.2.130, hence deprecated there.
        #[allow(deprecated)]
        let _ = js_sys::futures::jspi_block_on_promise(promise);
    }

    /// A promise and a waker that resolves it.
    pub(crate) fn woken() -> (js_sys::Promise, std::task::Waker) {
        /// The promise's `resolve`. A wasm32 instance without threads has
        /// one thread, which alone makes, wakes and drops it.
        struct Resolve(js_sys::Function);
        // SAFETY: see above; nothing here is ever on another thread.
        unsafe impl Send for Resolve {}
        // SAFETY: as for Send.
        unsafe impl Sync for Resolve {}
        impl std::task::Wake for Resolve {
            fn wake(self: std::sync::Arc<Self>) {
                let _ = self.0.call0(&JsValue::UNDEFINED);
            }
        }
        let mut resolve = None;
        let promise = js_sys::Promise::new(&mut |yes, _no| resolve = Some(yes));
        let resolve = resolve.expect("a Promise calls its executor at once");
        let waker = std::task::Waker::from(std::sync::Arc::new(Resolve(resolve)));
        (promise, waker)
    }

    /// Starts `body` as a fiber of its own; it first runs when the calling
    /// fiber suspends.
    pub(crate) fn spawn(body: impl FnOnce() + 'static) {
        js_sys::futures::spawn_local(async move { body() });
    }
}

/// What a rank keeps on the thread, taken off it while another rank runs
/// (in the browser, where the ranks share one).
#[cfg(target_arch = "wasm32")]
pub(crate) struct Parked {
    python: tpu_python::park::Parked,
    seat: Option<(Shared<Turn>, usize)>,
    runtime: *mut Runtime,
    torch: crate::torch_c::_tpu_torch::Parked,
    generators: crate::generators::Parked,
    capture: crate::capture::Parked,
}

#[cfg(target_arch = "wasm32")]
impl Parked {
    pub(crate) fn park() -> Parked {
        Parked {
            python: tpu_python::park::park(),
            seat: SEAT.with(|s| s.borrow_mut().take()),
            runtime: crate::runtime::park(),
            torch: crate::torch_c::_tpu_torch::park(),
            generators: crate::generators::park(),
            capture: crate::capture::park(),
        }
    }

    pub(crate) fn resume(self) {
        self.python.resume();
        SEAT.with(|s| *s.borrow_mut() = self.seat);
        crate::runtime::resume(self.runtime);
        crate::torch_c::_tpu_torch::resume(self.torch);
        crate::generators::resume(self.generators);
        crate::capture::resume(self.capture);
    }
}
