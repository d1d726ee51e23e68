"""The sandbox child: a persistent Python namespace behind a JSON-lines protocol.

Run as `python -I _child.py CONFIG_JSON` by `sandbox.Sandbox`; stdlib only, so
it starts fast and imports nothing of ours. Before any user code runs it moves
the protocol to private file descriptors (fd 1/2 then go to a memfd, so code
that writes to them cannot corrupt the protocol), confines itself (see
`_confine`), sets rlimits and installs an audit hook as a Python-level backstop.

Requests (one JSON object per line):
  {"id": n, "op": "exec", "code": "..."}                        run in the persistent namespace
  {"id": n, "op": "call", "source": "...", "name": f, "args": {}} run a saved tool in a fresh namespace
Each gets one reply line: {"id", "status", "output", "value", "error", "truncated", "invalid_utf8", "cpu_s",
"threads_stopped", "threads_running"}.

Threads do not outlive the call that started them: when a call ends, timers
are cancelled and every other thread gets a `ThreadStopped` raised in it;
one that is blocked in native code (and so cannot be stopped) is paused
with the whole sandbox between calls (mol stops its process group), so its
CPU time counts toward the next call's limit, never toward idle time.
"""

from __future__ import annotations

import ast
import builtins
import ctypes
import faulthandler
import io
import json
import os
import resource
import signal
import sys
import threading
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _confine  # noqa: E402  (sibling files; -I keeps the script's folder off sys.path)
import _guard  # noqa: E402
import _tree  # noqa: E402

sys.path.pop(0)
THREAD_GRACE_S = 0.2  # how long a call's leftover threads get to end after being told to stop


class CpuLimit(BaseException):
    """Raised from SIGPROF: a BaseException so user `except Exception` cannot swallow it."""


class CappedSink(io.RawIOBase):
    """Keeps the first `cap` bytes written and counts the rest."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.kept = bytearray()
        self.total = 0

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        n = len(data)
        room = self.cap - len(self.kept)
        if room > 0:
            self.kept += bytes(data[:room])
        self.total += n
        return n


class ThreadStopped(BaseException):
    """Raised in a thread still running when the call that started it ended."""


ThreadStopped.__module__ = "sandbox"


def _on_prof(signum, frame) -> None:
    raise CpuLimit()


def _quiet_thread_stop(args: threading.ExceptHookArgs, default=threading.excepthook) -> None:
    if not issubclass(args.exc_type, ThreadStopped):
        default(args)


class Child:
    def __init__(self, cfg: dict) -> None:
        self.cfg = cfg
        self.cap = int(cfg["output_kb"]) * 1024
        self.proto_in = os.fdopen(os.dup(0), "rb", buffering=0)
        self.proto_out = os.dup(1)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        if hasattr(os, "memfd_create"):
            self.memfd = os.memfd_create("sandbox-output")
        else:  # not Linux: an unlinked temporary file does the same job
            import tempfile

            self.memfd = os.dup(tempfile.TemporaryFile(dir=os.path.join(cfg["workspace"], ".tmp")).fileno())
        os.dup2(self.memfd, 1)
        os.dup2(self.memfd, 2)
        self.ns: dict = {"__name__": "__main__", "__builtins__": builtins}
        self.protections: dict[str, str] = {}
        self.async_exc = None

    def setup(self, tree: dict) -> None:
        cfg = self.cfg
        os.chdir(cfg["workspace"])
        mem = int(cfg["memory_mb"]) * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
        # Per file at most the memory cap, in all at most the quota; the supervisor keeps the soft limit current.
        resource.setrlimit(resource.RLIMIT_FSIZE, (_tree.file_size_left(cfg), mem))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        budget = int(cfg["cpu_budget_s"])  # lifetime backstop: past it the kernel ends the process
        resource.setrlimit(resource.RLIMIT_CPU, (budget, budget))
        self.protections = _confine.confine(cfg["workspace"], tree)  # seccomp from here on: no more setrlimit
        if not self.protections["processes"]:
            resource.setrlimit(resource.RLIMIT_NPROC, (0, 0))
            self.protections["processes"] = "RLIMIT_NPROC=0 (not enforced for root)" if os.geteuid() == 0 else "RLIMIT_NPROC=0"
        quota = f"{cfg['disk_mb']} MB for the workspace, {cfg['memory_mb']} MB per file (RLIMIT_FSIZE"
        self.protections["disk"] = quota + (", kept at what the quota leaves by the supervisor)" if tree.get("supervised") else ")")
        signal.signal(signal.SIGPROF, _on_prof)
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # an oversized write then fails with EFBIG instead of killing us
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGPROF})
        threading.excepthook = _quiet_thread_stop
        self.async_exc = _async_exc_function()  # looked up before the audit hook may refuse ctypes
        kernel_complete = all(self.protections[k] for k in ("network", "processes", "files", "syscalls"))
        _guard.install(cfg["workspace"], cfg.get("protect", []), block_ctypes=not kernel_complete)
        self.protections["python"] = "audit hook: sockets, processes, writes outside the workspace"

    def send(self, obj: dict) -> None:
        data = (json.dumps(obj, ensure_ascii=True) + "\n").encode()
        view = memoryview(data)
        while view:
            view = view[os.write(self.proto_out, view):]

    def serve(self) -> None:
        self.send({"ready": True, "pid": os.getpid(), "protections": self.protections})
        while True:
            line = self.proto_in.readline()
            if not line:
                return
            req = json.loads(line)
            self.send({"id": req.get("id"), **self.handle(req)})

    # -- one request -------------------------------------------------------------------------
    def handle(self, req: dict) -> dict:
        sink = CappedSink(self.cap)
        text = io.TextIOWrapper(io.BufferedWriter(sink), encoding="utf-8", errors="replace", line_buffering=False)
        sys.stdout = sys.stderr = text
        status, value, error = "ok", None, None
        used = _cpu_used()
        try:
            signal.setitimer(signal.ITIMER_PROF, float(self.cfg["cpu_s"]))  # per-call CPU time, to the microsecond
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGPROF})
            try:
                if req.get("op") == "call":
                    status, value, error = self._call(req)
                else:
                    value = self._exec(str(req.get("code", "")))
            finally:
                signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGPROF})
                signal.setitimer(signal.ITIMER_PROF, 0)
                _discard_pending_prof()
        except CpuLimit:
            status, error = "error", f"CPU time limit exceeded ({self.cfg['cpu_s']} s of CPU for one call) — variables are kept; do less work per call"
        except MemoryError:
            status, error = "error", f"MemoryError: the sandbox memory limit ({self.cfg['memory_mb']} MB) was reached — variables are kept; use less memory"
        except SystemExit as exc:
            status, error = "error", f"SystemExit({exc.code!r}) ignored — the Python session keeps running"
        except BaseException as exc:  # edge: any user exception becomes the traceback the model reads
            status, error = "error", _format_exc(exc)
        finally:
            sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
        stopped, running = self._stop_leftovers()
        try:
            text.flush()
        except (OSError, ValueError):
            pass
        raw = bytes(sink.kept) + self._drain_fd_output()
        total = sink.total + (len(raw) - len(sink.kept))
        output, invalid = _decode(raw[: self.cap])
        if value is not None and len(value) > self.cap:
            value, total = value[: self.cap], total + len(value)
        return {
            "status": status,
            "output": output,
            "value": value,
            "error": _decode(error.encode("utf-8", "replace"))[0] if error else None,
            "truncated": total > self.cap,
            "output_bytes": total,
            "invalid_utf8": invalid,
            "cpu_s": round(_cpu_used() - used, 3),
            "threads_stopped": stopped,
            "threads_running": running,
        }

    def _stop_leftovers(self) -> tuple[int, int]:
        """Cancel timers and stop every thread but this one. Returns (threads stopped, threads still running)."""
        for thread in threading.enumerate():
            if isinstance(thread, threading.Timer):
                thread.cancel()
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        faulthandler.cancel_dump_traceback_later()
        me = threading.get_ident()
        others = [tid for tid in sys._current_frames() if tid != me]
        if not others:
            return 0, 0
        if self.async_exc is not None:
            for tid in others:
                self.async_exc(tid, ThreadStopped)
        deadline = time.monotonic() + THREAD_GRACE_S
        alive = others
        while alive and time.monotonic() < deadline:
            time.sleep(0.01)
            frames = sys._current_frames()
            alive = [tid for tid in others if tid in frames]
        return len(others) - len(alive), len(alive)

    def _exec(self, code: str) -> str | None:
        tree = ast.parse(code, "<python>", "exec")
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        exec(compile(tree, "<python>", "exec"), self.ns)
        if last is None:
            return None
        value = eval(compile(ast.Expression(last.value), "<python>", "eval"), self.ns)
        if value is None:
            return None
        self.ns["_"] = value
        return _safe_repr(value)

    def _call(self, req: dict) -> tuple[str, str | None, str | None]:
        ns: dict = {"__name__": f"tool_{req['name']}", "__builtins__": builtins}
        exec(compile(req["source"], f"<tool {req['name']}>", "exec"), ns)
        fn = ns.get(req["name"])
        if not callable(fn):
            return "error", None, f"the tool source defines no function named {req['name']!r}"
        import inspect  # only saved tools need it: not imported at start-up (about 20 ms)

        args = req.get("args") or {}
        try:
            inspect.signature(fn).bind(**args)
        except TypeError as exc:
            return "bad_arguments", None, f"{exc} — the signature is {req['name']}{inspect.signature(fn)}"
        value = fn(**args)
        try:
            return "ok", json.dumps(value, ensure_ascii=False), None
        except (TypeError, ValueError):
            return "ok", json.dumps(_safe_repr(value)), None

    def _drain_fd_output(self) -> bytes:
        """Whatever reached fd 1/2 directly (C extensions, os.write); then empty the memfd."""
        try:
            size = os.fstat(self.memfd).st_size
            data = os.pread(self.memfd, min(size, self.cap), 0) if size else b""
            os.ftruncate(self.memfd, 0)
            os.lseek(self.memfd, 0, os.SEEK_SET)
            return data
        except OSError:
            return b""


def _async_exc_function():
    """CPython's PyThreadState_SetAsyncExc (raise an exception in another thread), or None elsewhere."""
    try:
        fn = ctypes.pythonapi.PyThreadState_SetAsyncExc
    except (AttributeError, OSError):
        return None
    fn.argtypes = [ctypes.c_ulong, ctypes.py_object]
    fn.restype = ctypes.c_int
    return fn


def _discard_pending_prof() -> None:
    """A SIGPROF that arrived as the call ended must not hit the next call (SIG_IGN drops a pending one)."""
    signal.signal(signal.SIGPROF, signal.SIG_IGN)
    signal.signal(signal.SIGPROF, _on_prof)


def _cpu_used() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _safe_repr(value: object) -> str:
    try:
        return repr(value)
    except Exception as exc:  # edge: a user object's __repr__ may raise anything
        return f"<unrepresentable {type(value).__name__}: {exc!r}>"


def _decode(raw: bytes) -> tuple[str, bool]:
    try:
        return raw.decode("utf-8"), False
    except UnicodeDecodeError:
        return raw.decode("utf-8", "replace"), True


def _format_exc(exc: BaseException) -> str:
    """The traceback of the model's code only: frames of the child and its guard are hidden."""
    ours = {__file__, _guard.__file__}
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename not in ours]
    lines = ["Traceback (most recent call last):\n", *traceback.format_list(frames)] if frames else []
    text = "".join(lines + traceback.format_exception_only(type(exc), exc))
    return text if len(text) <= 4000 else text[:1000] + "\n...\n" + text[-3000:]


def main() -> None:
    cfg = json.loads(sys.argv[1])
    tree = _tree.start(cfg)  # returns in the worker only; the launcher and supervisor never come back
    child = Child(cfg)
    child.setup(tree)
    child.serve()


if __name__ == "__main__":
    main()
