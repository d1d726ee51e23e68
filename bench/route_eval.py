"""Route accuracy and latency on the embedded base: with the route adapter vs zero-shot, same run.

    python bench/route_eval.py [--adapter PATH/adapter.gguf] [--out bench/results/route.json]

Sets: the shared dev set (a copy in tests/data/route_dev.jsonl, never trained on)
and our own held-out split (templates the adapter never saw). Latency is the
router's own wall time per request (grammar decode, KV of the instruction
reused), as `mol route --json` reports it. Also measures what the adapter does
to the L0 answer hop, which decides whether it applies there, and the other
router modes on the same sets: `embed` (the embeddings head alone) and
`hybrid` (the head when it is at least HCP routing.min_confidence sure, else
the route adapter under the grammar); `hybrid_view_rule` is hybrid behind the
rule that sends a request naming a view to L3 (`genui.asked.names_a_view`),
which is what the app runs.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mol_local.adapters.builtin import ROUTE_ADAPTER  # noqa: E402
from mol_local.engine.base import AdapterSpec, GenerationRequest  # noqa: E402
from mol_local.engine.llamacpp import LlamaCppEngine  # noqa: E402
from mol_local.models import resolve_model  # noqa: E402
from mol_local.paths import offline_env  # noqa: E402
from mol_local.route_embed import memory_classifier  # noqa: E402
from mol_local.router import Router  # noqa: E402
from hcp import load_profile  # noqa: E402
from personas import load_pack  # noqa: E402
from trainer.route_data import requests  # noqa: E402

LABELS = ["L0", "L1", "L2", "L3"]
DEV = ROOT / "tests" / "data" / "route_dev.jsonl"  # the shared dev set, copied into the repo
L0_PROMPTS = [
    "What causes thunder?", "Translate 'good night' into Spanish.", "Who painted the Mona Lisa?",
    "Write a two-line poem about rain.", "What can you help me with?", "Explain what a prime number is.",
]


def score(router: Router, rows: list[dict]) -> dict:
    confusion = {a: dict.fromkeys(LABELS, 0) for a in LABELS}
    latencies, mistakes, by_path = [], [], {}
    router.route(rows[0]["text"])  # warm the instruction's KV (and the embedder), as a running app has them
    for row in rows:
        decision = router.route(row["text"])
        by_path[decision.mode] = by_path.get(decision.mode, 0) + 1
        confusion[row["slot"]][decision.slot] += 1
        if decision.slot != row["slot"]:
            mistakes.append({"text": row["text"], "slot": row["slot"], "routed": decision.slot})
        latencies.append(decision.latency_ms)
    correct = sum(confusion[a][a] for a in LABELS)
    latencies.sort()
    return {
        "n": len(rows),
        "accuracy": round(correct / len(rows), 4),
        "per_slot_recall": {a: round(confusion[a][a] / max(1, sum(confusion[a].values())), 3) for a in LABELS},
        "confusion": confusion,  # true label -> predicted label -> count
        "decided_by": by_path,  # which path decided: grammar (L0 under the label grammar), embed (the head) or rule
        "latency_ms_p50": round(statistics.median(latencies), 2),
        "latency_ms_p95": round(latencies[int(0.95 * (len(latencies) - 1))], 2),
        "mistakes": mistakes[:60],
    }


def answer_hop(engine: LlamaCppEngine, stack) -> list[str]:
    out = []
    for prompt in L0_PROMPTS:
        result = engine.generate(GenerationRequest(seq="L0", messages=[{"role": "user", "content": prompt}], stack=stack, max_tokens=48))
        out.append(result.text)
    return out


def main() -> None:
    offline_env()
    parser = argparse.ArgumentParser()
    parser.add_argument("--adapter", default=str(ROUTE_ADAPTER / "adapter.gguf"))
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "route.json"))
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    base = resolve_model("builtin:smollm2-135m")
    engine = LlamaCppEngine(base, sequences=("route", "L0"), n_ctx=2048, kv_cells=4096, n_threads=args.threads)
    pack = load_pack("local-default")
    dev = [json.loads(line) for line in DEV.read_text(encoding="utf-8").splitlines() if line.strip()]
    held = list(requests("heldout"))
    stack = (AdapterSpec(args.adapter, 1.0),)
    results: dict = {"base": base.name, "adapter": Path(args.adapter).name, "threads": args.threads, "sets": {}}
    t0 = time.time()
    min_conf = load_profile("local-default").routing.min_confidence
    classifier = memory_classifier()
    arms = (("zero_shot", (), "grammar", None), ("route_adapter", stack, "grammar", None), ("embed", (), "embed", None),
            ("hybrid", stack, "hybrid", None), ("hybrid_view_rule", stack, "hybrid", "L3"))  # the last is what the app runs
    for name, spec, mode, view_slot in arms:
        router = Router(engine, instruction=pack.route, labels=LABELS, stack=spec, mode=mode, classifier=classifier,
                        min_confidence=min_conf, view_slot=view_slot)
        results["sets"][name] = {"dev": score(router, dev), "heldout": score(router, held)}
    results["min_confidence"] = min_conf
    plain, adapted = answer_hop(engine, ()), answer_hop(engine, stack)
    results["l0_answer_hop"] = {
        "prompts": len(L0_PROMPTS),
        "identical_answers": sum(a == b for a, b in zip(plain, adapted, strict=True)),
        "answers_starting_with_label": sum(a.strip()[:2] in LABELS for a in adapted),
        "samples": [{"prompt": p, "base": a[:120], "with_route_adapter": b[:120]} for p, a, b in zip(L0_PROMPTS, plain, adapted, strict=True)],
    }
    z, r = results["sets"]["zero_shot"], results["sets"]["route_adapter"]
    results["ratios"] = {
        "dev_accuracy_gain": round(r["dev"]["accuracy"] / max(1e-9, z["dev"]["accuracy"]), 2),
        "latency_p50_vs_zero_shot": round(r["dev"]["latency_ms_p50"] / max(1e-9, z["dev"]["latency_ms_p50"]), 2),
        "hybrid_latency_p50_vs_route_adapter": round(results["sets"]["hybrid"]["dev"]["latency_ms_p50"] / max(1e-9, r["dev"]["latency_ms_p50"]), 3),
    }
    results["seconds"] = round(time.time() - t0, 1)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, indent=1, ensure_ascii=False), encoding="utf-8")
    print(json.dumps({k: v for k, v in results.items() if k != "l0_answer_hop"} | {"l0_answer_hop": {k: v for k, v in results["l0_answer_hop"].items() if k != "samples"}}, indent=1))
    engine.close()


if __name__ == "__main__":
    main()
