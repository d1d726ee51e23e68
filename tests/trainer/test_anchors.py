"""Anchors: plain answers to general questions, never the regression set's prompts, never user data."""

from __future__ import annotations

import json

from trainer.anchors import anchor_examples, is_anchor, pairs
from trainer.examples import IGNORE, Tokenizer
from trainer.gate import DATA


def test_anchor_prompts_share_nothing_with_the_regression_set() -> None:
    regression = {json.loads(line)["prompt"] for line in (DATA / "regression.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()}
    prompts = [p for p, _ in pairs()]
    assert len(prompts) >= 40 and len(set(prompts)) == len(prompts) and not set(prompts) & regression


def test_anchor_examples_are_the_slots_view_with_only_the_answer_as_target(runtime) -> None:
    from mol_local.turn.view import ViewSpec
    from trainer.hf import load_base

    _, hf_tok = load_base(runtime.model_path())
    tok = Tokenizer(hf_tok)
    spec = ViewSpec("L1", runtime.head("L1"), runtime.slot_names())
    got = anchor_examples(tok, spec, 3)
    assert len(got) == 3 and all(is_anchor(e) for e in got) and anchor_examples(tok, spec, 0) == []
    prompt, answer = pairs()[0]
    view = [{"role": "system", "content": spec.head}, {"role": "user", "content": prompt}]
    assert got[0].input_ids[: len(tok.tokenize_messages(view))] == tok.tokenize_messages(view)
    assert hf_tok.decode([t for t in got[0].labels if t != IGNORE], skip_special_tokens=True).strip() == answer
    assert len(anchor_examples(tok, spec, 10_000)) == len(pairs())
