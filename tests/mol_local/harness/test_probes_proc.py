"""Probes: other processes' /proc and environment (issue 15, sandbox point 1), from inside a real sandbox.

The issue read `/proc/PPID/environ` (the parent's MOL_SERVE_TOKEN and
MOL_REMOTE_API_KEY), an unrelated process's environ, and PPID's cmdline,
maps and fd list. Here the parent is this test process with both secrets
in its environment, and an unrelated `sleep` holds a third.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import mol_local.harness
from mol_local.harness.sandbox import Sandbox
from tests.mol_local.harness.probes import NATIVE, linux_only, open_box, require, value

pytestmark = linux_only
TOKEN, API_KEY, OTHER = "mol-probe-serve-7f3a91", "mol-probe-remote-c2d4e8", "mol-probe-other-5b6a0f"
CHILD_ENV = {"PATH", "HOME", "TMPDIR", "LANG", "PYTHONIOENCODING", "PYTHONDONTWRITEBYTECODE", "OMP_NUM_THREADS",
             "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"}


@pytest.fixture
def other() -> Iterator[subprocess.Popen]:
    proc = subprocess.Popen(["sleep", "60"], env={"PATH": os.defpath, "MOL_OTHER_SECRET": OTHER})
    yield proc
    proc.kill()
    proc.wait()


@pytest.fixture
def box(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Sandbox]:
    monkeypatch.setenv("MOL_SERVE_TOKEN", TOKEN)
    monkeypatch.setenv("MOL_REMOTE_API_KEY", API_KEY)
    sandbox = open_box(tmp_path)
    sandbox.start()
    sandbox.execute(NATIVE)
    yield sandbox
    sandbox.close()


def _reads(box: Sandbox, paths: list[str]) -> dict[str, str]:
    """{path: 'denied' | the first 4 KB read} for each path, from inside the sandbox."""
    code = ("out = {}\nfor p in %r:\n    try:\n        with open(p, 'rb') as fh:\n            out[p] = fh.read(4096).decode('latin-1')\n"
            "    except OSError:\n        out[p] = 'denied'\nout") % (paths,)
    result = value(box, code)
    assert isinstance(result, dict)
    return result


def test_probe_child_environment_holds_only_what_it_needs(box: Sandbox) -> None:
    env = value(box, "dict(os.environ)")
    assert isinstance(env, dict) and set(env) <= CHILD_ENV
    raw = value(box, "open('/proc/self/environ', 'rb').read().decode()")
    assert TOKEN not in str(raw) and API_KEY not in str(raw)


def test_probe_parent_environ_cmdline_maps_and_fds_are_unreachable(box: Sandbox, other: subprocess.Popen) -> None:
    pids = sorted({os.getpid(), other.pid, 1, int(str(value(box, "os.getppid()")))})
    files = [f"/proc/{pid}/{name}" for pid in pids for name in ("environ", "cmdline", "maps", "status", "mem")]
    got = _reads(box, files)
    for path, text in got.items():
        assert TOKEN not in text and API_KEY not in text and OTHER not in text, path
        if not path.endswith("/status"):
            assert text == "denied", path
    fds = value(box, "out = []\nfor p in %r:\n    try:\n        out.append(len(os.listdir(p)))\n    except OSError:\n"
                     "        out.append('denied')\nout" % [f"/proc/{pid}/fd" for pid in pids])
    assert fds == ["denied"] * len(pids)


def test_probe_no_secret_anywhere_in_the_sandboxes_proc(box: Sandbox, other: subprocess.Popen) -> None:
    """Every pid the sandbox could name, every file of it: no secret (the issue scanned them all)."""
    code = ("hits = []\nfor pid in list(range(1, 4096)) + %r:\n    for name in ('environ', 'cmdline'):\n        try:\n"
            "            data = open('/proc/%%d/%%s' %% (pid, name), 'rb').read()\n        except OSError:\n            continue\n"
            "        if any(s.encode() in data for s in %r):\n            hits.append((pid, name))\nhits") % ([os.getpid(), other.pid], [TOKEN, API_KEY, OTHER])
    assert value(box, code) == []


def test_probe_proc_listing_shows_no_host_process(box: Sandbox, other: subprocess.Popen) -> None:
    code = "try:\n    r = sorted(int(p) for p in os.listdir('/proc') if p.isdigit())\nexcept OSError:\n    r = 'denied'\nr"
    seen = value(box, code)
    assert seen == "denied" or (isinstance(seen, list) and os.getpid() not in seen and other.pid not in seen)
    if box.protections["proc"].startswith("PID namespace"):
        assert value(box, "(os.getpid(), os.getppid())") == (2, 1)  # the supervisor; mol is not in sight


def test_probe_links_of_other_processes_are_unreachable(box: Sandbox, tmp_path: Path) -> None:
    secret = tmp_path / "private" / "secret.txt"
    secret.parent.mkdir(parents=True, exist_ok=True)
    secret.write_text(TOKEN)
    links = [f"/proc/{os.getpid()}/exe", f"/proc/{os.getpid()}/cwd", f"/proc/{os.getpid()}/fd/0", "/proc/1/exe", "/proc/1/root"]
    code = "out = []\nfor p in %r:\n    try:\n        out.append(os.readlink(p))\n    except OSError:\n        out.append('denied')\nout" % links
    assert value(box, code) == ["denied"] * len(links)
    through = _reads(box, [f"/proc/self/root{secret}", f"/proc/1/root{secret}", f"/proc/{os.getpid()}/root{secret}"])
    assert set(through.values()) == {"denied"}


def test_probe_signals_and_ptrace_cannot_reach_other_processes(box: Sandbox, other: subprocess.Popen) -> None:
    require(box, "syscalls")
    code = f"[_libc.kill({os.getpid()}, 0), _libc.kill({other.pid}, {int(signal.SIGKILL)}), _libc.kill(1, {int(signal.SIGKILL)})]"
    assert value(box, code) == [-1, -1, -1]
    assert other.poll() is None  # the unrelated process lives
    assert value(box, "_libc.ptrace(16, 1, 0, 0)") == -1  # PTRACE_ATTACH to the supervisor
    assert value(box, "1 + 1") == 2


def test_landlock_alone_keeps_proc_to_this_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where no PID namespace can be made, Landlock's /proc rule is what holds: tried here in a plain process."""
    monkeypatch.setenv("MOL_SERVE_TOKEN", TOKEN)
    folder = Path(mol_local.harness.__file__).parent
    code = (f"import os, sys; sys.path.insert(0, {str(folder)!r}); import _confine\n"
            "lib = _confine.libc(); _confine.no_new_privs(lib)\n"
            f"abi, _ = _confine.landlock(lib, {str(tmp_path)!r}, _confine.read_roots())\n"
            "def read(p):\n    try:\n        return open(p, 'rb').read(64).decode('latin-1')\n    except OSError:\n        return 'denied'\n"
            "print(abi, read('/proc/%d/environ' % os.getppid())[:6], read('/proc/self/status')[:5])")
    out = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, timeout=30, check=True).stdout.split()
    if out[0] == "0":
        pytest.skip("landlock unavailable here")
    assert out[1:] == ["denied", "Name:"]
