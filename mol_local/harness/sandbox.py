"""The parent side of the sandbox: one child Python process per conversation.

The child (`_child.py`) keeps a persistent namespace and answers one JSON line
per request; on Linux it is three processes (`_tree.py`: launcher, supervisor,
worker). This side enforces what the child cannot enforce on itself: the
wall-clock timeout (kill every process, start fresh on the next call), a cap
on the size of a reply, and idleness: between calls the supervisor's process
group is stopped (SIGSTOP), so no thread or timer the model's code left
behind runs while no call does. State loss is never silent: the call that
lost it says so, and the first call on the fresh process says so again. The
child's environment is built here from nothing (never a copy of ours, which
may hold MOL_SERVE_TOKEN or MOL_REMOTE_API_KEY).
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
import weakref
from dataclasses import dataclass, field
from pathlib import Path

from mol_local.harness._disk import disk_usage
from mol_local.harness.errors import SandboxUnavailable
from mol_local.harness.limits import ToolLimits

CHILD = Path(__file__).with_name("_child.py")
STARTUP_TIMEOUT_S = 20.0
CPU_BUDGET_CALLS = 40  # the child's lifetime CPU cap is this many calls' worth; past it the kernel kills it
PAUSED = "paused between calls (SIGSTOP of the sandbox's process group); threads a call leaves running are stopped"


@dataclass
class SandboxResult:
    status: str  # ok | error | bad_arguments | timeout | crashed
    output: str = ""
    value: str | None = None
    error: str | None = None
    truncated: bool = False
    output_bytes: int = 0
    invalid_utf8: bool = False
    state_lost: str | None = None  # why earlier variables are gone, when they are
    cpu_s: float = 0.0
    wall_ms: float = 0.0
    extra: dict = field(default_factory=dict)


def _reap(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            return
        proc.wait()


def _signal_name(returncode: int | None) -> str:
    if returncode is None:
        return "unknown"
    if returncode < 0:
        try:
            return f"killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"killed by signal {-returncode}"
    return f"exit status {returncode}"


class Sandbox:
    """A persistent, confined Python process. Not thread-safe: one call at a time."""

    def __init__(self, workspace: Path, limits: ToolLimits, *, protect: tuple[Path, ...] = ()) -> None:
        self.workspace = Path(workspace)
        self.limits = limits
        self.protect = protect
        self.protections: dict[str, str] = {}
        self.restarts = 0
        self._proc: subprocess.Popen | None = None
        self._lost: str | None = None  # reason the previous process's state is gone
        self._seq = 0
        self._group: int | None = None  # the supervisor's process group: paused between calls
        self._buf = bytearray()  # bytes read from the child past the last full line

    # -- lifecycle ---------------------------------------------------------------------------
    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc else None

    def start(self) -> None:
        if self.alive:
            return
        self.workspace.mkdir(parents=True, exist_ok=True)
        (self.workspace / ".tmp").mkdir(exist_ok=True)
        cfg = {
            "workspace": str(self.workspace.resolve()),
            "protect": [str(p) for p in self.protect],
            "cpu_s": self.limits.cpu_s,
            "cpu_budget_s": max(60, int(self.limits.cpu_s * CPU_BUDGET_CALLS)),
            "memory_mb": self.limits.memory_mb,
            "output_kb": self.limits.output_kb,
            "disk_mb": self.limits.disk_mb,
        }
        env = {
            "PATH": os.defpath,
            "HOME": cfg["workspace"],
            "TMPDIR": str(self.workspace.resolve() / ".tmp"),
            "LANG": "C.UTF-8",
            "PYTHONIOENCODING": "utf-8",
            "PYTHONDONTWRITEBYTECODE": "1",
            "OMP_NUM_THREADS": "1",
            "OPENBLAS_NUM_THREADS": "1",
            "MKL_NUM_THREADS": "1",
        }
        errlog = tempfile.TemporaryFile()
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-I", str(CHILD), json.dumps(cfg)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=errlog,
                cwd=cfg["workspace"],
                env=env,
                start_new_session=True,  # its own process group, so a kill takes everything with it
            )
            hello = self._read_reply(STARTUP_TIMEOUT_S, limit=1 << 16)
            if hello and "group" in hello:  # the launcher names the supervisor's group before the worker's hello
                self._group = int(hello["group"])
                hello = self._read_reply(STARTUP_TIMEOUT_S, limit=1 << 16)
        except OSError as exc:
            raise SandboxUnavailable(f"cannot start the Python sandbox ({exc}) — check that {sys.executable} runs") from exc
        if not hello or not hello.get("ready"):
            self._kill()
            errlog.seek(0)
            detail = errlog.read()[-400:].decode("utf-8", "replace").strip().splitlines()
            raise SandboxUnavailable(
                f"the Python sandbox did not start ({detail[-1] if detail else 'no output'}) — run `mol doctor` to see which protection fails"
            )
        errlog.close()
        self.protections = {**hello["protections"], "threads": PAUSED if self._group else "threads a call leaves running are stopped"}
        weakref.finalize(self, _reap, self._proc)  # a sandbox dropped without close() still ends its process
        self._signal_group(signal.SIGSTOP)

    def close(self) -> None:
        self._kill()

    def discard(self, reason: str) -> None:
        """Drop the process (e.g. evicted while idle); the next call starts fresh and says why."""
        if self.alive:
            self._kill()
            self._lost = reason

    def _signal_group(self, sig: int) -> None:
        if self._group is not None:
            try:
                os.killpg(self._group, sig)
            except ProcessLookupError:
                pass

    def _kill(self) -> None:
        proc, self._proc = self._proc, None
        self._signal_group(signal.SIGKILL)
        self._group = None
        self._buf.clear()
        if proc is None:
            return
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                stream.close()
        proc.wait()

    # -- calls -------------------------------------------------------------------------------
    def execute(self, code: str) -> SandboxResult:
        """Run code in the persistent namespace; the value of a final expression is returned."""
        return self._request({"op": "exec", "code": code})

    def call(self, source: str, name: str, args: dict) -> SandboxResult:
        """Run a saved tool's function in a fresh namespace of this process; `value` is JSON."""
        return self._request({"op": "call", "source": source, "name": name, "args": args})

    def _request(self, req: dict) -> SandboxResult:
        fresh = not self.alive
        if fresh and self._proc is not None:  # it died between calls (e.g. the lifetime CPU cap)
            self._lost = f"the Python process ended ({_signal_name(self._proc.returncode)})"
            self._kill()
        self.start()
        lost, self._lost = (self._lost if fresh else None), None
        self._seq += 1
        t0 = time.perf_counter()
        line = (json.dumps({"id": self._seq, **req}, ensure_ascii=True) + "\n").encode()
        self._signal_group(signal.SIGCONT)
        try:
            assert self._proc is not None and self._proc.stdin is not None
            self._proc.stdin.write(line)
            self._proc.stdin.flush()
            reply = self._read_reply(self.limits.timeout_s, limit=self.limits.output_kb * 1024 * 8 + (1 << 16))
        except BrokenPipeError:
            reply = None
        if reply is not None and "status" in reply:
            self._signal_group(signal.SIGSTOP)  # idle from here to the next call; anything else is killed below
        wall_ms = (time.perf_counter() - t0) * 1000
        if reply is not None and "status" in reply and reply.get("id") != self._seq:
            reply = {"out_of_sync": True}  # something in the sandbox wrote to the protocol pipe itself
        if reply is None or reply.get("timed_out") or reply.get("oversized") or reply.get("out_of_sync"):
            result = self._lost_result(reply, wall_ms)
        else:
            fields = {k: reply[k] for k in ("status", "output", "value", "error", "truncated", "output_bytes", "invalid_utf8", "cpu_s") if k in reply}
            result = SandboxResult(**fields, wall_ms=wall_ms)
            notes = self._notes(reply)
            if notes:
                result.output = "\n".join(([result.output.rstrip("\n")] if result.output else []) + notes)
        if lost and result.state_lost is None:
            result.state_lost = f"this is a fresh Python process: variables from earlier calls are gone ({lost})"
        return result

    def _notes(self, reply: dict) -> list[str]:
        """What the model must know beyond its output: threads stopped or left running, a full workspace."""
        notes = []
        stopped, running = int(reply.get("threads_stopped") or 0), int(reply.get("threads_running") or 0)
        if stopped:
            notes.append(f"[note] {stopped} thread(s) started here were still running when the call ended and were stopped — "
                         "threads do not outlive a call; join them before the call returns")
        if running:
            notes.append(f"[note] {running} thread(s) could not be stopped (blocked in native code, or catching the stop); "
                         "they are paused between calls and their CPU time counts toward later calls")
        used, quota = disk_usage(str(self.workspace)), self.limits.disk_mb << 20
        if used >= quota:
            notes.append(f"[disk quota] the workspace holds {used / (1 << 20):.1f} MB of its {self.limits.disk_mb} MB "
                         "(tools.defaults.disk_mb): no file can grow until you delete some (os.remove)")
        return notes

    def _lost_result(self, reply: dict | None, wall_ms: float) -> SandboxResult:
        proc = self._proc
        if reply and reply.get("timed_out"):
            status, why = "timeout", f"the call ran past the {self.limits.timeout_s:g} s time limit and was stopped"
        elif reply and reply.get("oversized"):
            status, why = "crashed", "the call produced an oversized reply and was stopped"
        elif reply and reply.get("out_of_sync"):
            status, why = "crashed", "the code wrote into the sandbox's private reply channel"
        else:
            if proc is not None:
                try:
                    proc.wait(timeout=2)
                except subprocess.TimeoutExpired:
                    pass
            code = proc.returncode if proc is not None else None
            if code in (-signal.SIGKILL, -signal.SIGXCPU):
                hint = " — probably the CPU time budget of this session"
            elif code in (-signal.SIGABRT, -signal.SIGSEGV, -signal.SIGBUS):
                hint = f" — native code often dies like this at the {self.limits.memory_mb} MB memory limit"
            else:
                hint = ""
            status, why = "crashed", f"the Python process died ({_signal_name(code)}{hint})"
        self._kill()
        self.restarts += 1
        self._lost = why
        return SandboxResult(
            status=status,
            error=f"{why}; the Python session was restarted and all variables were lost — recompute what you need",
            state_lost=why,
            wall_ms=wall_ms,
        )

    def _read_reply(self, timeout: float, *, limit: int) -> dict | None:
        """One JSON line from the child, None on EOF, or a marker dict on timeout / oversize / garbage."""
        assert self._proc is not None and self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buf:
                if len(self._buf) > limit:
                    return {"oversized": True}
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    return {"timed_out": True}
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    return None
                self._buf += chunk
        line, _, rest = bytes(self._buf).partition(b"\n")
        self._buf = bytearray(rest)
        try:
            reply = json.loads(line)
        except ValueError:
            return {"out_of_sync": True}
        return reply if isinstance(reply, dict) else {"out_of_sync": True}
