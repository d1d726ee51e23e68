"""An answer drafted by the model is checked before the person gets it, and redrafted when it fails.

Four checks, each its own reason: code in it is run (turn/code_check.py), a day plan in it is read
(turn/plan_check.py), an answer that repeats, word for word, an earlier answer of the conversation to
another request is sampled again (`checked_fresh`): `mol chat -c` answered "Give me a simple recipe for
pancakes" with "You're feeling stressed about work.", its answer to the message before; and an answer that
loops, saying the same line over and over, has each line once (`checked_unlooped`): "What should I pack for a
beach holiday?" got "- beach towels" twelve times.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from mol_local.turn.code_check import REDRAFT_BUDGET_S, TRIES, Checked, checked_code
from mol_local.number_words import NUMBER_WORDS, said_number
from mol_local.turn.code_tidy import said_unchanged
from mol_local.turn.plan_check import checked_plan

if TYPE_CHECKING:
    from memory.timeline import TaskRecord


def earlier_answers(history: Sequence[TaskRecord]) -> list[tuple[str, str]]:
    """(the request, the final answer) of each earlier task of the conversation."""
    out = []
    for task in history:
        asked = next((m.content for m in task.messages if m.role == "user"), "")
        answer = next((m.content for m in reversed(task.messages) if m.role == "assistant"), "")
        if asked and answer:
            out.append((asked, answer))
    return out


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


def _same_request(a: str, b: str) -> bool:
    one, two = set(_norm(a).split()), set(_norm(b).split())
    return bool(one) and len(one & two) / len(one | two) >= 0.5


def checked_fresh(answer: str, request: str, again: Callable[[int], str], earlier: Sequence[tuple[str, str]],
                  tries: int = TRIES) -> Checked:
    """The answer, or the first of up to `tries - 1` samples that is not word for word an earlier answer of this
    conversation to another request: "Give me a simple recipe for pancakes" got "You're feeling stressed about
    work.", the answer to the message before it (`mol chat -c`). The same answer to the same request stands."""
    said = _norm(answer)
    if not said or not any(_norm(old) == said and not _same_request(asked, request) for asked, old in earlier):
        return Checked(answer)
    said_before, began = {_norm(old) for _asked, old in earlier}, time.monotonic()
    for seed in range(1, tries):
        if time.monotonic() - began > REDRAFT_BUDGET_S:
            break
        sampled = again(seed).strip()
        if sampled and _norm(sampled) not in said_before:
            return Checked(sampled, f"read: the first draft repeated an earlier answer; draft {seed + 1} is new", redrafted=True)
    return Checked(answer, "read: every draft repeated an earlier answer")


def checked_answer(answer: str, request: str, again: Callable[[int], str], earlier: Sequence[tuple[str, str]] = ()) -> Checked:
    """The answer once its code is run (turn/code_check.py; the same code as the answer before is said to be unchanged)
    or, with no code in it, its day plan read, or a repeat of an earlier answer redrafted."""
    code = checked_code(answer, request, again)
    if code.report:
        return replace(code, answer=said_unchanged(code.answer, earlier[-1][1])) if earlier else code
    plan = checked_plan(answer, request, again)
    if plan.report:
        return plan
    fresh = checked_fresh(answer, request, again, earlier)
    fresh = checked_unlooped(fresh.answer) if loops(fresh.answer) else fresh
    counted = checked_count(fresh.answer, request, again)
    return counted if counted.report else fresh


_ITEM = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+(?P<item>.+?)\s*$")
LOOPED_SHARE = 0.5  # at most this share of an answer's lines distinct: it loops


def loops(answer: str) -> bool:
    """Whether, outside code, one line with words in it (or only marks) is said four times or more, or the copies make
    half the lines."""
    prose = re.sub(r"```.*?(?:```|\Z)", "", answer, flags=re.DOTALL)
    lines = [_norm(m["item"] if (m := _ITEM.match(line)) else line) for line in prose.splitlines()]
    marks = [line for line in prose.splitlines() if line.strip() and not re.search(r"\w", line)]  # "#" on 26 lines
    lines = [line for line in lines if re.search(r"[a-z]", line)]
    most = max(max((marks.count(m) for m in set(marks)), default=0), max((lines.count(line) for line in set(lines)), default=0))
    return most >= 4 or (len(lines) - len(set(lines)) >= 3 and len(set(lines)) <= LOOPED_SHARE * len(lines))


def unlooped(answer: str) -> str:
    """The answer with each line once (a list item said again is dropped, order kept), each item of a comma list
    once ("beach towels, beach towels, beach towels"), and no dangling "--"."""
    seen: set[str] = set()
    kept = []
    for line in answer.splitlines():
        key = _norm(m["item"] if (m := _ITEM.match(line)) else line) or line.strip()  # a line of marks ("#") once too
        if key and key in seen:
            continue
        seen.add(key)
        kept.append(_COMMA_LIST.sub(lambda m: ", ".join(dict.fromkeys(p.strip() for p in m[0].split(","))), line.rstrip()))
    return re.sub(r"\n{3,}", "\n\n", "\n".join(k for k in kept if k.strip() not in ("--", "---", "…"))).strip()


_COMMA_LIST = re.compile(r"[\w'][\w' -]*(?:,\s*[\w' -]+){2,}")


def checked_unlooped(answer: str) -> Checked:
    """The answer with each line said once. Not redrafted: warm samples of the embedded L0 were worse ("Give me some
    ideas for dinner tonight" got "That sounds great: dinner tonight." in place of its list of pizza, steak, pub, …)."""
    return Checked(unlooped(answer), "read: the draft looped; each line is said once", redrafted=True)


_KINDS = (r"tips|ideas|ways|reasons|things|examples|suggestions|benefits|facts|steps|questions|names|exercises|habits|books|films|"
          r"movies|places|foods|snacks|games|activities|hobbies|gifts|recipes|songs|quotes|strategies|rules|mistakes")
_ASKS_N = re.compile(rf"\b(?P<n>[2-9]|10|{'|'.join(w for w, n in NUMBER_WORDS.items() if 2 <= n <= 10)})\s+"
                     rf"(?:[a-z]+\s+){{0,2}}?(?:{_KINDS})\b", re.IGNORECASE)


def asked_count(request: str) -> int | None:
    """How many things the request asks for ("Give me three tips for better sleep"); None when it names no count."""
    m = _ASKS_N.search(request)
    return said_number(m["n"]) if m else None


def list_items(answer: str) -> list[str]:
    """The answer's list lines (bullets or numbers), each once."""
    seen: dict[str, str] = {}
    for line in answer.splitlines():
        if (m := _ITEM.match(line)) and re.search(r"[a-z]", m["item"], re.I):
            seen.setdefault(_norm(m["item"]), line.rstrip())
    return list(seen.values())


def checked_count(answer: str, request: str, again: Callable[[int], str], tries: int = TRIES) -> Checked:
    """The answer with as many list items as the request asked for: "Give me three tips for better sleep" got one
    bullet (`mol chat`). A draft with fewer is sampled again until one has enough (its first n kept); one with more
    keeps its first n. No report when nothing was asked for or the first draft has exactly that many."""
    n = asked_count(request)
    if n is None or "```" in answer:
        return Checked(answer)
    items = list_items(answer)
    if len(items) == n:
        return Checked(answer)
    if len(items) > n:
        return Checked("\n".join(items[:n]), f"read: the draft listed {len(items)}; the first {n} asked for are kept", redrafted=True)
    best, began = items, time.monotonic()
    for seed in range(1, tries):
        if time.monotonic() - began > REDRAFT_BUDGET_S:
            break
        sampled = list_items(again(seed))
        if len(sampled) >= n:
            return Checked("\n".join(sampled[:n]), f"read: the first draft listed {len(items)} of {n}; draft {seed + 1} lists them",
                           redrafted=True)
        best = max(best, sampled, key=len)
    return Checked(answer) if len(best) <= len(items) else \
        Checked("\n".join(best), f"read: no draft listed {n}; the longest list ({len(best)}) is kept", redrafted=True)
