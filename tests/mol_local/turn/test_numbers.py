"""Number questions the request settles (mol_local/turn/numbers.py): read only when the request is nothing else,
computed by the code it returns, answered with the value Python printed."""

from __future__ import annotations

import pytest

from mol_local.turn.arith import computed_answer
from mol_local.turn.computed import computed_call
from mol_local.turn.numbers import number_code
from tests.mol_local.turn.test_dates import TODAY, _run


@pytest.mark.parametrize(("question", "answer"), [
    ("What is the least common multiple of 13, 31 and 37?", "The least common multiple of 13, 31 and 37 is 14911."),  # mol chat: "… is 98."
    ("lcm of 4 and 6", "The least common multiple of 4 and 6 is 12."),
    ("What's the greatest common divisor of 12 and 18?", "The greatest common divisor of 12 and 18 is 6."),
    ("What is the HCF of 24 and 36?", "The greatest common divisor of 24 and 36 is 12."),
    ("How many divisors does 17410 have?", "17410 has 8 divisors."),  # mol chat: "17410 has 3 divisors: 1, 2, and 49."
    ("What are the divisors of 36?", "The divisors of 36 are 1, 2, 3, 4, 6, 9, 12, 18, 36."),
    ("Is 97 prime?", "Yes, 97 is prime."),
    ("is 91 a prime number?", "No, 91 is not prime: it is 7 × 13."),
    ("Is 1 prime?", "1 is not prime (primes start at 2)."),
    ("prime factors of 360", "The prime factors of 360 are 2 × 2 × 2 × 3 × 3 × 5."),
    ("Is 42 even?", "Yes, 42 is even."),
    ("is 7 even", "No, 7 is odd."),
    ("What is 10 factorial?", "10! (the factorial of 10) is 3628800."),
    ("What's 5!", "5! (the factorial of 5) is 120."),
    ("What is the 10th Fibonacci number?", "Fibonacci number 10 is 55 (counting 1, 1, 2, 3, 5, … from number 1)."),
    ("sum of the numbers from 1 to 100", "The sum of the whole numbers from 1 to 100 is 5050."),
    ("What is the average of 3, 5 and 10?", "The average (mean) of 3, 5 and 10 is 6."),
    ("median of 4, 1, 3 and 2", "The median of 4, 1, 3 and 2 is 2.5."),
    ("product of 2, 3 and 4", "The product of 2, 3 and 4 is 24."),
    ("sum of 1.5, 2.25 and 3", "The sum of 1.5, 2.25 and 3 is 6.75."),
    ("What's the remainder of 17 divided by 5?", "The remainder of 17 divided by 5 is 2."),
    ("17 mod 5", "The remainder of 17 divided by 5 is 2."),
    ("What's 3/4 as a percentage?", "3/4 is 75%."),  # mol chat, L0: "34%  3/4 = 90%"
    ("1 out of 3 as a percent", "1/3 is 33.33%."),
    ("What percentage is 30 of 120?", "30 out of 120 is 25%."),
    ("what percent of 80 is 20", "20 out of 80 is 25%."),
])
def test_a_number_question_is_computed(question: str, answer: str) -> None:
    source = number_code(question)
    assert source is not None, question
    assert computed_answer(source, _run(source)) == answer


@pytest.mark.parametrize("question", [
    "Write a Python function to find the lcm of 4 and 6",  # code is the deliverable: L2's
    "Is my number prime?", "What is the average salary in Leeds?", "factorial of 100000", "Is 2.5 prime?",
    "17 mod 0", "Is the 10th Fibonacci number prime?", "What's the sum of my expenses?", "3/0 as a percentage",
    "What percentage of my salary is tax?",
])
def test_anything_else_is_left_to_the_model(question: str) -> None:
    assert number_code(question) is None


def test_a_number_question_is_one_python_call_the_turn_settles() -> None:
    call = computed_call("Is 97 prime?", TODAY)
    assert call is not None and call.name == "python" and call.arguments["code"].startswith("# answer: {}\n")


def test_the_turn_answers_with_what_the_sandbox_computed(scripted_runtime) -> None:
    """Routed L0, "What is the least common multiple of 13, 31 and 37?" got "… is 98." with no tool; forced to L2,
    a python call raised TypeError and a made-up number followed."""
    rt, scripted = scripted_runtime(["never read"])
    result = rt.session().run_turn("What is the least common multiple of 13, 31 and 37?", slot="L2")
    assert result.answer == "The least common multiple of 13, 31 and 37 is 14911." and scripted.outputs == ["never read"]
    assert [(c["name"], c["result"]) for c in result.tool_calls] == [("python", "result: 14911")]


@pytest.mark.parametrize(("question", "first_line"), [
    ("Can you work this out? What is the least common multiple of 13, 31 and 37?", "# answer: The least common multiple of 13, 31 and 37 is {}."),
    ("Quick question: How many divisors does 17410 have?", "# answer: 17410 has {} divisors."),
    ("Hi! What is 12 * 3?", "# 12 * 3"),
    ("I have 3 kids. What is 12 * 3?", None),  # a number before it: the question may be about it
    ("Write a long essay about my whole life please. What is 2+2?", None),  # more than a lead-in
])
def test_a_short_lead_in_does_not_hide_the_question(question: str, first_line: str | None) -> None:
    call = computed_call(question, TODAY)
    assert (call.arguments["code"].split("\n")[0] if call else None) == first_line
