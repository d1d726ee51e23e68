"""Probes: the host's files, from inside a real sandbox (native calls, around the audit hook).

These held in the issue's red-team pass too; they stay here so the new
layers (read-only host mount, /proc rule) are checked not to open anything.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from mol_local.harness.sandbox import Sandbox
from tests.mol_local.harness.probes import NATIVE, linux_only, open_box, require, value

pytestmark = linux_only
O_WRONLY, O_CREAT = os.O_WRONLY, os.O_CREAT


@pytest.fixture
def host(tmp_path: Path) -> Path:
    secret = tmp_path / "private" / "secret.txt"
    secret.parent.mkdir(parents=True)
    secret.write_text("host secret")
    return secret


@pytest.fixture
def box(tmp_path: Path) -> Iterator[Sandbox]:
    sandbox = open_box(tmp_path)
    require(sandbox, "files")
    sandbox.execute(NATIVE)
    yield sandbox
    sandbox.close()


def _open(path: str, flags: int) -> str:
    return f"_libc.open({path.encode()!r}, {flags}, 0o644)"


def test_probe_host_paths_cannot_be_written(box: Sandbox, tmp_path: Path) -> None:
    targets = [tmp_path / "planted.txt", Path("/tmp") / f"mol-probe-{os.getpid()}.txt", Path("/dev/shm") / f"mol-probe-{os.getpid()}"]
    code = "[" + ", ".join(_open(str(t), O_WRONLY | O_CREAT) for t in targets) + "]"
    assert value(box, code) == [-1, -1, -1]
    assert not any(t.exists() for t in targets)


def test_probe_host_secret_cannot_be_read_directly_or_by_link(box: Sandbox, host: Path) -> None:
    code = (f"out = [{_open(str(host), os.O_RDONLY)}, {_open('/etc/shadow', os.O_RDONLY)}]\n"
            f"os.symlink({str(host)!r}, 'soft')\nout.append({_open('soft', os.O_RDONLY)})\n"
            f"out.append(_libc.link({str(host).encode()!r}, b'hard'))\nout.append(os.path.exists('hard'))\nout")
    assert value(box, code) == [-1, -1, -1, -1, False]


def test_probe_workspace_files_cannot_be_moved_out(box: Sandbox, tmp_path: Path) -> None:
    outside = tmp_path / "moved.txt"
    code = (f"open('mine.txt', 'w').write('x')\n[_libc.rename(b'mine.txt', {str(outside).encode()!r}),"
            f" _libc.mkdir({str(tmp_path / 'newdir').encode()!r}, 0o755), _libc.mkfifo({str(tmp_path / 'fifo').encode()!r}, 0o644)]")
    assert value(box, code) == [-1, -1, -1]
    assert not outside.exists() and not (tmp_path / "newdir").exists() and not (tmp_path / "fifo").exists()


def test_probe_proc_and_sys_knobs_cannot_be_written(box: Sandbox) -> None:
    code = "[" + ", ".join(_open(p, O_WRONLY) for p in ("/proc/self/comm", "/proc/sys/kernel/hostname", "/sys/kernel/mm/transparent_hugepage/enabled")) + "]"
    assert value(box, code) == [-1, -1, -1]


def test_probe_what_python_needs_still_works(box: Sandbox) -> None:
    code = ("import json, sqlite3, zoneinfo, tempfile, decimal\ndb = sqlite3.connect('w.db'); db.execute('create table t (x)'); db.commit()\n"
            "with tempfile.NamedTemporaryFile(dir='.') as fh:\n    fh.write(b'x')\n(str(zoneinfo.ZoneInfo('Europe/Lisbon')), os.cpu_count() > 0)")
    assert value(box, code) == ("Europe/Lisbon", True)
