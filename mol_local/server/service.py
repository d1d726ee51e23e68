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
generation serialises at the engine. Another process may write the same
conversation (`mol chat -c`): a cached Session rereads its history when the
store's revision moved, and task numbers come from the store at commit, so
neither writer loses a turn (see `Session.refresh`, `Timeline.commit_turn`).
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
from mol_local.turn.options import AnswerOptions, words_slot
from mol_local.turn.view import system_head

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
        return self._generate(req, req.model, with_tools(req.messages, req.tools, req.options.tool_choice), cancel, on_token)

    def _generate(self, req: ChatRequest, slot: str, messages: list, cancel: threading.Event, on_token: Callable[[str], None],
                  extra: dict | None = None) -> Completion:
        rt = self.runtime
        hcp = rt.hcp
        opts = req.options
        self._check_grammar(req)
        result = rt.engine.generate(
            GenerationRequest(
                seq=slot,
                messages=messages,
                stack=rt.slot_stack(slot),
                max_tokens=req.max_tokens or hcp.answer_max_tokens,
                temperature=hcp.temperature if req.temperature is None else req.temperature,
                seed=req.seed,
                top_p=opts.top_p or 0.95,
                stop=opts.stop,
                grammar=opts.grammar,
                repeat_penalty=hcp.repeat_penalty if req.repeat_penalty is None else req.repeat_penalty,
                ignore_eos=req.ignore_eos,
                cancel=cancel,
                on_token=on_token,
            )
        )
        return Completion(result.text, result.finish_reason, result.prompt_tokens, result.completion_tokens, extra=extra or {})

    def _check_grammar(self, req: ChatRequest) -> None:
        if req.options.grammar is not None and not getattr(self.runtime.engine, "supports_grammar", True):
            param = "response_format" if req.options.json_mode else "tool_choice"
            raise bad(f"`{param}` needs a grammar and this server's engine (a remote) cannot decode under one — leave it out",
                      param=param)

    def memory_for(self, req: ChatRequest) -> bool:
        """Whether an API client's turn gets the personal memory tail: HCP serve.api_memory (off | opt_in | on)."""
        policy = self.runtime.hcp.serve.api_memory
        return policy == "on" or (policy == "opt_in" and req.mol_memory)

    # -- the MoL turn ----------------------------------------------------------
    def session(self, conversation_id: str | None, earlier: list[dict]) -> Session:
        """The cached Session of a conversation; loaded from the store, or new (seeded with `earlier`)."""
        rt = self.runtime
        with self._lock:
            if conversation_id and conversation_id in self._sessions:
                self._sessions.move_to_end(conversation_id)
                return self._sessions[conversation_id]
            known = conversation_id is not None and rt.timeline.conversation_exists(conversation_id)
            session = rt.session(conversation_id if known else None)
            if not known:  # the client's earlier messages are this conversation's context (with or without an id)
                session.conversation_id = conversation_id or session.conversation_id
                session.tasks = _seed(session.conversation_id, earlier, rt.hcp.entry_slot)
            self._sessions[session.conversation_id] = session
            while len(self._sessions) > self.max_sessions:
                self._sessions.popitem(last=False)
            return session

    def _turn(self, req: ChatRequest, cancel: threading.Event, on_token: Callable[[str], None]) -> Completion:
        last = req.messages[-1]
        if last["role"] != "user":
            raise bad("For model `mol` the last message must be the user's turn")
        if req.tools and req.options.tool_choice != "none":
            return self._routed(req, cancel, on_token)
        self._check_grammar(req)
        opts = req.options
        system = "\n\n".join(m["content"] for m in req.messages if m["role"] == "system" and m["content"].strip())
        session = self.session(req.conversation_id, [m for m in req.messages[:-1] if m["role"] != "system"])
        options = AnswerOptions(
            max_tokens=req.max_tokens, temperature=req.temperature, seed=req.seed, top_p=opts.top_p or 0.95, stop=opts.stop,
            grammar=opts.grammar, memory=self.memory_for(req), no_ui=opts.grammar is not None, system=system, source="api",
        )
        result = session.run_turn(last["content"], cancel=cancel, hooks=TurnHooks(on_token=on_token), options=options)
        t = result.timings_ms
        return Completion(
            result.answer,
            result.finish_reason,
            int(t.get("prompt_tokens", 0)),
            int(t.get("completion_tokens", 0)),
            extra={"conversation_id": result.conversation_id, "slot": result.slot, "task_id": result.task_id, "engine": result.engine,
                   "memory_ids": result.memory_ids},
        )


    def _routed(self, req: ChatRequest, cancel: threading.Event, on_token: Callable[[str], None]) -> Completion:
        """`mol` with the client's tools: the router picks the slot (never the UI slot: the client wants words or
        tool calls), which answers the client's messages with its persona and the tools; the calls go back to the
        client, so nothing runs here and nothing is stored."""
        rt = self.runtime
        route = rt.router.route(req.messages[-1]["content"], cancel)
        slot = words_slot(rt, route.slot)
        head = system_head(rt.pack.intro, rt.pack.persona(rt.hcp.slots[slot].persona))
        messages = [m for m in req.messages if m["role"] != "system"]
        client_system = "\n\n".join(m["content"] for m in req.messages if m["role"] == "system")
        system = {"role": "system", "content": f"{head}\n\n{client_system}".strip()}
        extra = {"slot": slot, "route": {"slot": route.slot, "mode": route.mode, "fallback": route.fallback}}
        return self._generate(req, slot, with_tools([system, *messages], req.tools, req.options.tool_choice), cancel, on_token, extra)


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
