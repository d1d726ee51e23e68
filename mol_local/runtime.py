"""The runtime: one HCP, one engine, one store, shared by every session.

Construction is cheap; the engine (the model) loads on first use so the app
can draw before the model is ready.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from hcp import HCP, load_hcp, load_profile
from hcp.references import check_personas, require
from memory.bank import MemoryBank
from memory.db import open_db
from memory.timeline import Timeline
from mol_local.engine.base import AdapterSpec, Engine, Stack
from mol_local.models import resolve_model
from mol_local.paths import mol_home, offline_env
from mol_local.route_embed import memory_classifier
from mol_local.router import Router
from mol_local.turn.tasks import ToolRunner
from mol_local.turn.ui import UI_SLOT
from personas import load_pack

if TYPE_CHECKING:
    from mol_local.kvcache import SavedKV
    from mol_local.harness.hub import ToolHub


def default_hcp_path() -> Path | None:
    """MOL_HCP, else $MOL_HOME/hcp.toml if the user has one, else None (the shipped profile)."""
    if env := os.environ.get("MOL_HCP"):
        return Path(env)
    path = mol_home() / "hcp.toml"
    return path if path.is_file() else None


def load_default_hcp(path: Path | None = None) -> HCP:
    path = path or default_hcp_path()
    return load_hcp(path) if path else load_profile("local-default")


class Runtime:
    def __init__(
        self,
        hcp: HCP,
        *,
        engine: Engine | None = None,
        tools: ToolRunner | None = None,
        fallback_engine: Engine | None = None,
        home: Path | None = None,
    ) -> None:
        offline_env()
        self.hcp = hcp
        self.home = Path(home) if home is not None else mol_home()  # every store of this runtime lives here
        require(check_personas(hcp))
        self.pack = load_pack(hcp.pack_location())
        self.db = open_db(self.home / "mol.db")
        self.timeline = Timeline(self.db)
        self.tools = tools
        self._engine = engine
        self._engine_lock = threading.Lock()
        self._fallback_engine = fallback_engine  # the local engine for HCP remote.fallback (tests inject one)
        self.clock: Callable[[], datetime] = datetime.now  # local "now" for every tail and for reminder phrases
        self.adapter_problems: list[str] = []  # shipped adapters that could not be seeded (their slots run bare)

    @property
    def max_tool_rounds(self) -> int:
        return self.hcp.tools.max_rounds

    @classmethod
    def open(cls, hcp_path: Path | None = None, **kwargs) -> Runtime:
        return cls(load_default_hcp(hcp_path), **kwargs)

    # -- engine -------------------------------------------------------------
    def model_path(self) -> Path:
        return resolve_model(self.hcp.base_model, relative_to=self.hcp.base_dir)

    @property
    def engine(self) -> Engine:
        with self._engine_lock:
            if self._engine is None and self.hcp.backend == "remote":
                from mol_local.engine.remote import remote_engine_from_hcp

                self._engine = remote_engine_from_hcp(self.hcp)
            if self._engine is None:
                from mol_local.engine.llamacpp import LlamaCppEngine

                self._engine = LlamaCppEngine(
                    self.model_path(),
                    sequences=("route", *self.hcp.slots),
                    n_ctx=self.hcp.n_ctx,
                    kv_cells=self.hcp.kv_cells,
                    n_threads=self.hcp.threads,
                    gpu_layers=self.hcp.gpu_layers,
                    kv_reuse=self.hcp.kv_reuse,
                    kv_unified=self.hcp.kv_layout == "unified",
                    hop_max_seconds=self.hcp.hop_max_seconds,
                )
            return self._engine

    @property
    def engine_loaded(self) -> bool:
        return self._engine is not None

    @property
    def engine_label(self) -> str:
        """Which engine answers, in words (shown with every turn)."""
        if self.hcp.backend == "remote":
            from urllib.parse import urlsplit

            return f"remote {urlsplit(self.hcp.remote.base_url).netloc} ({self.hcp.remote.mode})"
        return f"local {self.hcp.name}"

    @cached_property
    def fallback(self) -> Runtime | None:
        """The local runtime (HCP remote.fallback) that answers when the remote is unreachable."""
        if self.hcp.backend != "remote" or not self.hcp.remote.fallback:
            return None
        return Runtime(load_profile(self.hcp.remote.fallback), engine=self._fallback_engine, tools=self.tools)

    # -- slots --------------------------------------------------------------
    def _stack(self, refs) -> Stack:
        return tuple(AdapterSpec(str(self.hcp.resolve_path(r.path)), r.scale) for r in refs)

    def slot_stack(self, slot: str) -> Stack:
        """The slot's active registry specialist + personal revisions, then its explicit HCP adapters.

        Re-resolved on every call (two small pointer files), so `mol adapters
        activate/rollback` applies from the next turn; the engine drops the
        slot's KV when the stack changes.
        """
        return self._registry_stack(slot, "answer") + self._stack(self.hcp.slots[slot].adapters)

    def route_stack(self) -> Stack:
        """The entry slot's revisions that apply to the route hop, then HCP routing.adapters."""
        return self._registry_stack(self.hcp.entry_slot, "route") + self._stack(self.hcp.route_adapters)

    def _registry_stack(self, slot: str, hop: str) -> Stack:
        if self.hcp.backend != "llama-cpp":
            return ()
        from mol_local.adapters.builtin import seed_shipped
        from mol_local.adapters.registry import Registry
        from mol_local.adapters.manifest import base_fingerprint

        base = self.model_path()
        registry = Registry(self.adapters_root())
        if not getattr(self, "_adapters_seeded", False):
            self.adapter_problems = seed_shipped(registry, base)  # the shipped route adapter and specialists, once per MOL_HOME
            self._adapters_seeded = True
        return registry.stack(slot, hop=hop, fingerprint=base_fingerprint(base))

    def slot_names(self) -> dict[str, str]:
        return {label: cfg.name for label, cfg in self.hcp.slots.items()}

    def head(self, slot: str) -> str:
        from mol_local.genui.generate import ui_guide
        from mol_local.turn.ui import is_ui_slot
        from mol_local.turn.view import system_head

        head = system_head(self.pack.intro, self.pack.persona(self.hcp.slots[slot].persona))
        if is_ui_slot(self, slot):  # the UI guide is stable, so it belongs to the cached head, not the tail
            head = f"{head}\n\n{ui_guide()}"
        tools = self.tool_hub.describe() if self.tools is None and self.tool_hub is not None else ""
        return f"{head}\n\n{tools}" if tools else head

    @property
    def router(self) -> Router:
        """The router, its adapter stack re-resolved from the registry on every access (one per turn)."""
        router = self._router
        router.stack = self.route_stack()
        return router

    @cached_property
    def _router(self) -> Router:
        return Router(
            self.engine,
            instruction=self.pack.route,
            labels=list(self.hcp.slots),
            mode=self.hcp.routing_mode,
            entry_slot=self.hcp.entry_slot,
            fallback=self.hcp.route_fallback,
            max_tokens=self.hcp.route_max_tokens,
            stack=(),
            use_grammar=getattr(self.engine, "supports_grammar", True),
            classifier=memory_classifier() if self.hcp.routing_mode in ("hybrid", "embed") else None,
            min_confidence=self.hcp.routing.min_confidence,
            view_slot=UI_SLOT,
        )

    def warm_router(self, *, background: bool = False) -> None:
        """Load what routing needs before the first turn: the embeddings head and its embedder (hybrid/embed);
        in the background, hybrid routes by grammar until it is loaded (the app: ready in ~1 s, not ~9).
        The grammar route's instruction goes into KV with the slots' heads (`Session.prewarm`)."""
        if background:
            self._router.warm_in_background()
        else:
            self._router.warm()

    # -- memory -------------------------------------------------------------
    @cached_property
    def memory(self) -> MemoryBank:
        """Memories + vector index; nothing heavy loads until first used (or `memory.warm_up()`)."""
        return MemoryBank(self.db, self.home / "chroma")

    @cached_property
    def saved_kv(self) -> SavedKV | None:
        """Slots' KV on disk for reopening conversations (mol_local/kvcache.py); only for the in-process
        llama.cpp engine keeping prefixes (a remote engine, or reuse turned off, has nothing to keep)."""
        from mol_local.engine.llamacpp import LlamaCppEngine
        from mol_local.kvcache import SavedKV

        engine = self._engine
        return SavedKV(self.home / "kv") if isinstance(engine, LlamaCppEngine) and engine.reuses_prefixes else None

    def adapters_root(self) -> Path:
        return self.home / "adapters"

    # -- tools --------------------------------------------------------------
    @cached_property
    def tool_hub(self) -> ToolHub | None:
        """The harness: per-conversation sandboxes and the built-in tools; None when the HCP enables none."""
        from mol_local.harness import build_hub
        from mol_local.harness.memory_port import BankMemory

        hub = build_hub(self.hcp, self.db, home=self.home, memory=lambda: BankMemory(self.memory))
        if hub is not None:
            hub.reminders.clock = lambda: self.clock()  # "tomorrow 9am" counts from the same now the tail shows
        return hub

    def call_grammar(self) -> str | None:
        """GBNF that holds the model's tool calls to the tools this runtime has and their own argument names
        (the embedded base, trained on a few tools, otherwise borrows `title` from notes for a reminder);
        None without the harness or on an engine that cannot decode under a grammar."""
        if self.tools is not None or self.tool_hub is None or not getattr(self.engine, "supports_grammar", True):
            return None
        from mol_local.harness.spec import call_schema
        from mol_local.structured import tool_call_grammar

        return tool_call_grammar(call_schema([s for s in self.tool_hub.specs().values() if s.listed], self.tool_hub.live_choices()))

    def tools_for(self, conversation_id: str) -> ToolRunner | None:
        """One conversation's ToolRunner: the one injected at construction, else the harness's."""
        if self.tools is not None:
            return self.tools
        return self.tool_hub.runner(conversation_id) if self.tool_hub is not None else None

    def session(self, conversation_id: str | None = None):
        from mol_local.turn import Session

        return Session(self, conversation_id)

    def close(self) -> None:
        if self.__dict__.get("fallback") is not None:
            self.__dict__["fallback"].close()
        if self.__dict__.get("tool_hub") is not None:
            self.__dict__["tool_hub"].close()
        if self._engine is not None:
            self._engine.close()
        self.db.close()
