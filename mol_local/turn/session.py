"""One user turn: checkpoint -> route -> answer (tool loop) -> summary -> commit.

Nothing of a turn is durable, or visible to later turns, until `commit_turn`
succeeds: the session's in-memory timeline is only replaced after the commit,
so a cancel, an engine error or a crash before it leaves no trace. Stale KV
from an abandoned turn is harmless: the next prompt shares only the prefix
that is still true, and the engine re-evaluates from there.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from memory.errors import MemoryStoreError
from memory.timeline import MessageRecord, RouteRecord, TaskRecord, TurnRecord, new_id
from memory.transfer import source_writer
from mol_local.engine.base import GenerationRequest, GenerationResult, Message
from mol_local.errors import EmptyMessage, MolError, RemoteUnavailable, TurnCancelled
from mol_local.extract import extract_after_turn
from mol_local.turn.answer_check import checked_answer, earlier_answers
from mol_local.turn.code_check import Checked, redrafts
from mol_local.turn.code_follow import whole_ask
from mol_local.turn.commands import asked_in_full, settled_turn
from mol_local.turn.day_list import reminders_on_day
from mol_local.turn.event_before import before_my_event
from mol_local.turn.ground import open_reminders, settled_call
from mol_local.turn.read import read_answer
from mol_local.turn.told_time import with_told_time
from mol_local.turn.options import AnswerOptions, words_slot
from mol_local.turn.recall import (acts_on_its_own_words, recall, remember_writer,
                                   said_last, said_row, tail_notes, uses_writer)
from mol_local.turn.remote import memories_may_leave, run_remote_turn, uses_remote_turn
from mol_local.turn.rerouted import rerouted
from mol_local.turn.result import TurnHooks, TurnResult, count_answer
from mol_local.turn.summary import summarize
from mol_local.turn.tasks import (WORDS_ONLY, Step, TaskMachine, asked_for_words, capped_answer, fresh_calls, parse_tool_calls,
                                   repeated_answer, unbacked_answer, unfinished_answer, without_markup)
from mol_local.turn.times import first_calls, grounded_calls, said_as_set
from mol_local.turn.told_ack import said_back
from mol_local.turn.ui import answer_ui, holds, is_ui_slot, view_write
from mol_local.turn.view import ViewSpec, build_view

if TYPE_CHECKING:
    from sqlite_utils import Database

    from memory.store import MemoryRow
    from mol_local.runtime import Runtime


class Session:
    """One conversation bound to a runtime. Turns run one at a time."""

    def __init__(self, runtime: Runtime, conversation_id: str | None = None) -> None:
        self.runtime = runtime
        if conversation_id is not None:
            runtime.timeline.require(conversation_id)
            self.conversation_id = conversation_id
            self.revision = runtime.timeline.revision(conversation_id) or 0  # read first: a commit after it shows as stale
            self.tasks: list[TaskRecord] = runtime.timeline.load_tasks(conversation_id)
        else:
            self.conversation_id = new_id()
            self.revision = 0  # the conversation's write counter this history matches (memory.timeline)
            self.tasks = []
        self.tools = runtime.tools_for(self.conversation_id)
        self._lock = threading.Lock()
        self._continue: str | None = None  # the held task this turn continues, if any (set under _lock)
        self._forced: str | None = None  # the slot this turn must answer on, skipping the route (set under _lock)
        self._warm_cancel = threading.Event()  # set by a new turn so a running prewarm yields to it
        self.options = AnswerOptions()  # what an API client asked of the answer hop (mol serve); set per turn under _lock

    def view_for(
        self,
        slot: str,
        current: list[Message],
        history: list[TaskRecord] | None = None,
        notes: Sequence[str] = (),
        now: datetime | None = None,
        rt: Runtime | None = None,
    ) -> list[Message]:
        rt = rt or self.runtime
        head = rt.head(slot) + (f"\n\n{self.options.system}" if self.options.system else "")
        spec = ViewSpec(slot, head, rt.slot_names())
        reserve = rt.hcp.answer_max_tokens
        return build_view(
            spec,
            self.tasks if history is None else history,
            current,
            notes=notes,
            now=now,
            budget=rt.engine.context_limit() - reserve,
            count_tokens=rt.engine.count_tokens,
        )

    def run_turn(
        self,
        text: str,
        *,
        cancel: threading.Event | None = None,
        hooks: TurnHooks | None = None,
        continue_task: str | None = None,
        slot: str | None = None,
        options: AnswerOptions | None = None,
    ) -> TurnResult:
        """Run one turn. `continue_task` (a held task's id, e.g. from an L3 view's ask_model action)
        continues that task on its slot with no route; ordinary messages are always routed, so a
        view left open never captures the user's next question. `slot` answers on that slot with
        its full own view and no route (`mol chat --slot`, evaluation)."""
        if not text or not text.strip():
            raise EmptyMessage("Empty message — type something to send")
        hooks = hooks or TurnHooks()
        self._warm_cancel.set()
        with self._lock:
            self.refresh()
            text = asked_in_full(self, text)
            if (done := settled_turn(self, text)) is not None:
                done.engine = self.runtime.engine_label
                return done
            self._continue = continue_task
            self._forced = slot
            self.options = options or AnswerOptions()
            return self._dispatch(text.strip(), cancel, hooks)

    def _dispatch(self, text: str, cancel: threading.Event | None, hooks: TurnHooks) -> TurnResult:
        """Run the turn on this session's runtime (remote MoL endpoint or local); on RemoteUnavailable rerun it
        on the HCP fallback runtime, passed to this one turn: the session itself stays bound to its runtime."""
        rt = self.runtime
        try:
            result = run_remote_turn(self, text, cancel, hooks) if uses_remote_turn(rt) else self._run(rt, text, cancel, hooks)
            result.engine = rt.engine_label
            return result
        except RemoteUnavailable as exc:
            fallback = rt.fallback
            if fallback is None:
                raise
            if hooks.on_fallback is not None:
                hooks.on_fallback(exc.reason)
            result = self._run(fallback, text, cancel, hooks)
            result.engine = f"{fallback.engine_label} (fallback: {rt.engine_label} unreachable)"
            result.notices.append(f"The remote could not answer ({exc.reason}), so the local profile {fallback.hcp.name} did; "
                                  "nothing of the remote's partial answer was kept")
            return result

    def prewarm(self) -> dict[str, int]:
        """Bring every slot's KV up to date with the conversation, while the user reads or types.

        A slot's next view is its current view plus the new user message, so after this its next visit
        evaluates only that message. The router's instruction goes first (after the first turn it costs one
        token), then resident slots are extended; then slots not yet visited (or evicted) get their head and
        the timeline so far, which their first visit would otherwise prefill on the answer path (L3's head
        alone is ~550 tokens). It only fills free KV cells: speculative work never evicts a resident slot.
        A new turn stops it between chunks, and whatever was evaluated stays valid (the next prompt reuses
        the longest common prefix). Returns tokens evaluated per slot.
        """
        cancel = self._warm_cancel = threading.Event()
        rt = self.runtime
        warmed: dict[str, int] = {}
        if not rt.engine.reuses_prefixes:
            return warmed  # a remote engine, or reuse turned off: nothing evaluated now would be kept
        with self._lock:
            warmed["route"] = rt.router.prewarm(cancel)
            for slot in sorted(rt.hcp.slots, key=lambda s: rt.engine.held_tokens(s) == 0):
                if cancel.is_set():
                    break
                try:
                    view = self.view_for(slot, [], self.tasks)
                    stack = rt.slot_stack(slot)
                    if rt.saved_kv is not None and rt.engine.held_tokens(slot) == 0:  # reopened: load it, do not prefill
                        tokens = rt.engine.tokenize_messages(view, add_generation_prompt=False)
                        rt.saved_kv.restore(rt.engine, slot, rt.model_path(), stack, tokens)  # type: ignore[arg-type]
                    warmed[slot] = rt.engine.prefill(slot, view, stack, cancel, speculative=True)
                except MolError:
                    continue  # a full cache or an unloadable stack: the slot's next turn says why
        return warmed

    def save_kv(self) -> int:
        """Every slot's resident view to $MOL_HOME/kv/ (the app, on quitting or switching away); bytes written."""
        rt, kv = self.runtime, self.runtime.saved_kv
        if kv is None:
            return 0
        return sum(kv.save(rt.engine, slot, rt.model_path(), rt.slot_stack(slot)) for slot in rt.hcp.slots)  # type: ignore[arg-type]

    def stop_prewarm(self) -> None:
        """Ask a running prewarm to stop after its current chunk (the app calls this before closing)."""
        self._warm_cancel.set()

    def refresh(self) -> None:
        """Reload the history when another writer changed this conversation since this session read it
        (`mol serve` and `mol chat -c` on one conversation, a forget); a forgotten one starts empty."""
        timeline = self.runtime.timeline
        revision = timeline.revision(self.conversation_id)
        if revision is None:
            if self.revision:  # it was stored and is gone: forgotten, so its history must not live on here
                self.tasks, self.revision = [], 0
        elif revision != self.revision:
            self.revision = revision
            self.tasks = timeline.load_tasks(self.conversation_id)

    def commit_turn(
        self, rt: Runtime, text: str, task: TaskRecord, new: list[MessageRecord], route: RouteRecord | None,
        history: list[TaskRecord], *, task_is_new: bool = True, first_seq: int = 0, summary: str | None = None,
        summary_tokens: int = 0, timings: dict[str, float] | None = None,
        writes: Sequence[Callable[[Database, list[str]], None]] = (), said: MemoryRow | None = None,
    ) -> list[str]:
        """The one place a turn is written (local, remote, fallback, /remember): its TurnRecord, the `writes`
        that go in the same transaction (memory uses, a stored view, a remembered fact) and what the user
        `said`, indexed for recall once committed. Task numbers come from the database, in the transaction;
        when another process committed to this conversation meanwhile, the history is reloaded from the store.
        Returns the new messages' ids."""
        record = TurnRecord(self.conversation_id, text[:80], task, task_is_new, new, first_seq, route=route, summary=summary,
                            summary_tokens=summary_tokens, timings=timings or {}, base_revision=self.revision)
        message_ids: list[str] = []
        record.extra_writes = [*writes, lambda _db, ids: message_ids.extend(ids)]
        if said is not None:  # findable later, from any conversation (mol_local/turn/recall.said_row)
            record.extra_writes.append(remember_writer(said, 0))
        done = rt.timeline.commit_turn(record)
        task.messages = task.messages + new
        task.summary = summary
        self.revision = done.revision
        self.tasks = rt.timeline.load_tasks(self.conversation_id) if done.stale else history + [task]
        if said is not None:
            rt.memory.index_rows([said], index_now=False)
        return message_ids

    def _check(self, cancel: threading.Event | None) -> None:
        if cancel is not None and cancel.is_set():
            raise TurnCancelled("Turn cancelled — nothing was saved")

    def _run(self, rt: Runtime, text: str, cancel: threading.Event | None, hooks: TurnHooks) -> TurnResult:
        """One local turn on `rt` (this session's runtime, or its fallback for this turn only), top to bottom:
        route, recall, answer (with tool rounds), summary, one commit, then extraction."""
        t0 = time.perf_counter()
        timings: dict[str, float] = {}
        last = self.tasks[-1] if self.tasks else None
        open_task = last if last is not None and last.status == "open" and last.id == self._continue else None
        history = self.tasks[:-1] if open_task else list(self.tasks)
        machine = TaskMachine(sticky=open_task is not None or self._forced is not None, max_rounds=rt.max_tool_rounds)
        route: RouteRecord | None = None
        if self._forced is not None and open_task is None:
            route = RouteRecord(self._forced, "forced", self._forced, False, 0.0)
        elif machine.step is Step.ROUTE:
            route = rerouted(rt, text, history, rt.router.route(text, cancel))  # "Now make it ignore case" after a function
            self._check(cancel)
            timings["route_ms"] = route.latency_ms
            machine.routed()
            if hooks.on_route:
                hooks.on_route(route)
        slot = open_task.slot if open_task else route.slot  # type: ignore[union-attr]
        opts = self.options
        if opts.no_ui:  # the client wants words, JSON or tool calls, not a UI document
            slot = words_slot(rt, slot)
        task = TaskRecord(
            id=open_task.id if open_task else new_id(),
            conversation_id=self.conversation_id,
            seq=open_task.seq if open_task else len(self.tasks),
            slot=slot,
            messages=list(open_task.messages) if open_task else [],
        )
        first_seq = len(task.messages)
        new: list[MessageRecord] = [MessageRecord("user", text)]
        stack = rt.slot_stack(slot)
        answer = ""
        wants_memory = memories_may_leave(rt) and opts.memory and (not acts_on_its_own_words(text) or before_my_event(text))
        recalled = recall(rt, text, self.conversation_id) if wants_memory else []
        now = rt.clock()
        notes = tail_notes(recalled, text, now)
        composed = None
        finish = "stop"
        code_report: Checked | None = None
        tool_calls: list[dict] = []
        plain = self.tools is not None and opts.grammar is None  # tool calls are read from the answer
        first = first_calls(text, rt.tool_hub, self.conversation_id, history, now, [r.memory.text for r in recalled]) if plain else []
        words = False  # the model's calls were all refused as asked for by nothing: it answers again, in words only
        asked: GenerationRequest | None = None  # the last answer hop the model was asked, redrafted if its code fails
        while machine.step is Step.ANSWER:
            current = [{"role": m.role, "content": m.content} for m in task.messages + new]
            view = self.view_for(slot, current, history, notes, now, rt)
            if is_ui_slot(rt, slot):
                composed, result = answer_ui(rt, slot, view, stack, cancel, hooks, text)
            elif first and not tool_calls:  # only arithmetic, or a move of the last reminder: the model is not asked
                result = GenerationResult("".join(c.raw for c in first), "stop", 0, 0, 0, {"ttft": 0.0, "total": 0.0, "decode": 0.0})
            else:
                asked = GenerationRequest(
                    seq=slot,
                    messages=view,
                    stack=stack,
                    max_tokens=opts.max_tokens or rt.hcp.answer_max_tokens,
                    temperature=rt.hcp.temperature if opts.temperature is None else opts.temperature,
                    repeat_penalty=rt.hcp.repeat_penalty,
                    seed=opts.seed,
                    top_p=opts.top_p,
                    stop=opts.stop,
                    grammar=WORDS_ONLY if words else opts.grammar,
                    call_grammar=rt.call_grammar() if plain and not words else None,
                    cancel=cancel,
                    on_token=hooks.on_token,
                )
                result = rt.engine.generate(asked)
            self._check(cancel)
            count_answer(timings, result)
            answer = result.text.strip()
            finish = result.finish_reason
            parsed = (list(first) if first and not tool_calls else parse_tool_calls(answer)) if plain and composed is None else []
            if not parsed and not tool_calls and plain and composed is None \
                    and (settled := settled_call(text, open_reminders(rt))):  # "What reminders do I have?" answered in words: the list is read
                answer, parsed = settled.raw, [settled]
            calls = parsed if first and not tool_calls else fresh_calls(grounded_calls(parsed, text, tool_calls, open_reminders(rt), now), tool_calls)
            repeated = bool(parsed) and not calls  # only calls already made: the task answers now
            if not tool_calls and not words and (words := asked_for_words(calls)):
                continue
            if machine.answered(len(calls), hold=composed is not None and holds(composed)) is Step.RUN_TOOLS:
                new.append(MessageRecord("assistant", answer))
                for call in calls:
                    output = self.tools.run(call, slot=slot)  # type: ignore[union-attr]  (unparsed calls too: audited)
                    new.append(MessageRecord("tool", output))
                    tool_calls.append({"name": call.name, "arguments": call.arguments, "result": output, "error": call.error})
                    if hooks.on_tool:
                        hooks.on_tool(tool_calls[-1])
                    self._check(cancel)
                machine.tools_done()
                if all(c.answers for c in calls):  # the read the request asked for: its result is the answer
                    answer = reminders_on_day(text, ran := tool_calls[-len(calls):], now) or with_told_time(read_answer(ran), ran, rt, text, history, opts.memory)
                    new.append(MessageRecord("assistant", answer))
                    machine.answered(0)
            else:
                if machine.capped:  # still calling tools at tools.max_rounds: the person gets words, not markup
                    answer = capped_answer(answer, tool_calls, machine.rounds)
                elif repeated:
                    answer = said_as_set(repeated_answer(answer, tool_calls), tool_calls)
                elif self.tools is not None:  # no markup, no uncomputed number, each reminder as the tool set it
                    answer = unfinished_answer(answer) or unbacked_answer(answer, text, tool_calls) or said_as_set(answer, tool_calls)
                new.append(MessageRecord("assistant", answer))
        began = time.perf_counter()
        if not tool_calls and asked is not None and (checked := checked_answer(answer, whole_ask(text, history), redrafts(rt.engine, asked),
                                                                                earlier_answers(history))).report:
            answer, code_report = checked.answer, checked  # code run, a plan read, a repeat redrafted (turn/answer_check.py)
            new[-1] = MessageRecord("assistant", answer)
            timings["code_check_ms"] = (time.perf_counter() - began) * 1000
            self._check(cancel)
        if composed is None and (told := said_back(text, answer, recalled, history, now, tool_calls)):  # (a read call may have run)
            answer = told  # what they told (the model denied it), or a statement's plain reply
            new[-1] = MessageRecord("assistant", answer)
        if plain and composed is None and (words := without_markup(answer)) != answer:  # calls it runs are never shown raw
            answer = words
            new[-1] = MessageRecord("assistant", answer)
        if hooks.on_answer:
            hooks.on_answer(answer)
        summary, summary_tokens = None, 0
        if machine.step is Step.SUMMARIZE:
            summary, summary_tokens, timings["summary_ms"], timings["summary_prefill_tokens"], fell_back = \
                summarize(self, rt, slot, task, new, history, cancel, notes, now)
            timings["summary_fallback"] = int(fell_back)
            machine.summarized()
        task.status = machine.status
        timings["total_ms"] = (time.perf_counter() - t0) * 1000
        self._check(cancel)
        writes = [uses_writer(rt.memory, task.id, recalled)]
        if opts.source:  # an API client's conversation is kept out of the app's list
            writes.append(source_writer(self.conversation_id, opts.source))
        view = view_write(rt, composed, self.conversation_id, task.id) if composed is not None else None
        view_id = view[1] if view else None
        writes += [view[0]] if view else []
        message_ids = self.commit_turn(
            rt, text, task, new, route, history, task_is_new=open_task is None, first_seq=first_seq, summary=summary,
            summary_tokens=summary_tokens, timings=timings, writes=writes, said=said_row(rt, text, self.conversation_id, source=opts.source),
        )
        machine.committed()
        result = TurnResult(self.conversation_id, task.id, slot, answer, route, summary, timings, machine.rounds)
        result.tool_calls = tool_calls
        result.finish_reason = finish
        if code_report is not None:
            result.code_check, result.code_redrafted = code_report.report, code_report.redrafted
        result.document = composed.document.to_json() if composed is not None and composed.document is not None else None
        result.ui_raw_first = composed.raw_first if composed is not None else None
        result.view_id = view_id
        result.memory_ids = [r.memory.id for r in recalled]
        if rt.hcp.memory.auto_extract:
            try:
                result.memory_changes = extract_after_turn(
                    rt, user=text, answer=answer, conversation_id=self.conversation_id, message_id=message_ids[0], known=recalled,
                    said_at=now.isoformat(timespec="seconds"), before=said_last(history),
                )
                result.memories_written = [c.memory_id for c in result.memory_changes]
            except (MolError, MemoryStoreError) as exc:  # the turn is committed and delivered; say why no memory
                result.notices.append(f"No memory was extracted from this turn: {exc}")
        return result
