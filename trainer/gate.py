"""Scores and the promotion gate.

NLL is the mean negative log-likelihood per assistant token, computed in
transformers on the same base. Route accuracy runs the real router in
llama.cpp with the entry slot's route stack (specialist + personal layer).
Thresholds come from HCP [trainer.gate].
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from mol_local.views import ViewSpec
from trainer.examples import IGNORE, Example, Tokenizer

DATA = Path(__file__).resolve().parent / "data"


def nll(model, examples: Sequence[Example], pad_id: int, batch_size: int = 4) -> float:
    """Mean NLL per loss token over `examples` (nan when there are none)."""
    import torch

    from trainer.train import collate

    if not examples:
        return float("nan")
    total, count = 0.0, 0
    ordered = sorted(examples, key=lambda e: len(e.input_ids))
    with torch.no_grad():
        for i in range(0, len(ordered), batch_size):
            ids, labels, mask = collate(list(ordered[i : i + batch_size]), pad_id)
            logits = model(input_ids=ids, attention_mask=mask).logits[:, :-1]
            target = labels[:, 1:]
            loss = torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), target.reshape(-1), ignore_index=IGNORE, reduction="sum")
            total += float(loss)
            count += int((target != IGNORE).sum())
    return total / max(count, 1)


def regression_examples(spec: ViewSpec, tok: Tokenizer, *, limit: int | None = None) -> list[Example]:
    """The frozen regression set, each prompt in the slot's view with its reference answer as the target."""
    rows = [json.loads(line) for line in (DATA / "regression.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    out = []
    for i, row in enumerate(rows[:limit]):
        view = [{"role": "system", "content": spec.head}, {"role": "user", "content": row["prompt"]}]
        before = tok.tokenize_messages(view, add_generation_prompt=True)
        ids = tok.tokenize_messages(view + [{"role": "assistant", "content": row["reference"]}], add_generation_prompt=False)
        labels = [IGNORE] * len(before) + ids[len(before) :]
        out.append(Example(f"regression:{i}", ids, labels))
    return out


def route_set(limit: int | None = None) -> list[dict]:
    rows = [json.loads(line) for line in (DATA / "route_set.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    if limit is None:
        return rows
    per: dict[str, list[dict]] = {}
    for r in rows:
        per.setdefault(r["slot"], []).append(r)
    k = max(1, limit // max(1, len(per)))
    return [r for group in per.values() for r in group[:k]]


def route_accuracy(runtime, stack, rows: Sequence[dict]) -> float:
    """Fraction of `rows` the real router sends to the labelled slot with this route stack."""
    from mol_local.router import Router

    hcp = runtime.hcp
    router = Router(
        runtime.engine,
        instruction=runtime.pack.route,
        labels=list(hcp.slots),
        mode=hcp.routing_mode,
        entry_slot=hcp.entry_slot,
        fallback=hcp.route_fallback,
        max_tokens=hcp.route_max_tokens,
        stack=tuple(stack),
        use_grammar=True,
    )
    hits = sum(router.route(r["text"]).slot == r["slot"] for r in rows)
    return hits / max(1, len(rows))


@dataclass(frozen=True)
class GateResult:
    promote: bool
    reason: str
    metrics: dict


def decide(metrics: dict, gate) -> GateResult:
    """Apply HCP [trainer.gate] to before/after scores; the reason names the failed check."""
    before, after = metrics["holdout_nll_before"], metrics["holdout_nll_after"]
    reg_before, reg_after = metrics["regression_nll_before"], metrics["regression_nll_after"]
    gain = (before - after) / before
    reg_delta = (reg_after - reg_before) / reg_before
    out = {**metrics, "new_gain_rel": gain, "regression_delta_rel": reg_delta}
    if gain < gate.new_data_gain_min_rel:
        return GateResult(False, f"held-out NLL improved {gain:+.2%}, below the required {gate.new_data_gain_min_rel:.2%}", out)
    if reg_delta > gate.regression_worse_max_rel:
        return GateResult(False, f"regression-set NLL worsened {reg_delta:+.2%}, above the allowed {gate.regression_worse_max_rel:.2%}", out)
    if gate.route_accuracy_not_lower and "route_acc_before" in metrics and metrics["route_acc_after"] < metrics["route_acc_before"]:
        return GateResult(False, f"route accuracy fell from {metrics['route_acc_before']:.2%} to {metrics['route_acc_after']:.2%}", out)
    return GateResult(True, f"held-out NLL {gain:+.2%}, regression {reg_delta:+.2%}", out)
