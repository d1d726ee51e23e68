"""Kernel-level confinement for the sandbox (stdlib only: it runs before user code).

`_tree` builds the processes; this module holds the layers. Each is reported
by name (the keys of `LAYERS`) so `mol doctor` can say which hold here:

- network: a fresh network namespace (no interface but a downed loopback;
  abstract unix socket names live per network namespace too), and seccomp
  refuses socket() altogether.
- proc: a new PID namespace with its own /proc: the child sees itself and its
  non-dumpable supervisor, never the parent (whose environment holds the
  serve token and API keys) nor any other process. Landlock also limits
  /proc to /proc/self and a few global files, which is what holds where no
  PID namespace can be made.
- mounts: a private mount namespace in which the whole host file system is
  read-only (mount_setattr, recursive) except the workspace, so chmod, chown,
  utime and xattr writes outside it fail with EROFS: Landlock does not
  cover those calls.
- files: Landlock allows writes only beneath the workspace (and /dev/null),
  reads only there and in what Python needs (its prefixes, sys.path, system
  libraries).
- privileges: every capability dropped (effective, permitted, inheritable,
  ambient and the bounding set; securebits locked) and no_new_privs set, so
  running mol as root gives the child nothing.
- syscalls: a seccomp allow list (`_syscalls`): no new processes, no admin
  calls (reboot, kexec, modules, mount, unshare, keyctl, bpf, perf, ...).
- unix_sockets: socket(), connect() and bind() are refused by seccomp, so no
  path socket on the host (tmux, docker, dbus) can be reached; socketpair()
  still works (asyncio needs it). Seccomp cannot read the address a connect()
  names and Landlock up to ABI 7 has no right for pathname sockets, so the
  rule is "no sockets" rather than "only sockets in the workspace". Landlock
  ABI >= 6 also scopes abstract sockets and signals to the sandbox.

Everything here is Linux-specific; elsewhere each layer reports '' and the
child falls back to its Python audit hook.
"""

from __future__ import annotations

import ctypes
import os
import struct
import sys

from _syscalls import install as install_seccomp  # a sibling file: the child puts this folder on sys.path

CLONE_NEWNS, CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x20000, 0x08000000, 0x10000000, 0x20000000, 0x40000000
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_BIND, MS_REC, MS_PRIVATE = 2, 4, 8, 0x1000, 0x4000, 1 << 18
SYS_MOUNT_SETATTR, AT_FDCWD, AT_RECURSIVE, MOUNT_ATTR_RDONLY = 442, -100, 0x8000, 1
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_CAPBSET_DROP, PR_SET_SECUREBITS, PR_SET_NO_NEW_PRIVS, PR_CAP_AMBIENT = 1, 4, 24, 28, 38, 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
SECUREBITS_LOCKED_NOROOT = 0xEF  # NOROOT, NO_SETUID_FIXUP, KEEP_CAPS and NO_CAP_AMBIENT_RAISE, each with its lock bit
CAPABILITY_VERSION_3 = 0x20080522

# Landlock (include/uapi/linux/landlock.h); syscall numbers are the same on every architecture.
SYS_LANDLOCK_CREATE_RULESET, SYS_LANDLOCK_ADD_RULE, SYS_LANDLOCK_RESTRICT_SELF = 444, 445, 446
LANDLOCK_CREATE_RULESET_VERSION = 1
LANDLOCK_RULE_PATH_BENEATH = 1
FS_WRITE_FILE, FS_READ_FILE, FS_READ_DIR, FS_REMOVE_DIR, FS_REMOVE_FILE = 1 << 1, 1 << 2, 1 << 3, 1 << 4, 1 << 5
FS_MAKE_ALL = sum(1 << bit for bit in range(6, 13))  # char, dir, reg, sock, fifo, block, sym
FS_REFER, FS_TRUNCATE = 1 << 13, 1 << 14
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1

# Besides the workspace, what Python and native libraries need to read (plus every sys.path entry).
SYSTEM_READ_ROOTS = ("/usr", "/lib", "/lib64", "/lib32", "/etc/ld.so.cache", "/etc/localtime", "/etc/timezone",
                     "/etc/mime.types", "/etc/ssl", "/etc/alternatives", "/sys/devices/system/cpu",
                     "/dev/null", "/dev/urandom", "/dev/random", "/dev/zero")
# Of /proc, only this process and a few machine-wide files (never /proc/<other pid>).
PROC_READ_ROOTS = ("/proc/self", "/proc/cpuinfo", "/proc/meminfo", "/proc/stat", "/proc/loadavg", "/proc/uptime", "/proc/version")

# Every layer the child reports, in the order `mol doctor` prints them.
LAYERS = ("network", "proc", "mounts", "files", "privileges", "syscalls", "processes", "unix_sockets")


def libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    lib = ctypes.CDLL(None, use_errno=True)
    lib.syscall.restype = ctypes.c_long
    lib.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    lib.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
    return lib


def enter_namespaces(lib: ctypes.CDLL | None) -> set[str]:
    """unshare() into new namespaces, the most we can get first. Returns their names ({'net', 'mnt', 'ipc', 'pid'})."""
    if lib is None:
        return set()
    uid, gid = os.getuid(), os.getgid()
    own = 0 if os.geteuid() == 0 else CLONE_NEWUSER  # a normal user needs a user namespace to make the others
    tries = [({"net", "mnt", "ipc", "pid"}, CLONE_NEWNET | CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWPID),
             ({"net", "mnt", "ipc"}, CLONE_NEWNET | CLONE_NEWNS | CLONE_NEWIPC), ({"net"}, CLONE_NEWNET)]
    for names, flags in tries:
        if lib.unshare(flags | own) == 0:
            break
    else:
        return set()
    if own:  # map our own ids into the new user namespace so files we create keep their owner
        for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
            try:
                with open(f"/proc/self/{name}", "w") as fh:
                    fh.write(text)
            except OSError:
                pass
    return names


def setup_mounts(lib: ctypes.CDLL, workspace: str, namespaces: set[str]) -> tuple[bool, bool]:
    """In the new mount namespace: a /proc of our PID namespace, the host read-only but the workspace.

    Returns (own /proc mounted, host read-only). Runs in the supervisor, which is
    inside the new PID namespace (a /proc shows the namespace of who mounts it).
    """
    if "mnt" not in namespaces or lib.mount(None, b"/", None, MS_REC | MS_PRIVATE, None) != 0:
        return False, False  # without a private mount tree, nothing here may touch the host's mounts
    own_proc = "pid" in namespaces and lib.mount(b"proc", b"/proc", b"proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None) == 0
    ws = os.fsencode(workspace)
    if lib.mount(ws, ws, None, MS_BIND | MS_REC, None) != 0:
        return own_proc, False
    if not _mount_setattr(lib, b"/", AT_RECURSIVE, set_=MOUNT_ATTR_RDONLY):
        return own_proc, False
    if not _mount_setattr(lib, ws, 0, clear=MOUNT_ATTR_RDONLY):
        _mount_setattr(lib, b"/", AT_RECURSIVE, clear=MOUNT_ATTR_RDONLY)  # never leave the workspace read-only
        return own_proc, False
    return own_proc, True


def _mount_setattr(lib: ctypes.CDLL, path: bytes, flags: int, *, set_: int = 0, clear: int = 0) -> bool:
    attr = ctypes.create_string_buffer(struct.pack("<QQQQ", set_, clear, 0, 0), 32)
    return lib.syscall(SYS_MOUNT_SETATTR, AT_FDCWD, path, flags, attr, 32) == 0


def die_with_parent(lib: ctypes.CDLL | None) -> None:
    if lib is not None:
        lib.prctl(PR_SET_PDEATHSIG, 9, 0, 0, 0)


def not_dumpable(lib: ctypes.CDLL | None) -> None:
    """Nobody of our uid may ptrace us or read our /proc files (environ, mem, maps)."""
    if lib is not None:
        lib.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)


def no_new_privs(lib: ctypes.CDLL | None) -> bool:
    return lib is not None and lib.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0


def drop_privileges(lib: ctypes.CDLL | None) -> str:
    """Drop every capability for good. Returns a description, or '' if some remain."""
    if lib is None:
        return ""
    lib.prctl(PR_SET_SECUREBITS, SECUREBITS_LOCKED_NOROOT, 0, 0, 0)  # needs CAP_SETPCAP: before the drop
    try:
        with open("/proc/sys/kernel/cap_last_cap") as fh:
            last = int(fh.read())
    except (OSError, ValueError):
        last = 63
    for cap in range(last + 1):
        lib.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)
    lib.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    header = ctypes.create_string_buffer(struct.pack("<Ii", CAPABILITY_VERSION_3, 0), 8)
    data = ctypes.create_string_buffer(bytes(24), 24)  # two all-zero {effective, permitted, inheritable}
    lib.capset(header, data)
    caps = _capabilities()
    if any(caps.get(k, 1) for k in ("CapEff", "CapPrm", "CapInh", "CapBnd", "CapAmb")):
        return ""
    return "every capability dropped (effective, permitted, bounding, ambient: 0), no_new_privs"


def _capabilities() -> dict[str, int]:
    out: dict[str, int] = {}
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("Cap"):
                    key, _, value = line.partition(":")
                    out[key] = int(value.strip(), 16)
    except (OSError, ValueError):
        pass
    return out


def read_roots() -> list[str]:
    """Paths the sandbox may read: the interpreter's prefixes, sys.path, system libraries, /proc/self."""
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, os.path.dirname(os.path.realpath(sys.executable))}
    roots |= {p for p in sys.path if p and os.path.isabs(p)}
    roots |= set(SYSTEM_READ_ROOTS) | set(PROC_READ_ROOTS)
    return sorted(r for r in roots if os.path.exists(r))


def landlock(lib: ctypes.CDLL | None, workspace: str, readable: list[str]) -> tuple[int, str]:
    """Allow reads beneath `readable` and the workspace, writes only beneath the workspace; deny TCP.

    Returns (abi, description); abi 0 means Landlock is not available here.
    """
    if lib is None:
        return 0, ""
    abi = lib.syscall(SYS_LANDLOCK_CREATE_RULESET, None, 0, LANDLOCK_CREATE_RULESET_VERSION)
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
    ruleset = lib.syscall(SYS_LANDLOCK_CREATE_RULESET, buf, len(attr), 0)
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
                if lib.syscall(SYS_LANDLOCK_ADD_RULE, ruleset, LANDLOCK_RULE_PATH_BENEATH, rule, 0) != 0:
                    return 0, ""
            finally:
                os.close(fd)
        if lib.syscall(SYS_LANDLOCK_RESTRICT_SELF, ruleset, 0) != 0:
            return 0, ""
    finally:
        os.close(ruleset)
    extra = ", TCP bind/connect denied" if net else ""
    extra += ", abstract unix sockets and signals scoped to the sandbox" if scoped else ""
    return abi, f"landlock ABI {abi}: writes only in the workspace; reads only there, in Python/system libraries and /proc/self{extra}"


def confine(workspace: str, tree: dict) -> dict[str, str]:
    """Apply the worker's own layers; `tree` says what `_tree` built. Returns {layer: what holds it} ('' = nothing)."""
    lib = libc()
    namespaces = set(tree.get("namespaces", ()))
    nnp = no_new_privs(lib)
    privileges = drop_privileges(lib) if nnp else ""
    abi, files = landlock(lib, workspace, read_roots()) if nnp else (0, "")
    allowed = install_seccomp(lib, pid=os.getpid(), metadata=bool(tree.get("read_only_host"))) if nnp and lib else 0
    out = dict.fromkeys(LAYERS, "")
    out["files"], out["privileges"] = files, privileges
    if allowed:
        out["syscalls"] = f"seccomp allow list ({allowed} calls); reboot, kexec, modules, mount, unshare, keyctl, bpf, perf and other admin calls refused"
        out["processes"] = "seccomp: no fork, exec or ptrace (threads only)"
        out["unix_sockets"] = "seccomp: socket(), connect() and bind() refused, so no host unix socket is reachable; socketpair() works"
    if "net" in namespaces:
        out["network"] = "network namespace" + (" + seccomp: no socket() at all" if allowed else "")
    elif allowed:
        out["network"] = "seccomp: no socket() at all"
    elif abi >= 4:
        out["network"] = "landlock TCP deny (UDP not covered)"
    if tree.get("own_proc"):
        out["proc"] = "PID namespace with its own /proc: other processes are invisible"
    elif files:
        out["proc"] = "landlock: /proc limited to this process"
    if tree.get("read_only_host"):
        out["mounts"] = "mount namespace: the host file system is read-only, the workspace alone writable"
    return out
