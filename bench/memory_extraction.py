"""Does what a person says about themselves end as a memory, and does a later statement update it?

Two labelled sets of our own (memory/data/):
- statements_set.jsonl: 50 personal statements (what must be stored, as substrings)
  and 25 messages that must store nothing (questions, requests, small talk, passing states);
- updates_set.jsonl: 20 pairs — a fact, then a later statement that changes it.

Each message goes through `extract_after_turn` on a real runtime (real MiniLM
index, and the real embedded model for the messages no rule reads), in a fresh
MOL_HOME per row. Arms in the same run: the rules + model (what ships) and the
model alone (the JSON proposal every turn used before). Reported: recall on
statements, stored from non-statements, and after the updates the share of
pairs that left a contradiction (old value still stated as current) or lost the new one.
Run: .venv/bin/python bench/memory_extraction.py [--out bench/results/memory_extraction.json]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from hcp import load_profile
from mol_local.engine.llamacpp import LlamaCppEngine
from mol_local.extract import extract_after_turn, propose, store_proposal
from mol_local.models import resolve_model
from mol_local.paths import offline_env
from mol_local.runtime import Runtime
from trainer.specialists.suite import ArmRuntime  # a runtime on a shared engine that it does not close

DATA = Path(__file__).resolve().parents[1] / "memory" / "data"


def rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def extract(rt: Runtime, text: str, arm: str) -> None:
    if arm == "rules+model":
        extract_after_turn(rt, user=text, answer="", conversation_id="c1", message_id=None, known=[])
    else:
        store_proposal(rt.memory, propose(rt, text, "", []), conversation_id="c1", message_id=None)


def texts(rt: Runtime) -> list[str]:
    return [r["text"] for r in rt.db.query("select text from memories")]


def run_arm(engine: LlamaCppEngine, arm: str, home: Path) -> dict:
    statements, updates = rows("statements_set.jsonl"), rows("updates_set.jsonl")
    found = stray = 0
    misses, strays = [], []
    t0 = time.perf_counter()
    for i, row in enumerate(statements):
        rt = ArmRuntime(load_profile("local-default"), engine=engine, home=home / f"{arm}-s{i}")
        extract(rt, row["text"], arm)
        stored = " | ".join(texts(rt))
        if row["want"]:
            ok = all(w.lower() in stored.lower() for w in row["want"])
            found += ok
            if not ok:
                misses.append({"text": row["text"], "stored": stored})
        elif stored:
            stray += 1
            strays.append({"text": row["text"], "stored": stored})
        rt.close_stores()
    contradictions = lost = 0
    bad = []
    for i, row in enumerate(updates):
        rt = ArmRuntime(load_profile("local-default"), engine=engine, home=home / f"{arm}-u{i}")
        extract(rt, row["first"], arm)
        extract(rt, row["then"], arm)
        stored = texts(rt)
        joined = " | ".join(stored).lower()
        if row["want"].lower() not in joined:
            lost += 1
            bad.append({"pair": row, "stored": stored})
        elif row["gone"].lower() in joined:
            contradictions += 1
            bad.append({"pair": row, "stored": stored})
        rt.close_stores()
    n_want = sum(1 for r in statements if r["want"])
    return {
        "statements_stored": round(found / n_want, 3), "n_statements": n_want,
        "non_statements_stored": stray, "n_non_statements": len(statements) - n_want,
        "contradiction_rate": round(contradictions / len(updates), 3), "update_lost_rate": round(lost / len(updates), 3),
        "n_updates": len(updates), "seconds": round(time.perf_counter() - t0, 1),
        "misses": misses, "strays": strays, "bad_updates": bad,
    }


def main() -> None:
    offline_env()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="bench/results/memory_extraction.json")
    args = parser.parse_args()
    engine = LlamaCppEngine(resolve_model("builtin:smollm2-135m"), n_ctx=2048, sequences=("route", "L0", "L1", "L2", "L3"))
    try:
        with tempfile.TemporaryDirectory(prefix="mol-bench-extract-") as tmp:
            result = {"bench": "memory_extraction", "arms": {arm: run_arm(engine, arm, Path(tmp)) for arm in ("rules+model", "model only")}}
    finally:
        engine.close()
    line = json.dumps(result, indent=2, sort_keys=True)
    print(line)
    if args.out:
        Path(args.out).write_text(line + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
