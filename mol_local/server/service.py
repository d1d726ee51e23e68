"""What `mol serve` runs behind HTTP: the MoL turn loop (`mol`) and each slot directly (`L0..L3`).

Model `mol` is stateful per conversation: the conversation id comes from the
`X-Mol-Conversation` header, else `metadata.conversation_id`, else `user`; the
last message (from the user) is the turn, and the server's own stored history
of that conversation is the context. Without an id each request starts a new
conversation (its id comes back in the `X-Mol-Conversation` response header and
`mol.conversation_id`). A conversation the server has not seen may carry
earlier messages; they become context for this session only.

Slot models (`L0`..`L3`) are stateless, like a vLLM/SGLang multi-LoRA server:
the client's messages as given, the slot's adapter stack, no routing, nothing
stored. Requests on one conversation serialise on its Session's lock;
generation serialises at the engine.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

from memory.timeline import MessageRecord, TaskRecord, new_id
from mol_local.engine.base import GenerationRequest
from mol_local.runtime import Runtime
from mol_local.server.openai import ChatRequest, Completion, HTTPProblem, bad, with_tools
from mol_local.turn import Session, TurnHooks

MOL_MODEL = "mol"


class ServeService:
    def __init__(self, runtime: Runtime, *, max_sessions: int = 256) -> None:
        self.runtime = runtime
        self.max_sessions = max_sessions
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def model_names(self) -> list[str]:
        return [MOL_MODEL, *self.runtime.hcp.slots]

    def check_model(self, name: str) -> None:
        if name not in self.model_names():
            raise HTTPProblem(
                404, f"Unknown model {name!r} — use one of: {', '.join(self.model_names())}", code="model_not_found"
            )

    def complete(self, req: ChatRequest, cancel: threading.Event, on_token: Callable[[str], None]) -> Completion:
        self.check_model(req.model)
        if req.model == MOL_MODEL:
            return self._turn(req, cancel, on_token)
        return self._slot(req, cancel, on_token)

    # -- slot models: one generation, no routing, nothing stored -----------------
    def _slot(self, req: ChatRequest, cancel: threading.Event, on_token: Callable[[str], None]) -> Completion:
        rt = self.runtime
        hcp = rt.hcp
        result = rt.engine.generate(
            GenerationRequest(
                seq=req.model,
                messages=with_tools(req.messages, req.tools),
                stack=rt.slot_stack(req.model),
                max_tokens=req.max_tokens or hcp.answer_max_tokens,
                temperature=hcp.temperature if req.temperature is None else req.temperature,
                seed=req.seed,
                repeat_penalty=hcp.repeat_penalty if req.repeat_penalty is None else req.repeat_penalty,
                ignore_eos=req.ignore_eos,
                cancel=cancel,
                on_token=on_token,
            )
        )
        return Completion(result.text, result.finish_reason, result.prompt_tokens, result.completion_tokens)

    # -- the MoL turn ----------------------------------------------------------
    def session(self, conversation_id: str | None, earlier: list[dict]) -> Session:
        """The cached Session of a conversation; loaded from the store, or new (seeded with `earlier`)."""
        rt = self.runtime
        with self._lock:
            if conversation_id and conversation_id in self._sessions:
                self._sessions.move_to_end(conversation_id)
                return self._sessions[conversation_id]
            with rt.db_lock:
                known = conversation_id is not None and rt.timeline.conversation_exists(conversation_id)
                session = rt.session(conversation_id if known else None)
            if conversation_id and not known:
                session.conversation_id = conversation_id
                session.tasks = _seed(conversation_id, earlier, rt.hcp.entry_slot)
            self._sessions[session.conversation_id] = session
            while len(self._sessions) > self.max_sessions:
                self._sessions.popitem(last=False)
            return session

    def _turn(self, req: ChatRequest, cancel: threading.Event, on_token: Callable[[str], None]) -> Completion:
        last = req.messages[-1]
        if last["role"] != "user":
            raise bad("For model `mol` the last message must be the user's turn")
        session = self.session(req.conversation_id, req.messages[:-1])
        result = session.run_turn(last["content"], cancel=cancel, hooks=TurnHooks(on_token=on_token))
        t = result.timings_ms
        return Completion(
            result.answer,
            "stop",
            int(t.get("prompt_tokens", 0)),
            int(t.get("completion_tokens", 0)),
            extra={"conversation_id": result.conversation_id, "slot": result.slot, "task_id": result.task_id, "engine": result.engine},
        )


def _seed(conversation_id: str, earlier: list[dict], slot: str) -> list[TaskRecord]:
    """Earlier (user, assistant) pairs a client sent for a conversation new to us, as in-memory context."""
    tasks: list[TaskRecord] = []
    pending: list[MessageRecord] = []
    for m in earlier:
        if m["role"] == "user":
            pending = [MessageRecord("user", m["content"])]
        elif m["role"] == "assistant" and pending:
            pending.append(MessageRecord("assistant", m["content"]))
            tasks.append(TaskRecord(new_id(), conversation_id, len(tasks), slot, "closed", pending, None))
            pending = []
    return tasks
