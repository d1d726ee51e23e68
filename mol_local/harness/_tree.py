"""The sandbox's three processes (stdlib only; Linux), built before any user code runs.

    mol ──pipe── launcher ── supervisor ── worker (runs the model's code)

- launcher: the process `Sandbox` starts (its session and process group). It
  unshares the namespaces (`_confine.enter_namespaces`), forks the
  supervisor, tells mol the supervisor's process group (one line on the
  protocol pipe, before the worker's hello), then only waits: when the
  supervisor ends it ends the same way (same exit status or signal), and when
  mol goes away (its end of the protocol pipe hangs up) it kills the rest.
- supervisor: PID 1 of the new PID namespace when there is one, leader of
  its own process group (the one mol pauses between calls). It mounts the
  namespace's /proc and makes the host read-only (`_confine.setup_mounts`),
  forks the worker, drops every capability, and while the worker runs keeps
  the workspace quota (`_quota`). It is not dumpable, so the worker cannot
  read its memory.
- worker: PID 2; `_child` confines it further and serves the protocol.

Why a separate PID 1: the init of a PID namespace ignores signals it has no
handler for (a `kill(getpid(), SIGKILL)` or RLIMIT_CPU's SIGXCPU would do
nothing), so the model's code must not run as PID 1.

The worker cannot change its own limits (seccomp allows prlimit64 only to
read), which is why the supervisor, outside its seccomp filter, does it.
"""

from __future__ import annotations

import json
import os
import resource
import select
import signal
import struct
import time
from typing import NoReturn

import _confine  # sibling files: the child puts this folder on sys.path
from _disk import disk_usage
from _quota import RESCAN_S, Quota

WORKER_NICE = 10  # the supervisor (nice 0) then runs as soon as an inotify event is due, ahead of the writer
POLL_S = 0.05  # without pidfds or inotify: how often the supervisor looks at the worker and the workspace


def file_size_left(cfg: dict) -> int:
    """The RLIMIT_FSIZE soft limit for now: what is left of the quota, at most the per-file cap."""
    cap = int(cfg["memory_mb"]) << 20
    left = (int(cfg["disk_mb"]) << 20) - disk_usage(cfg["workspace"])
    return max(0, min(cap, left))


def start(cfg: dict) -> dict:
    """Build the tree. Returns, in the worker only, what was built: {'namespaces', 'own_proc', 'read_only_host', 'supervised'}."""
    lib = _confine.libc()
    if lib is None:
        return {"namespaces": [], "own_proc": False, "read_only_host": False, "supervised": False}
    namespaces = _confine.enter_namespaces(lib)
    status_r, status_w = os.pipe()
    go_r, go_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(status_r)
        os.close(go_w)
        return _supervisor(lib, cfg, namespaces, status_w, go_r)
    os.close(status_w)
    os.close(go_r)
    try:
        os.setpgid(pid, pid)
    except OSError:
        pass  # it did so itself already
    os.write(1, (json.dumps({"group": pid}) + "\n").encode())
    os.write(go_w, b"1")
    os.close(go_w)
    _launcher(pid, status_r)


def _launcher(pid: int, status_r: int) -> NoReturn:
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # mirroring a crash signal must not dump core
    lifeline = os.dup(0)  # never read: it only tells us when mol's end of the pipe closes
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)  # mol must see EOF as soon as the worker's side closes
    os.close(devnull)
    poller = select.poll()
    poller.register(lifeline, 0)  # POLLHUP / POLLERR are always reported
    try:
        pidfd = os.pidfd_open(pid)
        poller.register(pidfd, select.POLLIN)
    except (AttributeError, OSError):
        pidfd = -1
    while True:
        ready = dict(poller.poll(None if pidfd >= 0 else 1000))
        if pidfd in ready or (pidfd < 0 and os.waitpid(pid, os.WNOHANG)[0]):
            break
        if ready.get(lifeline, 0) & (select.POLLHUP | select.POLLERR):
            os.killpg(pid, signal.SIGKILL)
            break
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:
        status = 0
    data = os.read(status_r, 4)
    _exit_like(struct.unpack("<i", data)[0] if len(data) == 4 else status)


def _exit_like(status: int) -> NoReturn:
    """End this process the way the worker ended, so mol reads the worker's exit status or signal."""
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig not in (signal.SIGKILL, signal.SIGSTOP):  # those two have no handler to reset
            signal.signal(sig, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {sig})
        os.kill(os.getpid(), sig)
        os._exit(128 + sig)
    os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 1)


def _supervisor(lib, cfg: dict, namespaces: set[str], status_w: int, go_r: int) -> dict:
    os.setpgid(0, 0)
    _confine.die_with_parent(lib)
    os.read(go_r, 1)  # the launcher has told mol our group: the worker's hello comes after that line
    os.close(go_r)
    own_proc, read_only = _confine.setup_mounts(lib, cfg["workspace"], namespaces)
    worker = os.fork()
    if worker == 0:
        os.close(status_w)
        _confine.die_with_parent(lib)
        return {"namespaces": sorted(namespaces), "own_proc": own_proc, "read_only_host": read_only, "supervised": True}
    try:
        os.setpriority(os.PRIO_PROCESS, worker, WORKER_NICE)
    except OSError:
        pass
    _confine.not_dumpable(lib)
    _confine.no_new_privs(lib)
    _confine.drop_privileges(lib)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    os.close(devnull)
    _watch(worker, cfg, status_w)


def _watch(worker: int, cfg: dict, status_w: int) -> NoReturn:
    """Until the worker ends: keep its file-size limit at what the quota leaves (`_quota`). Paused with it between calls."""
    quota = Quota(cfg["workspace"], int(cfg["disk_mb"]) << 20, int(cfg["memory_mb"]) << 20, worker)
    try:
        pidfd = os.pidfd_open(worker)
    except (AttributeError, OSError):
        pidfd = -1
    every = RESCAN_S if quota.fd >= 0 else POLL_S  # without inotify the walk alone keeps the quota
    next_scan = time.monotonic() + every
    while True:
        ended = quota.wait(every if pidfd >= 0 else POLL_S, pidfd)
        pid, status = os.waitpid(worker, os.WNOHANG) if ended or pidfd < 0 else (0, 0)
        if pid == worker:
            os.write(status_w, struct.pack("<i", status))
            os._exit(0)
        if time.monotonic() >= next_scan:
            t0 = time.monotonic()
            quota.rescan()
            next_scan = time.monotonic() + max(every, 10 * (time.monotonic() - t0))  # a huge tree: at most 10 % of a CPU
