"""One L2 problem family (a "template") and how it turns into cases.

A template states a small programming task in several paraphrases of our own,
with several sets of names for the function and its parameters, one short
idiomatic solution and hand-written assert lines (expected values written by
hand, never computed by the solution, so a wrong solution fails its tests).
`{f}` in any text is the function (or class) name, `{a}`, `{b}`, `{c}`, `{d}`
its parameters in order; nothing else in braces is touched, so solutions may
use dict literals and f-strings freely.
"""

from __future__ import annotations

import random
import re
import textwrap
from dataclasses import dataclass

from trainer.specialists.cases import Case

SLOT = "L2"
_HOLE = re.compile(r"\{([fabcd])\}")
_EXAMPLE = re.compile(r"^assert (\w+\(.*\)) (?:==|is) (.+)$")
MAX_SUMMARY_WORDS = 40

INTROS = ("", "", "", "", "Quick one: ", "Small task: ", "For a script I'm writing: ", "Hi! ", "Python question. ")
OUTROS = ("", "", "", "", " Keep it short.", " Standard library only, please.", " Thanks!", " No explanation needed beyond a line or two.")


@dataclass(frozen=True)
class FnTemplate:
    name: str  # the template id (the unit of hold-out)
    does: str  # what the function does, third person: "checks whether a string is a palindrome"
    how: str  # how the solution does it, third person: "lowercases it and compares it with its reverse"
    names: tuple[tuple[str, ...], ...]  # (function, param, ...) name sets
    asks: tuple[str, ...]  # paraphrases of the request
    code: str
    tests: tuple[str, ...]  # assert lines (a line may set up with `x = ...; ` before its assert)

    @property
    def is_class(self) -> bool:
        return re.search(r"^class \{f\}", self.code, re.MULTILINE) is not None


def T(name: str, does: str, how: str, names: list[tuple[str, ...]], asks: list[str], code: str, tests: list[str]) -> FnTemplate:
    """A template from plain lists; `code` may be indented or start with a newline."""
    return FnTemplate(name, does, how, tuple(names), tuple(asks), textwrap.dedent(code).strip("\n"), tuple(tests))


def fill(text: str, names: tuple[str, ...]) -> str:
    holes = dict(zip("fabcd", names))
    return _HOLE.sub(lambda m: holes[m.group(1)], text)


def signature(t: FnTemplate, names: tuple[str, ...]) -> str:
    """How the request and the summary name the entry point: `f(a, b)`, or the class name."""
    return names[0] if t.is_class else f"{names[0]}({', '.join(names[1:])})"


def _explain(t: FnTemplate, names: tuple[str, ...], tests: list[str], rng: random.Random) -> str:
    subject = rng.choice(("It", "The class") if t.is_class else ("It", "The function", f"{names[0]}"))
    words = [f"{subject} {t.how}."]
    example = next((m for m in map(_EXAMPLE.match, tests) if m and ";" not in m.group(0)), None)
    if example and rng.random() < 0.6:
        words.append(f"For example, {example.group(1)} returns {example.group(2)}.")
    return " ".join(words)


def _summary(t: FnTemplate, names: tuple[str, ...], rng: random.Random) -> str:
    kind = "class" if t.is_class else "function"
    sig = signature(t, names)
    forms = (
        f"Asked for a Python {kind} {sig} that {t.does}; wrote it so that it {t.how}.",
        f"Wrote the Python {kind} {sig}, which {t.does}; it {t.how}.",
        f"Request: a Python {kind} {sig} that {t.does}. Answered with a short {kind} that {t.how}.",
        f"The user needed {sig} in Python, a {kind} that {t.does}; my version {t.how}.",
    )
    fitting = [s for s in forms if len(s.split()) <= MAX_SUMMARY_WORDS]
    return rng.choice(fitting) if fitting else min(forms, key=lambda s: len(s.split()))


def render(t: FnTemplate, names: tuple[str, ...], ask: str, rng: random.Random) -> Case:
    """One case: the filled request, the gold answer (one fenced block + one or two sentences), summary, check."""
    request = f"{rng.choice(INTROS)}{fill(ask, names)}{rng.choice(OUTROS)}"
    code = fill(t.code, names)
    tests = [fill(line, names) for line in t.tests]
    answer = f"```python\n{code}\n```\n{_explain(t, names, tests, rng)}"
    return Case(
        slot=SLOT,
        template=t.name,
        request=request,
        gold=({"role": "assistant", "content": answer},),
        summary=_summary(t, names, rng),
        check={"kind": "function", "entry": names[0], "signature": signature(t, names), "tests": tests},
    )


def expand(t: FnTemplate, count: int, rng: random.Random) -> list[Case]:
    """Up to `count` cases with distinct requests: every (paraphrase, names) pair once before any repeats."""
    pairs = [(ask, names) for ask in t.asks for names in t.names]
    rng.shuffle(pairs)
    out: list[Case] = []
    seen: set[str] = set()
    for attempt in range(count * 8):
        if len(out) == count:
            break
        ask, names = pairs[attempt % len(pairs)]
        case = render(t, names, ask, rng)
        if case.request not in seen:
            seen.add(case.request)
            out.append(case)
    return out
