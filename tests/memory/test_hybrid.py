"""Hybrid recall: meaning (MiniLM + Chroma) and words (FTS5) fused, time words, and each bad input it meets."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from memory import fts
from memory.bank import MemoryBank, fuse
from memory.db import open_db, transaction
from memory.errors import InvalidMemory
from memory.store import new_memory
from memory.timewords import time_window

pytestmark = pytest.mark.slow
NOW = datetime(2026, 12, 2, 10, 0)


@pytest.fixture
def bank(tmp_path: Path):
    db = open_db(tmp_path / "mol.db")
    bank = MemoryBank(db, tmp_path / "chroma")
    bank.add([
        new_memory("The user's dog is called Biscuit", said_at="2026-11-30T09:00"),
        new_memory("Kestrel-7 is the code name of the garden project", said_at="2026-05-12T10:00"),
        new_memory("Caroline went to an LGBTQ support group", said_at="2023-05-07"),
        new_memory("The user works at the library", said_at="2025-01-10"),
        new_memory("The user started a new job at the science museum", said_at="2026-10-01"),
    ])
    yield bank
    db.close()


def texts(found) -> list[str]:
    return [r.memory.text for r in found]


def test_a_rare_word_is_found_by_keyword_where_meaning_alone_misses_it(bank) -> None:
    assert "Kestrel-7 is the code name of the garden project" in texts(bank.search("kestrel", 2, mode="keyword"))
    assert texts(bank.search("kestrel", 1))[0].startswith("Kestrel-7")  # hybrid keeps it
    assert texts(bank.search("what is my dog called", 1)) == ["The user's dog is called Biscuit"]


def test_below_the_similarity_floor_only_a_word_as_written_or_the_named_time_keeps_a_memory(bank) -> None:
    """`mol chat`: "Remind me on Friday at 6pm to call mum" had "The user's dog is called Biscuit" in its tail
    (cosine 0.14, kept because the index stems "call" to match "called"), and L0 answered about the dog."""
    assert texts(bank.search("Remind me on Friday at 6pm to call mum", 5, min_score=0.25, now=NOW)) == []
    assert "Kestrel-7 is the code name of the garden project" in texts(bank.search("kestrel", 5, min_score=0.25))
    assert "Caroline went to an LGBTQ support group" in texts(bank.search("what happened in May 2023", 5, min_score=0.9, now=NOW))
    assert fts.says_any("The user's dog is called Biscuit", ["biscuit"]) and not fts.says_any("called", ["call"])
    # a time word alone vouches for nothing: "today" must not bring every memory said today into a greeting's tail
    assert texts(bank.search("Hello, how are you today?", 5, min_score=0.25, now=datetime(2026, 11, 30, 12, 0))) == []
    assert fts.date_words("2023-05-07") == "2023 May" and fts.date_words(None) == ""


def test_a_question_naming_a_time_prefers_what_was_said_then(bank) -> None:
    found = bank.search("what happened in May 2023", 1, now=NOW)
    assert texts(found) == ["Caroline went to an LGBTQ support group"]
    bank.add([new_memory("The user lives in York", said_at="2024-03-01"), new_memory("The user lives in Leeds", said_at="2026-11-01")])
    assert texts(bank.search("where do I live", 1, now=NOW)) == ["The user lives in York"]  # a near tie: York by a hair
    assert texts(bank.search("where do I live now", 1, now=NOW)) == ["The user lives in Leeds"]  # "now": the newest


def test_time_words_become_windows() -> None:
    assert time_window("what did I do yesterday", NOW) == (datetime(2026, 12, 1), datetime(2026, 12, 1, 23, 59, 59))
    assert time_window("anything in May 2023?", NOW) == (datetime(2023, 5, 1), datetime(2023, 5, 31, 23, 59, 59))
    assert time_window("in March", NOW)[0] == datetime(2026, 3, 1)
    assert time_window("I may go", NOW) is None and time_window("what is my dog called", NOW) is None
    assert time_window("3 weeks ago", NOW)[1] == datetime(2026, 11, 18)


def test_fts_syntax_and_an_enormous_query_are_words_not_errors(bank) -> None:
    for query in ['"unbalanced', "dog*", 'NEAR(dog biscuit)', "-dog", "dog AND OR NOT", "x" * 100_000, "🙂 ☃", "'"]:
        bank.search(query, 3)  # never raises
    assert fts.match_expression('NEAR(dog "biscuit")') == '"near" OR "dog" OR "biscuit"'
    assert fts.match_expression("the a of") is None
    assert fts.match_expression(" ".join(f"w{i}" for i in range(10_000))).count(" OR ") == fts.MAX_TERMS - 1


def test_a_missing_or_out_of_step_keyword_index_is_rebuilt_with_one_line(tmp_path: Path) -> None:
    db = open_db(tmp_path / "mol.db")
    MemoryBank(db, tmp_path / "chroma").add([new_memory("The gate code is 4471"), new_memory("The plumber comes on Friday")])
    db.execute("delete from memories_fts where text like 'The plumber%'")  # out of step
    bank = MemoryBank(db, tmp_path / "chroma")
    assert texts(bank.search("plumber", 1, mode="keyword")) == ["The plumber comes on Friday"]
    assert bank.notices == ["Note: the keyword index was out of step (1 entries for 2 memories); rebuilt it from SQLite (2 memories)"]
    with transaction(db):
        db.execute("drop table memories_fts")
    again = MemoryBank(db, tmp_path / "chroma")
    assert texts(again.search("gate code", 1, mode="keyword")) == ["The gate code is 4471"]
    assert again.notices[0].startswith("Note: the keyword index is missing or damaged")
    assert db["memories"].count == 2  # nothing lost
    db.close()


def test_keyword_rows_follow_every_change_and_forget_leaves_no_tokens(tmp_path: Path) -> None:
    from memory.forget import forget_memories

    db = open_db(tmp_path / "mol.db")
    bank = MemoryBank(db, tmp_path / "chroma")
    (row,) = bank.add([new_memory("The locker code is ZEBRA42")])
    bank.update(row.id, "The locker code is OKAPI17")
    assert texts(bank.search("okapi17", 1, mode="keyword")) == ["The locker code is OKAPI17"]
    assert bank.search("zebra42", 1, mode="keyword") == []
    forget_memories(bank, [row.id], type("NoManifests", (), {"training_ids": lambda self: []})())
    assert fts.check(db) is None and bank.search("okapi17", 1, mode="keyword") == []
    assert b"OKAPI17" not in b"".join(bytes(r[0]) for r in db.execute("select block from memories_fts_data"))
    db.close()


def test_an_at_that_is_not_a_date_is_refused_by_name() -> None:
    with pytest.raises(InvalidMemory, match="'at' must be a date like 2023-05-18"):
        new_memory("x", said_at="last Tuesday-ish")
    with pytest.raises(InvalidMemory, match="'at' must be a date"):
        new_memory("x", said_at=20230518)  # type: ignore[arg-type]
    assert new_memory("x", said_at="2023-05-18").said_at == "2023-05-18T00:00:00"


def test_fusion_orders_by_summed_reciprocal_rank() -> None:
    assert fuse([["a", "b"], ["b", "c"]]) == ["b", "a", "c"]
