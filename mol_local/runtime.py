"""The runtime: one HCP, one engine, one store, shared by every session.

Construction is cheap; the engine (the model) loads on first use so the app
can draw before the model is ready.
"""

from __future__ import annotations

import os
import threading
from functools import cached_property
from pathlib import Path

from hcp import HCP, load_hcp, load_profile
from memory.db import open_db
from memory.timeline import Timeline
from mol_local.engine.base import AdapterSpec, Engine, Stack
from mol_local.models import resolve_model
from mol_local.paths import db_path, mol_home, offline_env
from mol_local.router import Router
from mol_local.tasks import ToolRunner
from personas import load_pack


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
    max_tool_rounds = 4

    def __init__(self, hcp: HCP, *, engine: Engine | None = None, tools: ToolRunner | None = None) -> None:
        offline_env()
        self.hcp = hcp
        self.pack = load_pack(hcp.persona_pack)
        self.db = open_db(db_path())
        self.timeline = Timeline(self.db)
        self.tools = tools
        self._engine = engine
        self._engine_lock = threading.Lock()

    @classmethod
    def open(cls, hcp_path: Path | None = None, **kwargs) -> Runtime:
        return cls(load_default_hcp(hcp_path), **kwargs)

    # -- engine -------------------------------------------------------------
    def model_path(self) -> Path:
        return resolve_model(self.hcp.base_model, relative_to=self.hcp.base_dir)

    @property
    def engine(self) -> Engine:
        with self._engine_lock:
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
                )
            return self._engine

    @property
    def engine_loaded(self) -> bool:
        return self._engine is not None

    # -- slots --------------------------------------------------------------
    def _stack(self, refs) -> Stack:
        base = self.hcp.base_dir or Path.cwd()
        return tuple(AdapterSpec(str((base / r.path) if not Path(r.path).is_absolute() else Path(r.path)), r.scale) for r in refs)

    def slot_stack(self, slot: str) -> Stack:
        return self._stack(self.hcp.slots[slot].adapters)

    def slot_names(self) -> dict[str, str]:
        return {label: cfg.name for label, cfg in self.hcp.slots.items()}

    def head(self, slot: str) -> str:
        from mol_local.views import system_head

        return system_head(self.pack.intro, self.pack.persona(self.hcp.slots[slot].persona))

    @cached_property
    def router(self) -> Router:
        return Router(
            self.engine,
            instruction=self.pack.route,
            labels=list(self.hcp.slots),
            mode=self.hcp.routing_mode,
            entry_slot=self.hcp.entry_slot,
            fallback=self.hcp.route_fallback,
            max_tokens=self.hcp.route_max_tokens,
            stack=self._stack(self.hcp.route_adapters),
            use_grammar=getattr(self.engine, "supports_grammar", True),
        )

    def session(self, conversation_id: str | None = None):
        from mol_local.turn import Session

        return Session(self, conversation_id)

    def close(self) -> None:
        if self._engine is not None:
            self._engine.close()
        self.db.close()
