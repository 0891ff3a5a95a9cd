# torch.multiprocessing: the processes a program starts itself, as the DDP
# tutorials start their ranks (`mp.spawn(fn, args=..., nprocs=N)`, or
# `mp.Process(target=...)` started and joined). Processes started together
# are the ranks of one world, run as `tpu run --nproc-per-node N` runs ranks,
# each on a chip of the slice (`torch._C.spawn_world`, tpu-torch's
# spawn.rs), while this process waits: `spawn` for all of them; `Process`
# from the first `join` (or `exitcode`, `is_alive`) after they started.
#
# Each process starts as CPython's "spawn" start method starts one: the
# program's file runs again as the module `__mp_main__` (so its
# `if __name__ == "__main__":` block does not), then the target, unpickled
# from what `start` pickled, runs. Every start method runs that way here: a
# "fork" child does not inherit what the parent built under its main guard.
# What the processes print goes to this process's output. Queues, pipes,
# pools and shared memory between processes are not supported.

import os
import pickle
import sys
import warnings

import torch

_C = torch._C

__all__ = ["spawn", "start_processes", "ProcessContext", "ProcessException",
           "ProcessRaisedException", "ProcessExitedException", "Process",
           "set_start_method", "get_start_method", "get_all_start_methods", "get_context",
           "cpu_count", "current_process", "set_sharing_strategy", "get_sharing_strategy",
           "get_all_sharing_strategies"]

_METHODS = ["fork", "spawn", "forkserver"]
_state = {"method": None, "sharing": "file_descriptor", "next_pid": 0, "bootstrapped": False}

_BOOTSTRAPPING = '''
        An attempt has been made to start a new process before the
        current process has finished its bootstrapping phase.

        This probably means that you are not using fork to start your
        child processes and you have forgotten to use the proper idiom
        in the main module:

            if __name__ == '__main__':
                freeze_support()
                ...

        The "freeze_support()" line can be omitted if the program
        is not going to be frozen to produce an executable.

        To fix this issue, refer to the "Safe importing of main module"
        section in https://docs.python.org/3/library/multiprocessing.html
        '''


class ProcessException(Exception):
    __slots__ = ["error_index", "error_pid"]

    def __init__(self, msg, error_index, pid):
        super().__init__(msg)
        self.msg = msg
        self.error_index = error_index
        self.pid = pid

    def __reduce__(self):
        return type(self), (self.msg, self.error_index, self.pid)


class ProcessRaisedException(ProcessException):
    pass


class ProcessExitedException(ProcessException):
    __slots__ = ["exit_code"]

    def __init__(self, msg, error_index, error_pid, exit_code, signal_name=None):
        super().__init__(msg, error_index, error_pid)
        self.exit_code = exit_code
        self.signal_name = signal_name

    def __reduce__(self):
        return type(self), (self.msg, self.error_index, self.pid, self.exit_code, self.signal_name)


for _cls in (ProcessException, ProcessRaisedException, ProcessExitedException):
    _cls.__module__ = "torch.multiprocessing.spawn"


def _pid():
    _state["next_pid"] += 1
    return os.getpid() + _state["next_pid"]


def _check_not_child():
    # A started process is bootstrapping while its file runs as __mp_main__.
    main = sys.modules.get("__main__")
    if getattr(main, "__name__", None) == "__mp_main__" and not _state["bootstrapped"]:
        raise RuntimeError(_BOOTSTRAPPING)


def _run_world(payloads):
    results, deadlock = _C.spawn_world(payloads, list(os.environ.items()))
    if deadlock is not None:
        raise RuntimeError("the processes torch.multiprocessing started deadlocked: " + deadlock)
    return results


def _child_main(payload):
    """What a started process runs once its file has run as __mp_main__:
    its target. Returns (exitcode, traceback or None)."""
    _state["bootstrapped"] = True
    kind, index, target, args = pickle.loads(payload)
    if kind == "spawn":
        # PyTorch's `_wrap`: the exception's traceback goes to the parent,
        # which raises it; an interrupted child just ends.
        try:
            target(index, *args)
        except KeyboardInterrupt:
            pass
        except SystemExit as e:
            return _exit_code(e), None
        except Exception:
            import traceback
            return 1, traceback.format_exc()
        return 0, None
    return target._bootstrap_here(), None


def _exit_code(e):
    # What the interpreter exits with for SystemExit `e`.
    if e.code is None:
        return 0
    if isinstance(e.code, int):
        return e.code
    sys.stderr.write(str(e.code) + "\n")
    return 1


class ProcessContext:
    def __init__(self, processes, error_files=None):
        self.processes = processes
        self.error_files = error_files or [None] * len(processes)
        self.sentinels = {}

    def pids(self):
        return [p.pid for p in self.processes]

    def join(self, timeout=None, grace_period=None):
        for p in self.processes:
            if p._exitcode not in (0, None) and p._trace is not None:
                msg = "\n\n-- Process %d terminated with the following error:\n" % p._index
                msg += p._trace
                raise ProcessRaisedException(msg, p._index, p.pid)
        for p in self.processes:
            if p._exitcode not in (0, None):
                if p._exitcode < 0:
                    name = {-15: "SIGTERM", -9: "SIGKILL", -2: "SIGINT"}.get(p._exitcode, str(-p._exitcode))
                    raise ProcessExitedException(
                        "process %d terminated with signal %s" % (p._index, name),
                        error_index=p._index, error_pid=p.pid, exit_code=p._exitcode, signal_name=name)
                raise ProcessExitedException(
                    "process %d terminated with exit code %d" % (p._index, p._exitcode),
                    error_index=p._index, error_pid=p.pid, exit_code=p._exitcode)
        return True


class _Spawned:
    def __init__(self, index, pid, exitcode, trace):
        self._index = index
        self.pid = pid
        self._exitcode = exitcode
        self._trace = trace
        self.exitcode = exitcode

    def is_alive(self):
        return False

    def join(self, timeout=None):
        return None


def start_processes(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    if start_method not in _METHODS:
        raise ValueError("cannot find context for %r" % (start_method,))
    _check_not_child()
    payloads = [pickle.dumps(("spawn", i, fn, tuple(args))) for i in range(nprocs)]
    pids = [_pid() for _ in range(nprocs)]
    results = _run_world(payloads) if payloads else []
    processes = [_Spawned(i, pids[i], code, trace) for i, (code, trace) in enumerate(results)]
    context = ProcessContext(processes)
    if not join:
        return context
    while not context.join():
        pass


def spawn(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    if start_method != "spawn":
        msg = ("This method only supports start_method=spawn (got: %s).\n"
               "To use a different start_method use:\n\t\t"
               " torch.multiprocessing.start_processes(...)" % start_method)
        warnings.warn(msg, FutureWarning, stacklevel=2)
    return start_processes(fn, args, nprocs, join, daemon, start_method="spawn")


# Processes started and not yet run: they run together, as one world, at
# the first join (or exitcode, is_alive) after they started.
_started = []
_counter = [0]


def _run_started():
    if not _started:
        return
    batch = list(_started)
    del _started[:]
    results = _run_world([p._payload for p in batch])
    for p, (code, _trace) in zip(batch, results):
        p._exitcode = code


class Process:
    def __init__(self, group=None, target=None, name=None, args=(), kwargs=None, *, daemon=None):
        assert group is None, "group argument must be None for now"
        _counter[0] += 1
        self._identity = (_counter[0],)
        self._target = target
        self._args = tuple(args)
        self._kwargs = dict(kwargs or {})
        self._name = name or type(self).__name__ + "-" + ":".join(str(i) for i in self._identity)
        self._daemonic = bool(daemon)
        self._started_here = False
        self._exitcode = None
        self._pid = None
        self._payload = None

    def run(self):
        if self._target:
            self._target(*self._args, **self._kwargs)

    def start(self):
        assert not self._started_here, "cannot start a process twice"
        _check_not_child()
        self._payload = pickle.dumps(("process", 0, self, ()))
        self._started_here = True
        self._pid = _pid()
        _started.append(self)

    def join(self, timeout=None):
        assert self._started_here, "can only join a started process"
        _run_started()

    def is_alive(self):
        if not self._started_here:
            return False
        _run_started()
        return False

    def terminate(self):
        _run_started()

    def kill(self):
        _run_started()

    def close(self):
        pass

    @property
    def exitcode(self):
        if not self._started_here:
            return None
        _run_started()
        return self._exitcode

    @property
    def pid(self):
        return self._pid

    ident = pid

    @property
    def name(self):
        return self._name

    @name.setter
    def name(self, name):
        self._name = name

    @property
    def daemon(self):
        return self._daemonic

    @daemon.setter
    def daemon(self, daemonic):
        assert not self._started_here, "process has already started"
        self._daemonic = daemonic

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_payload"] = None
        return state

    def __repr__(self):
        status = "initial" if not self._started_here else (
            "started" if self._exitcode is None else "stopped exitcode=" + str(self._exitcode))
        return "<%s name=%r %s>" % (type(self).__name__, self._name, status)

    def _bootstrap_here(self):
        # CPython's `BaseProcess._bootstrap`, in the started process.
        try:
            self.run()
            return 0
        except SystemExit as e:
            return _exit_code(e)
        except BaseException as e:
            if type(e).__name__ == "DistStopped":
                raise
            import traceback
            sys.stderr.write("Process %s:\n" % self._name)
            traceback.print_exc()
            return 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()


class _Context:
    def __init__(self, method):
        self._method = method
        self.Process = Process

    def get_start_method(self, allow_none=False):
        return self._method

    def cpu_count(self):
        return cpu_count()

    def __getattr__(self, name):
        return globals()[name] if name in __all__ else _missing(name)


def set_start_method(method, force=False):
    if method not in _METHODS and not (force and method is None):
        raise ValueError("cannot find context for %r" % (method,))
    if _state["method"] is not None and not force:
        raise RuntimeError("context has already been set")
    _state["method"] = method


def get_start_method(allow_none=False):
    if _state["method"] is None and not allow_none:
        _state["method"] = "forkserver"
    return _state["method"]


def get_all_start_methods():
    return list(_METHODS)


def get_context(method=None):
    if method is not None and method not in _METHODS:
        raise ValueError("cannot find context for %r" % (method,))
    return _Context(method or get_start_method())


def cpu_count():
    return os.cpu_count() or 1


def current_process():
    import multiprocessing
    return multiprocessing.current_process()


def set_sharing_strategy(new_strategy):
    if new_strategy not in ("file_descriptor", "file_system"):
        raise AssertionError
    _state["sharing"] = new_strategy


def get_sharing_strategy():
    return _state["sharing"]


def get_all_sharing_strategies():
    return {"file_descriptor", "file_system"}


def _missing(name):
    raise NotImplementedError(
        "torch.multiprocessing." + name + " is not supported here: processes started with "
        "torch.multiprocessing.spawn or Process run as the ranks of one world, but nothing "
        "passes between them except through torch.distributed")


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError("module 'torch.multiprocessing' has no attribute '" + name + "'")
    _missing(name)
