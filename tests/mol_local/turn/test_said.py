"""What the person said is found later from another conversation (memories of kind "said"): kept by the turn's
commit, never listed as a fact, never from a question, shown once beside a fact read from the same message,
carrying its conversation's consent, and gone with a forget of that conversation."""

from __future__ import annotations

import pytest

from memory import fts
from memory.consent import set_consent, tainted_tasks
from memory.store import SAID
from mol_local.turn.recall import recall, said_row

pytestmark = pytest.mark.slow

PLUMBER = "The plumber Dave Okafor is coming on Tuesday to fix the kitchen sink"
ASKED = "what did I tell you about the plumber?"


@pytest.fixture
def runtime(engine, tmp_path):
    """Short budgets and no memory tools: what is stored is the turn's own (said) and extraction's."""
    from hcp import load_hcp
    from mol_local.runtime import Runtime
    from tests.memory.conftest import write_hcp

    path = write_hcp(tmp_path / "h.toml", answer={"max_tokens": 24}, summary={"max_tokens": 16}, tools={"enabled": ["python"]})
    rt = Runtime(load_hcp(path), engine=engine)
    yield rt
    rt.db.close()


def said_rows(rt) -> list:
    return [r for r in rt.memory.store.list(said=True) if r.kind == SAID]


@pytest.mark.parametrize("text", ["What is the capital of France?", "how do I boil an egg", "ok thanks", "/remember x y z w",
                                  "Remind me to buy milk on Saturday at 10am", "You can cross 'call the dentist' off my reminders now"])
def test_questions_commands_and_a_few_words_are_not_kept(runtime, text: str) -> None:
    assert said_row(runtime, text, "c1") is None


def test_a_note_asked_for_is_kept_as_its_words(runtime) -> None:
    """`mol chat`: weeks after "Note that the boiler was serviced on 2 November", "When was the boiler serviced?" got
    "The boiler serviced on Dec 5 2026." — the request had not been kept, so nothing of it reached the tail."""
    row = said_row(runtime, "Note that the boiler was serviced on 2 November", "c1")
    assert row is not None and row.text == 'You said: "the boiler was serviced on 2 November"'
    assert said_row(runtime, "Write down that the wifi password is in the blue drawer, thanks", "c1").text == \
        'You said: "the wifi password is in the blue drawer"'  # type: ignore[union-attr]


def test_an_api_clients_turn_is_not_kept(runtime) -> None:
    assert said_row(runtime, PLUMBER, "c1") is not None and said_row(runtime, PLUMBER, "c1", source="api") is None


def test_a_message_is_found_from_another_conversation_and_is_not_a_listed_fact(runtime) -> None:
    a = runtime.session()
    a.run_turn(PLUMBER)
    a.run_turn("What is the capital of France?")
    (row,) = said_rows(runtime)
    assert row.text == f'You said: "{PLUMBER}"' and row.conversation_id == a.conversation_id
    first = runtime.db.execute("select id, content from messages where task_id = ? order by seq limit 1", [a.tasks[0].id]).fetchone()
    assert row.source_message_id == first[0] and first[1] == PLUMBER  # linked to the message, like a /remember
    assert all(r.kind != SAID for r in runtime.memory.store.list()) and runtime.memory.store.count(said=False) == 0

    elsewhere = recall(runtime, ASKED, runtime.session().conversation_id)
    assert [r.memory.id for r in elsewhere][:1] == [row.id]
    unrelated = recall(runtime, "Good morning, a quiet day today", runtime.session().conversation_id)
    assert all(r.memory.kind != SAID for r in unrelated)  # a whole message is loosely like many: only a close one comes
    assert [r.memory.id for r in recall(runtime, ASKED, a.conversation_id)][:1] == [row.id]  # asked in the same conversation too
    assert runtime.memory.nearest(PLUMBER, threshold=0.5) is None  # extraction never compares a fact with it


def test_a_fact_and_the_message_it_was_read_from_show_once(runtime) -> None:
    a = runtime.session()
    result = a.run_turn("My dog is called Biscuit and he loves the beach")
    assert [c.text for c in result.memory_changes] == ["The user's dog is called Biscuit."]
    assert len(said_rows(runtime)) == 1
    found = recall(runtime, "What is my dog called?", runtime.session().conversation_id)
    assert [r.memory.text for r in found if "Biscuit" in r.memory.text] == ["The user's dog is called Biscuit."]


def test_said_in_a_conversation_without_consent_keeps_the_turn_that_recalls_it_out_of_training(runtime) -> None:
    private = runtime.session()
    private.run_turn(PLUMBER)  # consent is off by default
    shared = runtime.session()
    shared.run_turn("Good morning, a quiet day today")
    set_consent(runtime.db, shared.conversation_id, True)
    shared.run_turn(ASKED)
    assert shared.tasks[0].id not in tainted_tasks(runtime.db)  # the control: before the plumber was in view
    assert shared.tasks[-1].id in tainted_tasks(runtime.db)


def test_forgetting_the_conversation_removes_what_was_said_from_every_index(runtime) -> None:
    from mol_local.forget import forget_conversation

    a = runtime.session()
    a.run_turn(PLUMBER)
    runtime.memory.ensure_ready()
    assert fts.keyword_search(runtime.db, "Okafor", 5) and runtime.memory.search("Dave Okafor the plumber", 5)
    forget_conversation(runtime, a.conversation_id)
    assert said_rows(runtime) == [] and fts.keyword_search(runtime.db, "Okafor", 5) == []
    assert runtime.memory.search("Dave Okafor the plumber", 5) == []


def test_a_request_kept_by_an_older_version_never_reaches_the_tail(runtime) -> None:
    """In a tail, "You said: Remind me to call the dentist tomorrow at 9am" was answered instead of done: the next
    reminder request got "You told me to buy milk on Saturday at 10am." and no reminder."""
    from memory.db import transaction
    from memory.store import insert_rows, new_memory

    kept = [new_memory(f'You said: "{t}"', kind=SAID, origin="said", conversation_id="old") for t in
            ("Remind me to buy milk on Saturday at 10am", PLUMBER)]
    with transaction(runtime.db):
        insert_rows(runtime.db, kept)
    runtime.memory.index_rows([runtime.memory.store.get(r.id) for r in kept])
    shown = [r.memory.text for r in recall(runtime, "Remind me to buy milk on Saturday at 10am", runtime.session().conversation_id)]
    assert not [t for t in shown if "buy milk" in t]
    assert [r.memory.id for r in recall(runtime, ASKED, runtime.session().conversation_id)][:1] == [kept[1].id]  # the control
