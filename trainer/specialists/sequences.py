"""Cases as the slot sees them: multi-turn own views, tokenized as llama.cpp tokenizes them, loss on what the slot wrote.

A case becomes one sequence: the slot's view exactly as `views.build_view`
makes it in a real turn — the slot's head, earlier tasks of the conversation
(its own verbatim, other slots' as user text + summary), then the request
with the clock and any retrieved memories in its tail — followed by the gold
messages (tool calls, real tool results, the answer) and then the summary
hop (the summary instruction as the next user message, the summary as the
reply), which at serve time is asked on this very view. Loss falls on the
assistant messages of the current task and on the summary; the history,
tool results and tails are context only. So a specialist learns to answer
the *current* request in a conversation that already holds other work — the
trap the bare base fell into was copying an earlier entry.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from memory.timeline import MessageRecord, TaskRecord
from mol_local.engine.base import Message
from mol_local.turn.view import ViewSpec, build_view
from trainer.examples import IGNORE
from trainer.specialists.cases import Case

Tokenize = Callable[[Sequence[Message], bool], list[int]]  # (messages, add_generation_prompt) -> ids


@dataclass(frozen=True)
class Sequence_:
    case_id: str
    template: str
    ids: list[int]
    labels: list[int]


def as_task(case: Case, seq: int) -> TaskRecord:
    """A case as a committed task of the timeline (what a later view shows of it)."""
    messages = [MessageRecord("user", case.request)] + [MessageRecord(m["role"], m["content"]) for m in case.gold]
    return TaskRecord(f"h{seq}-{case.case_id}", "train", seq, case.slot, "closed", messages, case.summary)


def history_for(case: Case, pool: Sequence[Case], rng: random.Random, *, max_tasks: int, max_own: int) -> list[TaskRecord]:
    """0..max_tasks earlier tasks from the pool (other slots mostly; at most max_own of this slot), in order."""
    n = rng.choice([0] + list(range(1, max_tasks + 1)) * 2)  # a third start fresh, the rest hold earlier work
    picked: list[Case] = []
    own = 0
    for other in rng.sample(list(pool), min(len(pool), n * 3)):
        if len(picked) == n:
            break
        if other.case_id == case.case_id:
            continue
        if other.slot == case.slot:
            if own >= max_own:
                continue
            own += 1
        picked.append(other)
    return [as_task(c, i) for i, c in enumerate(picked)]


def case_now(case: Case) -> datetime:
    """The clock line's time for a case: its own `now` when it has one (tool cases), else a stable pseudo-random one."""
    stamp = case.check.get("now")
    if stamp:
        return datetime.fromisoformat(stamp)
    rng = random.Random(case.case_id)
    return datetime(2026, 1, 5, 8) + timedelta(days=rng.randint(0, 700), minutes=rng.randint(0, 12 * 60))


def build_sequence(
    case: Case, history: list[TaskRecord], spec: ViewSpec, summary_instruction: str, tokenize: Tokenize, *, max_len: int
) -> Sequence_ | None:
    """The joint answer + summary sequence; None if even the case alone does not fit `max_len`."""
    current: list[Message] = [{"role": "user", "content": case.request}] + [dict(m) for m in case.gold]  # type: ignore[misc]
    now = case_now(case)
    while True:
        view = build_view(spec, history, current, notes=case.notes, now=now)
        full = view + [{"role": "user", "content": summary_instruction}, {"role": "assistant", "content": case.summary}]
        ids = tokenize(full, False)
        if len(ids) <= max_len:
            break
        if not history:
            return None
        history = history[1:]
    labels = [IGNORE] * len(ids)
    n_prefix = len(view) - len(current)
    targets = [n_prefix + i for i, m in enumerate(current) if m["role"] == "assistant"] + [len(full) - 1]
    for i in targets:
        before = tokenize(full[:i], True)
        through = tokenize(full[: i + 1], False)
        if ids[: len(before)] != before or ids[: len(through)] != through:
            raise ValueError("chat template is not prefix-stable; cannot mark assistant tokens")
        labels[len(before) : len(through)] = ids[len(before) : len(through)]
    return Sequence_(case.case_id, case.template, ids, labels)


def build_sequences(
    cases: Sequence[Case],
    pool: Sequence[Case],
    spec: ViewSpec,
    summary_instruction: str,
    tokenize: Tokenize,
    *,
    seed: int,
    max_len: int = 1536,
    max_tasks: int = 3,
    max_own: int = 2,
) -> list[Sequence_]:
    rng = random.Random(f"views-{spec.slot}-{seed}")
    out = []
    for case in cases:
        history = history_for(case, pool, rng, max_tasks=max_tasks, max_own=max_own)
        told = case.check.get("told_before")
        if told:  # asked about what this conversation was told: the telling is the newest earlier turn
            messages = [MessageRecord("user", told["request"]), MessageRecord("assistant", told["answer"])]
            history.append(TaskRecord(f"h{len(history)}-told-{case.case_id}", "train", len(history), case.slot, "closed",
                                      messages, told["summary"]))
        built = build_sequence(case, history, spec, summary_instruction, tokenize, max_len=max_len)
        if built is not None:
            out.append(built)
    return out
