"""The seccomp program itself, run in a small classic-BPF interpreter for both architectures we ship a table for.

Inside a sandbox a refused call and a call the kernel refuses for want of a
capability both answer EPERM; here the filter's own decision is checked,
for every call the issue names and for the argument checks.
"""

from __future__ import annotations

import struct

import pytest

from mol_local.harness import _syscalls as sc
from tests.mol_local.harness.probes import NUMBERS

ALLOW, EPERM, ENOSYS = sc.RET_ALLOW, sc.RET_ERRNO | sc.EPERM, sc.RET_ERRNO | sc.ENOSYS
PID = 4242
MACHINES = {"x86_64": 0, "aarch64": 1}
# Calls the issue names (or that would reach the host), refused on every architecture that has them.
REFUSED = ["reboot", "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module", "mount", "umount2",
           "pivot_root", "chroot", "unshare", "setns", "keyctl", "add_key", "request_key", "bpf", "perf_event_open", "ptrace",
           "process_vm_readv", "io_uring_setup", "userfaultfd", "swapon", "acct", "quotactl", "syslog", "settimeofday",
           "clock_settime", "adjtimex", "sethostname", "setuid", "setresuid", "capset", "personality", "shmget", "msgget",
           "semget", "mq_open", "socket", "connect", "bind", "listen", "fork", "execve", "kcmp", "open_by_handle_at",
           "fanotify_init", "mount_setattr", "fsopen", "open_tree", "pidfd_open", "pidfd_getfd", "setpgid", "setsid",
           "setpriority", "migrate_pages", "move_pages", "memfd_secret", "iopl", "ioperm", "setrlimit", "vmsplice"]


def run(prog: list[tuple[int, int, int, int]], nr: int, arch: int, args: tuple[int, ...] = ()) -> int:
    """Evaluate a classic BPF seccomp program on one struct seccomp_data."""
    words = [a & 0xFFFFFFFFFFFFFFFF for a in (*args, *(0,) * (6 - len(args)))]
    data = struct.pack("<iIQ6Q", nr, arch, 0, *words)
    acc, pc = 0, 0
    for _ in range(len(prog) + 1):
        code, jt, jf, k = prog[pc]
        if code == sc.LD_W_ABS:
            acc, pc = struct.unpack_from("<I", data, k)[0], pc + 1
        elif code == sc.AND_K:
            acc, pc = acc & k, pc + 1
        elif code == sc.RET_K:
            return k
        else:
            taken = {sc.JEQ_K: acc == k, sc.JGT_K: acc > k, sc.JGE_K: acc >= k, sc.JSET_K: bool(acc & k)}[code]
            pc += 1 + (jt if taken else jf)
    raise AssertionError("the program did not return")


def program(machine: str, *, metadata: bool = False) -> tuple[list[tuple[int, int, int, int]], int, dict[str, int]]:
    prog = sc.program(machine, pid=PID, metadata=metadata)
    assert prog is not None
    audit_arch, _, numbers = sc.ARCHES[machine]
    return prog, audit_arch, numbers


@pytest.mark.parametrize("machine", MACHINES)
def test_every_named_admin_call_is_refused(machine: str) -> None:
    prog, arch, _ = program(machine)
    for name in REFUSED:
        number = NUMBERS[name][MACHINES[machine]]
        if number is not None:
            assert run(prog, number, arch) == EPERM, name


@pytest.mark.parametrize("machine", MACHINES)
def test_allowed_calls_pass_and_nothing_else_does(machine: str) -> None:
    prog, arch, numbers = program(machine)
    passing = {nr for name, nr in numbers.items() if name in sc.ALLOWED}
    for name in sc.ALLOWED & numbers.keys():
        assert run(prog, numbers[name], arch) == ALLOW, name
    known = set(numbers.values())
    for number in range(sc.NEWEST + 1):  # every number the table does not allow is refused
        if number not in known:
            assert run(prog, number, arch) == EPERM, number
    assert run(prog, sc.NEWEST + 1, arch) == ENOSYS and run(prog, 100_000, arch) in (ENOSYS, EPERM)
    assert passing  # the table is not empty


@pytest.mark.parametrize("machine", MACHINES)
def test_argument_checks(machine: str) -> None:
    prog, arch, n = program(machine)
    thread = 0x3D0F00  # what glibc's pthread_create passes: VM|FS|FILES|SIGHAND|THREAD|SYSVSEM|SETTLS|PARENT/CHILD_SETTID
    assert run(prog, n["clone"], arch, (thread,)) == ALLOW
    assert run(prog, n["clone"], arch, (17,)) == EPERM  # fork: SIGCHLD, no CLONE_THREAD
    assert run(prog, n["clone"], arch, (thread | 0x40000000,)) == EPERM  # a thread in a new network namespace
    assert run(prog, n["clone3"], arch) == ENOSYS
    assert run(prog, n["socketpair"], arch, (1, 1 | 0x80000)) == ALLOW  # AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC
    assert run(prog, n["socketpair"], arch, (1, 5)) == ALLOW  # SOCK_SEQPACKET
    assert run(prog, n["socketpair"], arch, (1, 2)) == EPERM  # SOCK_DGRAM could sendto() any path
    assert run(prog, n["socketpair"], arch, (2, 1)) == EPERM
    assert run(prog, n["prlimit64"], arch, (0, 1, 0, 0x7FFF0000)) == ALLOW  # read only
    assert run(prog, n["prlimit64"], arch, (0, 1, 0x7FFF0000, 0)) == EPERM
    assert run(prog, n["prlimit64"], arch, (0, 1, 1 << 40, 0)) == EPERM  # a pointer above 4 GiB is not NULL either
    for call in sc.THIS_PROCESS_ONLY:
        assert run(prog, n[call], arch, (PID,)) == ALLOW, call
        assert run(prog, n[call], arch, (PID + 1,)) == EPERM, call
    assert run(prog, n["kill"], arch, (0,)) == ALLOW and run(prog, n["kill"], arch, (-1,)) == EPERM


@pytest.mark.parametrize("machine", MACHINES)
def test_metadata_calls_follow_the_read_only_host(machine: str) -> None:
    closed, arch, numbers = program(machine)
    opened, _, _ = program(machine, metadata=True)
    for name in sc.METADATA & numbers.keys():
        assert (run(closed, numbers[name], arch), run(opened, numbers[name], arch)) == (EPERM, ALLOW), name


def test_foreign_calling_conventions() -> None:
    prog, arch, numbers = program("x86_64")
    assert run(prog, numbers["read"], 0x40000003) == sc.RET_KILL_PROCESS  # i386 int 0x80 from a 64-bit process
    assert run(prog, 0x40000000 | numbers["read"], arch) == EPERM  # x32
    assert sc.program("mips64", pid=PID, metadata=False) is None  # no table: no filter, and doctor says so
