"""Extraction: statements about the person become memories (ADD / UPDATE / DELETE / NONE); questions never do."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mol_local.extract import MemoryChange, apply_statements, past_tense, undo_change
from mol_local.statements import is_request, key_of, second_person, statements

DATA = Path(__file__).resolve().parents[2] / "memory" / "data"


@pytest.mark.parametrize(
    ("said", "key", "text"),
    [
        ("My name is Ada", "name", "The user's name is Ada."),
        ("I'm Mei, by the way", "name", "The user's name is Mei."),
        ("Remember that my dog is called Biscuit", "my:dog", "The user's dog is called Biscuit."),
        ("I moved to Leeds last month", "home", "The user lives in Leeds."),
        ("my favorite fruit is mango!", "favourite:fruit", "The user's favourite fruit is mango."),
        ("I have a cat named Pepper", "my:cat", "The user's cat is called Pepper."),
        ("My dog is called Biscuit and he loves the beach", "my:dog", "The user's dog is called Biscuit."),  # not "… and he loves …"
        ("I'm allergic to peanuts", None, "The user is allergic to peanuts."),
        ("Please keep in mind that I am allergic to shellfish", None, "The user is allergic to shellfish."),  # held-out L0: nothing kept
        ("Mol, keep in mind that my cat is called Olive — thank you", "my:cat", "The user's cat is called Olive."),  # had "Olive —"
        ("Please don't forget that my car is a blue Golf", "my:car", "The user's car is a blue Golf."),
        ("My sister's birthday is on March 3rd, remember that", "my:sister's birthday", "The user's sister's birthday is March 3rd."),
        ("my dog is called Biscuit - don't forget it", "my:dog", "The user's dog is called Biscuit."),  # had "Biscuit -"
        ("My favourite film is Remember the Titans", "favourite:film", "The user's favourite film is Remember the Titans."),
        ("I need to remember that my wifi password is sunflower42", "my:wifi password", "The user's wifi password is sunflower42."),  # mol chat
        ("I need to remember to buy milk", None, "The user needs to remember to buy milk."),  # no "that": not a lead-in
    ],
)
def test_a_statement_reads_as_a_keyed_memory_in_the_third_person(said: str, key: str | None, text: str) -> None:
    (found,) = statements(said)
    assert (found.key, found.text) == (key, text)
    assert key_of(found.text)[0] == key  # the key is read back from what is stored


@pytest.mark.parametrize("said", ["What is my dog called?", "Do you remember my name", "Remind me to call the dentist at 9",
                                  "I'm tired", "My code is broken", "I like it", "Hi!", "Note that the plumber comes Friday",
                                  "Write a function that reverses my list", "Set a reminder for my sister's birthday",
                                  "Remember this for me please"])  # had: "For the user please."
def test_questions_requests_and_passing_states_are_not_statements(said: str) -> None:
    assert statements(said) == []


def test_two_statements_in_one_sentence_and_the_request_check() -> None:
    assert [s.key for s in statements("My favourite colour is green and I live in Porto.")] == ["favourite:colour", "home"]
    assert is_request("Can you tell me my name?") and is_request("remind me to stretch") and not is_request("Remember that I'm vegan")
    both = statements("I'm vegetarian and allergic to peanuts")  # the TUI: nothing was kept, so meal ideas ignored both
    assert [s.text for s in both] == ["The user is vegetarian.", "The user is allergic to peanuts."]
    assert statements("I'm tired and hungry") == []  # a passing state, whole or halved
    hi = statements("Hi! I'm Sam, I just moved to Bristol")  # mol chat -c: nothing kept, then "What's my name?" got "Danielle"
    assert [s.text for s in hi] == ["The user's name is Sam.", "The user lives in Bristol."]
    her = statements("Her birthday is on the 2nd of February", before="My wife's name is Elena")  # mol chat -c: nothing was kept
    assert [s.text for s in her] == ["The user's wife's birthday is on the 2nd of February."]
    assert statements("Her birthday is on the 2nd of February", before="I like cheese") == []
    coffee = statements("Remember that I take my coffee with oat milk")  # mol chat: kept as "The user's coffee with oat milk"
    assert [s.text for s in coffee] == ["The user takes the user's coffee with oat milk."]
    assert second_person(coffee[0].text) == "you take your coffee with oat milk."
    assert [s.text for s in statements("Remember that I always park on level 2")] == ["The user always parks on level 2."]
    son = statements("My son is allergic to nuts")  # mol chat -c: it replaced "The user's son is called Leo."
    assert [(s.key, s.text) for s in son] == [(None, "The user's son is allergic to nuts.")] and key_of(son[0].text) == (None, "")


@pytest.mark.parametrize(("said", "texts"), [
    ("My dentist is Dr Patel and her office is on Elm Street",
     ["The user's dentist is Dr Patel.", "The user's dentist's office is on Elm Street."]),
    ("My mum is called Ann and she lives in Leeds", ["The user's mum is called Ann.", "The user's mum lives in Leeds."]),
    ("My dog is called Biscuit and he's a beagle",  # the TUI: only the name was remembered
     ["The user's dog is called Biscuit.", "The user's dog is a beagle."]),
    ("My new phone number is 07700 900123", ["The user's phone number is 07700 900123."]),  # mol chat: nothing was kept
    ("My new address is 4 Elm Street", ["The user's address is 4 Elm Street."]),  # not "address are"
    ("My partner's name is Sam and our anniversary is on 3 June",  # mol chat: kept whole, "our" and all
     ["The user's partner is called Sam.", "The user's anniversary is 3 June."]),
    ("My boss is called Ingrid. His phone number is 0781 223 441",
     ["The user's boss is called Ingrid.", "The user's boss's phone number is 0781 223 441."]),
    ("I like tea and she likes coffee", ["The user likes tea."]),  # no "my X" before it: nobody to read "she" as
    ("My daughter Lily starts school on 8 January",  # mol chat: nothing kept, and "What's my daughter's name?" unknown
     ["The user's daughter is called Lily.", "The user's daughter Lily starts school on 8 January."]),
    ("My little brother Tom lives in Paris and he works at a bakery",
     ["The user's little brother is called Tom.", "The user's little brother Tom lives in Paris.", "The user's little brother works at a bakery."]),
    ("My daughter's name is Lily and she is 7",  # mol chat -c: "The user's daughter is 7." lost to "How old is Lily?"
     ["The user's daughter is called Lily.", "The user's daughter is 7 years old."]),
    ("My son Tom is 12", ["The user's son is called Tom.", "The user's son Tom is 12 years old."]),
    ("My friend Sam and I went out", []), ("my son max is 7", []),  # no verb after the name; no capital: not read as a name
    ("My code is broken and it is late", []),
])
def test_a_pronoun_after_a_statement_about_someone_is_about_them(said: str, texts: list[str]) -> None:
    """Seen with `mol chat`: only "The user's dentist is Dr Patel." was kept, and "Where is my dentist's office?" had no answer."""
    assert [s.text for s in statements(said)] == texts


def test_a_later_statement_about_the_same_thing_of_theirs_has_the_same_key() -> None:
    (office,) = statements("My dentist's office is on Elm Street")
    assert office.key == statements("My dentist is Dr Patel and her office is on Oak Road")[1].key == "my:dentist's office"
    assert key_of("The user's dentist's office is on Oak Road.")[0] == office.key


@pytest.mark.parametrize("text", ["You can cross 'call the dentist' off my reminders now, it's done", "I need to call Sam at 3, remind me",
                                  "Tick off my reminder to buy milk", "Translate 'good morning' into French", "Let's plan the week",
                                  "buy milk is done, please mark it done", "Note that the plumber comes on Tuesday"])
def test_requests_in_other_forms_are_requests(text: str) -> None:
    assert is_request(text)


@pytest.mark.parametrize("text", ["The plumber Dave Okafor is coming on Tuesday", "Remember that I'm vegan", "I finished my homework",
                                  "My dog is called Biscuit", "Heads up: the landlord wants to inspect the flat next Wednesday"])
def test_statements_are_not_requests(text: str) -> None:
    assert not is_request(text)


def test_the_labelled_set_has_no_statement_read_from_a_non_statement() -> None:
    rows = [json.loads(line) for line in (DATA / "statements_set.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r["text"] for r in rows if not r["want"] and statements(r["text"])] == []


@pytest.fixture
def bank(tmp_path):
    from memory.bank import MemoryBank
    from memory.db import open_db

    db = open_db(tmp_path / "mol.db")
    yield MemoryBank(db, tmp_path / "chroma")
    db.close()


@pytest.mark.slow
def test_a_later_statement_updates_the_memory_instead_of_contradicting_it(bank) -> None:
    (added,) = apply_statements(bank, statements("I live in York"), conversation_id="a", message_id=None)
    assert added.op == "add" and added.text == "The user lives in York."
    assert apply_statements(bank, statements("I live in York."), conversation_id="a", message_id=None) == []  # NONE
    (moved,) = apply_statements(bank, statements("We've just moved to Leeds"), conversation_id="b", message_id=None)
    assert (moved.op, moved.memory_id, moved.before, moved.text) == ("update", added.memory_id, "The user lives in York.", "The user lives in Leeds.")
    assert [m.text for m in bank.store.list()] == ["The user lives in Leeds."]
    assert bank.store.sources([added.memory_id]) == {"a", "b"}  # the new words' conversation is a source too
    (gone,) = apply_statements(bank, statements("I don't live in Leeds any more"), conversation_id="b", message_id=None)
    assert gone.op == "delete" and bank.store.get(added.memory_id).text == "The user used to live in Leeds."
    assert key_of(bank.store.get(added.memory_id).text) == (None, "")


@pytest.mark.slow
def test_memories_that_disagree_are_merged_keeping_sources_and_uses(bank) -> None:
    from memory.db import transaction
    from memory.store import new_memory

    a = new_memory("The user's dog is called Biscuit", conversation_id="private")
    b = new_memory("my dog is called Rufus", conversation_id="shared")
    bank.add([a, b])
    with transaction(bank.store.db) as db:
        db["conversations"].insert_all([{"id": "shared", "title": "t", "created_at": "", "updated_at": ""}])
        db["tasks"].insert({"id": "t1", "conversation_id": "shared", "seq": 0, "slot": "L0", "status": "closed"})
        bank.store.record_uses(db, "t1", [(a.id, 0.9)])
    (change,) = apply_statements(bank, statements("My dog is called Rufus"), conversation_id="shared", message_id=None)
    assert change.op == "update" and change.before == "The user's dog is called Biscuit"
    (left,) = bank.store.list()
    assert left.text == "The user's dog is called Rufus." and bank.store.sources([left.id]) >= {"private", "shared"}
    assert bank.store.uses("t1") == [left.id]  # the turn that saw the private memory still points at its words
    assert len(bank.search("what is my dog called", 5)) == 1


@pytest.mark.slow
def test_undo_discards_a_new_memory_and_restores_an_updated_one(runtime) -> None:
    rt = runtime
    (added,) = apply_statements(rt.memory, statements("My name is Ada"), conversation_id=None, message_id=None)
    undo_change(rt, added)
    assert rt.memory.store.count() == 0 and rt.memory.search("name", 3) == []
    (first,) = apply_statements(rt.memory, statements("My name is Ada"), conversation_id=None, message_id=None)
    (renamed,) = apply_statements(rt.memory, statements("Call me Addie"), conversation_id=None, message_id=None)
    undo_change(rt, renamed)
    assert rt.memory.store.get(first.memory_id).text == "The user's name is Ada."


def test_past_tense_and_the_change_lines() -> None:
    assert past_tense("The user works at the bakery.") == "The user used to work at the bakery."
    assert MemoryChange("add", "m", "The user's name is Ada.").line() == "remembered: The user's name is Ada."
    assert MemoryChange("update", "m", "B", "A").line() == "updated memory: A → B"


@pytest.mark.slow
def test_a_turn_reports_what_it_remembered_and_never_from_a_question(engine, mol_home, tmp_path) -> None:
    """With no tools the model cannot store anything itself: what is stored is extraction's."""
    from hcp import load_hcp
    from mol_local.runtime import Runtime
    from tests.memory.conftest import write_hcp

    hcp = write_hcp(tmp_path / "h.toml", answer={"max_tokens": 24}, summary={"max_tokens": 16}, tools={"enabled": ["python"]})  # no memory or reminder tools
    rt = Runtime(load_hcp(hcp), engine=engine)
    try:
        session = rt.session()
        result = session.run_turn("My favourite fruit is mango", slot="L0")
        assert [(c.op, c.text) for c in result.memory_changes] == [("add", "The user's favourite fruit is mango.")]
        assert result.memories_written == [result.memory_changes[0].memory_id]
        row = rt.memory.store.get(result.memories_written[0])
        assert row.origin == "auto" and row.conversation_id == session.conversation_id
        asked = session.run_turn("What is my favourite fruit?", slot="L0")
        assert asked.memory_changes == [] and rt.memory.store.count(said=False) == 1  # and the statement as said
    finally:
        rt.db.close()


@pytest.mark.slow
def test_the_remember_tool_and_command_replace_an_older_value_instead_of_contradicting_it(runtime) -> None:
    from mol_local.harness.memory_port import BankMemory

    port = BankMemory(runtime.memory)
    port.remember("The user's dog is called Biscuit", conversation_id=None)
    kept = port.remember("The user's dog is called Rufus", conversation_id=None)
    assert [(m.id, m.text) for m in runtime.memory.store.list()] == [(kept, "The user's dog is called Rufus")]
    session = runtime.session()
    result = session.run_turn("/remember my dog is called Pip")
    assert [m.text for m in runtime.memory.store.list()] == ["my dog is called Pip"]
    assert result.memories_written == [runtime.memory.store.list()[0].id]


@pytest.mark.slow
def test_a_memory_read_from_a_turn_is_dated_by_the_turn_not_by_when_it_was_stored(runtime) -> None:
    """Three weeks after "My dentist is Dr Patel" (clock moved back), its fact was dated today: a question about
    "three weeks ago" would not find it by its date."""
    from datetime import datetime

    runtime.clock = lambda: datetime(2026, 11, 12, 18, 30)
    result = runtime.session().run_turn("My dentist is Dr Patel and her office is on Elm Street")
    rows = runtime.memory.store.by_ids(result.memories_written)
    assert len(rows) == 2 and {r.said_at[:16] for r in rows.values()} == {"2026-11-12T18:30"}


def test_an_acronym_the_person_wrote_keeps_its_capitals_and_still_updates_a_lower_case_one(bank) -> None:
    """`mol chat "Remember that my car's MOT is due on the 3rd of March"` kept "The user's car's mot is due …"."""
    from mol_local.extract import apply_statements
    from mol_local.statements import statements

    (st,) = statements("my car's MOT is due on the 3rd of March")
    assert st.text == "The user's car's MOT is due on the 3rd of March."
    apply_statements(bank, statements("my car's mot is due on the 1st of March"), conversation_id=None, message_id=None)
    changes = apply_statements(bank, [st], conversation_id=None, message_id=None)
    assert [c.op for c in changes] == ["update"]
