"""Ship a trained route adapter: `python -m trainer.route_ship [FOLDER]`.

Run after `python -m trainer.route_recipe` and `python bench/route_eval.py`:
folds train_report.json and the measured evidence (bench/results/route.json)
into the folder's manifest.json, which lists the sha256 of every file. The
runtime seeds the folder into the registry as the L0 specialist, applied on
the route hop only (see bench/results/route.json, l0_answer_hop).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from mol_local.adapters.builtin import ROUTE_ADAPTER, write_shipped_manifest
from mol_local.models import resolve_model

RESULTS = Path(__file__).resolve().parent.parent / "bench" / "results" / "route.json"


def ship(folder: Path = ROUTE_ADAPTER, results: Path = RESULTS) -> dict:
    report_path = folder / "train_report.json"
    report = json.loads(report_path.read_text(encoding="utf-8"))
    evidence: dict = {"heldout_accuracy_transformers": report["heldout_accuracy_transformers"], "heldout_examples": report["heldout_examples"]}
    if results.is_file():
        bench = json.loads(results.read_text(encoding="utf-8"))
        adapted = bench["sets"]["route_adapter"]
        evidence |= {
            "dev_accuracy": adapted["dev"]["accuracy"],
            "heldout_accuracy": adapted["heldout"]["accuracy"],
            "zero_shot_dev_accuracy": bench["sets"]["zero_shot"]["dev"]["accuracy"],
            "route_latency_ms_p50": adapted["dev"]["latency_ms_p50"],
            "dev_confusion": adapted["dev"]["confusion"],
            "heldout_confusion": adapted["heldout"]["confusion"],
            "source": "bench/results/route.json",
        }
    recipe = report["recipe"] | {"train_examples": report["train_examples"], "train_seconds": report["train_seconds"]}
    ids = report["training_data_ids"]
    report_path.unlink()
    return write_shipped_manifest(
        folder, resolve_model("builtin:smollm2-135m"), name="smollm2-route", slot="L0", layer="router",
        hops=["route"], evidence=evidence, training_ids=ids, recipe=recipe,
    )


if __name__ == "__main__":
    manifest = ship(Path(sys.argv[1]) if len(sys.argv) > 1 else ROUTE_ADAPTER)
    print(json.dumps({k: manifest[k] for k in ("name", "rank", "eval", "files")}, indent=1))
