"""An MCP tool call through the harness vs. the same call made directly with the `mcp` SDK.

Both talk to the same tiny stdio server (tests/mol_local/harness/mcp_server.py), one
connection each, warmed up first. `direct` is the SDK's own round trip in one asyncio
task (what the server and the protocol cost); `harness` is `Harness.run_detailed`
(argument checks against the schema, the approval policy, the hop onto the MCP
thread, result shaping, the audit row in SQLite). overhead = harness - direct, per
call (median and p95); a `slow` tool that sleeps 50 ms shows the overhead is
constant. Target: overhead_ms_p50 <= 20.
Run: .venv/bin/python bench/mcp_bench.py [--calls 200] [--out bench/results/mcp.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SERVER = ROOT / "tests" / "mol_local" / "harness" / "mcp_server.py"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 3)


async def direct(calls: int, tool: str, args: dict) -> list[float]:
    from mcp import Client, StdioServerParameters

    out = []
    async with Client(StdioServerParameters(command=sys.executable, args=[str(SERVER)]), cache=None) as client:
        for _ in range(5):
            await client.call_tool(tool, args)
        for _ in range(calls):
            t0 = time.perf_counter()
            await client.call_tool(tool, args)
            out.append((time.perf_counter() - t0) * 1000)
    return out


def harness(calls: int, tool: str, args: dict) -> list[float]:
    from hcp.model import McpServer
    from memory.db import open_db
    from mol_local.harness.hub import ToolHub
    from mol_local.harness.limits import ToolsConfig
    from mol_local.harness.mcp import McpHub
    from mol_local.harness.mcp_tools import McpTools
    from mol_local.turn.tasks import ToolCall

    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        cfg = McpServer(name="tiny", command=sys.executable, args=(str(SERVER),), env={}, url="", enabled=True, allow=("*",),
                        timeout_s=30.0, max_result_kb=64)
        db = open_db(home / "mol.db")
        hub = ToolHub(db, ToolsConfig(enabled=()), home=home, mcp=McpTools(McpHub({"tiny": cfg}, home / "logs")))
        runner = hub.runner("bench")
        call = ToolCall(f"tiny.{tool}", args, json.dumps(args))
        out = []
        try:
            for _ in range(5):
                runner.run_detailed(call, slot="L0")
            for _ in range(calls):
                t0 = time.perf_counter()
                text, status = runner.run_detailed(call, slot="L0")
                out.append((time.perf_counter() - t0) * 1000)
                assert status == "ok", text
        finally:
            hub.close()
            db.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "mcp.json"))
    opts = ap.parse_args()
    rows = []
    for tool, args in (("add", {"a": 2, "b": 3}), ("slow", {"seconds": 0.05})):
        n = opts.calls if tool == "add" else max(20, opts.calls // 10)
        d = asyncio.run(direct(n, tool, args))
        h = harness(n, tool, args)
        rows.append({
            "tool": tool, "calls": n,
            "direct_ms_p50": pct(d, 0.5), "direct_ms_p95": pct(d, 0.95),
            "harness_ms_p50": pct(h, 0.5), "harness_ms_p95": pct(h, 0.95),
            "overhead_ms_p50": round(statistics.median(h) - statistics.median(d), 3),
            "overhead_ms_p95": round(pct(h, 0.95) - pct(d, 0.95), 3),
        })
    result = {"bench": "mcp", "target_overhead_ms_p50": 20, "load_avg_1m": round(os.getloadavg()[0], 2), "rows": rows}
    Path(opts.out).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
