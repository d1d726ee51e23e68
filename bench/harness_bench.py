"""The tool harness: what a persistent, confined sandbox costs and saves.

Measured in one run, each against its own baseline:
- call: one `python` tool call through the persistent sandbox vs. the naive
  design (a fresh confined interpreter per call, state lost every time) and
  vs. `exec` in our own process (no isolation: the lower bound).
- startup: a confined sandbox (netns + landlock + seccomp + rlimits + audit
  hook) until its ready line vs. a bare `python -I` until its ready line: the
  price of confinement.
- tool: a `notes.create` through the Harness (validation + audit row) vs. the
  bare SQLite insert it wraps.
Targets: call_vs_fresh_ratio <= 0.2 (5x faster than a process per call) and
startup_vs_bare_ratio <= 2.0.
Run: .venv/bin/python bench/harness_bench.py [--calls 50] [--out bench/results/harness.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CODE = "total = sum(range(1000))\ntotal"


def ms(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"median_ms": round(statistics.median(ordered), 3), "p90_ms": round(ordered[int(0.9 * (len(ordered) - 1))], 3)}


def bench(calls: int) -> dict:
    home = Path(tempfile.mkdtemp(prefix="mol-bench-harness-"))
    os.environ["MOL_HOME"] = str(home)
    from memory.db import open_db
    from memory.timeline import new_id, now_iso
    from mol_local.harness.hub import ToolHub
    from mol_local.harness.limits import ToolLimits, ToolsConfig
    from mol_local.harness.sandbox import Sandbox
    from mol_local.paths import db_path
    from mol_local.turn.tasks import ToolCall

    limits = ToolLimits()
    # startup: confined sandbox vs bare interpreter
    bare, confined = [], []
    for i in range(max(5, calls // 10)):
        t0 = time.perf_counter()  # same as Sandbox.start: spawn, wait for one "ready" line (teardown not timed)
        proc = subprocess.Popen([sys.executable, "-I", "-c", "print('ready', flush=True)\nimport sys\nsys.stdin.read()"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert proc.stdout is not None and proc.stdout.readline() == b"ready\n"
        bare.append((time.perf_counter() - t0) * 1000)
        proc.communicate(b"")
        box = Sandbox(home / "ws" / f"s{i}", limits)
        t0 = time.perf_counter()
        box.start()
        confined.append((time.perf_counter() - t0) * 1000)
        box.close()
    # call: persistent sandbox vs fresh sandbox per call vs in-process exec
    box = Sandbox(home / "ws" / "persistent", limits)
    box.start()
    box.execute("0")
    persistent, fresh, inproc = [], [], []
    for _ in range(calls):
        t0 = time.perf_counter()
        assert box.execute(CODE).value == "499500"
        persistent.append((time.perf_counter() - t0) * 1000)
    for i in range(max(5, calls // 5)):
        one = Sandbox(home / "ws" / f"fresh{i}", limits)
        t0 = time.perf_counter()
        assert one.execute(CODE).value == "499500"
        fresh.append((time.perf_counter() - t0) * 1000)
        one.close()
    for _ in range(calls):
        ns: dict = {}
        t0 = time.perf_counter()
        exec(compile("total = sum(range(1000))", "<x>", "exec"), ns)
        assert repr(eval("total", ns)) == "499500"
        inproc.append((time.perf_counter() - t0) * 1000)
    box.close()
    # tool: notes.create through the harness vs the bare insert
    db = open_db(db_path())
    hub = ToolHub(db, ToolsConfig(), home=home)
    harness = hub.runner("bench")
    through, bare_insert = [], []
    for i in range(calls):
        t0 = time.perf_counter()
        harness.run(ToolCall("notes.create", {"title": f"n{i}", "body": "x"}, ""), slot="L0")
        through.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        db["notes"].insert({"id": new_id(), "title": f"b{i}", "body": "x", "created_at": now_iso(), "updated_at": now_iso()})
        bare_insert.append((time.perf_counter() - t0) * 1000)
    hub.close()
    db.close()
    call_ratio = statistics.median(persistent) / statistics.median(fresh)
    start_ratio = statistics.median(confined) / statistics.median(bare)
    return {
        "bench": "harness",
        "calls": calls,
        "call": {"persistent": ms(persistent), "fresh_sandbox_per_call": ms(fresh), "in_process_exec": ms(inproc),
                 "call_vs_fresh_ratio": round(call_ratio, 4), "target_call_vs_fresh_ratio_max": 0.2,
                 "meets_target": call_ratio <= 0.2},
        "startup": {"confined_sandbox": ms(confined), "bare_interpreter": ms(bare),
                    "startup_vs_bare_ratio": round(start_ratio, 3), "target_startup_vs_bare_ratio_max": 2.0,
                    "meets_target": start_ratio <= 2.0},
        "tool": {"notes_create_via_harness": ms(through), "bare_sqlite_insert": ms(bare_insert),
                 "overhead_ratio": round(statistics.median(through) / statistics.median(bare_insert), 3)},
        "protections": box.protections,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=50)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    result = bench(args.calls)
    print(json.dumps(result, sort_keys=True))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=2, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
