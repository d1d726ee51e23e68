"""The HCP contract: what validation and versioning cost, each against a bare baseline in the same run.

- load: `parse_hcp` (tomlkit, comments kept, full schema + cross-reference
  validation) vs. stdlib `tomllib.loads` of the same text (no validation).
- set: `VersionStore.set` (type coercion, validation, version file + active
  file + index each written atomically with fsync, under a lock) vs. a bare
  `write_text` of the same document (no history, no safety).
- history: walking the parent chain of N versions (`lineage`) vs. just
  reading index.json.
- model: loading the embedded base with llama.cpp (what every start pays anyway).
Targets (ratios in the same run): validated load <= 10 % of the model load and
one versioned `set` <= 25 % of it, so the contract is never the slow part of a
start or an edit.
Run: .venv/bin/python bench/hcp_bench.py [--repeat 50] [--versions 200] [--out bench/results/hcp.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
import tomllib
from collections.abc import Callable
from pathlib import Path

from hcp.loader import parse_hcp, profile_path
from hcp.store import VersionStore


def timed(fn: Callable[[], object], repeat: int) -> dict[str, float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    ordered = sorted(samples)
    return {"median_ms": round(statistics.median(ordered), 3), "p90_ms": round(ordered[int(0.9 * (len(ordered) - 1))], 3)}


def _load_model() -> None:
    from mol_local.engine.llamacpp import LlamaCppEngine
    from mol_local.models import resolve_model

    LlamaCppEngine(resolve_model("builtin:smollm2-135m"), n_ctx=4096, kv_cells=8192, n_threads=2).close()


def bench(repeat: int, versions: int) -> dict:
    text = profile_path("local-default").read_text(encoding="utf-8")
    load = timed(lambda: parse_hcp(text), repeat)
    load_base = timed(lambda: tomllib.loads(text), repeat)

    home = Path(tempfile.mkdtemp(prefix="mol-bench-hcp-"))
    store = VersionStore(home)
    store.init("local-default")
    counter = iter(range(10**9))
    set_ = timed(lambda: store.set("runtime.threads", str(1 + next(counter) % 8), reason="bench"), repeat)
    bare = home / "bare.toml"
    set_base = timed(lambda: bare.write_text(store.active.read_text(encoding="utf-8"), encoding="utf-8"), repeat)

    while store.head().n < versions:
        store.set("memory.top_k", str(store.head().n % 9), reason="bench")
    walk = timed(lambda: store.lineage(), max(5, repeat // 5))
    index = timed(lambda: json.loads(store.index_path.read_text(encoding="utf-8")), max(5, repeat // 5))
    model = timed(_load_model, 3)
    return {
        "bench": "hcp",
        "model_load_baseline": model,
        "repeat": repeat,
        "load": {"validated": load, "tomllib_baseline": load_base, "ratio": round(load["median_ms"] / load_base["median_ms"], 2)},
        "set": {"versioned": set_, "bare_write_baseline": set_base, "ratio": round(set_["median_ms"] / set_base["median_ms"], 2)},
        "history": {
            "versions": store.head().n,
            "lineage": walk,
            "read_index_baseline": index,
            "ratio": round(walk["median_ms"] / index["median_ms"], 2),
        },
        "targets": {
            "load_vs_model_ratio": round(load["median_ms"] / model["median_ms"], 3),
            "load_vs_model_le_0.10": load["median_ms"] <= 0.10 * model["median_ms"],
            "set_vs_model_ratio": round(set_["median_ms"] / model["median_ms"], 3),
            "set_vs_model_le_0.25": set_["median_ms"] <= 0.25 * model["median_ms"],
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--versions", type=int, default=200)
    parser.add_argument("--out")
    args = parser.parse_args()
    result = bench(args.repeat, args.versions)
    line = json.dumps(result, sort_keys=True)
    print(line)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(result, indent=2, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
