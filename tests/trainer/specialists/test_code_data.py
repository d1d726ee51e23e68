"""L2 data: our templates, whole-template hold-outs, gold verified and answers scored in the real sandbox."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from mol_local.harness.limits import ToolLimits
from mol_local.turn.tasks import parse_tool_calls
from trainer.specialists.cases import Case
from trainer.specialists.code_data import (
    COMPUTE_TEMPLATES, FUNCTION_TEMPLATES, HELDOUT, cases, code_sandbox, first_code_block, score, states_value,
    template_names, verify_report,
)
from trainer.specialists.code_verify import run_checks

FAST = ToolLimits(timeout_s=3.0, cpu_s=1.0)


@pytest.fixture(scope="module")
def train() -> list[Case]:
    return cases("train", per_template=3)


@pytest.fixture(scope="module")
def heldout() -> list[Case]:
    return cases("heldout", per_template=3)


@pytest.fixture(scope="module")
def box():
    with code_sandbox(FAST) as sandbox:
        yield sandbox


def _one(pool: list[Case], template: str) -> Case:
    return next(c for c in pool if c.template == template)


def test_every_template_yields_cases(train: list[Case], heldout: list[Case]) -> None:
    counts = Counter(c.template for c in train + heldout)
    assert set(counts) == set(template_names())
    assert all(n == 3 for n in counts.values()), counts
    assert len(FUNCTION_TEMPLATES) >= 70 and len(COMPUTE_TEMPLATES) >= 10
    assert len(set(template_names())) == len(template_names())


def test_heldout_is_whole_templates_about_a_fifth(train: list[Case], heldout: list[Case]) -> None:
    assert not {c.template for c in train} & {c.template for c in heldout}
    assert {c.template for c in heldout} == HELDOUT
    for family in (FUNCTION_TEMPLATES, COMPUTE_TEMPLATES):
        share = sum(t.name in HELDOUT for t in family) / len(family)
        assert 0.15 <= share <= 0.25, share
    assert not {c.request for c in train} & {c.request for c in heldout}


def test_full_train_split_has_600_distinct_requests() -> None:
    full = cases("train")
    assert len(full) >= 600
    assert len({c.request for c in full}) == len(full)
    assert {c.slot for c in full} == {"L2"}


def test_same_seed_same_cases_other_seed_other_names(train: list[Case]) -> None:
    again = cases("train", per_template=3)
    assert [(c.request, c.gold, c.summary) for c in again] == [(c.request, c.gold, c.summary) for c in train]
    other = cases("train", seed=1, per_template=3)
    assert {c.request for c in other} != {c.request for c in train}


def test_bad_split_names_the_choices() -> None:
    with pytest.raises(ValueError, match="train, heldout"):
        cases("test")


def test_function_gold_is_one_python_block_then_short_text(train: list[Case], heldout: list[Case]) -> None:
    for case in (c for c in train + heldout if c.check["kind"] == "function"):
        assert len(case.gold) == 1 and case.gold[0]["role"] == "assistant"
        answer = case.answer
        assert answer.startswith("```python\n") and answer.count("```") == 2, answer
        after = answer.rsplit("```", 1)[1].strip()
        assert 0 < len(after) < 300
        assert case.check["entry"] in case.request and case.check["signature"] in case.request
        assert case.check["tests"] and all("assert " in t or "AssertionError" in t for t in case.check["tests"])
        assert case.check["entry"] in case.summary and len(case.summary.split()) <= 40


def test_compute_gold_is_one_exact_python_call_then_the_value(train: list[Case], heldout: list[Case]) -> None:
    for case in (c for c in train + heldout if c.check["kind"] == "compute"):
        assert [m["role"] for m in case.gold] == ["assistant", "tool", "assistant"]
        (call,) = parse_tool_calls(case.gold[0]["content"])
        assert call.name == "python" and call.error is None
        assert case.gold[0]["content"] == f"<tool_call>{json.dumps({'name': 'python', 'arguments': {'code': call.arguments['code']}})}</tool_call>"
        assert states_value(case.gold[1]["content"], case.check["expect"]), case.gold[1]["content"]
        assert states_value(case.answer, case.check["expect"]) and case.answer.count(". ") == 0
        assert len(case.summary.split()) <= 40


def test_prompts_are_ours_not_benchmark_copies(train: list[Case], heldout: list[Case]) -> None:
    markers = re.compile(r">>>|HumanEval|MBPP|APPS|GSM8K|candidate\(|def check\(|METADATA|\[BEGIN\]|Your code should pass", re.IGNORECASE)
    for case in train + heldout:
        text = case.request + "".join(m["content"] for m in case.gold) + case.summary
        assert not markers.search(text), (case.template, text)


def test_gold_of_every_template_passes_in_the_sandbox(train: list[Case], heldout: list[Case]) -> None:
    per_template: dict[str, Case] = {}
    for case in train + heldout:
        per_template.setdefault(case.template, case)
    kept, dropped = verify_report(list(per_template.values()))
    assert not dropped, [(c.template, why) for c, why in dropped]
    assert len(kept) == len(template_names())


def test_every_template_rejects_a_stub(train: list[Case], heldout: list[Case], box) -> None:
    """No template's tests pass an answer that does nothing: each test set can fail."""
    firsts: dict[str, Case] = {}
    for case in train + heldout:
        if case.check["kind"] == "function":
            firsts.setdefault(case.template, case)
    jobs = []
    for case in firsts.values():
        entry = case.check["entry"]
        stub = f"class {entry}:\n    def __init__(self, *args):\n        pass" if entry[0].isupper() else f"def {entry}(*args):\n    return None"
        jobs.append((stub, entry, case.check["tests"]))
    reasons = run_checks(box, jobs)
    assert all(reasons), [c.template for c, why in zip(firsts.values(), reasons) if not why]


def test_verification_drops_broken_gold(train: list[Case]) -> None:
    good = _one(train, "palindrome")
    broken_code = Case(good.slot, good.template, good.request,
                       ({"role": "assistant", "content": good.answer.replace("[::-1]", "")},), good.summary, good.check)
    wrong_name = Case(good.slot, good.template, good.request, good.gold, good.summary,
                      {**good.check, "signature": good.check["entry"] + "(x, y)"})
    compute = next(c for c in train if c.check["kind"] == "compute")
    stale = Case(compute.slot, compute.template, compute.request,
                 (compute.gold[0], {"role": "tool", "content": "result: 12345"}, compute.gold[2]), compute.summary, compute.check)
    kept, dropped = verify_report([good, broken_code, wrong_name, stale])
    assert kept == [good]
    reasons = [why for _, why in dropped]
    assert reasons[0].startswith("failed: assert")
    assert "asked for" in reasons[1]
    assert "the sandbox now prints" in reasons[2]


def test_gold_scores_and_a_wrong_solution_fails(train: list[Case], box) -> None:
    case = _one(train, "count_vowels")
    assert score(case, case.answer, sandbox=box).ok
    entry = case.check["entry"]
    wrong = f"Here you go:\n```python\ndef {entry}(text):\n    return len(text)\n```\nIt counts vowels."
    verdict = score(case, wrong, sandbox=box)
    assert not verdict.ok and verdict.reason.startswith("failed: assert") and verdict.score == 0.0


def test_answer_without_code_block_fails(train: list[Case], box) -> None:
    case = _one(train, "palindrome")
    assert score(case, "You can compare the string with its reverse.", sandbox=box).reason == "no code block"
    js = "```javascript\nconst f = s => s;\n```"
    assert score(case, js, sandbox=box).reason == "no code block"


def test_looping_and_sleeping_code_time_out_and_the_sandbox_recovers(train: list[Case], box) -> None:
    case = _one(train, "palindrome")
    entry = case.check["entry"]
    spin = f"```python\ndef {entry}(s):\n    while True:\n        pass\n```"
    sleep = f"```python\nimport time\n\ndef {entry}(s):\n    time.sleep(60)\n```"
    top_level = "```python\nwhile True:\n    pass\n```"
    for answer in (spin, sleep, top_level):
        verdict = score(case, answer, sandbox=box)
        assert not verdict.ok and verdict.reason == "timeout", verdict
    assert score(case, case.answer, sandbox=box).ok


def test_other_failures_have_clear_reasons(train: list[Case], box) -> None:
    case = _one(train, "palindrome")
    entry = case.check["entry"]
    assert score(case, "```python\ndef oops(:\n```", sandbox=box).reason.startswith("syntax error")
    assert score(case, "```python\ndef other(s):\n    return True\n```", sandbox=box).reason == f"the code does not define {entry}"
    raising = f"```python\ndef {entry}(s):\n    raise KeyError('x')\n```"
    assert score(case, raising, sandbox=box).reason.startswith("KeyError")
    exiting = "```python\nimport sys\nsys.exit(1)\n```"
    assert score(case, exiting, sandbox=box).reason == "the code called exit()"


def test_score_without_a_sandbox_and_an_unclosed_block(train: list[Case]) -> None:
    case = _one(train, "fizzbuzz")
    code = first_code_block(case.answer)
    assert code is not None
    assert score(case, f"```py\n{code}").ok  # cut off before the closing fence: the code still runs
    assert first_code_block("text\n```\nx = 1\n```\n```python\ny = 2\n```") == "x = 1"


def test_compute_answers_must_state_the_value(train: list[Case]) -> None:
    case = _one(train, "c_power")
    expect = case.check["expect"]
    assert score(case, case.answer).ok
    with_commas = f"It is {int(expect):,}."
    assert score(case, with_commas).ok
    assert not score(case, f"It is {int(expect) + 1}.").ok
    assert score(case, case.gold[0]["content"]).reason == "no final answer"
    assert score(case, case.answer, tool_calls=[{"name": "python", "arguments": {}}]).ok
    assert score(case, case.answer, tool_calls=[]).reason == "no python tool call"
    assert not states_value("It is 3.5 or 13.", "3") and states_value("It is 3.", "3")
    assert states_value("2024-06-09 is a Sunday.", "Sunday") and not states_value("Sundays", "Sunday")
