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
