"""A change asked of the code just written is the coder's, checked as the whole ask (mol_local/turn/code_follow.py).
`mol chat -c`: "Now make it ignore case and spaces" went to L0, which repeated the function unchanged."""

from __future__ import annotations

from memory.timeline import MessageRecord, TaskRecord
from mol_local.turn.code_follow import code_before, whole_ask

ASKED = "Write a Python function that checks if a string is a palindrome"
LOWER = "```python\ndef is_palindrome(s: str) -> bool:\n    s = s.lower()\n    return s == s[::-1]\n```\nIt lowercases the text first."


def _task(slot: str, said: str, seq: int = 0) -> TaskRecord:
    return TaskRecord(f"t{seq}", "c1", seq, slot, status="closed",
                      messages=[MessageRecord("user", said), MessageRecord("assistant", "done")])


def test_a_change_right_after_a_coding_turn_carries_its_request() -> None:
    history = [_task("L2", ASKED)]
    assert code_before("Now make it ignore case and spaces", history) == ASKED
    assert whole_ask("Now make it ignore case and spaces", history) == f"{ASKED}. Now make it ignore case and spaces"
    chain = [_task("L2", ASKED), _task("L2", "Now make it ignore case", 1)]
    assert code_before("and make it ignore spaces too", chain) == f"{ASKED}. Now make it ignore case"
    assert code_before("Now make it ignore case", [_task("L0", "Tell me a joke")]) is None  # no code before
    assert code_before("What does a palindrome mean?", history) is None  # not a change to it
    assert whole_ask("Tell me a joke", history) == "Tell me a joke"


def test_the_change_goes_to_the_coder_and_its_code_is_held_to_the_whole_ask(scripted_runtime) -> None:
    rt, scripted = scripted_runtime([LOWER, LOWER])
    session = rt.session()
    session.run_turn(ASKED, slot="L2")
    changed = session.run_turn("Now make it ignore case and spaces")
    assert changed.route is not None and (changed.slot, changed.route.raw_output) == ("L2", "changes the code before it")
    assert "ignores case and spaces, as you asked; I ran it." in changed.answer and not scripted.outputs
    assert changed.code_check.startswith("ran: the first draft failed (is_palindrome('nurses run') should be True)")


def test_tests_asked_for_the_function_are_its_known_cases_run_against_it(scripted_runtime) -> None:
    """`mol chat -c`: "Write a pytest test for it" after the palindrome got the function again, without its lowercasing."""
    from mol_local.turn.about import TESTS

    rt, scripted = scripted_runtime([LOWER])
    session = rt.session()
    session.run_turn(ASKED, slot="L2")
    tests = session.run_turn("Write a pytest test for it")
    assert tests.route is not None and (tests.slot, tests.route.raw_output) == ("L2", TESTS) and not scripted.outputs
    assert "def test_is_palindrome():\n    assert is_palindrome('racecar')\n" in tests.answer
    assert "    assert not is_palindrome('hello')\n" in tests.answer
    assert tests.answer.endswith("I ran these against your is_palindrome: they pass.")
    from mol_local.turn.code_tests import tests_answer
    assert tests_answer("Write a pytest test for it", []) is None  # nothing written before
