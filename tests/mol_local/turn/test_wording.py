"""Questions about the person's own words (mol_local/turn/wording.py): read only when the request is nothing else,
computed by the code it returns, answered with the value Python printed."""

from __future__ import annotations

import pytest

from mol_local.turn.arith import computed_answer
from mol_local.turn.computed import computed_call
from mol_local.turn.wording import text_code
from tests.mol_local.turn.test_dates import TODAY, _run


@pytest.mark.parametrize(("question", "answer"), [
    ("Sort these words alphabetically: pear, apple, fig, banana", "In alphabetical order: apple, banana, fig, pear."),  # mol chat: said back
    ("Put these in alphabetical order: Zoe, adam, Bea and Carl", "In alphabetical order: adam, Bea, Carl, Zoe."),
    ("Alphabetize: cherry, apple", "In alphabetical order: apple, cherry."),
    ("Sort these names in reverse alphabetical order: Ann, Cy, Bo", "In reverse alphabetical order: Cy, Bo, Ann."),
    ("Sort these numbers from largest to smallest: 5, 12, 3, 7.5", "From largest to smallest: 12, 7.5, 5, 3."),
    ("sort these numbers: 10, 9, 100", "From smallest to largest: 9, 10, 100."),  # by value, not as text
    ('How many words are in "the quick brown fox jumps over the lazy dog"?',
     'There are 9 words in "the quick brown fox jumps over the lazy dog".'),  # mol chat: "There are 2 words: the."
    ("Count the words in: I love my cat", 'There are 4 words in "I love my cat".'),
    ("How many letters are in 'strawberry'?", 'There are 10 letters in "strawberry".'),
    ("How many r's are in strawberry?", 'There are 3 "r"s in "strawberry".'),
    ("how many times does the letter e appear in excellence", 'There are 4 "e"s in "excellence".'),
    ("Spell 'stressed' backwards", '"stressed" backwards is "desserts".'),
    ("Reverse the word hello", '"hello" backwards is "olleh".'),
])
def test_a_question_about_the_words_is_computed(question: str, answer: str) -> None:
    call = computed_call(question, TODAY)
    assert call is not None and call.answers, question
    assert computed_answer(call.arguments["code"], _run(call.arguments["code"])) == answer


@pytest.mark.parametrize("question", [
    "Sort: x, y",  # says nothing of how
    "Sort out my finances: rent, food",
    "Sort these numbers: 3, apple",  # not all numbers
    "How many words does a novel have?",
    "How many letters are in the alphabet?",
    "Reverse a linked list in Python",
    "Write a Python function that reverses a string",
    "Spell '{}' backwards",  # would sit before the value's place in the answer
    "x" * 700,
    "",
])
def test_anything_else_is_left_to_the_model(question: str) -> None:
    assert text_code(question) is None


def test_the_persons_text_is_a_string_literal_never_code() -> None:
    source = text_code("How many words are in \"__import__('os').system('echo hi')\"?")
    assert source is not None and "text = \"__import__('os').system('echo hi')\"" in source
    assert computed_answer(source, _run(source)) == 'There are 2 words in "__import__(\'os\').system(\'echo hi\')".'


def test_one_is_said_as_one() -> None:
    source = text_code("How many words are in 'hello'?")
    assert source is not None and computed_answer(source, _run(source)) == 'There is 1 word in "hello".'
    source = text_code("How many z's are in pizza?")
    assert source is not None and computed_answer(source, _run(source)) == 'There are 2 "z"s in "pizza".'
    source = text_code("How many p's are in pizza?")
    assert source is not None and computed_answer(source, _run(source)) == 'There is 1 "p" in "pizza".'
