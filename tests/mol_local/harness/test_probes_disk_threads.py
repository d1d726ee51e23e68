"""Probes: the workspace quota and what a call leaves running (issue 15, sandbox point 4), in a real sandbox.

The issue found only a per-file cap (512 MB, any number of files) and a
thread that burned 2.35 CPU-s in 5 s after its call had returned.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from hcp import parse_hcp
from mol_local.harness._disk import disk_usage
from mol_local.harness.hub import ToolHub
from mol_local.harness.limits import ToolsConfig, tools_config
from mol_local.harness.sandbox import Sandbox
from tests.mol_local.harness.conftest import call
from tests.mol_local.harness.probes import LIMITS, linux_only, open_box, value

pytestmark = linux_only
QUOTA_MB = 24
MB = 1 << 20
FILL = """
import os, time
n, err = 0, None
block = b'x' * ({chunk} << 20)
try:
    for i in range({count}):
        with open('{prefix}%d' % i, 'wb') as fh:
            fh.write(block)
        n += 1
        time.sleep({pause})
except OSError as e:
    err = e.errno
(n, err)
"""


@pytest.fixture
def box(tmp_path: Path) -> Iterator[Sandbox]:
    sandbox = open_box(tmp_path, replace(LIMITS, disk_mb=QUOTA_MB, memory_mb=256))
    yield sandbox
    sandbox.close()


def _used(box: Sandbox) -> int:
    return disk_usage(str(box.workspace))


def test_probe_many_files_stop_at_the_quota(box: Sandbox) -> None:
    """Files written one after another stop at the quota, to the file.

    The limit follows usage within one inotify event's latency (`_quota`): a
    writer that opens the next file in the same microsecond can use the limit
    the supervisor set before the last close, and on a loaded CI machine it
    once did (6 files where 5 fit). The pause between files gives the
    supervisor that event; what this checks is the count, not the race.
    """
    assert box.execute("1").value == "1"
    room = QUOTA_MB * MB - _used(box)  # what the file system charges for the workspace's own folders (4 KB on ext4, 0 on btrfs)
    result = box.execute(FILL.format(chunk=4, count=50, prefix="f", pause=0.2))  # one writer at a steady pace: see the note above
    assert result.status == "ok", result.error
    assert result.value == f"({room // (4 * MB)}, 27)"  # as many whole files as fit; then EFBIG
    assert _used(box) <= QUOTA_MB * MB
    assert "[disk quota] the workspace holds" in result.output and f"of its {QUOTA_MB} MB (tools.defaults.disk_mb)" in result.output
    assert value(box, "import os\nfor i in range(3):\n    os.remove('f%d' % i)\nlen(os.listdir('.'))") >= 1  # type: ignore[operator]
    again = box.execute("open('after.bin', 'wb').write(b'y' * (8 << 20))")
    assert again.status == "ok" and again.value == str(8 * MB)  # deleting frees room again


def test_probe_one_file_larger_than_the_quota(box: Sandbox) -> None:
    result = box.execute("open('big.bin', 'wb').write(b'x' * (40 << 20))")
    assert result.status == "error" and "File too large" in (result.error or "")
    assert "[disk quota]" in result.output
    assert _used(box) <= QUOTA_MB * MB


def test_probe_sparse_and_preallocated_files_count(box: Sandbox) -> None:
    code = ("import os\nout = []\nfor how in ('truncate', 'fallocate', 'seek'):\n    try:\n        with open(how, 'wb') as fh:\n"
            "            if how == 'truncate':\n                fh.truncate(10 << 30)\n            elif how == 'fallocate':\n"
            "                os.posix_fallocate(fh.fileno(), 0, 100 << 20)\n            else:\n                fh.seek(1 << 30); fh.write(b'x')\n"
            "        out.append('made')\n    except OSError as e:\n        out.append(e.errno)\nout")
    assert value(box, code) == [27, 27, 27]
    assert _used(box) <= QUOTA_MB * MB


def test_probe_parallel_writers_are_held_near_the_quota(box: Sandbox) -> None:
    """Four threads writing 1 MB at a time: the limit follows usage by inotify, so they pass it by writes in flight only."""
    code = ("import threading\nerrs = []\ndef w(k):\n    try:\n        for i in range(100):\n            with open(f't{k}_{i}', 'wb') as fh:\n"
            "                for _ in range(4):\n                    fh.write(b'x' * (1 << 20))\n    except OSError as e:\n        errs.append(e.errno)\n"
            "ts = [threading.Thread(target=w, args=(k,)) for k in range(4)]\n[t.start() for t in ts]; [t.join() for t in ts]\nerrs")
    assert value(box, code) == [27, 27, 27, 27]
    assert _used(box) <= 2 * QUOTA_MB * MB  # without the quota they would write 1600 MB


def test_probe_quota_comes_from_the_hcp(tmp_path: Path, db, mol_home: Path) -> None:
    hcp = parse_hcp("\n[slots.L0]\n[tools.defaults]\ndisk_mb = 3\ncpu_s = 5\n")
    config = tools_config(hcp)
    assert config.limits_for("python").disk_mb == 3
    hub = ToolHub(db, ToolsConfig(default_limits=config.limits_for("python")), home=mol_home)
    try:
        text, status = call(hub.runner("quota"), "python", {"code": "open('a.bin', 'wb').write(b'x' * (5 << 20))"})
    finally:
        hub.close()
    assert status == "error" and "File too large" in text and "of its 3 MB (tools.defaults.disk_mb)" in text


def test_probe_a_spinning_thread_does_not_run_between_calls(box: Sandbox) -> None:
    first = box.execute("import threading, resource\ndef spin():\n    while True:\n        pass\nthreading.Thread(target=spin, daemon=True).start()")
    assert first.status == "ok" and "were stopped" in first.output
    mark = value(box, "r = resource.getrusage(resource.RUSAGE_SELF); r.ru_utime + r.ru_stime")
    time.sleep(1.5)
    later = value(box, f"r = resource.getrusage(resource.RUSAGE_SELF); round(r.ru_utime + r.ru_stime - {mark}, 3)")
    assert isinstance(later, float) and later < 0.3  # the issue saw 2.35 CPU-s in 5 s
    assert value(box, "threading.active_count()") == 1


def test_probe_a_thread_that_will_not_stop_is_paused_and_charged(tmp_path: Path) -> None:
    box = open_box(tmp_path / "stubborn", replace(LIMITS, cpu_s=1.0))
    try:
        code = ("import threading, resource\ndef stubborn():\n    n = 0\n    while True:\n        try:\n            while True:\n"
                "                n += 1\n        except BaseException:\n            continue\nthreading.Thread(target=stubborn, daemon=True).start()")
        first = box.execute(code)
        assert "could not be stopped" in first.output and "paused between calls" in first.output
        mark = value(box, "r = resource.getrusage(resource.RUSAGE_SELF); r.ru_utime + r.ru_stime")
        time.sleep(3)
        idle = value(box, f"r = resource.getrusage(resource.RUSAGE_SELF); round(r.ru_utime + r.ru_stime - {mark}, 3)")
        assert isinstance(idle, float) and idle < 1.0  # it ran during the two short calls only: 3 s idle would be ~3 CPU-s
        charged = box.execute("import time\nt0 = time.monotonic()\nwhile time.monotonic() - t0 < 8:\n    time.sleep(0.05)")
        assert charged.status == "error" and "CPU time limit exceeded" in (charged.error or "")  # its CPU counts toward the call
    finally:
        box.close()


def test_probe_timers_and_alarms_do_not_fire_after_the_call(box: Sandbox) -> None:
    armed = box.execute("import threading, signal, faulthandler\nthreading.Timer(0.3, lambda: open('fired', 'w').write('x')).start()\n"
                        "signal.alarm(1)\nimport sys\nfaulthandler.dump_traceback_later(0.5, exit=True, file=sys.__stderr__)\nkeep = 'still here'")
    assert armed.status == "ok"
    time.sleep(1.5)
    after = box.execute("import os, time\ntime.sleep(1.2)\n(os.path.exists('fired'), keep)")
    assert (after.status, after.value, after.state_lost) == ("ok", "(False, 'still here')", None)
