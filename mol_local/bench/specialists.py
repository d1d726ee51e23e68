"""`mol bench specialists`: the four answer slots, scored on held-out templates, in several arms in one run.

Arms (each a set of adapter stacks over the same base, engine and router):
- bare: every slot runs the base with its persona (what shipped before the specialists);
- specialists: each slot its own shipped (or given) specialist; one entry per training seed;
- union: one LoRA of the same total budget trained on all four slots' data, on every slot;
- personal: the specialists with a personal layer stacked on top (the nightly trainer's output).
Every arm runs the held-out cases as fresh single turns and inside scripted
multi-turn conversations that visit all four slots. Also: route accuracy on
the same held-out requests (the shipped router), and decode tok/s with vs
without a specialist on the same prompt.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from mol_local.engine.base import AdapterSpec, Stack
from mol_local.runtime import Runtime
from trainer.specialists.cases import Case
from trainer.specialists.data import SLOTS, slot_cases
from trainer.specialists.suite import ArmRuntime, interleave, run_conversations, run_single, summarize


def specialist_stacks(folder: Path) -> dict[str, Stack]:
    """{slot: (its specialist,)} from a folder holding smollm2-l0 … smollm2-l3 (the shipped layout)."""
    out = {}
    for slot in SLOTS:
        gguf = folder / f"smollm2-{slot.lower()}" / "adapter.gguf"
        if gguf.is_file():
            out[slot] = (AdapterSpec(str(gguf), 1.0),)
    return out


def arms_from(spec_dirs: Sequence[Path], union_ggufs: Sequence[Path], personal_dir: Path | None, *, bare: bool = True) -> dict[str, dict[str, Stack]]:
    """The arms to run: bare, one per specialists folder (seed), one per union LoRA, and specialists + personal."""
    arms: dict[str, dict[str, Stack]] = {"bare": {}} if bare else {}
    for i, folder in enumerate(spec_dirs):
        arms["specialists" if i == 0 else f"specialists_seed{i}"] = specialist_stacks(folder)
    for i, gguf in enumerate(union_ggufs):
        arms["union" if i == 0 else f"union_seed{i}"] = {slot: (AdapterSpec(str(gguf), 1.0),) for slot in SLOTS}
    if personal_dir is not None and spec_dirs:
        first = specialist_stacks(spec_dirs[0])
        personal = {slot: (AdapterSpec(str(personal_dir / f"{slot}.gguf"), 1.0),) for slot in SLOTS if (personal_dir / f"{slot}.gguf").is_file()}
        arms["specialists_personal"] = {slot: first.get(slot, ()) + personal.get(slot, ()) for slot in SLOTS}
    return arms


def heldout(n_per_slot: int, slots: Sequence[str], seed: int = 0, split: str = "heldout") -> dict[str, list[Case]]:
    """`n_per_slot` cases per slot spread evenly over the split's templates (held-out unless asked)."""
    out = {}
    for slot in slots:
        cases, _ = slot_cases(slot, split, seed=seed)
        step = max(1, len(cases) // n_per_slot) if n_per_slot else 1
        out[slot] = cases[::step][:n_per_slot] if n_per_slot else cases
    return out


def decode_ratio(rt: ArmRuntime, stack: Stack, tokens: int = 96) -> dict[str, float]:
    """Decode tok/s of the same prompt on L1's sequence, bare vs with `stack`, alternating 3 times."""
    from mol_local.engine.base import GenerationRequest

    view = [{"role": "system", "content": rt.head("L1")}, {"role": "user", "content": "Plan a relaxed Saturday in three steps."}]
    speeds: dict[str, list[float]] = {"bare": [], "specialist": []}
    for _ in range(3):
        for name, st in (("bare", ()), ("specialist", stack)):
            r = rt.engine.generate(GenerationRequest(seq="L1", messages=view, stack=st, max_tokens=tokens, ignore_eos=True))
            speeds[name].append(r.completion_tokens / max(1e-9, r.timings_ms["decode"] / 1000))
    bare, spec = statistics.median(speeds["bare"]), statistics.median(speeds["specialist"])
    return {"bare_tok_s": round(bare, 1), "specialist_tok_s": round(spec, 1), "ratio": round(spec / bare, 3)}


def route_accuracy(rt: Runtime, cases: dict[str, list[Case]]) -> dict[str, Any]:
    router = rt.router
    rows = [(c.slot, router.route(c.request).slot) for slot in cases for c in cases[slot]]
    by = {s: [r for r in rows if r[0] == s] for s in cases}
    return {"accuracy": round(sum(a == b for a, b in rows) / max(1, len(rows)), 4),
            "per_slot": {s: round(sum(a == b for a, b in v) / max(1, len(v)), 4) for s, v in by.items()}}


def run_bench(arms: dict[str, dict[str, Stack]], *, n_per_slot: int = 30, turns: int = 12, conversations: int = 2,
              slots: Sequence[str] = SLOTS, log=print, split: str = "heldout") -> dict[str, Any]:
    from hcp import load_profile

    cases = heldout(n_per_slot, slots, split=split)
    log(f"{split} cases: " + ", ".join(f"{s} {len(v)}" for s, v in cases.items()))
    result: dict[str, Any] = {"bench": "specialists", "split": split, "n_per_slot": {s: len(v) for s, v in cases.items()},
                              "arms": {}}
    with tempfile.TemporaryDirectory(prefix="mol-bench-specialists-") as tmp:
        base = load_profile("local-default")
        hcp = replace(base, memory=replace(base.memory, auto_extract=False))  # score what the slot did, not extraction
        rt = ArmRuntime(hcp, home=Path(tmp) / "home")
        try:
            rt.warm_router()
            result["route"] = route_accuracy(rt, cases)
            log(f"route accuracy on {split} requests: {result['route']['accuracy']}")
            scripts = interleave(cases, turns, conversations)
            for name, stacks in arms.items():
                t0 = time.perf_counter()
                rt.arm_stacks = stacks
                single = run_single(rt, [c for s in slots for c in cases[s]])
                multi = run_conversations(rt, scripts)
                result["arms"][name] = {"single": summarize(single), "conversation": summarize(multi), "seconds": round(time.perf_counter() - t0, 1),
                                        "rows": [asdict(r) for r in single + multi]}
                log(f"{name}: single {_brief(result['arms'][name]['single'])} | conversation {_brief(result['arms'][name]['conversation'])}")
            some = next((st for stacks in arms.values() for st in stacks.values() if st), ())
            if some:
                result["decode"] = decode_ratio(rt, some)
        finally:
            rt.close()
    return result


def _brief(summary: dict) -> str:
    return " ".join(f"{s}={summary[s]['pass']:.2f}" for s in SLOTS if s in summary) + f" copied={summary.get('copied_total', 0)}"
