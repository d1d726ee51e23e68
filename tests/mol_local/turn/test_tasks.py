"""The task state machine and tool-call parsing (pure; no model)."""

from __future__ import annotations

import pytest

from mol_local.turn.tasks import Step, TaskMachine, parse_tool_calls


def test_plain_turn() -> None:
    m = TaskMachine()
    assert m.step is Step.ROUTE
    assert m.routed() is Step.ANSWER
    assert m.answered(0) is Step.SUMMARIZE
    assert m.summarized() is Step.COMMIT
    assert m.status == "closed"
    assert m.committed() is Step.DONE


def test_tool_calls_are_sticky_until_final_answer() -> None:
    m = TaskMachine(max_rounds=3)
    m.routed()
    assert m.answered(2) is Step.RUN_TOOLS
    assert m.tools_done() is Step.ANSWER  # back to the same slot, no route, no summary
    assert m.answered(1) is Step.RUN_TOOLS
    m.tools_done()
    assert m.answered(0) is Step.SUMMARIZE
    assert m.rounds == 2 and not m.capped


def test_round_cap_closes_the_task() -> None:
    m = TaskMachine(max_rounds=1)
    m.routed()
    m.answered(1)
    m.tools_done()
    assert m.answered(1) is Step.SUMMARIZE
    assert m.capped


def test_held_task_skips_summary_and_next_turn_skips_route() -> None:
    m = TaskMachine()
    m.routed()
    assert m.answered(0, hold=True) is Step.COMMIT
    assert m.status == "open"
    nxt = TaskMachine(sticky=True)
    assert nxt.step is Step.ANSWER
    with pytest.raises(RuntimeError):
        nxt.routed()


def test_out_of_order_transitions_fail_loudly() -> None:
    m = TaskMachine()
    with pytest.raises(RuntimeError):
        m.answered(0)


def test_parse_tool_calls() -> None:
    text = 'Let me check.<tool_call>{"name": "notes.find", "arguments": {"q": "milk"}}</tool_call>'
    (call,) = parse_tool_calls(text)
    assert call.name == "notes.find" and call.arguments == {"q": "milk"} and call.error is None
    (bad,) = parse_tool_calls("<tool_call>{name: oops}</tool_call>")
    assert bad.error and "malformed" in bad.error
    (stringly,) = parse_tool_calls('<tool_call>{"name": "x", "arguments": "{\\"a\\": 1}"}</tool_call>')
    assert stringly.arguments == {"a": 1}
    assert parse_tool_calls("no calls here") == []


TRACEBACK = 'Error: Traceback (most recent call last):\n  File "<python>", line 3, in <module>\nNameError: name \'aumber\' is not defined'


def test_an_error_is_said_by_its_exception_line_not_the_traceback_header() -> None:
    from mol_local.turn.tasks import error_line

    assert error_line(TRACEBACK) == "NameError: name 'aumber' is not defined"
    assert error_line("Error: reminders.create needs 'due'") == "reminders.create needs 'due'"
    assert error_line("partial output\nError: Traceback (most recent call last):\nValueError: month must be in 1..12") == \
        "ValueError: month must be in 1..12"


def test_a_number_given_after_a_failed_python_call_is_replaced_by_why_it_failed() -> None:
    from mol_local.turn.tasks import unbacked_answer

    failed = [{"name": "python", "arguments": {"code": "aumber ** 0.5"}, "result": TRACEBACK}]
    assert unbacked_answer("The square root of 7921 is 30.", "What is the square root of 7921?", failed) == \
        "I couldn't compute that: NameError: name 'aumber' is not defined"
    assert unbacked_answer("I could not work out the square root of 7921.", "… of 7921?", failed) is None  # no new number
    assert unbacked_answer("Try this:\n```python\nprint(7921 ** 0.5)\n```", "…", failed) is None  # code to try
    fixed = failed + [{"name": "python", "arguments": {"code": "7921 ** 0.5"}, "result": "result: 89.0"}]
    assert unbacked_answer("It is 89.0.", "What is the square root of 7921?", fixed) is None  # the last run succeeded
