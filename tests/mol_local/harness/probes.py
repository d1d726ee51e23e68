"""Shared pieces of the sandbox red-team probes (issue 15): each probe is a way out, tried from inside a real sandbox.

A probe holds when the attempt fails *and* nothing outside changed (the
listener saw no connection, the file kept its mode, the token never showed
up). The raw system calls go through ctypes, around the Python audit hook,
so they test the kernel layers themselves.
"""

from __future__ import annotations

import ast
import errno
import platform
import sys
from pathlib import Path

import pytest

from mol_local.harness.limits import ToolLimits
from mol_local.harness.sandbox import Sandbox

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="kernel confinement is Linux-only")
EPERM, ENOSYS = errno.EPERM, errno.ENOSYS
LIMITS = ToolLimits(timeout_s=10, cpu_s=5, memory_mb=256, output_kb=16, disk_mb=64)

# Raw system calls from inside the sandbox: sc(nr, *args) -> (return value, errno).
NATIVE = """
import ctypes, ctypes.util, os, struct
_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long
def sc(nr, *args):
    ctypes.set_errno(0)
    r = _libc.syscall(ctypes.c_long(nr), *[ctypes.c_long(a) if isinstance(a, int) else ctypes.c_char_p(a) for a in args])
    return r, ctypes.get_errno()
"""

# Numbers of calls the filter must refuse, (x86_64, aarch64), from the kernel's uapi headers; None = not on that machine.
NUMBERS: dict[str, tuple[int | None, int | None]] = {
    "reboot": (169, 142), "kexec_load": (246, 104), "kexec_file_load": (320, 294), "init_module": (175, 105),
    "finit_module": (313, 273), "delete_module": (176, 106), "mount": (165, 40), "umount2": (166, 39),
    "pivot_root": (155, 41), "chroot": (161, 51), "unshare": (272, 97), "setns": (308, 268), "keyctl": (250, 219),
    "add_key": (248, 217), "request_key": (249, 218), "bpf": (321, 280), "perf_event_open": (298, 241),
    "ptrace": (101, 117), "process_vm_readv": (310, 270), "io_uring_setup": (425, 425), "userfaultfd": (323, 282),
    "swapon": (167, 224), "acct": (163, 89), "quotactl": (179, 60), "syslog": (103, 116), "settimeofday": (164, 170),
    "clock_settime": (227, 112), "adjtimex": (159, 171), "sethostname": (170, 161), "setuid": (105, 146),
    "setresuid": (117, 147), "capset": (126, 91), "personality": (135, 92), "shmget": (29, 194), "msgget": (68, 186),
    "semget": (64, 190), "mq_open": (240, 180), "socket": (41, 198), "connect": (42, 203), "bind": (49, 200),
    "listen": (50, 201), "fork": (57, None), "execve": (59, 221), "kcmp": (312, 272), "inotify_init1": (294, 26),
    "open_by_handle_at": (304, 265), "fanotify_init": (300, 262), "mount_setattr": (442, 442), "fsopen": (430, 430),
    "open_tree": (428, 428), "pidfd_open": (434, 434), "pidfd_getfd": (438, 438), "setpgid": (109, 154),
    "setsid": (112, 157), "setpriority": (141, 140), "migrate_pages": (256, 238), "move_pages": (279, 239),
    "memfd_secret": (447, 447), "iopl": (172, None), "ioperm": (173, None), "setrlimit": (160, 164),
    "vmsplice": (278, 75), "lookup_dcookie": (212, 18), "clone": (56, 220), "clone3": (435, 435), "kill": (62, 129),
    "prlimit64": (302, 261), "socketpair": (53, 199), "getpid": (39, 172), "chmod": (90, None), "fchmodat": (268, 53),
}


def nr(name: str) -> int | None:
    pair = NUMBERS[name]
    return pair[0] if platform.machine() == "x86_64" else pair[1] if platform.machine() == "aarch64" else None


def value(box: Sandbox, code: str) -> object:
    """Run code whose last expression is a Python literal; return that literal."""
    result = box.execute(code)
    assert result.status == "ok", result.error
    assert result.value is not None, result.output
    return ast.literal_eval(result.value)


def require(box: Sandbox, *layers: str) -> None:
    box.start()
    for layer in layers:
        if not box.protections.get(layer):
            pytest.skip(f"the {layer} layer is unavailable on this kernel")


def open_box(root: Path, limits: ToolLimits = LIMITS) -> Sandbox:
    """A sandbox whose workspace is root/workspace; the caller closes it."""
    return Sandbox(root / "workspace", limits, protect=(root / "private",))
