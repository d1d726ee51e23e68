"""The sandbox itself: persistence, confinement layers, and every hostile input from issue 5.

Each bad-input test checks three things: the limit holds (nothing escaped),
the session survives (a variable set before is still there, or the model is
told it is gone), and the text the model reads names the problem.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mol_local.harness.sandbox import Sandbox
from tests.mol_local.harness.conftest import FAST, call

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="kernel confinement is Linux-only")


def _remember(harness) -> None:
    text, status = call(harness, "python", {"code": "keep = 'still here'"})
    assert status == "ok", text


def _survived(harness) -> None:
    text, status = call(harness, "python", {"code": "keep"})
    assert (status, text) == ("ok", "result: 'still here'")


def test_namespace_persists_and_final_expression_is_shown(sandbox: Sandbox, workspace: Path) -> None:
    assert sandbox.execute("x = 20\nprint('side', end='')").status == "ok"
    result = sandbox.execute("x + 22")
    assert (result.status, result.value, result.output) == ("ok", "42", "")
    cwd = sandbox.execute("import os; os.getcwd()")
    assert cwd.value == repr(str(workspace.resolve()))


@linux_only
def test_kernel_layers_are_reported(sandbox: Sandbox) -> None:
    sandbox.start()
    layers = {"network", "proc", "mounts", "files", "privileges", "syscalls", "processes", "unix_sockets", "disk", "threads", "python"}
    assert set(sandbox.protections) == layers
    assert sandbox.protections["python"].startswith("audit hook")
    assert sandbox.protections["network"], "no network protection at all on a Linux host"


def test_infinite_loop_hits_cpu_limit_and_keeps_state(harness) -> None:
    _remember(harness)
    text, status = call(harness, "python", {"code": "while True:\n    pass"})
    assert status == "error"
    assert "CPU time limit exceeded" in text and "variables are kept" in text
    _survived(harness)


def test_loop_swallowing_exceptions_is_stopped_by_the_wall_clock(harness) -> None:
    _remember(harness)
    code = "import time\nwhile True:\n    try:\n        time.sleep(0.05)\n    except BaseException:\n        pass"
    text, status = call(harness, "python", {"code": code})
    assert status == "timeout"
    assert f"{FAST.timeout_s:g} s time limit" in text and "all variables were lost" in text
    again, status = call(harness, "python", {"code": "keep"})
    assert status == "error" and "fresh Python process" in again and "NameError" in again
    assert call(harness, "python", {"code": "1 + 1"}) == ("result: 2", "ok")


def test_ten_gigabyte_allocation_fails_cleanly(harness) -> None:
    _remember(harness)
    text, status = call(harness, "python", {"code": "blob = bytearray(10 * 1024**3)"})
    assert status == "error"
    assert "MemoryError" in text and f"{FAST.memory_mb} MB" in text
    _survived(harness)


def test_fork_is_refused(harness, workspace: Path) -> None:
    _remember(harness)
    text, status = call(harness, "python", {"code": "import os\nos.fork()"})
    assert status == "error" and "starting a process is not allowed" in text
    text, status = call(harness, "python", {"code": "import subprocess\nsubprocess.run(['true'])"})
    assert status == "error" and "starting a process is not allowed" in text
    _survived(harness)


@linux_only
def test_fork_is_refused_by_the_kernel_too(sandbox: Sandbox) -> None:
    sandbox.start()
    if not sandbox.protections["processes"].startswith("seccomp"):
        pytest.skip("seccomp unavailable here")
    result = sandbox.execute("import ctypes\nctypes.CDLL(None).fork()")  # goes around the audit hook
    assert (result.status, result.value) == ("ok", "-1")
    threads = sandbox.execute("import threading\nt = threading.Thread(target=lambda: None)\nt.start(); t.join()\n'ok'")
    assert threads.value == "'ok'"  # threads are not processes: they stay allowed


def test_write_outside_workspace_is_refused(harness, tmp_path: Path) -> None:
    _remember(harness)
    target = tmp_path / "escaped.txt"
    text, status = call(harness, "python", {"code": f"open({str(target)!r}, 'w').write('x')"})
    assert status == "error" and "writing outside the workspace" in text
    assert not target.exists()
    ok, status = call(harness, "python", {"code": "open('inside.txt', 'w').write('fine')"})
    assert (ok, status) == ("result: 4", "ok")
    _survived(harness)


@linux_only
def test_write_outside_workspace_is_refused_by_the_kernel_too(sandbox: Sandbox, tmp_path: Path) -> None:
    sandbox.start()
    if not sandbox.protections["files"].startswith("landlock"):
        pytest.skip("landlock unavailable here")
    target = tmp_path / "escaped-native.txt"
    code = f"import ctypes, os\nctypes.CDLL(None).open({str(target).encode()!r}, os.O_WRONLY | os.O_CREAT, 0o644)"
    assert sandbox.execute(code).value == "-1"
    assert not target.exists()


@linux_only
def test_reads_outside_workspace_and_libraries_are_refused_by_the_kernel(sandbox: Sandbox, tmp_path: Path) -> None:
    sandbox.start()
    if not sandbox.protections["files"].startswith("landlock"):
        pytest.skip("landlock unavailable here")
    secret = tmp_path / "elsewhere" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text("private")
    result = sandbox.execute(f"open({str(secret)!r}).read()")
    assert result.status == "error" and "PermissionError" in (result.error or "")
    libs = sandbox.execute("import json, decimal, zoneinfo\nstr(zoneinfo.ZoneInfo('Europe/Lisbon'))")
    assert libs.value == "'Europe/Lisbon'"  # what Python itself needs stays readable


def test_reading_the_users_data_outside_the_workspace_is_refused(harness, mol_home: Path) -> None:
    text, status = call(harness, "python", {"code": "open('../../mol.db', 'rb').read(16)"})
    assert status == "error" and "only the workspace is readable" in text


def test_socket_is_refused(harness) -> None:
    _remember(harness)
    text, status = call(harness, "python", {"code": "import socket\nsocket.socket(socket.AF_INET, socket.SOCK_STREAM)"})
    assert status == "error" and "opening a network socket is not allowed" in text
    text, status = call(harness, "python", {"code": "import socket\nsocket.create_connection(('example.org', 80), timeout=1)"})
    assert status == "error" and "network access is not allowed" in text  # refused at name resolution already
    _survived(harness)


@linux_only
def test_socket_has_no_route_at_kernel_level(sandbox: Sandbox) -> None:
    sandbox.start()
    if not sandbox.protections["network"]:
        pytest.skip("no kernel network isolation here")
    code = (
        "import ctypes, struct\nlibc = ctypes.CDLL(None, use_errno=True)\nfd = libc.socket(2, 1, 0)\n"
        "addr = struct.pack('<HH4s8x', 2, 0x5000, bytes([1, 1, 1, 1]))\n"
        "(fd, -1 if fd < 0 else libc.connect(fd, addr, len(addr)))"
    )
    result = sandbox.execute(code)
    assert result.status == "ok"
    fd, connected = eval(result.value)  # a tuple of two ints from our own code
    assert fd < 0 or connected == -1


def test_hundred_megabyte_print_is_cut(harness) -> None:
    _remember(harness)
    text, status = call(harness, "python", {"code": "print('x' * 100_000_000)"})
    assert status == "ok", text
    assert f"output cut at {FAST.output_kb} KB" in text and "100000001 bytes" in text
    assert len(text.encode()) < FAST.output_kb * 1024 + 1024
    _survived(harness)


def test_invalid_utf8_output_is_replaced_and_flagged(harness) -> None:
    _remember(harness)
    text, status = call(harness, "python", {"code": "import sys\nsys.stdout.buffer.write(b'ok \\xff\\xfe done')\nNone"})
    assert status == "ok"
    assert "ok \ufffd\ufffd done" in text and "not valid UTF-8" in text
    lone, status = call(harness, "python", {"code": "print('\\udcff')"})
    assert status == "ok" and lone.encode("utf-8")  # a lone surrogate never reaches the model or SQLite
    _survived(harness)


def test_writes_to_raw_fds_cannot_corrupt_the_protocol(sandbox: Sandbox) -> None:
    result = sandbox.execute("import os\nos.write(1, b'{\"id\": 999}\\n')\nos.write(2, b'err\\n')\n'after'")
    assert result.status == "ok" and result.value == "'after'"
    assert '{"id": 999}' in result.output and "err" in result.output


def test_a_crash_restarts_and_reports_state_loss(sandbox: Sandbox) -> None:
    sandbox.execute("keep = 1")
    first_pid = sandbox.pid
    dead = sandbox.execute("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)")
    assert dead.status == "crashed" and "SIGKILL" in (dead.error or "") and dead.state_lost
    after = sandbox.execute("'keep' in globals()")
    assert after.value == "False" and "fresh Python process" in (after.state_lost or "")
    assert sandbox.pid != first_pid and sandbox.restarts == 1


def test_exit_does_not_end_the_session(sandbox: Sandbox) -> None:
    sandbox.execute("keep = 1")
    gone = sandbox.execute("exit(3)")
    assert gone.status == "error" and "SystemExit(3) ignored" in (gone.error or "")
    assert sandbox.execute("keep").value == "1"


def test_syntax_error_is_reported_with_the_line(sandbox: Sandbox) -> None:
    result = sandbox.execute("def f(:\n    pass")
    assert result.status == "error" and "SyntaxError" in (result.error or "") and "_child.py" not in (result.error or "")


def test_traceback_hides_the_child_internals(sandbox: Sandbox) -> None:
    result = sandbox.execute("def f():\n    return 1 / 0\nf()")
    assert "ZeroDivisionError" in (result.error or "")
    assert "_child" not in (result.error or "") and "_guard" not in (result.error or "")


def test_closing_kills_the_process(sandbox: Sandbox) -> None:
    import os

    sandbox.start()
    pid = sandbox.pid
    sandbox.close()
    assert not sandbox.alive
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # type: ignore[arg-type]


def test_spoofed_replies_on_the_private_channel_restart_the_session(sandbox: Sandbox) -> None:
    sandbox.execute("keep = 1")
    code = "import os\nfor fd in range(3, 10):\n    try:\n        os.write(fd, b'{\"id\": 0, \"status\": \"ok\", \"output\": \"fake\"}\\n')\n    except OSError:\n        pass"
    result = sandbox.execute(code)
    assert result.output != "fake"
    assert result.status == "crashed" and "private reply channel" in (result.error or "")
    after = sandbox.execute("1 + 1")
    assert after.value == "2" and after.state_lost
