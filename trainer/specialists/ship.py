"""Describe trained specialist folders as shipped adapters: `python -m trainer.specialists.ship [RESULTS]`.

Each `mol_local/adapters/shipped/smollm2-lN/` gets a manifest like a registry
revision's (base fingerprint, rank, alpha, targets, hashed training ids, the
sha256 of every file), plus the recipe that built it (its config, the case
counts, the sha256 of the verified training cases, where the data came from)
and the eval evidence from `mol bench specialists` (bench/results/specialists.json):
held-out pass rates with and without it, single turns and conversations.
train_report.json stays next to it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from mol_local.adapters.builtin import SPECIALISTS, write_shipped_manifest
from mol_local.models import resolve_model

RESULTS = Path(__file__).resolve().parents[2] / "bench" / "results" / "specialists.json"
SOURCE = ("our own templates in trainer/specialists/ (no public benchmark text), every case verified by execution: "
          "tool calls run in the real harness with the resulting state checked, code run against its tests in the sandbox, "
          "UI documents validated before repair and accepted by the generation grammar")


def evidence_for(slot: str, results: Path) -> dict:
    if not results.is_file():
        return {}
    bench = json.loads(results.read_text(encoding="utf-8"))
    out: dict = {"source": str(results.relative_to(results.parents[2])) if len(results.parents) > 2 else str(results)}
    for arm in ("bare", "specialists", "union"):
        got = bench.get("arms", {}).get(arm)
        if got and slot in got["single"]:
            out[f"{arm}_heldout_pass"] = got["single"][slot]["pass"]
            if slot in got.get("conversation", {}):
                out[f"{arm}_conversation_pass"] = got["conversation"][slot]["pass"]
    return out


def ship(folder: Path, results: Path = RESULTS) -> dict:
    report = json.loads((folder / "train_report.json").read_text(encoding="utf-8"))
    recipe = json.loads((folder / "recipe.json").read_text(encoding="utf-8"))
    slot = recipe["slot"]
    recipe |= {k: report[k] for k in ("cases", "data_sha256", "train_seconds", "steps", "tail_tokens", "templates") if k in report}
    recipe["data_source"] = SOURCE
    return write_shipped_manifest(
        folder, resolve_model("builtin:smollm2-135m"), name=folder.name, slot=slot, layer="specialist", hops=["answer"],
        evidence=evidence_for(slot, results), training_ids=report["training_data_ids"], recipe=recipe,
    )


if __name__ == "__main__":
    results = Path(sys.argv[1]) if len(sys.argv) > 1 else RESULTS
    for folder in SPECIALISTS:
        if (folder / "train_report.json").is_file():
            manifest = ship(folder, results)
            print(json.dumps({k: manifest[k] for k in ("name", "slot", "rank", "eval")}))
