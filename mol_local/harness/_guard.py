"""The Python-level backstop of the sandbox child: an audit hook (PEP 578), stdlib only.

It refuses sockets (socket.socketpair() alone works), new processes, signals to other
processes, writes outside the workspace and reads of protected folders (the
user's mol-local data outside the workspace). Audit hooks cannot be removed,
but native code can go around them, so where the kernel layers (`_confine`)
are missing it also refuses ctypes. The kernel layers are the real barrier;
this one turns their failures into clear messages before they happen.
"""

from __future__ import annotations

import os
import socket
import sys

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_PROCESS_EVENTS = {"os.fork", "os.forkpty", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "subprocess.Popen", "pty.spawn"}
_NETWORK_EVENTS = {"socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr", "socket.gethostbyname_ex"}
_CTYPES_EVENTS = {"ctypes.dlopen", "ctypes.dlsym", "ctypes.dlsym/handle", "ctypes.cdata", "ctypes.call_function"}
# event -> (indexes of path arguments that must stay inside the workspace, indexes of dir_fd arguments)
_PATH_EVENTS: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {
    "os.remove": ((0,), (1,)), "os.rmdir": ((0,), (1,)), "os.mkdir": ((0,), (2,)), "os.rename": ((0, 1), (2, 3)),
    "os.symlink": ((1,), (2,)), "os.link": ((0, 1), (2, 3)), "os.truncate": ((0,), ()), "os.chmod": ((0,), (2,)),
    "os.chown": ((0,), (3,)), "os.utime": ((0,), (3,)), "shutil.rmtree": ((0,), (1,)),
    "shutil.copyfile": ((1,), ()), "shutil.move": ((1,), ()),
}


_UNIX_FIX = "host sockets (tmux, docker, dbus) would reach outside the sandbox; socket.socketpair() works within this session"


class SandboxDenied(PermissionError):
    """What user code sees when the sandbox refuses an operation."""


SandboxDenied.__module__ = "sandbox"  # tracebacks show `sandbox.SandboxDenied`, not our private file name


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root + os.sep)


_SOCKETPAIR = getattr(socket.socketpair, "__code__", None)  # taken at import: user code may rebind socket.socketpair


def _inside_socketpair() -> bool:
    """Whether socket.socketpair() is wrapping the pair it just made (the only unix sockets allowed)."""
    frame = sys._getframe(1)
    for _ in range(4):
        if frame is None:
            return False
        if frame.f_code is _SOCKETPAIR:
            return True
        frame = frame.f_back
    return False


def install(workspace: str, protect: list[str], *, block_ctypes: bool) -> None:
    root = os.path.realpath(workspace)
    guarded = [os.path.realpath(p) for p in protect]

    def resolve(path: object) -> str | None:
        if isinstance(path, int) or path is None:
            return None  # an fd that is already open
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        return os.path.realpath(os.fspath(path))  # type: ignore[arg-type]

    def deny(what: str, fix: str) -> None:
        raise SandboxDenied(f"sandbox: {what} is not allowed — {fix}")

    def check_write(path: object) -> None:
        real = resolve(path)
        if real is not None and not _inside(real, root) and real != os.devnull:
            deny(f"writing outside the workspace ({real})", f"write under {root} (the current folder) instead")

    def hook(event: str, args: tuple) -> None:
        if event == "open":
            path, mode, flags = args
            writes = (mode is not None and any(c in mode for c in "wax+")) or (mode is None and flags & _WRITE_FLAGS)
            if writes:
                check_write(path)
            else:
                real = resolve(path)
                if real is not None and not _inside(real, root) and any(_inside(real, g) for g in guarded):
                    deny(f"reading {real}", "only the workspace is readable from the sandbox")
        elif event in _PATH_EVENTS:
            paths, dir_fds = _PATH_EVENTS[event]
            if any(i < len(args) and args[i] not in (None, -1) for i in dir_fds):
                deny(f"{event} relative to a directory descriptor", "use a plain path inside the workspace")
            for i in paths:
                if i < len(args):
                    check_write(args[i])
        elif event == "socket.__new__":
            if args[1] != socket.AF_UNIX:
                deny("opening a network socket", "the sandbox has no network; work with local data")
            if not _inside_socketpair():
                deny("opening a unix socket", _UNIX_FIX)
        elif event in ("socket.connect", "socket.bind", "socket.sendto") and isinstance(args[1], (str, bytes)):
            deny(f"{event.split('.')[1]}() to a unix socket path", _UNIX_FIX)
        elif event in _NETWORK_EVENTS or event in ("socket.connect", "socket.bind", "socket.sendto"):
            deny("network access", "the sandbox has no network; work with local data")
        elif event in _PROCESS_EVENTS:
            deny("starting a process", "do the work in Python inside this session")
        elif event in ("os.kill", "os.killpg") and args[0] not in (0, os.getpid()):
            deny("signalling another process", "only this session's own process may be signalled")
        elif block_ctypes and event in _CTYPES_EVENTS:
            deny("ctypes", "native calls are blocked because kernel sandboxing is unavailable here")

    sys.addaudithook(hook)
