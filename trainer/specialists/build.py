"""From verified cases to a trained specialist folder: data -> own-view sequences -> LoRA -> GGUF."""

from __future__ import annotations

import json
from pathlib import Path

from trainer.specialists.data import SLOTS, all_cases, data_sha256, scratch_runtime
from trainer.specialists.recipe import SpecialistConfig, train_specialist
from trainer.specialists.sequences import build_sequences

DATA_SEED = 0  # the data is the same for every training seed; seeds vary only the LoRA's start and order


def slot_sequences(slots: tuple[str, ...], cases: dict, rt, engine, *, seed: int, max_len: int) -> list:
    """Own-view sequences for `slots`, each case opening a conversation drawn from every slot's train cases."""
    from mol_local.turn.view import ViewSpec

    pool = [c for slot in SLOTS for c in cases[slot]]

    def tokenize(messages, add_generation_prompt: bool) -> list[int]:
        return engine.tokenize_messages(messages, add_generation_prompt=add_generation_prompt)

    out = []
    for slot in slots:
        spec = ViewSpec(slot, rt.head(slot), rt.slot_names())
        out += build_sequences(cases[slot], pool, spec, rt.pack.summary, tokenize, seed=seed, max_len=max_len)
    return out


def build_and_train(cfg: SpecialistConfig, out: Path, *, log=print) -> dict:
    from mol_local.adapters.manifest import hashed_id
    from mol_local.engine.llamacpp import LlamaCppEngine
    from mol_local.models import resolve_model

    slots = SLOTS if cfg.slot == "union" else (cfg.slot,)
    cases = all_cases("train", seed=DATA_SEED, scale=cfg.scale)
    trained = [c for slot in slots for c in cases[slot]]
    log("verified train cases: " + ", ".join(f"{s} {len(cases[s])}" for s in SLOTS))
    engine = LlamaCppEngine(resolve_model("builtin:smollm2-135m"), n_ctx=cfg.max_len + 64, sequences=("tok",))
    try:
        with scratch_runtime() as rt:
            sequences = slot_sequences(slots, cases, rt, engine, seed=cfg.seed, max_len=cfg.max_len)
    finally:
        engine.close()
    report = train_specialist(cfg, sequences, out, log=log)
    report["cases"] = {s: len(cases[s]) for s in slots}
    report["data_sha256"] = data_sha256(trained)
    report["training_data_ids"] = sorted(hashed_id(f"specialist:{c.slot}:{c.case_id}") for c in trained)
    report["templates"] = sorted({c.template for c in trained})
    (out / "train_report.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    return report
