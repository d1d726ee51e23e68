"""The summary check: copied or empty summaries are replaced, loops are cut (strings seen on the 135M base)."""

from __future__ import annotations

from mol_local.turn.summary import checked_summary, copies_earlier, drop_repeated_lines, extractive_summary

FIRST = 'The user asked, "What causes the seasons on Earth?" and I answered, "The Earth\'s tilt causes the seasons."'
PALINDROME = "How do I check if a string is a palindrome in Python?"
ANSWER = "```python\ndef is_palindrome(s):\n    return s == s[::-1]\n```\nIt compares the string with its reverse."


def test_a_summary_copied_from_an_earlier_task_is_replaced_by_this_tasks_own() -> None:
    text, fell_back = checked_summary(FIRST, request=PALINDROME, answer=ANSWER, earlier=[FIRST])
    assert fell_back
    assert "palindrome" in text and "seasons" not in text
    assert text == f'Asked: "{PALINDROME}". Answered: ```python'


def test_a_truncated_copy_counts_as_a_copy_but_a_new_summary_is_kept() -> None:
    assert copies_earlier(FIRST[:50], [FIRST])
    own = 'The user asked how to check for a palindrome; I wrote is_palindrome using s[::-1].'
    assert checked_summary(own, request=PALINDROME, answer=ANSWER, earlier=[FIRST]) == (own, False)


def test_loops_are_cut_to_distinct_lines() -> None:
    looped = 'The user asked: "Add a unit test."\nThe user asked: "Add a unit test."\n\nI added test_palindrome.\nThe user asked: "Add a unit test."'
    assert drop_repeated_lines(looped) == 'The user asked: "Add a unit test."\n\nI added test_palindrome.'


def test_an_empty_summary_falls_back_and_long_parts_are_cut() -> None:
    text, fell_back = checked_summary("  \n ", request="x" * 500, answer="y" * 500, earlier=[])
    assert fell_back and len(text) < 400 and text.count("…") == 2
    assert extractive_summary("hi", "") == 'Asked: "hi". No answer was given.'
