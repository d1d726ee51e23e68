""""What does this code print?" (mol_local/turn/run_given.py): the person's code is run, its output is the answer."""

from __future__ import annotations

import pytest

from mol_local.turn.arith import computed_answer
from mol_local.turn.computed import computed_call
from mol_local.turn.run_given import given_code
from tests.mol_local.turn.test_dates import TODAY, _run


@pytest.mark.parametrize(("question", "answer"), [
    ("What does this Python code print? print(sum([1, 2, 3]) * 2)", "It prints:\n```\n12\n```"),  # L2 wrote a function sum(a)
    ("What does this code output?\n```python\nfor i in range(3):\n    print(i * i)\n```", "It prints:\n```\n0\n1\n4\n```"),
    ("What's the output of sorted([3, 1, 2])?", "It evaluates to [1, 2, 3]."),
    ("What does this return: 1/0", "It raises ZeroDivisionError: division by zero."),
    ("What will this print: x = 2", "It prints nothing."),
])
def test_the_code_given_is_run_and_its_output_is_the_answer(question: str, answer: str) -> None:
    call = computed_call(question, TODAY)
    assert call is not None and call.answers
    assert computed_answer(call.arguments["code"], _run(call.arguments["code"])) == answer


@pytest.mark.parametrize("question", ["What does the print function do?", "What does this print: print('hi' broken",
                                      "Write code that prints hello", "What does this code do? " + "x" * 5000])
def test_anything_else_is_left_to_the_model(question: str) -> None:
    assert given_code(question) is None


def test_what_a_snippet_does_is_run_but_a_definition_is_explained() -> None:
    """`mol chat "What does this do: [x*2 for x in range(5)]"`: L2 rewrote it as a loop and said nothing."""
    from mol_local.turn.run_given import given_code

    assert given_code("What does this do: [x*2 for x in range(5)]") == "[x*2 for x in range(5)]"
    assert given_code("What does this do? def f(x): return x") is None and given_code("What does this project do?") is None
