"""The common tasks' own cases (turn/code_tasks.py) when the request counts one thing in another."""

from __future__ import annotations

import pytest

from mol_local.turn.code_check import check

WORD = "Write a function that counts how many times a word appears in a sentence"


@pytest.mark.parametrize(("request_text", "answer", "why"), [
    (WORD, "```python\ndef word_count(s: str) -> int:\n    return sum(1 for word in s.split() if word.lower().isalpha())\n```",  # L2, mol chat
     "word_count takes 1 argument, but counting a word needs two: the text and the word to count"),
    (WORD, "```python\ndef count_word(sentence, word):\n    return sentence.count(word)\n```",  # counts "the" inside "then"
     "count_word('then the end', 'the') should be 1"),
    (WORD, "```python\ndef count_word(sentence, word):\n    return sentence.split().count(word)\n```", ""),
    (WORD, "```python\ndef count_word(word, sentence):\n    return sentence.split().count(word)\n```", ""),  # the word first: asked so
    (WORD, "```python\ndef count_word(word, sentence):\n    return word.split().count(sentence)\n```",
     "count_word('the', 'the cat sat on the mat') should be 2"),
    ("Write a function that counts how many times a letter appears in a string",
     "```python\ndef count_letter(letter, text):\n    return text.count(letter)\n```", ""),
    ("Write a function that counts how many times a letter appears in a string",
     "```python\ndef count_letter(text):\n    return len(text)\n```",
     "count_letter takes 1 argument, but counting a character needs two: the text and the character to count"),
])
def test_counting_one_thing_in_another_takes_both_in_the_order_named(request_text: str, answer: str, why: str) -> None:
    ran = check(answer, request_text)
    assert ran is not None and ran.why == why


@pytest.mark.parametrize(("request_text", "answer", "why"), [
    ("Write a Python function that returns the last element of a list",  # L2, mol chat: its claim was true of its code
     "```python\ndef last(lst: list[list]) -> float | None:\n    return max(lst) if not lst else min(lst)\n```\nFor example, last([1, 2, 3]) returns 1.",
     "last([1, 2, 3]) should be 3"),
    ("Write a Python function that returns the last element of a list", "```python\ndef last(xs):\n    return xs[-1]\n```", ""),
    ("Write a function that converts a string to snake_case",  # L2, mol chat
     "```python\ndef snake_case(s: str) -> str:\n    return \"\".join(\"_\" + ch.lower() if ch.isupper() else ch for ch in s)\n```",
     "snake_case('hello world') should be 'hello_world'"),
    ("Write a function that converts a string to snake_case",
     "```python\nimport re\n\ndef snake(s):\n    return re.sub(r'(?<=[a-z])(?=[A-Z])|\\s+', '_', s).lower()\n```", ""),
])
def test_more_common_tasks_bring_their_cases(request_text: str, answer: str, why: str) -> None:
    ran = check(answer, request_text)
    assert ran is not None and ran.why == why


def test_the_checks_own_note_and_a_quoted_value_are_never_taken_for_made_up_names() -> None:
    """`mol chat "… to snake_case"`: the note "I ran this and it does not work yet: snake_case('hello world') should be
    'hello_world'." was cut, as naming `hello_world`, which the code does not have; the answer looked like it worked."""
    from mol_local.turn.code_fix import without_made_up_names

    code = "```python\ndef snake(s):\n    return s.lower()\n```\n"
    note = "I ran this and it does not work yet: snake('hello world') should be 'hello_world'."
    assert without_made_up_names(code + note) == code + note
    assert without_made_up_names(code + "For example, snake('A B') returns 'a_b'.") == code + "For example, snake('A B') returns 'a_b'."
    assert without_made_up_names(code + "It calls made_up_helper first.") == code.rstrip("\n")  # a name outside quotes still goes
