"""L0 cases: held-out templates are whole templates, every kept case ran in the real harness, and wrong outcomes fail."""

from __future__ import annotations

import json
from datetime import datetime

import pytest

from trainer.specialists import chat_data, chat_more, chat_told
from trainer.specialists.data import scratch_runtime
from trainer.specialists.suite import copies_entry
from trainer.specialists.toolrun import Plan, materialize, minute


@pytest.fixture(scope="module")
def rt():
    with scratch_runtime() as runtime:
        yield runtime


def test_train_and_heldout_templates_are_disjoint_and_every_family_is_in_both() -> None:
    train = {p.template for p in chat_data.plans("train", scale=0.3)}
    held = {p.template for p in chat_data.plans("heldout", scale=0.3)}
    assert not train & held and held <= chat_data.HELDOUT | chat_more.HELDOUT | chat_told.HELDOUT | {"facts_heldout"}
    for family in ("remind", "note", "find", "remember", "recall", "facts", "clarify", "state", "talk", "past", "told", "asked"):
        assert any(t.startswith(family) for t in train) and any(t.startswith(family) for t in held), family


def test_heldout_fact_questions_are_never_trained_on() -> None:
    def asked(split: str) -> set[str]:
        requests = [p.request.lower() for p in chat_data.plans(split) if p.template.startswith("facts")]
        return {q for q, _a, _k in chat_data.FACTS if any(q.lower()[:-1] in r for r in requests)}

    train, held = asked("train"), asked("heldout")
    assert held and train and not train & held


def test_kept_cases_hold_the_real_tool_output_and_the_state_the_request_asked_for(rt) -> None:
    cases, dropped = chat_data.cases("train", rt, scale=0.1)
    assert dropped == 0 and len(cases) >= 40
    reminder = next(c for c in cases if c.template.startswith("remind"))
    call, result, answer = reminder.gold
    assert json.loads(call["content"][len("<tool_call>"):-len("</tool_call>")])["name"] == "reminders.create"
    assert result["role"] == "tool" and result["content"].startswith("Reminder ") and " set for " in result["content"]
    when = result["content"].split(" for ", 1)[1].split(": ")[0]
    assert when in answer["content"] and when in reminder.summary
    assert reminder.check["now"] and reminder.check["reminders"][0]["at"]


def test_a_reminder_at_the_wrong_minute_is_dropped(rt) -> None:
    now = datetime(2026, 12, 1, 20, 53)
    wrong = Plan("L0", "remind_plain", "Remind me to call the dentist tomorrow at 9am", now,
                 rounds=[lambda _o: [("reminders.create", {"text": "call the dentist", "due": "tomorrow at 10am"})]],
                 answer=lambda o: "Done.", summary=lambda o: "Set it.",
                 check={"reminders": [{"text": "call the dentist", "at": minute(now.replace(day=2, hour=9, minute=0))}]})
    kept, dropped = materialize([wrong], rt)
    assert kept == [] and "no reminder 'call the dentist'" in dropped[0][1]


def test_copying_an_earlier_entry_is_caught_and_a_fresh_answer_is_not() -> None:
    summary = "Asked for a reminder to call the dentist; set it for Wed 2 Dec 2026, 09:00."
    assert copies_entry("The user asked for a reminder to call the dentist; set it for Wed 2 Dec 2026, 09:00.", [summary])
    assert copies_entry("[Chat (L0) handled this] Asked: something", [])
    assert not copies_entry("Reminder set for Fri 4 Dec 2026, 15:00: pay the rent.", [summary])
    doc = '{"catalog":"1","title":"Ski trip","components":[]}'
    assert not copies_entry('{"catalog":"1","title":"Groceries","components":[]}', [doc]) and copies_entry(doc, [doc])


def test_a_small_number_in_digits_says_the_word_the_check_asks_for() -> None:
    from trainer.specialists.toolrun import _says

    assert _says("A week has 7 days.", "seven") and _says("A hexagon has six sides.", "6")
    assert not _says("There are 17 days.", "seven") and not _says("It costs 7.5.", "seven")
