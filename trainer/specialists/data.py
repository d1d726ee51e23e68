"""Every slot's verified cases behind one call, and the data hash a manifest records.

L0/L1 cases are materialized through a real runtime's harness (a throwaway
MOL_HOME), L2's code is run against its tests in the sandbox, L3's documents
are validated against the catalog and the generation grammar; whatever fails
its check never reaches training.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from hcp.schema import SLOT_LABELS
from trainer.specialists.cases import Case

SLOTS = SLOT_LABELS


@contextmanager
def scratch_runtime() -> Iterator:
    """A runtime on a temporary MOL_HOME (its own SQLite, memory index, workspaces); the model never loads."""
    from hcp import load_profile
    from mol_local.runtime import Runtime

    with tempfile.TemporaryDirectory(prefix="mol-specialist-data-") as tmp:
        rt = Runtime(load_profile("local-default"), home=Path(tmp) / "home")
        try:
            yield rt
        finally:
            rt.close()


def slot_cases(slot: str, split: str, *, seed: int = 0, scale: float = 1.0, rt=None) -> tuple[list[Case], int]:
    """(verified cases of one slot and split, how many generated cases failed verification)."""
    if slot in ("L0", "L1"):
        import importlib

        module = importlib.import_module("trainer.specialists." + ("chat_data" if slot == "L0" else "agent_data"))
        if rt is None:
            with scratch_runtime() as scratch:
                return module.cases(split, scratch, seed=seed, scale=scale)
        return module.cases(split, rt, seed=seed, scale=scale)
    if slot == "L2":
        from trainer.specialists import code_data as module
    else:
        from trainer.specialists import ui_data as module  # type: ignore[no-redef]
    generated = module.cases(split, seed=seed, per_template=max(1, round(module.PER_TEMPLATE * scale)))
    kept = module.verify_gold(generated)
    return kept, len(generated) - len(kept)


def all_cases(split: str, *, seed: int = 0, scale: float = 1.0) -> dict[str, list[Case]]:
    out: dict[str, list[Case]] = {}
    with scratch_runtime() as rt:
        for slot in SLOTS:
            out[slot], _ = slot_cases(slot, split, seed=seed, scale=scale, rt=rt)
    return out


def case_json(case: Case) -> dict:
    return {"slot": case.slot, "template": case.template, "request": case.request, "gold": list(case.gold),
            "summary": case.summary, "check": case.check, "notes": list(case.notes)}


def case_from_json(obj: dict) -> Case:
    return Case(obj["slot"], obj["template"], obj["request"], tuple(obj["gold"]), obj["summary"], obj.get("check", {}), tuple(obj.get("notes", ())))


def data_sha256(cases: Sequence[Case]) -> str:
    """sha256 of the cases as canonical JSON lines, in order: what the manifest says was trained on."""
    h = hashlib.sha256()
    for case in cases:
        h.update(json.dumps(case_json(case), sort_keys=True, ensure_ascii=False).encode("utf-8") + b"\n")
    return h.hexdigest()
