"""Scores and the promotion gate.

NLL is the mean negative log-likelihood per assistant token, computed in
transformers on the same base. Route accuracy runs the real router in
llama.cpp with the entry slot's route stack (specialist + personal layer).
Thresholds come from HCP [trainer.gate].
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from mol_local.turn.view import ViewSpec
from trainer.examples import IGNORE, Example, Tokenizer, qa_example

DATA = Path(__file__).resolve().parent / "data"


def nll(model, examples: Sequence[Example], pad_id: int, batch_size: int = 4) -> float:
    """Mean NLL per loss token over `examples` (nan when there are none)."""
    import torch

    from trainer.train import collate, release_memory, target_losses

    if not examples:
        return float("nan")
    total, count = 0.0, 0
    ordered = sorted(examples, key=lambda e: len(e.input_ids))
    with torch.no_grad():
        for i in range(0, len(ordered), batch_size):
            losses, _ = target_losses(model, *collate(list(ordered[i : i + batch_size]), pad_id))
            total += float(losses.sum())
            count += len(losses)
    release_memory()
    return total / max(count, 1)


def nll_per_char(model, examples: Sequence[Example], pad_id: int, decode: Callable[[list[int]], str], batch_size: int = 4) -> list[float]:
    """Per example: summed NLL of its loss tokens over the characters they decode to (nats/char).

    Per character, not per token: random strings split into many short tokens
    that the model partly predicts in context, so their per-token NLL sits
    near that of real answers with rare names, while their per-character NLL
    (the base model's compression rate) is several times higher.
    """
    import torch

    from trainer.train import collate, release_memory, target_losses

    out = [0.0] * len(examples)
    order = sorted(range(len(examples)), key=lambda i: len(examples[i].input_ids))
    with torch.no_grad():
        for start in range(0, len(order), batch_size):
            idx = order[start : start + batch_size]
            losses, rows = target_losses(model, *collate([examples[i] for i in idx], pad_id))
            loss = torch.zeros(len(idx)).index_add_(0, rows, losses)
            for row, i in enumerate(idx):
                chars = len(decode([t for t in examples[i].labels if t != IGNORE]))
                out[i] = float(loss[row]) / max(chars, 1)
    release_memory()
    return out


def regression_examples(spec: ViewSpec, tok: Tokenizer, *, limit: int | None = None) -> list[Example]:
    """The frozen regression set, each prompt in the slot's view with its reference answer as the target."""
    rows = [json.loads(line) for line in (DATA / "regression.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    return [qa_example(tok, spec.head, row["prompt"], row["reference"], f"regression:{i}") for i, row in enumerate(rows[:limit])]


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
    """Fraction of `rows` the real grammar router sends to the labelled slot with this route stack.

    Always the grammar path: that is what the stack changes (in hybrid mode it decides every
    request the embeddings head is unsure of).
    """
    from mol_local.router import Router

    hcp = runtime.hcp
    router = Router(
        runtime.engine,
        instruction=runtime.pack.route,
        labels=list(hcp.slots),
        mode="grammar",
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
    # Bounded against the bare base: a reference that never moves, so nights just under the bar cannot compound
    # into drift. Not against the active stack: once a layer answered general questions better than the base
    # (rehearsed anchors: -28 % NLL), requiring every later night to keep all of that froze learning (nights 2
    # and 3 of the learning bench were rejected at +24 % / +4 % vs the active stack while -12 % / -26 % vs base).
    reg_base = metrics.get("regression_nll_base", reg_before)
    out["regression_delta_base_rel"] = reg_base_delta = (reg_after - reg_base) / reg_base
    if reg_base_delta > gate.regression_worse_max_rel:
        return GateResult(False, f"regression-set NLL worsened {reg_base_delta:+.2%} vs the base model, above the allowed {gate.regression_worse_max_rel:.2%}", out)
    if gate.route_accuracy_not_lower and "route_acc_before" in metrics and metrics["route_acc_after"] < metrics["route_acc_before"]:
        return GateResult(False, f"route accuracy fell from {metrics['route_acc_before']:.2%} to {metrics['route_acc_after']:.2%}", out)
    suite_before, suite_after = metrics.get("specialist_suite_before"), metrics.get("specialist_suite_after")
    drop_max = getattr(gate, "specialist_drop_max", 2.0)
    if suite_before is not None and suite_after is not None and (suite_before - suite_after) * 100 > drop_max:
        return GateResult(False, f"the slot's specialist suite fell from {suite_before:.1%} to {suite_after:.1%}, more than the allowed {drop_max:g} points", out)
    return GateResult(True, f"held-out NLL {gain:+.2%}, regression {reg_delta:+.2%} (vs base {reg_base_delta:+.2%})", out)


def quality_split(scores: Sequence[float], gate) -> tuple[list[int], list[int]]:
    """(kept, dropped) indices: an example whose base-model NLL per character exceeds
    [trainer.gate] data_nll_per_char_max is garbage or adversarial noise, never trained on or scored."""
    kept = [i for i, s in enumerate(scores) if s <= gate.data_nll_per_char_max]
    return kept, [i for i in range(len(scores)) if i not in set(kept)]
