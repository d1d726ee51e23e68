"""Arithmetic the request settles (mol_local/turn/arith.py): read only when the request is nothing else."""

from __future__ import annotations

import pytest

from mol_local.turn.arith import code, computed_answer, expression


@pytest.mark.parametrize(("request_text", "value"), [
    ("What is 17% of 2350?", 399.5),
    ("What is the square root of 7921?", 89),
    ("whats 12 * 7", 84),
    ("2+2", 4),
    ("What's 15% of £80?", 12),
    ("Calculate (3 + 4) * 5", 35),
    ("What is 2 to the power of 10?", 1024),
    ("What is 7 squared?", 49),
    ("What is 1,250 divided by 5?", 250),
    ("what's 3x4", 12),
    ("Can you work out 19.99 * 3 please?", 59.97),
    ("What is the square root of (16 + 9)?", 5),
    ("What is 5 plus 3 minus 2?", 6),
    ("what is -5 + 3", -2),
    ("What is the cube root of 27?", 3),
])
def test_arithmetic_is_read_into_python_that_computes_it(request_text: str, value: float) -> None:
    found = expression(request_text)
    assert found is not None
    from math import cbrt, sqrt  # noqa: F401  (the names the expression uses)

    assert eval(found[0]) == pytest.approx(value)  # noqa: S307 (our own parse: digits, operators, sqrt/cbrt)


@pytest.mark.parametrize("request_text", [
    "What is 2027?",  # no operator
    "How many Mondays are there in 2027?",
    "Tell me a joke",
    "What is 4-5 days from now?",  # a word we do not read
    "Remind me at 5 + 2 to call mum",
    "What is 3 +",  # not an expression
    "What is sqrt",
    "What is __import__('os').system('ls') + 1?",
    "1" * 300 + " + 1",  # a question, not a program
    "",
])
def test_anything_but_arithmetic_is_left_to_the_model(request_text: str) -> None:
    assert expression(request_text) is None


def test_the_answer_quotes_the_arithmetic_and_the_value_or_the_error() -> None:
    source = code("17 /100* 2350", "17% of 2350")
    assert source.startswith("# 17% of 2350\n")
    assert computed_answer(source, "result: 399.5") == "17% of 2350 is 399.5."
    assert computed_answer(code("10 / 0", "10 / 0"), "Traceback …\nError: ZeroDivisionError: division by zero") == \
        "I couldn't compute 10 / 0: ZeroDivisionError: division by zero"
