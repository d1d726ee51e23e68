"""L2 verification by execution in the harness's real subprocess sandbox.

`verify_gold` keeps a case only if its gold runs: function cases have exactly
one fenced block defining the requested name and parameters, and the block
passes the case's tests (many cases per sandbox call, each in its own fresh
namespace); compute cases call the `python` tool once with code whose output
the sandbox prints again now, and that output and the final answer both state
the value the generator computed by another route. `score` judges a model's
answer the same way, one case per sandbox call under a short per-case limit
(a loop hits the CPU cap, a sleep the wall clock; both read "timeout").
"""

from __future__ import annotations

import ast
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from mol_local.harness.builtins import format_sandbox
from mol_local.harness.limits import ToolLimits
from mol_local.harness.sandbox import Sandbox
from mol_local.turn.code_check import first_code_block
from mol_local.turn.tasks import parse_tool_calls, strip_tool_calls
from trainer.specialists.cases import Case, Verdict
from trainer.specialists.code_template import MAX_SUMMARY_WORDS

SCORE_LIMITS = ToolLimits(timeout_s=6.0, cpu_s=3.0, memory_mb=512, output_kb=64)  # one model answer
BATCH_LIMITS = ToolLimits(timeout_s=120.0, cpu_s=60.0, memory_mb=1024, output_kb=512)  # many gold answers at once
BATCH = 150
MAX_REASON = 200

# Runs in the sandbox: one answer's code in a fresh namespace, then its tests; '' when all pass.
# Only Exception and SystemExit are caught, so the sandbox's CPU-limit signal still ends the call.
_DRIVER = '''
import sys as _sys, types as _types

def _mol_check(src, entry, tests):
    module = _types.ModuleType("__answer__")  # a registered module: dataclasses and pickling look their class's module up
    _sys.modules["__answer__"] = module
    ns = module.__dict__
    try:
        exec(compile(src, "<answer>", "exec"), ns)
    except SyntaxError as exc:
        return f"syntax error: {exc.msg} (line {exc.lineno})"
    except SystemExit:
        return "the code called exit()"
    except Exception as exc:
        return f"the code raised {type(exc).__name__}: {exc}"[:%(cap)d]
    if entry not in ns:
        return f"the code does not define {entry}"
    for test in tests:
        try:
            exec(compile(test, "<test>", "exec"), ns)
        except AssertionError:
            return ("failed: " + test)[:%(cap)d]
        except SystemExit:
            return "the code called exit()"
        except Exception as exc:
            return f"{type(exc).__name__} ({exc}) in: {test}"[:%(cap)d]
    return ""
''' % {"cap": MAX_REASON}


@contextmanager
def code_sandbox(limits: ToolLimits = SCORE_LIMITS) -> Iterator[Sandbox]:
    """A fresh sandbox in a temporary workspace, closed (and its folder removed) afterwards."""
    with tempfile.TemporaryDirectory(prefix="mol-l2-") as tmp:
        box = Sandbox(Path(tmp) / "ws", limits)
        try:
            yield box
        finally:
            box.close()


def run_checks(box: Sandbox, jobs: list[tuple[str, str, list[str]]]) -> list[str]:
    """(code, entry, tests) per job -> '' for a pass or the reason it failed, in one sandbox call."""
    if not jobs:
        return []
    result = box.execute(f"{_DRIVER}\n[_mol_check(*job) for job in {jobs!r}]")
    if result.status == "ok" and result.value is not None:
        reasons = ast.literal_eval(result.value)
        if isinstance(reasons, list) and len(reasons) == len(jobs):
            return reasons
    if result.status == "timeout" or "CPU time limit" in (result.error or ""):
        why = "timeout"
    else:
        last = (result.error or "no output").strip().splitlines() or ["no output"]
        why = f"sandbox {result.status}: {last[-1]}"[:MAX_REASON]
    if len(jobs) == 1:
        return [why]
    return [reason for job in jobs for reason in run_checks(box, [job])]  # one bad job must not sink the batch


def python_tool_text(box: Sandbox, code: str) -> str:
    """Exactly what the `python` tool hands the model for this code (the harness's own formatting)."""
    return format_sandbox(box.execute(code), box.limits.output_kb).text


def states_value(text: str, expect: str) -> bool:
    """Does the text state `expect` as a whole value? Thousands separators are allowed; '3' is not found in '3.5' or '13'."""
    plain = re.sub(r"(?<=\d)[,_](?=\d{3}(?!\d))", "", text)
    if re.fullmatch(r"-?[\d.]+", expect):
        pattern = rf"(?<![\d.\-]){re.escape(expect)}(?!\d|\.\d)"
    else:
        pattern = rf"(?<!\w){re.escape(expect)}(?!\w)"
    return re.search(pattern, plain, flags=re.IGNORECASE) is not None


# -- gold --------------------------------------------------------------------------------------
def _shape_error(case: Case) -> str:
    """Why a function case's gold is not one fenced block with the requested definition plus a short text ('' if fine)."""
    if len(case.gold) != 1 or case.gold[0]["role"] != "assistant":
        return "gold is not one assistant message"
    answer = case.gold[0]["content"]
    code = first_code_block(answer)
    if code is None or answer.count("```") != 2 or not answer.startswith("```python\n"):
        return "gold is not exactly one ```python block"
    if not answer.rsplit("```", 1)[1].strip():
        return "no sentence after the code block"
    entry, sig = case.check["entry"], case.check.get("signature", case.check["entry"])
    for node in ast.parse(code).body:
        if isinstance(node, ast.FunctionDef) and node.name == entry:
            params = ", ".join(a.arg for a in node.args.args)
            return "" if f"{entry}({params})" == sig else f"defines {entry}({params}), asked for {sig}"
        if isinstance(node, ast.ClassDef) and node.name == entry:
            return ""
    return f"gold does not define {entry}"


def _summary_error(case: Case) -> str:
    words = len(case.summary.split())
    if words > MAX_SUMMARY_WORDS:
        return f"summary has {words} words"
    if case.check["kind"] == "function" and case.check["entry"] not in case.summary:
        return "summary does not name the function"
    return ""


def _compute_error(box: Sandbox, case: Case) -> str:
    expect = case.check["expect"]
    if [m["role"] for m in case.gold] != ["assistant", "tool", "assistant"]:
        return "gold is not call, tool result, answer"
    calls = parse_tool_calls(case.gold[0]["content"])
    if len(calls) != 1 or calls[0].error or calls[0].name != "python" or strip_tool_calls(case.gold[0]["content"]):
        return "gold's first message is not one python tool call alone"
    now = python_tool_text(box, calls[0].arguments["code"])
    if now != case.gold[1]["content"]:
        return f"the sandbox now prints {now!r}, not the recorded {case.gold[1]['content']!r}"
    if not states_value(now, expect):
        return f"the tool output {now!r} does not state {expect}"
    return "" if states_value(case.answer, expect) else f"the answer does not state {expect}"


def verify_report(cases: list[Case]) -> tuple[list[Case], list[tuple[Case, str]]]:
    """(kept, [(dropped case, why)]), in the input order, from one fresh sandbox."""
    reasons: dict[int, str] = {i: _summary_error(c) for i, c in enumerate(cases)}
    functions = [i for i, c in enumerate(cases) if c.check.get("kind") == "function" and not reasons[i]]
    for i in functions:
        reasons[i] = _shape_error(cases[i])
    runnable = [i for i in functions if not reasons[i]]
    with code_sandbox(BATCH_LIMITS) as box:
        for start in range(0, len(runnable), BATCH):
            part = runnable[start : start + BATCH]
            jobs = [(first_code_block(cases[i].answer) or "", cases[i].check["entry"], cases[i].check["tests"]) for i in part]
            for i, why in zip(part, run_checks(box, jobs)):
                reasons[i] = why
    computes = [i for i, c in enumerate(cases) if c.check.get("kind") == "compute" and not reasons[i]]
    if computes:
        with code_sandbox(ToolLimits(timeout_s=30.0, cpu_s=30.0)) as box:  # local-default's [tools.limits.python]
            for i in computes:
                reasons[i] = _compute_error(box, cases[i])
    for i, c in enumerate(cases):
        if c.check.get("kind") not in ("function", "compute"):
            reasons[i] = f"not an L2 case (check kind {c.check.get('kind')!r})"
    kept = [c for i, c in enumerate(cases) if not reasons[i]]
    return kept, [(c, reasons[i]) for i, c in enumerate(cases) if reasons[i]]


def verify_gold(cases: list[Case]) -> list[Case]:
    """The cases whose gold passes verification by execution (see the module docstring)."""
    return verify_report(cases)[0]


# -- model answers -----------------------------------------------------------------------------
def score(case: Case, answer_text: str, *, sandbox: Sandbox | None = None, tool_calls: list[dict] | None = None) -> Verdict:
    """Is a model's answer right? Function cases: the first python block passes the tests. Compute: the words state the value.

    Pass a `code_sandbox()` to score many answers in one process; without one a fresh sandbox runs this answer.
    `tool_calls` (the turn's calls, each with a "name"), when given, must include a python call for a compute case.
    """
    kind = case.check.get("kind")
    if kind == "compute":
        if tool_calls is not None and not any(call.get("name") == "python" for call in tool_calls):
            return Verdict(False, "no python tool call")
        words = strip_tool_calls(answer_text)
        if not words:
            return Verdict(False, "no final answer")
        expect = case.check["expect"]
        return Verdict(True, score=1.0) if states_value(words, expect) else Verdict(False, f"answer does not state {expect}")
    if kind != "function":
        raise ValueError(f"case {case.case_id} is not an L2 case (check kind {kind!r}) — score it with its own slot's verifier")
    code = first_code_block(answer_text)
    if code is None:
        return Verdict(False, "no code block")
    job = [(code, case.check["entry"], case.check["tests"])]
    if sandbox is None:
        with code_sandbox() as box:
            why = run_checks(box, job)[0]
    else:
        why = run_checks(sandbox, job)[0]
    return Verdict(not why, why, 1.0 if not why else 0.0)
