"""Run planned tool calls in the real harness, keep only cases whose state ends as asked, and score turns.

A `Plan` is a request with the calls a good answer makes (round by round; a
later round may read earlier results, e.g. the id `reminders.list` printed),
the final answer and summary as functions of the tool outputs, and `check`:
the state the person asked for. `materialize` runs each plan's calls through
the very `Harness` a turn uses (a real SQLite store, a real memory bank),
records the real outputs as the `tool` messages, and keeps the case only if
`score_state` accepts what the stores hold afterwards. The specialists bench
scores the model's own turns with the same `score_state`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from mol_local.turn.tasks import parse_tool_calls
from trainer.specialists.cases import Case, Verdict

if TYPE_CHECKING:
    from mol_local.runtime import Runtime

Calls = list[tuple[str, dict[str, Any]]]


@dataclass
class Seed:
    """State that exists before the request (what the person set up earlier)."""

    notes: Sequence[tuple[str, str]] = ()  # (title, body)
    reminders: Sequence[tuple[str, str | None]] = ()  # (text, due phrase)
    memories: Sequence[str] = ()


@dataclass
class Plan:
    slot: str
    template: str
    request: str
    now: datetime
    rounds: Sequence[Callable[[list[str]], Calls]]  # round i: every earlier output -> this round's calls
    answer: Callable[[list[str]], str]
    summary: Callable[[list[str]], str]
    check: dict[str, Any]
    seed: Seed = field(default_factory=Seed)
    notes: tuple[str, ...] = ()  # memories the recall step puts in the tail


def call_text(calls: Calls) -> str:
    """An assistant message holding only these calls, as the slot writes them."""
    return "".join("<tool_call>" + json.dumps({"name": n, "arguments": a}, ensure_ascii=False) + "</tool_call>" for n, a in calls)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


READS = frozenset({"python", "notes.find", "notes.read", "reminders.list", "memory.search", "files.list", "files.read"})  # change nothing
_NUMBERS = dict(zip("zero one two three four five six seven eight nine ten eleven twelve".split(), map(str, range(13))))


def _says(answer: str, text: str) -> bool:
    """`text` is in the answer, a small number as a word or in digits alike ("A week has 7 days." says "seven")."""
    said, want = answer.lower(), text.lower()
    if want in said:
        return True
    other = _NUMBERS.get(want) or next((w for w, d in _NUMBERS.items() if d == want), None)
    return other is not None and re.search(rf"(?<![\w.,]){other}(?![\w.,]\d)", said) is not None


def _has_words(actual: str, expected: str) -> bool:
    have = set(_words(actual))
    return all(w in have for w in _words(expected))


def reset_state(rt: Runtime) -> None:
    """Empty the notes and reminders between cases (memories are told apart by conversation)."""
    with rt.db.conn:
        rt.db.execute("delete from reminders")
        rt.db.execute("delete from notes")


def apply_seed(rt: Runtime, seed: Seed, conversation_id: str) -> None:
    hub = rt.tool_hub
    assert hub is not None
    for title, body in seed.notes:
        hub.notes.create(title, body, conversation_id="earlier")
    for text, due in seed.reminders:
        hub.reminders.create(text, due, conversation_id="earlier")
    for text in seed.memories:
        hub.runner(conversation_id).ctx.memory.remember(text, conversation_id="earlier")  # type: ignore[union-attr]


def score_state(rt: Runtime, check: dict[str, Any], conversation_id: str, answer: str, tool_calls: Sequence[dict]) -> Verdict:
    """Is the state (and the answer) what the request asked for? Partial credit = share of checks met."""
    problems: list[str] = []
    checks = 0
    hub = rt.tool_hub
    assert hub is not None
    if "reminders" in check:
        checks += 1
        rows = _own_reminders(rt, conversation_id)
        want = list(check["reminders"])
        if len(rows) != len(want):
            problems.append(f"{len(rows)} reminders, wanted {len(want)}")
        else:
            for w in want:
                hit = [r for r in rows if _has_words(r["text"], w["text"]) and _local_minute(r["due_at"]) == w["at"]]
                if not hit:
                    problems.append(f"no reminder {w['text']!r} at {w['at']}")
    if "completed" in check:
        checks += 1
        done = {r["text"] for r in hub.reminders.list(include_done=True) if r["completed_at"]}
        for text in check["completed"]:
            if text not in done:
                problems.append(f"{text!r} not completed")
        for r in hub.reminders.list(include_done=True):
            if r["completed_at"] and r["text"] not in check["completed"]:
                problems.append(f"{r['text']!r} completed but not asked")
    if "notes" in check:
        checks += 1
        rows = list(rt.db.query("select title, body from notes where conversation_id = ?", [conversation_id]))
        if len(rows) != len(check["notes"]):
            problems.append(f"{len(rows)} notes, wanted {len(check['notes'])}")
        for w in check["notes"]:
            if not any(all(_has_words(r["title"] + " " + r["body"], word) for word in w["words"]) for r in rows):
                problems.append(f"no note with {w['words']}")
    if "memories" in check:
        checks += 1
        texts = [r["text"] for r in rt.db.query("select text from memories where conversation_id = ? and kind != 'said'", [conversation_id])]
        for w in check["memories"]:
            if not any(all(_has_words(t, word) for word in w["words"]) for t in texts):
                problems.append(f"no memory with {w['words']}")
    if "calls" in check:
        checks += 1
        if check["calls"] == "none" and tool_calls:
            problems.append("called a tool when none was needed")
        elif check["calls"] == "reads only" and (writes := [c["name"] for c in tool_calls if c["name"] not in READS]):
            problems.append(f"changed something when nothing was asked: {', '.join(writes)}")
    answer_check = check.get("answer", {})
    for text in answer_check.get("has", []):
        checks += 1
        if not _says(answer, text):
            problems.append(f"answer lacks {text!r}")
    for text in answer_check.get("not", []):
        checks += 1
        if text.lower() in answer.lower():
            problems.append(f"answer says {text!r}")
    if answer_check.get("asks"):
        checks += 1
        if "?" not in answer:
            problems.append("answer asks nothing")
    if "<tool_call>" in answer or not answer.strip():
        problems.append("no final answer")
        checks += 1
    failed = len(problems)
    return Verdict(not problems, "; ".join(problems), max(0.0, 1 - failed / max(1, checks)))


def _own_reminders(rt: Runtime, conversation_id: str) -> list[dict]:
    return list(rt.db.query("select text, due_at from reminders where conversation_id = ? and completed_at is null", [conversation_id]))


def _local_minute(stamp: str | None) -> str | None:
    if not stamp:
        return None
    return datetime.fromisoformat(stamp).astimezone().replace(tzinfo=None).strftime("%Y-%m-%dT%H:%M")


def _seed_json(seed: Seed) -> dict[str, list]:
    return {"notes": [list(n) for n in seed.notes], "reminders": [list(r) for r in seed.reminders], "memories": list(seed.memories)}


def seed_of(check: dict[str, Any]) -> Seed:
    """The seed a case's check recorded (for replaying it in the bench)."""
    raw = check.get("seed") or {}
    return Seed([tuple(n) for n in raw.get("notes", [])], [tuple(r) for r in raw.get("reminders", [])], list(raw.get("memories", [])))


def minute(at: datetime) -> str:
    return at.strftime("%Y-%m-%dT%H:%M")


def materialize(plans: Sequence[Plan], rt: Runtime) -> tuple[list[Case], list[tuple[Plan, str]]]:
    """(cases whose real tool run ended in the asked-for state, [(plan, why) dropped])."""
    from memory.timeline import new_id

    kept: list[Case] = []
    dropped: list[tuple[Plan, str]] = []
    for plan in plans:
        reset_state(rt)
        rt.clock = lambda at=plan.now: at
        conversation_id = new_id()
        apply_seed(rt, plan.seed, conversation_id)
        runner = rt.tools_for(conversation_id)
        assert runner is not None
        outputs: list[str] = []
        gold: list[dict[str, str]] = []
        calls_made: list[dict] = []
        for round_ in plan.rounds:
            text = call_text(round_(outputs))
            gold.append({"role": "assistant", "content": text})
            for call in parse_tool_calls(text):
                out = runner.run(call, slot=plan.slot)
                outputs.append(out)
                calls_made.append({"name": call.name, "arguments": call.arguments, "result": out, "error": call.error})
                gold.append({"role": "tool", "content": out})
        answer = plan.answer(outputs)
        gold.append({"role": "assistant", "content": answer})
        verdict = score_state(rt, plan.check, conversation_id, answer, calls_made)
        if not verdict.ok:
            dropped.append((plan, verdict.reason))
            continue
        check = {**plan.check, "now": plan.now.isoformat(), "seed": _seed_json(plan.seed)}  # the bench replays both
        kept.append(Case(plan.slot, plan.template, plan.request, tuple(gold), plan.summary(outputs), check, plan.notes))
    return kept, dropped
