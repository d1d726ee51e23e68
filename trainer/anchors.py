"""Anchors: general questions with plain answers, mixed into every night's training.

Why: a personal layer learns the user's facts and their style. The style (the
simulated user's "Sure thing — … Anything else?") also leaks into answers to
general questions: the gate's regression set measured that leak at +8.1 % NLL
after one epoch on 67 conversations, far over the 1 % allowed. Rehearsing a
few general questions answered plainly, alongside the user's data, tells the
layer where the style does not belong.

The anchors (trainer/data/anchors.jsonl, written for this) share no prompt
with the regression set, so the gate still scores questions the layer never
saw. (Anchoring to the base's own greedy answers was tried first: the 135M
base loops or switches language on half of these prompts within 64 tokens.)
Anchors hold no user data: they are not consent-checked and never listed in a
manifest's training_data_ids.
"""

from __future__ import annotations

import json
from pathlib import Path

from mol_local.turn.view import ViewSpec
from trainer.examples import Example, Tokenizer, qa_example

DATA = Path(__file__).resolve().parent / "data" / "anchors.jsonl"
PREFIX = "anchor:"


def pairs() -> list[tuple[str, str]]:
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [(r["prompt"], r["answer"]) for r in rows]


def is_anchor(example: Example) -> bool:
    return example.training_id.startswith(PREFIX)


def anchor_examples(tok: Tokenizer, spec: ViewSpec, count: int) -> list[Example]:
    """The first `count` anchors in `spec`'s view (its head, the question, the answer as the only target)."""
    return [qa_example(tok, spec.head, prompt, answer, f"{PREFIX}{i}") for i, (prompt, answer) in enumerate(pairs()[: max(0, count)])]
