"""The remote answer: the `mol` mode turn (Session._dispatch chooses it, and the local fallback when it fails).

- Mode `mol` (HCP remote.mode): the remote runs the whole MoL turn. We send
  the conversation (user and assistant messages; retrieved memories only if
  remote.send_memories is on), stream the answer, and commit the turn to the
  local timeline — memory and consent stay here.
- Fallback (in session.py): when the remote is unreachable (RemoteUnavailable:
  connection refused, timeouts, 5xx, a stream broken mid-answer) nothing of the
  turn has been committed, so the same turn reruns on the local runtime of HCP
  remote.fallback, and TurnResult.engine says which engine answered.
"""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from memory.timeline import MessageRecord, RouteRecord, TaskRecord, new_id
from mol_local.errors import TurnCancelled
from mol_local.turn.recall import recall, said_row, tail_notes, uses_writer
from mol_local.turn.result import TurnHooks, TurnResult
from mol_local.turn.view import with_tail

if TYPE_CHECKING:
    from hcp import HCP
    from mol_local.runtime import Runtime
    from mol_local.turn import Session


def privacy_line(hcp: HCP) -> str:
    """What leaves the machine under this profile, in one line (`mol doctor`, the app's settings)."""
    if hcp.backend != "remote":
        return "none (everything runs on this machine)"
    host = urlsplit(hcp.remote.base_url).netloc or hcp.remote.base_url
    memories = "memories too" if hcp.remote.send_memories else "memories stay here"
    fallback = f"; offline fallback: {hcp.remote.fallback}" if hcp.remote.fallback else ""
    return f"sends conversation text to {host} ({memories}){fallback}"


def memories_may_leave(rt: Runtime) -> bool:
    """Whether retrieved memories may go into a prompt: always locally, to a remote only if HCP allows it."""
    return rt.hcp.backend != "remote" or rt.hcp.remote.send_memories


def uses_remote_turn(rt: Runtime) -> bool:
    return rt.hcp.backend == "remote" and rt.hcp.remote.mode == "mol"


def run_remote_turn(session: Session, text: str, cancel: threading.Event | None, hooks: TurnHooks) -> TurnResult:
    rt = session.runtime
    t0 = time.perf_counter()
    history = list(session.tasks)
    messages = [
        {"role": m.role, "content": m.content}
        for task in history
        for m in task.messages
        if m.role in ("user", "assistant")
    ]
    current = [{"role": "user", "content": text}]
    recalled = recall(rt, text, session.conversation_id) if memories_may_leave(rt) else []
    if recalled:
        current = with_tail(current, tail_notes(recalled, text, rt.clock()))
    result = rt.engine.complete_turn(  # type: ignore[attr-defined]
        messages + current,
        conversation_id=session.conversation_id,
        max_tokens=rt.hcp.answer_max_tokens,
        temperature=rt.hcp.temperature,
        cancel=cancel,
        on_token=hooks.on_token,
    )
    if result.finish_reason == "cancelled" or (cancel is not None and cancel.is_set()):
        raise TurnCancelled("Turn cancelled — nothing was saved")
    answer = result.text.strip()
    if hooks.on_answer is not None:
        hooks.on_answer(answer)
    slot = rt.hcp.entry_slot
    new = [MessageRecord("user", text), MessageRecord("assistant", answer)]
    task = TaskRecord(new_id(), session.conversation_id, len(history), slot, "closed", [], None)
    route = RouteRecord(slot, "remote", "", False, 0.0)
    timings = {
        "answer_ttft_ms": result.timings_ms.get("ttft", 0.0),
        "answer_ms": result.timings_ms.get("total", 0.0),
        "prompt_tokens": result.prompt_tokens,
        "completion_tokens": result.completion_tokens,
        "total_ms": (time.perf_counter() - t0) * 1000,
    }
    session.commit_turn(rt, text, task, new, route, history, timings=timings, writes=[uses_writer(rt.memory, task.id, recalled)],
                        said=said_row(rt, text, session.conversation_id))  # the uses decide training eligibility
    result = TurnResult(session.conversation_id, task.id, slot, answer, route, None, timings)
    result.memory_ids = [r.memory.id for r in recalled]
    return result
