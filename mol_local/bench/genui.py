"""`mol bench genui`: the eval set on the embedded default, grammar on vs. off, in one run.

Per mode: parse rate (the first attempt is JSON), semantic-valid rate (the
first attempt passes validation), constraint adherence (share of each
request's required components present with their required fields, in the
parsed first attempt), p50 generation time of the first attempt. The model's
repair attempt is off here so the numbers describe the generator;
`semantic_valid_rate_repaired` is the share valid after the deterministic
repair (`mol_local.genui.repair`), which costs no generation.

`placement` says where the UI guide goes: "head" (the runtime's way, L3's
cached system head) or "tail" (in the user message, the way before; kept
to compare adherence).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from importlib import resources
from typing import Any

from mol_local.genui.catalog import COMPONENTS
from mol_local.genui.generate import compose, ui_guide, ui_prompt


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


def messages(head: str, request: str, placement: str) -> list[dict[str, str]]:
    if placement == "head":
        return [{"role": "system", "content": f"{head}\n\n{ui_guide()}"}, {"role": "user", "content": request}]
    return [{"role": "system", "content": head}, {"role": "user", "content": ui_prompt(request)}]


def measure(engine, head: str, item: dict, *, grammar: bool, max_tokens: int, placement: str = "head") -> dict[str, Any]:
    """One request in one mode, from a cold sequence (no cross-request KV advantage)."""
    engine.reset("L3")
    msgs = messages(head, item["request"], placement)
    out = compose(engine, msgs, seq="L3", grammar=grammar, max_tokens=max_tokens, repair=False,
                  request=item["request"])
    return {"id": item["id"], "grammar": grammar, "parsed": out.parsed_first, "valid": out.valid_first,
            "repaired": out.repaired_first, "fixes": out.fixes[:4], "adherence": adherence(out.raw_first, item["components"]),
            "gen_ms": round(out.gen_ms), "tokens": out.results[0].completion_tokens, "problems": out.problems[:3]}


def summarise(records: list[dict[str, Any]]) -> dict[str, float]:
    """The four rates of one mode (plus the valid-after-deterministic-repair rate) from per-request records."""
    n = len(records)
    return {"parse_rate": sum(r["parsed"] for r in records) / n,
            "semantic_valid_rate": sum(r["valid"] for r in records) / n,
            "semantic_valid_rate_repaired": sum(r["repaired"] for r in records) / n,
            "constraint_adherence": sum(r["adherence"] for r in records) / n,
            "gen_ms_p50": statistics.median(r["gen_ms"] for r in records)}


def run_genui_bench(
    *, limit: int | None = None, max_tokens: int = 384, threads: int = 2, placement: str = "head", grammar_only: bool = False
) -> dict[str, Any]:
    from hcp import load_profile
    from mol_local.engine.llamacpp import LlamaCppEngine
    from mol_local.models import resolve_model
    from mol_local.turn.view import system_head
    from personas import load_pack

    hcp = load_profile("local-default")
    pack = load_pack(hcp.pack_location())
    head = system_head(pack.intro, pack.persona(hcp.slots["L3"].persona))
    items = load_eval()[:limit] if limit else load_eval()
    engine = LlamaCppEngine(resolve_model(hcp.base_model, relative_to=hcp.base_dir), sequences=("L3",),
                            n_ctx=4096, kv_cells=8192, n_threads=threads)
    t0 = time.perf_counter()
    records: dict[bool, list[dict[str, Any]]] = {True: [], False: []}
    try:
        for item in items:  # both modes per request, so an interrupted run still pairs them
            for grammar in (True,) if grammar_only else (True, False):
                records[grammar].append(measure(engine, head, item, grammar=grammar, max_tokens=max_tokens, placement=placement))
                print(json.dumps(records[grammar][-1]), file=sys.stderr, flush=True)  # partial numbers survive
    finally:
        engine.close()
    result: dict[str, Any] = summarise(records[True])
    if records[False]:
        result.update({f"{k}_no_grammar": v for k, v in summarise(records[False]).items()})
    result.update({"requests": len(items), "max_tokens": max_tokens, "placement": placement, "threads": threads, "model": hcp.base_model,
                   "wall_s": round(time.perf_counter() - t0, 1)})
    return result
