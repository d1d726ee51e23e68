"""A case as a training sequence: the slot's real own view, loss only on what the slot wrote (answer, calls, summary)."""

from __future__ import annotations

import random

from memory.timeline import MessageRecord
from mol_local.turn.view import ViewSpec, build_view
from trainer.examples import IGNORE
from trainer.specialists.cases import Case
from trainer.specialists.sequences import as_task, build_sequence, build_sequences, history_for

CALL = '<tool_call>{"name": "reminders.create", "arguments": {"text": "call the dentist", "due": "tomorrow 9am"}}</tool_call>'
CASE = Case("L0", "remind_plain", "Remind me to call the dentist tomorrow at 9am",
            ({"role": "assistant", "content": CALL}, {"role": "tool", "content": "Reminder r1 set for Wed 2 Dec 2026, 09:00: call the dentist"},
             {"role": "assistant", "content": "Reminder set for Wed 2 Dec 2026, 09:00: call the dentist."}),
            "Asked for a reminder to call the dentist; set it for Wed 2 Dec 2026, 09:00.", {"now": "2026-12-01T20:53:00"})
OTHER = Case("L2", "fn", "Write is_even(n)", ({"role": "assistant", "content": "```python\ndef is_even(n):\n    return n % 2 == 0\n```"},),
             "Wrote is_even(n).", {})


def _tokenize(engine):
    return lambda messages, gen: engine.tokenize_messages(messages, add_generation_prompt=gen)


def test_labels_cover_the_calls_the_answer_and_the_summary_and_nothing_else(engine) -> None:
    spec = ViewSpec("L0", "You are Mol.", {"L0": "Chat", "L2": "Coding"})
    history = [as_task(OTHER, 0)]
    seq = build_sequence(CASE, history, spec, "Summarise.", _tokenize(engine), max_len=2048)
    assert seq is not None
    kept = [i for i, t in enumerate(seq.labels) if t != IGNORE]
    view = build_view(spec, history, [{"role": "user", "content": CASE.request}], now=None)
    assert kept and min(kept) > len(engine.tokenize_messages(view, add_generation_prompt=True))  # no head, history or request
    text = engine.model.detokenize([seq.ids[i] for i in kept], special=True).decode("utf-8", "replace")
    assert '"name": "reminders.create"' in text and "Reminder set for Wed 2 Dec 2026, 09:00" in text and CASE.summary in text
    assert "Reminder r1" not in text and "Summarise." not in text and "is_even" not in text  # tool output, instruction, history


def test_the_view_is_the_one_a_real_turn_builds(engine) -> None:
    spec = ViewSpec("L0", "You are Mol.", {"L0": "Chat", "L2": "Coding"})
    history = [as_task(OTHER, 0)]
    seq = build_sequence(CASE, history, spec, "Summarise.", _tokenize(engine), max_len=2048)
    from datetime import datetime

    current = [{"role": "user", "content": CASE.request}] + list(CASE.gold)
    view = build_view(spec, history, current, now=datetime(2026, 12, 1, 20, 53))
    assert view[1] == {"role": "user", "content": "Write is_even(n)"}  # the other slot's task: user text + summary
    assert view[2]["content"].endswith("Wrote is_even(n).")
    assert view[3]["content"].startswith("Now: Tue 1 Dec 2026, 20:53\n\n")
    full = view + [{"role": "user", "content": "Summarise."}, {"role": "assistant", "content": CASE.summary}]
    assert seq.ids == engine.tokenize_messages(full, add_generation_prompt=False)


def test_history_is_drawn_from_the_pool_never_the_case_itself_and_few_of_its_own_slot() -> None:
    pool = [CASE, OTHER] + [Case("L0", f"t{i}", f"q{i}", ({"role": "assistant", "content": "a"},), "s", {}) for i in range(20)]
    rng = random.Random(0)
    for _ in range(50):
        history = history_for(CASE, pool, rng, max_tasks=5, max_own=2)
        assert all(not t.id.endswith(CASE.case_id) for t in history)
        assert sum(t.slot == "L0" for t in history) <= 2
    assert any(isinstance(m, MessageRecord) for m in as_task(CASE, 0).messages)


def test_a_case_longer_than_max_len_drops_history_first_then_is_skipped(engine) -> None:
    spec = ViewSpec("L0", "You are Mol.", {"L0": "Chat", "L2": "Coding"})
    short = build_sequence(CASE, [as_task(OTHER, i) for i in range(6)], spec, "Summarise.", _tokenize(engine), max_len=220)
    alone = build_sequence(CASE, [], spec, "Summarise.", _tokenize(engine), max_len=220)
    assert short is not None and alone is not None and short.ids == alone.ids
    assert build_sequence(CASE, [], spec, "Summarise.", _tokenize(engine), max_len=150) is None


def test_a_question_about_what_this_conversation_was_told_has_the_telling_as_its_newest_turn(engine) -> None:
    told = {"request": "FYI, the plumber can only come on Friday morning",
            "answer": "Thanks for letting me know: the plumber can only come on Friday morning.",
            "summary": "The user told me the plumber can only come on Friday morning; I acknowledged it."}
    asked = Case("L0", "asked_tell", "What did I tell you about the plumber?", ({"role": "assistant", "content": "You told me the plumber can only come on Friday morning."},),
                 "Asked what they told me about the plumber; said it back.", {"told_before": told})
    spec = ViewSpec("L0", "You are Mol.", {"L0": "Chat", "L2": "Coding"})
    for seed in range(6):
        (seq,) = build_sequences([asked], [OTHER] * 4, spec, "Summarise.", _tokenize(engine), seed=seed)
        text = engine.model.detokenize(seq.ids, special=True).decode("utf-8", "replace")
        before = text.split("<|im_start|>user\nNow:")[0]  # the current turn starts with the clock line
        assert before.rstrip().endswith(told["answer"] + "<|im_end|>") and told["request"] in before  # verbatim, own slot, last
