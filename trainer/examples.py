"""Training examples in the slot's own-view format, loss only on assistant tokens.

The prompt is built with the runtime's own pieces — `Runtime.head(slot)`,
`ViewSpec`, `build_view` with the runtime's context budget — and rendered with
the runtime's `ChatTemplate` (the template string stored in the GGUF), with
the transformers tokenizer of the same GGUF as the tokenize callback. So the
token ids are the ones llama.cpp would see (a test compares them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from memory.consent import FORGOTTEN, Trajectory
from memory.timeline import MessageRecord, TaskRecord, Timeline
from mol_local.engine.base import Message
from mol_local.engine.template import ChatTemplate
from mol_local.turn.view import ViewSpec, build_view
from trainer.pii import scrub

IGNORE = -100


@dataclass(frozen=True)
class Example:
    training_id: str
    input_ids: list[int]
    labels: list[int]  # IGNORE everywhere except the current task's assistant tokens

    @property
    def n_loss(self) -> int:
        return sum(1 for x in self.labels if x != IGNORE)


class Tokenizer:
    """The runtime's template + BOS rule over a transformers tokenizer."""

    def __init__(self, hf_tokenizer) -> None:
        self.hf = hf_tokenizer
        self.template = ChatTemplate(hf_tokenizer.chat_template, bos_token=hf_tokenizer.bos_token or "", eos_token=hf_tokenizer.eos_token or "")
        self.bos = hf_tokenizer.bos_token_id if getattr(hf_tokenizer, "add_bos_token", False) else None

    def _tok(self, text: str, special: bool) -> list[int]:
        return self.hf(text, add_special_tokens=False, split_special_tokens=not special).input_ids

    def tokenize_messages(self, messages: Sequence[Message], *, add_generation_prompt: bool = True) -> list[int]:
        tokens = self.template.tokenize(messages, add_generation_prompt=add_generation_prompt, tokenize=self._tok)
        if self.bos is not None and (not tokens or tokens[0] != self.bos):
            tokens.insert(0, self.bos)
        return tokens

    def count_tokens(self, messages: list[Message]) -> int:
        return len(self.tokenize_messages(messages))


def _clean(task: TaskRecord) -> TaskRecord:
    msgs = [MessageRecord(m.role, scrub(m.content)[0]) for m in task.messages]
    summary = scrub(task.summary)[0] if task.summary else task.summary
    return TaskRecord(task.id, task.conversation_id, task.seq, task.slot, task.status, msgs, summary)


def history_before(timeline: Timeline, t: Trajectory) -> list[TaskRecord]:
    """The committed tasks before this one (as the runtime's session holds them), scrubbed; forgotten ones left out."""
    out = []
    for task in timeline.load_tasks(t.conversation_id):
        if task.id == t.task_id:
            break
        if any(m.content == FORGOTTEN for m in task.messages) or task.summary == FORGOTTEN:
            continue
        out.append(_clean(task))
    return out


def build_example(
    t: Trajectory,
    history: list[TaskRecord],
    spec: ViewSpec,
    tok: Tokenizer,
    *,
    budget: int,
    max_len: int,
) -> Example | None:
    """One sequence: the view the runtime builds for this task, loss on each of its assistant messages."""
    current: list[Message] = [{"role": m["role"], "content": m["content"]} for m in t.messages]
    count: Callable[[list[Message]], int] = tok.count_tokens
    view = build_view(spec, history, current, budget=budget, count_tokens=count)
    n_prefix = len(view) - len(current)
    ids = tok.tokenize_messages(view, add_generation_prompt=False)
    labels = [IGNORE] * len(ids)
    for i, m in enumerate(current):
        if m["role"] != "assistant":
            continue
        before = tok.tokenize_messages(view[: n_prefix + i], add_generation_prompt=True)
        through = tok.tokenize_messages(view[: n_prefix + i + 1], add_generation_prompt=False)
        if through[: len(before)] != before or ids[: len(through)] != through:
            raise ValueError("chat template is not prefix-stable; cannot mark assistant tokens")
        labels[len(before) : len(through)] = ids[len(before) : len(through)]
    if len(ids) > max_len:  # keep the tail: the answer and what led to it
        ids, labels = ids[-max_len:], labels[-max_len:]
    example = Example(t.training_id, ids, labels)
    return example if example.n_loss else None


def build_examples(
    trajectories: Sequence[Trajectory], timeline: Timeline, specs: Callable[[str], ViewSpec], tok: Tokenizer, *, budget: int, max_len: int
) -> list[Example]:
    out = []
    for t in trajectories:
        ex = build_example(t, history_before(timeline, t), specs(t.slot), tok, budget=budget, max_len=max_len)
        if ex is not None:
            out.append(ex)
    return out


def qa_example(tok: Tokenizer, head: str, prompt: str, answer: str, training_id: str) -> Example:
    """One question in a slot's view (its head, the question) with `answer` as the only target."""
    view = [{"role": "system", "content": head}, {"role": "user", "content": prompt}]
    before = tok.tokenize_messages(view, add_generation_prompt=True)
    ids = tok.tokenize_messages(view + [{"role": "assistant", "content": answer}], add_generation_prompt=False)
    return Example(training_id, ids, [IGNORE] * len(before) + ids[len(before) :])
