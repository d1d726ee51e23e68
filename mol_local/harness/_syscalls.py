"""The sandbox's seccomp filter: an allow list of system calls, as a hand-assembled BPF program (stdlib only).

Why an allow list and not a deny list: a deny list is only as good as the
day it was written. Every kernel release adds calls (io_uring, bpf, the new
mount API, mount_setattr, listmount... all arrived after the deny lists of
their time) and each new one is reachable by default. Here the child may make
only the calls a Python process needs to compute, read and write files,
use threads, timers and memory; everything else is refused. The cost is
that a call we did not foresee fails with EPERM instead of working; a
syscall newer than this table (number above NEWEST) gets ENOSYS, so a libc
that tries it falls back to an older one, as it does on an old kernel.

What the program decides, per call:
- ALLOWED: passes.
- METADATA (chmod, chown, utime, xattr writes): Landlock does not cover
  them, so they pass only when the host file system is mounted read-only for
  the child (the kernel then refuses them outside the workspace with EROFS);
  otherwise EPERM.
- By argument: clone only for threads and without namespace flags;
  socketpair only AF_UNIX stream/seqpacket (already connected: asyncio's
  self-pipe works, nothing else is reachable); prlimit64 only to read;
  kill, tgkill, rt_(tg)sigqueueinfo and sched_setaffinity only on this
  process (or 0 = itself / its group). clone3 gets ENOSYS (its flags sit in
  memory seccomp cannot read; glibc falls back to clone).
- Everything else: EPERM. That includes reboot, kexec_load/kexec_file_load,
  init/finit/delete_module, mount, umount2, pivot_root, chroot, the new mount
  API, unshare, setns, keyctl/add_key/request_key, bpf, perf_event_open,
  ptrace, process_vm_*, io_uring_*, userfaultfd, swapon/swapoff, acct,
  quotactl, syslog, settimeofday/clock_settime/adjtimex, sethostname, the
  setuid family, capset, personality, SysV IPC and message queues, fork,
  vfork, execve/execveat, socket, connect, bind, listen, accept.
- A foreign calling convention (i386 `int 0x80` from an x86_64 process)
  kills the process; x32 numbers get EPERM.

Numbers come from the kernel's uapi headers (asm/unistd_64.h on x86_64,
asm-generic/unistd.h on aarch64); 451..462 are the same on every
architecture. An architecture not listed here gets no filter, and
`mol doctor` says so.
"""

from __future__ import annotations

import ctypes
import platform
import struct

PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2
# classic BPF opcodes
LD_W_ABS, JEQ_K, JGT_K, JGE_K, JSET_K, AND_K, RET_K = 0x20, 0x15, 0x25, 0x35, 0x45, 0x54, 0x06
RET_ALLOW, RET_KILL_PROCESS, RET_ERRNO = 0x7FFF0000, 0x80000000, 0x00050000
EPERM, ENOSYS = 1, 38
NEWEST = 462  # the newest syscall number this table knows (mseal, Linux 6.10)
CLONE_THREAD = 0x00010000
CLONE_NEW_ANY = 0x7E020080  # NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET | NEWTIME
AF_UNIX, SOCK_STREAM, SOCK_SEQPACKET, SOCK_TYPE_MASK = 1, 1, 5, 0xF
# offsets in struct seccomp_data: nr, arch, then args[i] at 16 + 8 i (low word first on little-endian)
NR, ARCH = 0, 4

ALLOWED = frozenset("""
read write readv writev pread64 pwrite64 preadv pwritev preadv2 pwritev2 lseek
open openat openat2 creat close close_range dup dup2 dup3 pipe pipe2 fcntl flock ioctl
stat fstat lstat newfstatat statx statfs fstatfs access faccessat faccessat2 readlink readlinkat
getdents getdents64 getcwd chdir fchdir mknod mknodat
mkdir mkdirat rmdir unlink unlinkat rename renameat renameat2 link linkat symlink symlinkat
truncate ftruncate fallocate fsync fdatasync sync_file_range fadvise64 readahead umask
sendfile copy_file_range splice tee getxattr lgetxattr fgetxattr listxattr llistxattr flistxattr memfd_create
mmap munmap mremap mprotect madvise mincore msync brk pkey_mprotect pkey_alloc pkey_free membarrier mseal
map_shadow_stack get_mempolicy set_mempolicy mbind
poll ppoll select pselect6 epoll_create epoll_create1 epoll_ctl epoll_wait epoll_pwait epoll_pwait2
eventfd eventfd2 signalfd signalfd4
futex futex_waitv futex_wake futex_wait futex_requeue set_robust_list set_tid_address rseq restart_syscall
exit exit_group wait4 waitid
getpid gettid getppid getuid geteuid getgid getegid getgroups getresuid getresgid getpgid getpgrp getsid capget
rt_sigaction rt_sigprocmask rt_sigreturn rt_sigpending rt_sigtimedwait rt_sigsuspend sigaltstack pause
alarm getitimer setitimer timer_create timer_settime timer_gettime timer_getoverrun timer_delete
timerfd_create timerfd_settime timerfd_gettime clock_gettime clock_getres clock_nanosleep nanosleep gettimeofday time
sched_yield sched_getaffinity sched_getparam sched_getscheduler sched_get_priority_max sched_get_priority_min
sched_rr_get_interval sched_getattr getpriority getcpu
getrusage getrlimit uname sysinfo times prctl arch_prctl getrandom ioprio_get uretprobe
sendto recvfrom sendmsg recvmsg sendmmsg recvmmsg shutdown getsockname getpeername getsockopt setsockopt
""".split())
METADATA = frozenset("""
chmod fchmod fchmodat fchmodat2 chown fchown lchown fchownat utime utimes utimensat futimesat
setxattr lsetxattr fsetxattr removexattr lremovexattr fremovexattr
""".split())
THIS_PROCESS_ONLY = ("kill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo", "sched_setaffinity")

X86_64 = {
    "read": 0, "write": 1, "open": 2, "close": 3, "stat": 4, "fstat": 5, "lstat": 6, "poll": 7, "lseek": 8,
    "mmap": 9, "mprotect": 10, "munmap": 11, "brk": 12, "rt_sigaction": 13, "rt_sigprocmask": 14, "rt_sigreturn": 15,
    "ioctl": 16, "pread64": 17, "pwrite64": 18, "readv": 19, "writev": 20, "access": 21, "pipe": 22, "select": 23,
    "sched_yield": 24, "mremap": 25, "msync": 26, "mincore": 27, "madvise": 28, "dup": 32, "dup2": 33, "pause": 34,
    "nanosleep": 35, "getitimer": 36, "alarm": 37, "setitimer": 38, "getpid": 39, "sendfile": 40, "sendto": 44,
    "recvfrom": 45, "sendmsg": 46, "recvmsg": 47, "shutdown": 48, "getsockname": 51, "getpeername": 52,
    "socketpair": 53, "setsockopt": 54, "getsockopt": 55, "clone": 56, "exit": 60, "wait4": 61, "kill": 62,
    "uname": 63, "fcntl": 72, "flock": 73, "fsync": 74, "fdatasync": 75, "truncate": 76, "ftruncate": 77,
    "getdents": 78, "getcwd": 79, "chdir": 80, "fchdir": 81, "rename": 82, "mkdir": 83, "rmdir": 84, "creat": 85,
    "link": 86, "unlink": 87, "symlink": 88, "readlink": 89, "chmod": 90, "fchmod": 91, "chown": 92, "fchown": 93,
    "lchown": 94, "umask": 95, "gettimeofday": 96, "getrlimit": 97, "getrusage": 98, "sysinfo": 99, "times": 100,
    "getuid": 102, "getgid": 104, "geteuid": 107, "getegid": 108, "getppid": 110, "getpgrp": 111, "getgroups": 115,
    "getresuid": 118, "getresgid": 120, "getpgid": 121, "getsid": 124, "capget": 125, "rt_sigpending": 127,
    "rt_sigtimedwait": 128, "rt_sigqueueinfo": 129, "rt_sigsuspend": 130, "sigaltstack": 131, "utime": 132,
    "mknod": 133, "statfs": 137, "fstatfs": 138, "getpriority": 140, "sched_getparam": 143,
    "sched_getscheduler": 145, "sched_get_priority_max": 146, "sched_get_priority_min": 147,
    "sched_rr_get_interval": 148, "prctl": 157, "arch_prctl": 158, "gettid": 186, "readahead": 187, "setxattr": 188,
    "lsetxattr": 189, "fsetxattr": 190, "getxattr": 191, "lgetxattr": 192, "fgetxattr": 193, "listxattr": 194,
    "llistxattr": 195, "flistxattr": 196, "removexattr": 197, "lremovexattr": 198, "fremovexattr": 199, "time": 201,
    "futex": 202, "sched_setaffinity": 203, "sched_getaffinity": 204, "epoll_create": 213, "getdents64": 217,
    "set_tid_address": 218, "restart_syscall": 219, "fadvise64": 221, "timer_create": 222, "timer_settime": 223,
    "timer_gettime": 224, "timer_getoverrun": 225, "timer_delete": 226, "clock_gettime": 228, "clock_getres": 229,
    "clock_nanosleep": 230, "exit_group": 231, "epoll_wait": 232, "epoll_ctl": 233, "tgkill": 234, "utimes": 235,
    "mbind": 237, "set_mempolicy": 238, "get_mempolicy": 239, "waitid": 247, "ioprio_get": 252, "openat": 257,
    "mkdirat": 258, "mknodat": 259, "fchownat": 260, "futimesat": 261, "newfstatat": 262, "unlinkat": 263,
    "renameat": 264, "linkat": 265, "symlinkat": 266, "readlinkat": 267, "fchmodat": 268, "faccessat": 269,
    "pselect6": 270, "ppoll": 271, "set_robust_list": 273, "splice": 275, "tee": 276, "sync_file_range": 277,
    "utimensat": 280, "epoll_pwait": 281, "signalfd": 282, "timerfd_create": 283, "eventfd": 284, "fallocate": 285,
    "timerfd_settime": 286, "timerfd_gettime": 287, "signalfd4": 289, "eventfd2": 290, "epoll_create1": 291,
    "dup3": 292, "pipe2": 293, "preadv": 295, "pwritev": 296, "rt_tgsigqueueinfo": 297, "recvmmsg": 299,
    "prlimit64": 302, "sendmmsg": 307, "getcpu": 309, "sched_getattr": 315, "renameat2": 316, "getrandom": 318,
    "memfd_create": 319, "membarrier": 324, "copy_file_range": 326, "preadv2": 327, "pwritev2": 328,
    "pkey_mprotect": 329, "pkey_alloc": 330, "pkey_free": 331, "statx": 332, "rseq": 334, "uretprobe": 335,
    "clone3": 435, "close_range": 436, "openat2": 437, "faccessat2": 439, "epoll_pwait2": 441, "futex_waitv": 449,
    "fchmodat2": 452, "map_shadow_stack": 453, "futex_wake": 454, "futex_wait": 455, "futex_requeue": 456,
    "mseal": 462,
}
AARCH64 = {
    "setxattr": 5, "lsetxattr": 6, "fsetxattr": 7, "getxattr": 8, "lgetxattr": 9, "fgetxattr": 10, "listxattr": 11,
    "llistxattr": 12, "flistxattr": 13, "removexattr": 14, "lremovexattr": 15, "fremovexattr": 16, "getcwd": 17,
    "eventfd2": 19, "epoll_create1": 20, "epoll_ctl": 21, "epoll_pwait": 22, "dup": 23, "dup3": 24, "fcntl": 25,
    "ioctl": 29, "ioprio_get": 31, "flock": 32, "mknodat": 33, "mkdirat": 34, "unlinkat": 35, "symlinkat": 36,
    "linkat": 37, "renameat": 38, "statfs": 43, "fstatfs": 44, "truncate": 45, "ftruncate": 46, "fallocate": 47,
    "faccessat": 48, "chdir": 49, "fchdir": 50, "fchmod": 52, "fchmodat": 53, "fchownat": 54, "fchown": 55,
    "openat": 56, "close": 57, "pipe2": 59, "getdents64": 61, "lseek": 62, "read": 63, "write": 64, "readv": 65,
    "writev": 66, "pread64": 67, "pwrite64": 68, "preadv": 69, "pwritev": 70, "sendfile": 71, "pselect6": 72,
    "ppoll": 73, "signalfd4": 74, "splice": 76, "tee": 77, "readlinkat": 78, "newfstatat": 79, "fstat": 80,
    "fsync": 82, "fdatasync": 83, "sync_file_range": 84, "timerfd_create": 85, "timerfd_settime": 86,
    "timerfd_gettime": 87, "utimensat": 88, "capget": 90, "exit": 93, "exit_group": 94, "waitid": 95,
    "set_tid_address": 96, "futex": 98, "set_robust_list": 99, "nanosleep": 101, "getitimer": 102, "setitimer": 103,
    "timer_create": 107, "timer_gettime": 108, "timer_getoverrun": 109, "timer_settime": 110, "timer_delete": 111,
    "clock_gettime": 113, "clock_getres": 114, "clock_nanosleep": 115, "sched_getscheduler": 120,
    "sched_getparam": 121, "sched_setaffinity": 122, "sched_getaffinity": 123, "sched_yield": 124,
    "sched_get_priority_max": 125, "sched_get_priority_min": 126, "sched_rr_get_interval": 127,
    "restart_syscall": 128, "kill": 129, "tgkill": 131, "sigaltstack": 132, "rt_sigsuspend": 133,
    "rt_sigaction": 134, "rt_sigprocmask": 135, "rt_sigpending": 136, "rt_sigtimedwait": 137, "rt_sigqueueinfo": 138,
    "rt_sigreturn": 139, "getpriority": 141, "getresuid": 148, "getresgid": 150, "times": 153, "getpgid": 155,
    "getsid": 156, "getgroups": 158, "uname": 160, "getrlimit": 163, "getrusage": 165, "umask": 166, "prctl": 167,
    "getcpu": 168, "gettimeofday": 169, "getpid": 172, "getppid": 173, "getuid": 174, "geteuid": 175, "getgid": 176,
    "getegid": 177, "gettid": 178, "sysinfo": 179, "socketpair": 199, "getsockname": 204, "getpeername": 205,
    "sendto": 206, "recvfrom": 207, "setsockopt": 208, "getsockopt": 209, "shutdown": 210, "sendmsg": 211,
    "recvmsg": 212, "readahead": 213, "brk": 214, "munmap": 215, "mremap": 216, "clone": 220, "mmap": 222,
    "fadvise64": 223, "mprotect": 226, "msync": 227, "mincore": 232, "madvise": 233, "mbind": 235,
    "get_mempolicy": 236, "set_mempolicy": 237, "rt_tgsigqueueinfo": 240, "recvmmsg": 243, "wait4": 260,
    "prlimit64": 261, "sendmmsg": 269, "sched_getattr": 275, "renameat2": 276, "getrandom": 278, "memfd_create": 279,
    "membarrier": 283, "copy_file_range": 285, "preadv2": 286, "pwritev2": 287, "pkey_mprotect": 288,
    "pkey_alloc": 289, "pkey_free": 290, "statx": 291, "rseq": 293, "clone3": 435, "close_range": 436,
    "openat2": 437, "faccessat2": 439, "epoll_pwait2": 441, "futex_waitv": 449, "fchmodat2": 452, "futex_wake": 454,
    "futex_wait": 455, "futex_requeue": 456, "mseal": 462,
}
# machine: (AUDIT_ARCH_*, the x32 bit or None, numbers)
ARCHES: dict[str, tuple[int, int | None, dict[str, int]]] = {
    "x86_64": (0xC000003E, 0x40000000, X86_64),
    "aarch64": (0xC00000B7, None, AARCH64),
}

Insn = tuple[int, int, int, int]  # code, jt, jf, k


def _ld(offset: int) -> Insn:
    return (LD_W_ABS, 0, 0, offset)


def _ret(action: int) -> Insn:
    return (RET_K, 0, 0, action)


def _arg(i: int, high: bool = False) -> int:
    return 16 + 8 * i + (4 if high else 0)


def _when(nr: int, body: list[Insn]) -> list[Insn]:
    """`if nr == X: body` where body always returns; otherwise fall through to what follows."""
    return [(JEQ_K, 0, len(body), nr), *body]


def _clone_body() -> list[Insn]:
    return [_ld(_arg(0)), (JSET_K, 0, 1, CLONE_NEW_ANY), _ret(RET_ERRNO | EPERM),
            (JSET_K, 0, 1, CLONE_THREAD), _ret(RET_ALLOW), _ret(RET_ERRNO | EPERM)]


def _socketpair_body() -> list[Insn]:
    return [_ld(_arg(0)), (JEQ_K, 1, 0, AF_UNIX), _ret(RET_ERRNO | EPERM), _ld(_arg(1)), (AND_K, 0, 0, SOCK_TYPE_MASK),
            (JEQ_K, 2, 0, SOCK_STREAM), (JEQ_K, 1, 0, SOCK_SEQPACKET), _ret(RET_ERRNO | EPERM), _ret(RET_ALLOW)]


def _read_only_body() -> list[Insn]:
    """prlimit64(pid, resource, new, old): only with new == NULL, i.e. reading a limit."""
    return [_ld(_arg(2)), (JEQ_K, 1, 0, 0), _ret(RET_ERRNO | EPERM), _ld(_arg(2, high=True)), (JEQ_K, 1, 0, 0),
            _ret(RET_ERRNO | EPERM), _ret(RET_ALLOW)]


def _this_process_body(pid: int) -> list[Insn]:
    """First argument 0 (this process / its group) or our own pid; a pid_t is the low 32 bits."""
    return [_ld(_arg(0)), (JEQ_K, 2, 0, 0), (JEQ_K, 1, 0, pid), _ret(RET_ERRNO | EPERM), _ret(RET_ALLOW)]


def program(machine: str, *, pid: int, metadata: bool) -> list[Insn] | None:
    """The filter for this architecture, or None when we have no table for it."""
    spec = ARCHES.get(machine)
    if spec is None:
        return None
    audit_arch, x32, numbers = spec
    prog: list[Insn] = [_ld(ARCH), (JEQ_K, 1, 0, audit_arch), _ret(RET_KILL_PROCESS), _ld(NR)]
    if x32 is not None:
        prog += [(JGE_K, 0, 1, x32), _ret(RET_ERRNO | EPERM)]
    prog += [(JGT_K, 0, 1, NEWEST), _ret(RET_ERRNO | ENOSYS)]
    checked = {"clone": _clone_body(), "clone3": [_ret(RET_ERRNO | ENOSYS)], "socketpair": _socketpair_body(),
               "prlimit64": _read_only_body(), **{name: _this_process_body(pid) for name in THIS_PROCESS_ONLY}}
    allowed = ALLOWED | (METADATA if metadata else frozenset())
    for name, nr in sorted(numbers.items(), key=lambda item: item[1]):
        if name in checked:
            prog += _when(nr, checked[name])
        elif name in allowed:
            prog += _when(nr, [_ret(RET_ALLOW)])
    prog.append(_ret(RET_ERRNO | EPERM))
    return prog


def install(libc: ctypes.CDLL, *, pid: int, metadata: bool) -> int:
    """Install the filter on this thread (and every thread it starts); needs no_new_privs. Returns the number of calls allowed, 0 if none."""
    machine = platform.machine()
    prog = program(machine, pid=pid, metadata=metadata)
    if prog is None:
        return 0
    raw = b"".join(struct.pack("<HBBI", *insn) for insn in prog)
    filters = ctypes.create_string_buffer(raw, len(raw))

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = SockFprog(len(prog), ctypes.cast(filters, ctypes.c_void_p))
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(fprog), 0, 0) != 0:
        return 0
    passing = ALLOWED | {"clone", "socketpair", "prlimit64", *THIS_PROCESS_ONLY} | (METADATA if metadata else frozenset())
    return len(passing & ARCHES[machine][2].keys())
