"""Calendar questions the request settles (mol_local/turn/dates.py): read only when the request is nothing else,
computed by the code it returns, with the conversation's clock as today."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from mol_local.turn.arith import computed_answer
from mol_local.turn.dates import date_code

TODAY = date(2026, 12, 4)  # a Friday


def _run(source: str) -> str:
    """What the sandbox would say: the value of the code's last line, as "result: <repr>"."""
    *body, last = source.strip().split("\n")
    scope: dict = {}
    exec("\n".join(body), scope)  # noqa: S102 (our own generated code)
    return f"result: {eval(last, scope)!r}"  # noqa: S307


def _answer(question: str, today: date = TODAY) -> str:
    source = date_code(question, today)
    assert source is not None, question
    return computed_answer(source, _run(source))


@pytest.mark.parametrize(("question", "answer"), [
    ("How many days until Christmas?", "Friday 25 December 2026 is 21 days from today (Friday 4 December 2026)."),
    ("how many sleeps till christmas", "Friday 25 December 2026 is 21 days from today (Friday 4 December 2026)."),
    ("How many weeks until 1 June?", "Tuesday 1 June 2027 is 25 weeks and 4 days from today (Friday 4 December 2026)."),
    ("How many days until tomorrow?", "Saturday 5 December 2026 is 1 day from today (Friday 4 December 2026)."),
    ("What day of the week is 25 December 2027?", "25 December 2027 is a Saturday."),
    ("What day of the week is Christmas this year?", "25 December 2026 is a Friday."),  # L0: "This year, Christmas is on December 24."
    ("What day is Christmas next year?", "25 December 2027 is a Saturday."),
    ("How many days until the 15th?", "Tuesday 15 December 2026 is 11 days from today (Friday 4 December 2026)."),  # L0: "15 days"
    ("How many days until the 3rd?", "Sunday 3 January 2027 is 30 days from today (Friday 4 December 2026)."),  # next month's
    ("What day was 1 January 2000?", "1 January 2000 was a Saturday."),
    ("Which day of the week is March 3rd?", "3 March 2027 is a Wednesday."),
    ("What weekday is 2026-12-31?", "31 December 2026 is a Thursday."),
    ("How many Mondays are there in 2027?", "There are 52 Mondays in 2027."),
    ("How many Thursdays in 2026?", "There are 53 Thursdays in 2026."),
    ("How many Sundays are there in February 2026?", "There are 4 Sundays in February 2026."),
    ("How many Tuesdays in March?", "There are 5 Tuesdays in March 2027."),
    ("How many days between 1 March 2027 and 15 April 2027?", "From 1 March 2027 to 15 April 2027 is 45 days."),
    ("How many weeks from 1 January 2027 to 1 March 2027?", "From 1 January 2027 to 1 March 2027 is 8 weeks and 3 days."),
    ("What's the date in 90 days?", "90 days from today (Friday 4 December 2026) is Thursday 4 March 2027."),
    ("What date was it 3 weeks ago?", "3 weeks ago (Friday 4 December 2026) was Friday 13 November 2026."),
    ("What's 3 weeks from today?", "3 weeks from today (Friday 4 December 2026) is Friday 25 December 2026."),  # mol chat: "Today is 16 Dec"
    ("How old is someone born in 1987?", "Born in 1987, you turn 39 this year (one less until your birthday)."),  # "1987 is a birth year."
    ("Can you tell me what's the date today?", "Today is Friday 4 December 2026."),
    ("what day is it", "Today is Friday 4 December 2026."),
    ("What's the date next Friday?", "Next Friday is 11 December 2026."),  # mol chat, L0: today's date and time
    ("What date is Sunday?", "Sunday is 6 December 2026."),
    ("What is the date tomorrow?", "Tomorrow is Saturday 5 December 2026."),
    ("What's the date this Friday?", "This Friday is 4 December 2026."),  # today
])
def test_a_calendar_question_is_computed_from_the_conversations_clock(question: str, answer: str) -> None:
    assert _answer(question) == answer


def test_a_day_without_a_year_is_its_next_coming_one() -> None:
    assert _answer("How many days until Christmas?", date(2026, 12, 25)) == \
        "Friday 25 December 2026 is 0 days from today (Friday 25 December 2026)."
    assert _answer("How many days until Christmas?", date(2026, 12, 26)).startswith("Saturday 25 December 2027 is 364 days")


def test_the_code_names_its_clock_so_the_tool_call_can_be_read() -> None:
    source = date_code("How many days until Christmas?", TODAY)
    assert source is not None
    assert source.splitlines()[0].startswith("# answer: ") and "today = date(2026, 12, 4)" in source


@pytest.mark.parametrize("question", [
    "What day of the week is 30 February 2027?",  # no such day: the model can say so
    "How many days until 1 January 2020?",  # in the past
    "How many days until the 45th?",  # no month has it
    "How many days until my birthday?",  # a day only the person knows
    "What day is the meeting?",
    "Remind me on 25 December to call mum",
    "How many Mondays until I retire?",
    "How many days are there in a leap year?",
    "What is 17% of 2350?",
    "Write a function that returns the weekday of a date",
    "What day of the week is 25 December 2027 and should I book a table?",  # more than the question
    "x" * 400,
    "",
])
def test_anything_else_is_left_to_the_model(question: str) -> None:
    assert date_code(question, TODAY) is None


@pytest.mark.parametrize("question", ["What time is it?", "what's the time now", "Do you know what time it is?"])
def test_the_time_is_read_from_the_conversations_clock(question: str) -> None:
    """L0 answered "What time is it?" at 00:32 with "It's 12:32 on Sat 5 Dec 2026, 00:32."."""
    source = date_code(question, TODAY, datetime(2026, 12, 5, 0, 32))
    assert source is not None
    assert computed_answer(source, _run(source)) == "It's 00:32 on Saturday 5 December 2026."
    assert date_code(question, TODAY) is None  # no clock given: not settled
    assert date_code("What time is it in Tokyo?", TODAY, datetime(2026, 12, 5, 0, 32)) is None


def test_a_day_the_person_told_is_put_into_the_question() -> None:
    """`mol chat -c`: after "My birthday is 14 July", "How many days until my birthday?" got "Your birthday is 14 July."."""
    from mol_local.turn.known_dates import with_known_dates

    facts = ["The user's birthday is 14 July.", "The user's sister's birthday is March 3rd.", "The user's dentist is Dr Patel."]
    asked = with_known_dates("How many days until my birthday?", facts)
    assert asked == "How many days until 14 July?" and _answer(asked).startswith("Wednesday 14 July 2027 is 222 days from today")
    assert with_known_dates("How many days until my sister's birthday?", facts) == "How many days until March 3rd?"
    assert with_known_dates("How many days until my exam?", facts) == "How many days until my exam?"  # not told
    assert with_known_dates("How many days until my birthday?", ["The user's birthday is soon."]).endswith("my birthday?")
    told = with_known_dates("How many days until my birthday? It's on 14 March", [])  # L0: "You are right: it's on 14 March."
    assert told == "How many days until 14 March?" and _answer(told).startswith("Sunday 14 March 2027 is 100 days from today")
    assert with_known_dates("When is my birthday? It's a secret", []) == "When is my birthday? It's a secret"


def test_an_age_from_a_year_of_birth() -> None:
    assert _answer("How old am I if I was born in 1990?") == "Born in 1990, you turn 36 this year (one less until your birthday)."
    assert date_code("How old am I if I was born in 2030?", TODAY) is None


def test_how_long_until_a_thing_they_said_the_day_of_is_counted_to_that_day() -> None:
    """`mol chat "How many days until the school closes for Christmas?"` (said on 20 Nov: "The kids' school closes for
    Christmas on the 18th of December"): "The kids' school closes for Christmas on the 18th of December." — no count."""
    from datetime import datetime

    from mol_local.turn.known_dates import with_known_dates

    said = ["The kids' school closes for Christmas on the 18th of December", "My passport expires in March 2027"]
    now = datetime(2026, 12, 5, 16, 0)
    assert with_known_dates("How many days until the school closes for Christmas?", said, now) == "How many days until 18 December 2026?"
    assert with_known_dates("How long until the school closes?", said, now) == "How long until 18 December 2026?"
    assert with_known_dates("How many days until Christmas?", said, now) == "How many days until Christmas?"  # a date itself
    assert with_known_dates("How many days until my passport expires?", said, now) == \
        "How many days until my passport expires?"  # a month, not a day: the model's
    assert with_known_dates("How many days until the party?", said, now) == "How many days until the party?"
