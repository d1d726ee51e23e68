"""`mol bench genui`: the eval set on the embedded default, grammar on vs. off, in one run.

Per mode: parse rate (the first attempt is JSON), semantic-valid rate (the
first attempt passes validation), constraint adherence (share of each
request's required components present with their required fields, in the
parsed first attempt), p50 generation time of the first attempt. Repair is
off here so the numbers describe the generator, not the retry.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from importlib import resources
from typing import Any

from mol_local.genui.catalog import COMPONENTS
from mol_local.genui.generate import compose, ui_prompt


def load_eval() -> list[dict[str, Any]]:
    text = resources.files("mol_local.genui").joinpath("data/eval.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def adherence(raw: str, required: list[str]) -> float:
    """Share of required component types present, each with its required fields (label, bind, action)."""
    try:
        obj = json.loads(raw)
        comps = [c for c in obj.get("components", []) if isinstance(c, dict)]
    except (json.JSONDecodeError, AttributeError, TypeError):
        return 0.0
    def complete(c: dict) -> bool:
        spec = COMPONENTS.get(c.get("type"))  # type: ignore[arg-type]
        if spec is None or "label" not in c:
            return False
        if spec.binds and "bind" not in c and "source" not in c:
            return False
        return not (spec.needs_action and "action" not in c)
    have = {c.get("type") for c in comps if complete(c)}
    return sum(1 for t in required if t in have) / len(required)


def run_mode(engine, head: str, items: list[dict], *, grammar: bool, max_tokens: int) -> dict[str, float]:
    parsed = valid = 0
    adh: list[float] = []
    times: list[float] = []
    for item in items:
        engine.reset("L3")  # every request from a cold sequence: no cross-request KV advantage
        msgs = [{"role": "system", "content": head}, {"role": "user", "content": ui_prompt(item["request"])}]
        out = compose(engine, msgs, seq="L3", grammar=grammar, max_tokens=max_tokens, repair=False)
        parsed += out.parsed_first
        valid += out.valid_first
        adh.append(adherence(out.raw_first, item["components"]))
        times.append(out.gen_ms)
        print(json.dumps({"id": item["id"], "grammar": grammar, "parsed": out.parsed_first, "valid": out.valid_first,
                          "adherence": adh[-1], "gen_ms": round(out.gen_ms), "tokens": out.results[0].completion_tokens,
                          "problems": out.problems[:3]}),
              file=sys.stderr, flush=True)  # progress: partial numbers survive an interrupted run
    n = len(items)
    return {"parse_rate": parsed / n, "semantic_valid_rate": valid / n,
            "constraint_adherence": sum(adh) / n, "gen_ms_p50": statistics.median(times)}


def run_genui_bench(*, limit: int | None = None, max_tokens: int = 384, threads: int = 2) -> dict[str, Any]:
    from hcp import load_profile
    from mol_local.engine.llamacpp import LlamaCppEngine
    from mol_local.models import resolve_model
    from mol_local.views import system_head
    from personas import load_pack

    hcp = load_profile("local-default")
    pack = load_pack(hcp.pack_location())
    head = system_head(pack.intro, pack.persona(hcp.slots["L3"].persona))
    items = load_eval()[:limit] if limit else load_eval()
    engine = LlamaCppEngine(resolve_model(hcp.base_model, relative_to=hcp.base_dir), sequences=("L3",),
                            n_ctx=4096, kv_cells=8192, n_threads=threads)
    t0 = time.perf_counter()
    try:
        on = run_mode(engine, head, items, grammar=True, max_tokens=max_tokens)
        off = run_mode(engine, head, items, grammar=False, max_tokens=max_tokens)
    finally:
        engine.close()
    result: dict[str, Any] = {**on, **{f"{k}_no_grammar": v for k, v in off.items()}}
    result.update({"requests": len(items), "max_tokens": max_tokens, "model": hcp.base_model,
                   "wall_s": round(time.perf_counter() - t0, 1)})
    return result
