"""A personal layer stacks on the slot's specialist: trained on top of it, and gated so it cannot spoil it.

At serve time a slot's stack is specialist + personal. So the nightly run trains
the personal LoRA on the base *with the specialist merged into it* (the
specialist stays frozen), scores before/after on that same merged model, and
checks parity of the export with the specialist applied underneath. Then,
before promotion, the specialist's own held-out suite (real turns, scored by
the real stores, tests and validators) runs with the current stack and with
the candidate: a candidate more than `trainer.gate.specialist_drop_max` points
below the current stack is rejected, with both scores in the reason.
"""

from __future__ import annotations

import copy
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from mol_local.engine.base import AdapterSpec, Stack

if TYPE_CHECKING:
    from mol_local.adapters.registry import Registry, Revision
    from mol_local.runtime import Runtime

_MERGED: dict[str, object] = {}
SUITE_LIMIT = 12  # held-out cases per gate check: each is a real turn (~2-5 s on 2 cores), run twice


def active_specialist(registry: Registry, slot: str, fingerprint: str) -> Revision | None:
    rev = registry.active(slot, "specialist")
    if rev is None or rev.manifest.get("base_fingerprint") != fingerprint or "answer" not in rev.manifest.get("hops", ["answer"]):
        return None
    return rev


def with_specialist(base_model, specialist: Revision | None):
    """The base with the specialist's PEFT weights merged in (cached per revision); the base itself when there is none."""
    if specialist is None or not (specialist.path / "peft").is_dir():
        return base_model
    key = str(specialist.path)
    if key not in _MERGED:
        from peft import PeftModel

        merged = PeftModel.from_pretrained(copy.deepcopy(base_model), str(specialist.path / "peft")).merge_and_unload()
        merged.requires_grad_(False)
        merged.eval()
        _MERGED[key] = merged
    return _MERGED[key]


def under_stack(specialist: Revision | None) -> Stack:
    return (AdapterSpec(str(specialist.gguf), float(specialist.manifest.get("scale", 1.0))),) if specialist is not None else ()


def suite_score(rt: Runtime, slot: str, stack: Stack, *, limit: int = SUITE_LIMIT) -> float | None:
    """Mean score of the slot's held-out specialist suite with `stack` on it, in a scratch home (the user's
    reminders, notes and memories are never touched); None when the slot has no suite."""
    from dataclasses import replace

    from trainer.specialists.data import slot_cases
    from trainer.specialists.suite import ArmRuntime, run_single

    cases, _ = slot_cases(slot, "heldout")
    if not cases:
        return None
    step = max(1, len(cases) // limit)
    picked = cases[::step][:limit]
    hcp = replace(rt.hcp, memory=replace(rt.hcp.memory, auto_extract=False))
    with tempfile.TemporaryDirectory(prefix="mol-gate-suite-") as tmp:
        scratch = ArmRuntime(hcp, engine=rt.engine, home=Path(tmp) / "home")
        scratch.arm_stacks = {slot: stack}
        try:
            rows = run_single(scratch, picked)
        finally:
            scratch.close_stores()
    return sum(r.score for r in rows) / len(rows)
