"""Probes: root's capabilities and the admin system calls (issue 15, sandbox point 3), from inside a real sandbox.

The issue saw CapEff 000001fffeffffff, `reboot` answering EINVAL (reachable)
and `unshare(CLONE_NEWNS)` succeeding. Every call below is made with
arguments that would be harmless even if it got through (a bad magic, NULL
pointers, a missing path), and must come back EPERM from the filter.
"""

from __future__ import annotations

import os
import platform
from collections.abc import Iterator
from pathlib import Path

import pytest

from mol_local.harness.sandbox import Sandbox
from tests.mol_local.harness.probes import ENOSYS, EPERM, NATIVE, linux_only, nr, open_box, require, value

pytestmark = linux_only
CLONE_NEWNS, CLONE_NEWUSER, SIGCHLD = 0x20000, 0x10000000, 17

# (probe id, call, arguments): bytes become char pointers, ints longs.
ADMIN_CALLS: list[tuple[str, str, tuple]] = [
    ("reboot", "reboot", (0, 0, 0, 0)), ("kexec_load", "kexec_load", (0, 0, 0, 0)),
    ("kexec_file_load", "kexec_file_load", (-1, -1, 0, 0, 0)), ("init_module", "init_module", (0, 0, b"")),
    ("finit_module", "finit_module", (-1, b"", 0)), ("delete_module", "delete_module", (b"mol_probe_none", 0)),
    ("mount", "mount", (b"none", b"/tmp", b"tmpfs", 0, 0)), ("umount_proc", "umount2", (b"/proc", 2)),
    ("pivot_root", "pivot_root", (b"/", b"/")), ("chroot", "chroot", (b"/",)),
    ("unshare_mount_ns", "unshare", (CLONE_NEWNS,)), ("unshare_user_ns", "unshare", (CLONE_NEWUSER,)),
    ("setns", "setns", (-1, 0)), ("keyctl", "keyctl", (0, -2, 0)), ("add_key", "add_key", (b"user", b"mol-probe", b"x", 1, -2)),
    ("request_key", "request_key", (b"user", b"mol-probe", 0, 0)), ("bpf", "bpf", (0, 0, 0)),
    ("perf_event_open", "perf_event_open", (0, 0, -1, -1, 0)), ("ptrace_traceme", "ptrace", (0, 0, 0, 0)),
    ("ptrace_attach_supervisor", "ptrace", (16, 1, 0, 0)), ("process_vm_readv", "process_vm_readv", (1, 0, 0, 0, 0, 0)),
    ("io_uring_setup", "io_uring_setup", (1, 0)), ("userfaultfd", "userfaultfd", (0,)), ("swapon", "swapon", (b"/nonexistent", 0)),
    ("acct", "acct", (b"/nonexistent/acct",)), ("quotactl", "quotactl", (0, b"/", 0, 0)), ("syslog", "syslog", (10, 0, 0)),
    ("settimeofday", "settimeofday", (0, 0)), ("clock_settime", "clock_settime", (0, 0)), ("adjtimex", "adjtimex", (0,)),
    ("sethostname", "sethostname", (0, 100)), ("setuid_root", "setuid", (0,)), ("setresuid", "setresuid", (-1, -1, -1)),
    ("capset", "capset", (0, 0)), ("personality", "personality", (0xFFFFFFFF,)), ("shmget", "shmget", (0, 4096, 0o600)),
    ("msgget", "msgget", (0, 0o600)), ("semget", "semget", (0, 1, 0o600)), ("mq_open", "mq_open", (b"mol-probe", 0o102, 0o600, 0)),
    ("execve", "execve", (b"/bin/true", 0, 0)), ("fork", "fork", ()), ("kcmp", "kcmp", (1, 2, 0, 0, 0)),
    ("inotify_init1", "inotify_init1", (0,)), ("open_by_handle_at", "open_by_handle_at", (-1, 0, 0)),
    ("fanotify_init", "fanotify_init", (0, 0)), ("mount_setattr", "mount_setattr", (-1, b"", 0, 0, 0)),
    ("fsopen", "fsopen", (b"tmpfs", 0)), ("open_tree", "open_tree", (-100, b"/", 1)), ("pidfd_open", "pidfd_open", (1, 0)),
    ("pidfd_getfd", "pidfd_getfd", (-1, 0, 0)), ("setpgid", "setpgid", (0, 0)), ("setsid", "setsid", ()),
    ("setpriority", "setpriority", (0, 0, 19)), ("migrate_pages", "migrate_pages", (1, 0, 0, 0)),
    ("move_pages", "move_pages", (0, 0, 0, 0, 0, 0)), ("memfd_secret", "memfd_secret", (0,)), ("iopl", "iopl", (3,)),
    ("ioperm", "ioperm", (0, 1, 1)), ("setrlimit", "setrlimit", (1, 0)), ("vmsplice", "vmsplice", (-1, 0, 0, 0)),
    ("lookup_dcookie", "lookup_dcookie", (0, 0, 0)), ("kill_everyone", "kill", (-1, 0)),
    ("clone_process", "clone", (SIGCHLD, 0, 0, 0, 0)), ("clone_thread_in_new_netns", "clone", (0x40010F00, 0, 0, 0, 0)),
    ("prlimit_raise", "prlimit64", (0, 1, 1, 0)),
]


@pytest.fixture(scope="module")
def box(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sandbox]:
    sandbox = open_box(tmp_path_factory.mktemp("probe-syscalls"))
    require(sandbox, "syscalls")
    sandbox.execute(NATIVE)
    yield sandbox
    sandbox.close()


def test_probe_no_capability_survives_and_no_new_privileges(box: Sandbox) -> None:
    status = value(box, "dict(l.split(':\\t') for l in open('/proc/self/status').read().splitlines() if ':\\t' in l)")
    assert isinstance(status, dict)
    for key in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"):
        assert int(status[key], 16) == 0, (key, status[key])
    assert (status["NoNewPrivs"], status["Seccomp"]) == ("1", "2")
    if os.geteuid() == 0:
        assert value(box, "os.getuid()") == 0  # still uid 0, which without capabilities is only a number


@pytest.mark.parametrize(("probe", "call", "args"), ADMIN_CALLS, ids=[p for p, _, _ in ADMIN_CALLS])
def test_probe_admin_call_is_refused(box: Sandbox, probe: str, call: str, args: tuple) -> None:
    number = nr(call)
    if number is None:
        pytest.skip(f"{call} does not exist on {platform.machine()}")
    assert value(box, f"sc({number}, *{args!r})") == (-1, EPERM)
    assert value(box, "1 + 1") == 2  # and the session lives on


def test_probe_new_and_unknown_calls_get_enosys(box: Sandbox) -> None:
    assert value(box, f"sc({nr('clone3')}, 0, 0)") == (-1, ENOSYS)  # glibc then falls back to clone
    assert value(box, "sc(999)") == (-1, ENOSYS)  # newer than the table: as if the kernel were older
    if platform.machine() == "x86_64":
        assert value(box, f"sc(0x40000000 + {nr('getpid')})") == (-1, EPERM)  # the x32 calling convention


def test_probe_resource_limits_cannot_be_raised(box: Sandbox) -> None:
    """Raising a soft limit up to the hard one is normally allowed: refused here, the per-file quota limit holds."""
    code = ("import resource\nsoft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)\ntry:\n"
            "    resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))\n    r = 'raised'\nexcept (OSError, ValueError) as e:\n"
            "    r = str(e)\n(soft < hard, r, resource.getrlimit(resource.RLIMIT_FSIZE)[0] == soft)")
    assert value(box, code) == (True, "not allowed to raise maximum limit", True)  # how CPython words EPERM here
    assert value(box, "import resource; resource.getrlimit(resource.RLIMIT_AS)[0] > 0") is True  # reading still works


def test_probe_allowed_calls_still_work(box: Sandbox) -> None:
    assert value(box, f"sc({nr('getpid')})[0] == os.getpid()") is True
    assert value(box, f"sc({nr('kill')}, os.getpid(), 0)") == (0, 0)  # signal 0 to itself
    code = "import threading, asyncio\nt = threading.Thread(target=lambda: None); t.start(); t.join()\nasyncio.run(asyncio.sleep(0, 'ok'))"
    assert value(box, code) == "ok"  # threads and asyncio (its socketpair self-pipe) work


def test_probe_metadata_of_host_files_cannot_change(box: Sandbox, tmp_path: Path) -> None:
    """chmod/chown/utime/xattr are outside Landlock: the read-only host mount (or the filter) must refuse them."""
    host = tmp_path / "host-file.txt"
    host.write_text("host")
    os.chmod(host, 0o600)
    before = os.stat(host)
    code = (f"p = {str(host).encode()!r}\nr = [_libc.chmod(p, 0o4777), _libc.chown(p, 65534, 65534), _libc.utimes(p, None),"
            " _libc.setxattr(p, b'user.mol', b'x', 1, 0), _libc.truncate(p, 0)]\nr")
    assert value(box, code) == [-1, -1, -1, -1, -1]
    after = os.stat(host)
    assert (after.st_mode, after.st_uid, after.st_mtime_ns, after.st_size) == (before.st_mode, before.st_uid, before.st_mtime_ns, 4)
    if not box.protections["mounts"]:
        return  # without the read-only host the filter refuses these calls everywhere, the workspace included
    inside = "import shutil\nopen('a.txt', 'w').write('x')\nshutil.copy2('a.txt', 'b.txt')\nos.chmod('b.txt', 0o600)\noct(os.stat('b.txt').st_mode & 0o777)"
    assert value(box, inside) == "0o600"  # inside the workspace they work
