"""Fixtures for `mol serve` and RemoteEngine: a real HTTP server on 127.0.0.1, small HCP budgets.

The OS keyring is replaced by an in-memory keyring.backend.KeyringBackend (no
OS keyring runs here); everything else is real: llama.cpp on the embedded
model, SQLite files, HTTP over loopback.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import keyring
import pytest
from keyring.backend import KeyringBackend

TOKEN = "test-serve-token-8b1f0c2e5d"
SLOTS = "".join(f'\n[slots.{s}]\nname = "{s}"\nremote_model = "{s}"\n' for s in ("L0", "L1", "L2", "L3"))


class MemoryKeyring(KeyringBackend):
    """A file-less keyring: secrets live in this dict for one test."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.store: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.store.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.store[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        from keyring.errors import PasswordDeleteError

        if self.store.pop((service, username), None) is None:
            raise PasswordDeleteError(username)


@pytest.fixture(autouse=True)
def memory_keyring(monkeypatch: pytest.MonkeyPatch) -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    ring = MemoryKeyring()
    keyring.set_keyring(ring)
    monkeypatch.delenv("MOL_SERVE_TOKEN", raising=False)
    monkeypatch.delenv("MOL_REMOTE_API_KEY", raising=False)
    yield ring
    keyring.set_keyring(previous)


PACK = {
    "intro": "You are a helpful assistant.",
    "route": "Answer with one label: L0 chat, L1 planning, L2 code, L3 interface.",
    "summary": "Say in one line what you did.",
    **{s: f"You are slot {s}." for s in ("L0", "L1", "L2", "L3")},
}


def local_hcp_text(answer_tokens: int = 12, routing: str = "fixed") -> str:
    """A local profile with tiny budgets and a tiny persona pack (./pack): the machine is shared and slow."""
    return f"""schema = 1
name = "serve-test"
persona_pack = "./pack"
[runtime]
n_ctx = 2048
kv_cells = 4096
[routing]
mode = "{routing}"
max_tokens = 4
[answer]
max_tokens = {answer_tokens}
[summary]
max_tokens = 8
[memory]
auto_extract = false
[tools]
enabled = []
{SLOTS}"""


def remote_hcp_text(port: int, *, mode: str = "engine", fallback: str = "local-default", answer_tokens: int = 12, routing: str = "grammar") -> str:
    model = "mol" if mode == "mol" else "L0"
    return f"""schema = 1
name = "remote-test"
persona_pack = "./pack"
[runtime]
backend = "remote"
n_ctx = 2048
kv_cells = 4096
[remote]
base_url = "http://127.0.0.1:{port}/v1"
model = "{model}"
mode = "{mode}"
fallback = "{fallback}"
[routing]
mode = "{routing}"
max_tokens = 4
[answer]
max_tokens = {answer_tokens}
[summary]
max_tokens = 8
[memory]
auto_extract = false
[tools]
enabled = []
{SLOTS}"""


def write_hcp(path: Path, text: str):
    from hcp import load_hcp

    path.parent.mkdir(parents=True, exist_ok=True)
    (path.parent / "pack").mkdir(exist_ok=True)
    for name, body in PACK.items():
        (path.parent / "pack" / f"{name}.md").write_text(body + "\n", encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    return load_hcp(path)


@dataclass
class Live:
    server: object
    runtime: object
    port: int
    home: Path

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"


def start_live(engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, max_body: int = 1 << 20, answer_tokens: int = 12,
               **server_options) -> Live:
    """`mol serve`'s server on a background thread, with its own MOL_HOME (its own SQLite) and the shared engine;
    `server_options` go to make_server (limits, allow_hosts)."""
    from mol_local.runtime import Runtime
    from mol_local.server import make_server, serve_in_thread

    home = tmp_path / "server-home"
    client_home = os.environ["MOL_HOME"]
    monkeypatch.setenv("MOL_HOME", str(home))
    runtime = Runtime(write_hcp(tmp_path / "server-hcp" / "hcp.toml", local_hcp_text(answer_tokens)), engine=engine)
    monkeypatch.setenv("MOL_HOME", client_home)
    server = make_server(runtime, TOKEN, port=0, max_body=max_body, **server_options)
    serve_in_thread(server)
    return Live(server, runtime, server.port, home)


@pytest.fixture
def live(engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Live]:
    lv = start_live(engine, tmp_path, monkeypatch)
    yield lv
    lv.server.drain(grace_s=5)
    lv.runtime.db.close()


@pytest.fixture
def client_runtime(engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Build a remote-backed Runtime for this test's MOL_HOME; its fallback runs on the shared engine."""
    made = []

    def build(port: int, **kwargs):
        from mol_local.runtime import Runtime

        monkeypatch.setenv("MOL_REMOTE_API_KEY", kwargs.pop("key", TOKEN))
        hcp = write_hcp(tmp_path / "client-hcp" / "hcp.toml", remote_hcp_text(port, **kwargs))
        rt = Runtime(hcp, fallback_engine=engine)
        if hcp.remote.fallback:  # the shipped fallback's budgets are large; the same local runtime with small ones
            rt.fallback = Runtime(write_hcp(tmp_path / "fallback-hcp" / "hcp.toml", local_hcp_text()), engine=engine)
        made.append(rt)
        return rt

    yield build
    for rt in made:
        if rt.__dict__.get("fallback") is not None:
            rt.fallback.db.close()
        rt._engine is not None and rt._engine.close()
        rt.db.close()


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Proc:
    proc: subprocess.Popen
    port: int

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)


def spawn_serve(tmp_path: Path, *, answer_tokens: int = 64, args: tuple[str, ...] = ()) -> Proc:
    """A real `mol serve` subprocess on the embedded model; waits for its `listening` line."""
    home = tmp_path / "proc-home"
    hcp = tmp_path / "proc-hcp" / "hcp.toml"
    write_hcp(hcp, local_hcp_text(answer_tokens))
    env = {**os.environ, "MOL_HOME": str(home), "MOL_SERVE_TOKEN": TOKEN, "MOL_HCP": str(hcp), "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "mol_local.cli", "serve", "--port", "0", "--drain-seconds", "600", *args],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    line = proc.stdout.readline() if proc.stdout else ""
    if not line.startswith("listening"):
        proc.kill()
        raise RuntimeError(f"mol serve did not start: {line!r}")
    return Proc(proc, int(line.split()[2]))


class _Scripted(BaseHTTPRequestHandler):
    """A misbehaving remote for the bad-remote tests: answers every POST with the server's next script entry."""

    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:
        pass

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        status, ctype, body = self.server.script[min(self.server.hits, len(self.server.script) - 1)]  # type: ignore[attr-defined]
        self.server.hits += 1  # type: ignore[attr-defined]
        data = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture
def scripted():
    """Start a scripted remote: scripted([(status, content_type, body), ...]) -> base_url; the last entry repeats."""
    servers = []

    def start(script: list[tuple[int, str, str]]):
        srv = ThreadingHTTPServer(("127.0.0.1", 0), _Scripted)
        srv.script, srv.hits = script, 0  # type: ignore[attr-defined]
        threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        servers.append(srv)
        return srv, f"http://127.0.0.1:{srv.server_address[1]}/v1"

    yield start
    for srv in servers:
        srv.shutdown()
        srv.server_close()
