"""Probes: unix sockets on the host (issue 15, sandbox point 2), from inside a real sandbox.

The issue reached a listener at a host path and a real tmux server
(`tmux -S /tmp/x.sock`): command execution outside the sandbox. Here both
are real; a probe holds when the attempt fails and the server saw nothing.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from mol_local.harness.sandbox import Sandbox
from tests.mol_local.harness.probes import EPERM, NATIVE, linux_only, nr, open_box, require, value

pytestmark = linux_only
# A sockaddr_un for the raw calls: family, then the path.
SOCKADDR = "def addr(p):\n    return struct.pack('<H108s', 1, p)\n"


class Listener:
    """A real unix-socket server on a host path; counts what reaches it."""

    def __init__(self, path: str, kind: int = socket.SOCK_STREAM) -> None:
        self.path, self.accepted, self.received = path, 0, b""
        self.sock = socket.socket(socket.AF_UNIX, kind)
        self.sock.bind(path)
        if kind == socket.SOCK_STREAM:
            self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, args=(kind,), daemon=True)
        self.thread.start()

    def _serve(self, kind: int) -> None:
        while not self.stop.is_set():
            try:
                if kind == socket.SOCK_STREAM:
                    conn, _ = self.sock.accept()
                    self.accepted += 1
                    conn.close()
                else:
                    self.received += self.sock.recv(4096)
            except (TimeoutError, OSError):
                continue

    def settled(self) -> int:
        """Connections accepted so far, after giving one in flight time to land."""
        time.sleep(0.3)
        return self.accepted

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        self.sock.close()


@pytest.fixture
def box(tmp_path: Path) -> Iterator[Sandbox]:
    sandbox = open_box(tmp_path)
    sandbox.start()
    sandbox.execute(NATIVE + SOCKADDR)
    yield sandbox
    sandbox.close()


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[Listener]:
    server = Listener(str(tmp_path / "host.sock"))
    assert _reachable(server.path)  # the probe's own control: from outside the sandbox it answers
    deadline = time.monotonic() + 5
    while server.accepted < 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert server.accepted == 1
    yield server
    server.close()


def _reachable(path: str) -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        try:
            client.connect(path)
            return True
        except OSError:
            return False


def test_probe_host_listener_refused_at_python_level(box: Sandbox, listener: Listener) -> None:
    before = listener.accepted
    result = box.execute(f"import socket\ns = socket.socket(socket.AF_UNIX)\ns.connect({listener.path!r})")
    assert result.status == "error" and "opening a unix socket is not allowed" in (result.error or "")
    assert "tmux, docker, dbus" in (result.error or "") and "socketpair" in (result.error or "")
    assert listener.settled() == before


def test_probe_host_listener_refused_by_the_kernel(box: Sandbox, listener: Listener) -> None:
    require(box, "unix_sockets")
    before = listener.accepted
    code = f"fd = sc({_nr('socket')}, 1, 1, 0)\nc = sc({_nr('connect')}, fd[0], addr({listener.path.encode()!r}), 110)\n(fd, c)"
    assert value(box, code) == ((-1, EPERM), (-1, EPERM))
    assert listener.settled() == before


def test_probe_host_listener_through_a_workspace_symlink(box: Sandbox, listener: Listener) -> None:
    require(box, "unix_sockets")
    before = listener.accepted
    code = (f"os.symlink({listener.path!r}, 'door.sock')\nimport socket\ntry:\n    s = socket.socket(socket.AF_UNIX)\n"
            f"    s.connect('door.sock')\n    r = 'connected'\nexcept OSError as e:\n    r = type(e).__name__\nr")
    assert value(box, code) in ("SandboxDenied", "PermissionError")
    assert listener.settled() == before


def test_probe_real_tmux_server_is_unreachable(box: Sandbox) -> None:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    require(box, "unix_sockets")
    path = f"/tmp/mol-probe-{uuid.uuid4().hex[:8]}.sock"
    tmux = ["tmux", "-S", path]
    subprocess.run([*tmux, "new-session", "-d", "-s", "probe", "sleep 120"], check=True, timeout=20)
    try:
        assert _reachable(path)
        code = (f"fd = sc({_nr('socket')}, 1, 1, 0)\nc = sc({_nr('connect')}, 3, addr({path.encode()!r}), 110)\n"
                f"import socket\ntry:\n    socket.socket(socket.AF_UNIX).connect({path!r})\n    py = 'connected'\n"
                "except OSError as e:\n    py = type(e).__name__\n(fd, c, py)")
        assert value(box, code) == ((-1, EPERM), (-1, EPERM), "SandboxDenied")
        sessions = subprocess.run([*tmux, "list-sessions", "-F", "#S"], capture_output=True, text=True, timeout=20)
        assert sessions.stdout.split() == ["probe"]  # the server is alive and nothing new got in
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True, timeout=20)
        if os.path.exists(path):
            os.unlink(path)


def test_probe_bind_on_host_and_workspace_paths(box: Sandbox, tmp_path: Path) -> None:
    target = tmp_path / "planted.sock"
    result = box.execute(f"import socket\nsocket.socket(socket.AF_UNIX).bind({str(target)!r})")
    assert result.status == "error" and "unix socket" in (result.error or "")
    if box.protections["unix_sockets"]:
        code = (f"fd = sc({_nr('socket')}, 1, 1, 0)\nb = sc({_nr('bind')}, 3, addr({str(target).encode()!r}), 110)\n"
                f"w = sc({_nr('bind')}, 3, addr(b'inside.sock'), 110)\n(fd, b, w)")
        assert value(box, code) == ((-1, EPERM), (-1, EPERM), (-1, EPERM))  # no sockets, not even in the workspace
    assert not target.exists()


def test_probe_abstract_socket_on_the_host(box: Sandbox) -> None:
    name = b"\0mol-probe-" + uuid.uuid4().hex[:8].encode()
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(name)
    server.listen(1)
    server.settimeout(0.3)
    try:
        result = box.execute(f"import socket\nsocket.socket(socket.AF_UNIX).connect({name!r})")
        assert result.status == "error"
        with pytest.raises(TimeoutError):
            server.accept()
    finally:
        server.close()


def test_probe_socketpair_cannot_be_turned_outward(box: Sandbox, tmp_path: Path) -> None:
    """socketpair() is allowed (asyncio needs it); a datagram pair could sendto() any path, so only stream pairs are."""
    require(box, "unix_sockets")
    dgram = Listener(str(tmp_path / "dgram.sock"), socket.SOCK_DGRAM)
    try:
        code = (f"pair = (ctypes.c_int * 2)()\nd = _libc.socketpair(1, 2, 0, pair)\ns = _libc.socketpair(1, 1, 0, pair)\n"
                f"a = addr({dgram.path.encode()!r})\nsent = _libc.sendto(pair[0], b'x', 1, 0, a, 110)\n(d, s, sent)")
        assert value(box, code) == (-1, 0, -1)
        py = box.execute(f"import socket\na, b = socket.socketpair()\na.sendto(b'x', {dgram.path!r})")
        assert py.status == "error" and "unix socket path" in (py.error or "")
        assert value(box, "a.send(b'ping'); b.recv(4)") == b"ping"  # the pair itself works
        assert dgram.settled() == 0 and dgram.received == b""
    finally:
        dgram.close()


@pytest.mark.parametrize(("family", "kind"), [(2, 1), (2, 2), (10, 1), (16, 3), (17, 3)], ids=["inet-tcp", "inet-udp", "inet6", "netlink", "packet"])
def test_probe_no_other_socket_family(box: Sandbox, family: int, kind: int) -> None:
    require(box, "unix_sockets")
    assert value(box, f"sc({_nr('socket')}, {family}, {kind}, 0)") == (-1, EPERM)


def _nr(name: str) -> int:
    number = nr(name)
    assert number is not None
    return number
