"""Kernel-level confinement for the sandbox child (stdlib only: it runs before user code).

Layers, strongest first, each reported by name so `mol doctor` can say what holds:

- network: a fresh network namespace (`unshare(CLONE_NEWNET)`; as a normal user
  inside a new user namespace) has no interfaces but a downed loopback, so no
  socket can reach anything. Landlock (ABI >= 4) also denies TCP bind/connect.
- processes: a seccomp filter refuses fork/vfork/execve/new processes (threads
  stay allowed), ptrace, process_vm_* and io_uring; RLIMIT_NPROC = 0 as well
  (the kernel ignores it for root, hence seccomp).
- files: Landlock allows writes only beneath the workspace (and /dev/null), and
  reads only there and in what Python needs (its prefixes, sys.path, system
  libraries), so the user's home and data stay out of reach.

Everything here is Linux-specific; on other systems every function reports
"unavailable" and the child falls back to its Python audit hook.
"""

from __future__ import annotations

import ctypes
import os
import platform
import struct
import sys

CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000
PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2

# Landlock (include/uapi/linux/landlock.h); syscall numbers are the same on every architecture.
SYS_LANDLOCK_CREATE_RULESET, SYS_LANDLOCK_ADD_RULE, SYS_LANDLOCK_RESTRICT_SELF = 444, 445, 446
LANDLOCK_CREATE_RULESET_VERSION = 1
LANDLOCK_RULE_PATH_BENEATH = 1
FS_WRITE_FILE, FS_READ_FILE, FS_READ_DIR, FS_REMOVE_DIR, FS_REMOVE_FILE = 1 << 1, 1 << 2, 1 << 3, 1 << 4, 1 << 5
FS_MAKE_ALL = sum(1 << bit for bit in range(6, 13))  # char, dir, reg, sock, fifo, block, sym
FS_REFER, FS_TRUNCATE = 1 << 13, 1 << 14
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1

# seccomp-bpf
BPF_LD_W_ABS, BPF_JEQ_K, BPF_JGE_K, BPF_JSET_K, BPF_RET_K = 0x20, 0x15, 0x35, 0x45, 0x06
RET_ALLOW, RET_KILL_PROCESS = 0x7FFF0000, 0x80000000
RET_ERRNO = 0x00050000
EPERM, ENOSYS = 1, 38
CLONE_THREAD = 0x00010000
AF_UNIX = 1

_ARCH = {
    # machine: (AUDIT_ARCH, syscalls refused with EPERM, clone, clone3, socket, x32 bit)
    "x86_64": (0xC000003E, {57: "fork", 58: "vfork", 59: "execve", 322: "execveat", 101: "ptrace",
                            310: "process_vm_readv", 311: "process_vm_writev", 425: "io_uring_setup"},
               56, 435, 41, 0x40000000),
    "aarch64": (0xC00000B7, {221: "execve", 281: "execveat", 117: "ptrace", 270: "process_vm_readv",
                             271: "process_vm_writev", 425: "io_uring_setup"},
                220, 435, 198, None),
}


def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    return libc


def _errno_text() -> str:
    return os.strerror(ctypes.get_errno())


def isolate_network(libc: ctypes.CDLL | None) -> str:
    """Enter an empty network namespace. Returns a description, or '' when not possible."""
    if libc is None:
        return ""
    uid, gid = os.getuid(), os.getgid()
    if os.geteuid() == 0 and libc.unshare(CLONE_NEWNET) == 0:
        return "network namespace (unshare CLONE_NEWNET)"
    if libc.unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0:
        return ""
    # Map our own ids into the new user namespace so files we create keep their owner.
    for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
        try:
            with open(f"/proc/self/{name}", "w") as fh:
                fh.write(text)
        except OSError:
            pass
    return "network namespace (unshare CLONE_NEWUSER|CLONE_NEWNET)"


def no_new_privs(libc: ctypes.CDLL | None) -> bool:
    return libc is not None and libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0


# Besides the workspace, what Python and native libraries need to read (plus every sys.path entry).
SYSTEM_READ_ROOTS = ("/usr", "/lib", "/lib64", "/lib32", "/etc/ld.so.cache", "/etc/localtime", "/etc/timezone",
                     "/etc/mime.types", "/etc/ssl", "/etc/alternatives", "/proc", "/sys/devices/system/cpu",
                     "/dev/null", "/dev/urandom", "/dev/random", "/dev/zero")


def read_roots() -> list[str]:
    """Folders the sandbox may read: the interpreter's prefixes, sys.path, system libraries."""
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, os.path.dirname(os.path.realpath(sys.executable))}
    roots |= {p for p in sys.path if p and os.path.isabs(p)}
    roots |= set(SYSTEM_READ_ROOTS)
    return sorted(r for r in roots if os.path.exists(r))


def landlock(libc: ctypes.CDLL | None, workspace: str, readable: list[str]) -> tuple[int, str]:
    """Allow reads beneath `readable` and the workspace, writes only beneath the workspace; deny TCP.

    Returns (abi, description); abi 0 means Landlock is not available here.
    """
    if libc is None:
        return 0, ""
    abi = libc.syscall(SYS_LANDLOCK_CREATE_RULESET, None, 0, LANDLOCK_CREATE_RULESET_VERSION)
    if abi < 1:
        return 0, ""
    write = FS_WRITE_FILE | FS_REMOVE_DIR | FS_REMOVE_FILE | FS_MAKE_ALL
    write |= FS_REFER if abi >= 2 else 0
    write |= FS_TRUNCATE if abi >= 3 else 0
    read = FS_READ_FILE | FS_READ_DIR
    net = NET_BIND_TCP | NET_CONNECT_TCP if abi >= 4 else 0
    scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL if abi >= 6 else 0
    attr = struct.pack("<QQQ", write | read, net, scoped)[: 8 if abi < 4 else 16 if abi < 6 else 24]
    buf = ctypes.create_string_buffer(attr, len(attr))
    ruleset = libc.syscall(SYS_LANDLOCK_CREATE_RULESET, buf, len(attr), 0)
    if ruleset < 0:
        return 0, ""
    file_ok = FS_READ_FILE | FS_WRITE_FILE | (FS_TRUNCATE if abi >= 3 else 0)  # rights a rule on a file may carry
    try:
        rules = [(workspace, write | read)] + [(path, read) for path in readable] + [("/dev/null", FS_WRITE_FILE | FS_READ_FILE)]
        for path, access in rules:
            if not os.path.exists(path):
                continue
            fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            try:
                if not os.path.isdir(path):
                    access &= file_ok
                rule = ctypes.create_string_buffer(struct.pack("<Qi", access, fd), 12)
                if libc.syscall(SYS_LANDLOCK_ADD_RULE, ruleset, LANDLOCK_RULE_PATH_BENEATH, rule, 0) != 0:
                    return 0, ""
            finally:
                os.close(fd)
        if libc.syscall(SYS_LANDLOCK_RESTRICT_SELF, ruleset, 0) != 0:
            return 0, ""
    finally:
        os.close(ruleset)
    extra = ", TCP bind/connect denied" if net else ""
    return abi, f"landlock ABI {abi}: writes only in the workspace; reads only there and in Python/system libraries{extra}"


def _seccomp_program(block_sockets: bool) -> list[tuple[int, int, int, int]] | None:
    spec = _ARCH.get(platform.machine())
    if spec is None:
        return None
    audit_arch, denied, clone, clone3, socket_nr, x32 = spec
    prog: list[tuple[int, int, int, int]] = []
    # Filled in at the end, once the positions of ALLOW/EPERM/ENOSYS are known: ("label", index).
    jumps: list[tuple[int, str | None, str | None]] = []

    def add(code: int, k: int, jt: str | None = None, jf: str | None = None) -> None:
        jumps.append((len(prog), jt, jf))
        prog.append((code, 0, 0, k))

    add(BPF_LD_W_ABS, 4)  # seccomp_data.arch
    add(BPF_JEQ_K, audit_arch, None, "kill")
    add(BPF_LD_W_ABS, 0)  # seccomp_data.nr
    if x32 is not None:
        add(BPF_JGE_K, x32, "eperm", None)
    for nr in sorted(denied):
        add(BPF_JEQ_K, nr, "eperm", None)
    add(BPF_JEQ_K, clone3, "enosys", None)  # glibc then falls back to clone(), which we can inspect
    add(BPF_JEQ_K, clone, None, "after_clone")
    add(BPF_LD_W_ABS, 16)  # args[0] low word: clone flags
    add(BPF_JSET_K, CLONE_THREAD, "allow", "eperm")
    labels = {"after_clone": len(prog)}
    if block_sockets:
        add(BPF_JEQ_K, socket_nr, None, "allow")
        add(BPF_LD_W_ABS, 16)  # args[0]: address family
        add(BPF_JEQ_K, AF_UNIX, "allow", "eperm")
    labels["allow"] = len(prog)
    prog.append((BPF_RET_K, 0, 0, RET_ALLOW))
    labels["eperm"] = len(prog)
    prog.append((BPF_RET_K, 0, 0, RET_ERRNO | EPERM))
    labels["enosys"] = len(prog)
    prog.append((BPF_RET_K, 0, 0, RET_ERRNO | ENOSYS))
    labels["kill"] = len(prog)
    prog.append((BPF_RET_K, 0, 0, RET_KILL_PROCESS))
    for index, jt, jf in jumps:
        code, _, _, k = prog[index]
        t = labels[jt] - index - 1 if jt else 0
        f = labels[jf] - index - 1 if jf else 0
        prog[index] = (code, t, f, k)
    return prog


def seccomp(libc: ctypes.CDLL | None, *, block_sockets: bool) -> str:
    """Install the filter (needs no_new_privs first). Returns a description, or ''."""
    prog = _seccomp_program(block_sockets) if libc is not None else None
    if prog is None:
        return ""
    raw = b"".join(struct.pack("<HBBI", *insn) for insn in prog)
    filters = ctypes.create_string_buffer(raw, len(raw))

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = SockFprog(len(prog), ctypes.cast(filters, ctypes.c_void_p))
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(fprog), 0, 0) != 0:
        return ""
    what = "no new processes or exec, no ptrace/io_uring"
    return f"seccomp: {what}" + (", sockets only AF_UNIX" if block_sockets else "")


def confine(workspace: str) -> dict[str, str]:
    """Apply every available layer; returns {area: what protects it} ('' = nothing at kernel level)."""
    libc = _libc()
    net = isolate_network(libc)
    nnp = no_new_privs(libc)
    abi, fs = landlock(libc, workspace, read_roots()) if nnp else (0, "")
    procs = seccomp(libc, block_sockets=not net) if nnp else ""
    if not net and procs:
        net = "seccomp socket filter (AF_UNIX only)"
    elif not net and abi >= 4:
        net = "landlock TCP deny (UDP not covered)"
    return {"network": net, "processes": procs, "files": fs}
