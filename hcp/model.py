"""The typed, frozen HCP: one dataclass per schema section (field names = TOML keys)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, is_dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True)
class AdapterRef:
    """A LoRA in a stack: a GGUF path (relative to the HCP file, `~` allowed) and its scale."""

    path: str
    scale: float = 1.0


@dataclass(frozen=True)
class SlotConfig:
    label: str
    name: str
    persona: str
    adapters: tuple[AdapterRef, ...] = ()
    remote_model: str = ""


@dataclass(frozen=True)
class RuntimeConfig:
    backend: str
    base_model: str
    n_ctx: int
    kv_layout: str
    kv_cells: int
    threads: int
    gpu_layers: int
    kv_reuse: bool
    hop_max_seconds: float = 60.0


@dataclass(frozen=True)
class RoutingConfig:
    mode: str
    entry_slot: str
    max_tokens: int
    fallback: str
    adapters: tuple[AdapterRef, ...]
    min_confidence: float


@dataclass(frozen=True)
class AnswerConfig:
    max_tokens: int
    temperature: float
    repeat_penalty: float


@dataclass(frozen=True)
class SummaryConfig:
    max_tokens: int


@dataclass(frozen=True)
class ToolLimits:
    timeout_s: float
    cpu_s: float
    memory_mb: int
    output_kb: int
    disk_mb: int


@dataclass(frozen=True)
class McpServer:
    """One [tools.mcp.<name>] table: a stdio `command` or a loopback `url`."""

    name: str
    command: str
    args: tuple[str, ...]
    env: Mapping[str, str]
    url: str
    enabled: bool
    allow: tuple[str, ...]
    timeout_s: float
    max_result_kb: int


@dataclass(frozen=True)
class ToolsConfig:
    enabled: tuple[str, ...]
    max_rounds: int
    defaults: ToolLimits
    overrides: Mapping[str, ToolLimits]
    mcp: Mapping[str, McpServer] = field(default_factory=lambda: MappingProxyType({}))

    def limits_for(self, tool: str) -> ToolLimits:
        """Effective limits: the tool's own [tools.limits.<tool>], else its family's (`notes.find` -> `notes`), else defaults."""
        return self.overrides.get(tool) or self.overrides.get(tool.split(".", 1)[0]) or self.defaults


@dataclass(frozen=True)
class Skill:
    name: str
    sha256: str
    path: str
    description: str
    promoted_at: str


@dataclass(frozen=True)
class HooksConfig:
    pre_answer: tuple[str, ...]
    post_turn: tuple[str, ...]
    stop_gate: tuple[str, ...]


@dataclass(frozen=True)
class MemoryConfig:
    auto_extract: bool
    top_k: int


@dataclass(frozen=True)
class ConsentConfig:
    default: bool


@dataclass(frozen=True)
class GateConfig:
    new_data_gain_min_rel: float
    regression_worse_max_rel: float
    route_accuracy_not_lower: bool
    data_nll_per_char_max: float
    specialist_drop_max: float = 2.0


@dataclass(frozen=True)
class TrainerConfig:
    enabled: bool
    schedule: str
    time_budget_min: int
    memory_budget_mb: int
    gate: GateConfig


@dataclass(frozen=True)
class ServeConfig:
    api_memory: str = "off"


@dataclass(frozen=True)
class RemoteConfig:
    base_url: str
    model: str
    mode: str
    fallback: str
    send_memories: bool


@dataclass(frozen=True)
class HCP:
    """One validated assistant contract. Sections are nested; the flat names below are kept for callers."""

    name: str
    source: Path | None
    persona_pack: str
    runtime: RuntimeConfig
    routing: RoutingConfig
    answer: AnswerConfig
    summary: SummaryConfig
    slots: Mapping[str, SlotConfig]
    tools: ToolsConfig
    skills: Mapping[str, Skill]
    hooks: HooksConfig
    memory: MemoryConfig
    consent: ConsentConfig
    trainer: TrainerConfig
    remote: RemoteConfig
    serve: ServeConfig = ServeConfig()

    @property
    def base_dir(self) -> Path | None:
        return self.source.parent if self.source else None

    def resolve_path(self, ref: str) -> Path:
        """A path as written in this HCP: `~` expanded, relative paths taken from the HCP file's folder."""
        path = Path(ref).expanduser()
        if not path.is_absolute():
            path = (self.base_dir or Path.cwd()) / path
        return path

    def pack_location(self) -> str:
        """What `personas.load_pack` takes: a shipped pack name as is, a folder path resolved like other paths."""
        ref = self.persona_pack
        return str(self.resolve_path(ref)) if ("/" in ref or "\\" in ref or ref.startswith(("~", "."))) else ref

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able values (for `mol hcp show --json`)."""
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self)}

    # Flat names used by the runtime and turn loop before sections existed.
    backend = property(lambda self: self.runtime.backend)
    base_model = property(lambda self: self.runtime.base_model)
    n_ctx = property(lambda self: self.runtime.n_ctx)
    kv_cells = property(lambda self: self.runtime.kv_cells)
    kv_layout = property(lambda self: self.runtime.kv_layout)
    threads = property(lambda self: self.runtime.threads)
    gpu_layers = property(lambda self: self.runtime.gpu_layers)
    kv_reuse = property(lambda self: self.runtime.kv_reuse)
    hop_max_seconds = property(lambda self: self.runtime.hop_max_seconds)
    routing_mode = property(lambda self: self.routing.mode)
    entry_slot = property(lambda self: self.routing.entry_slot)
    route_max_tokens = property(lambda self: self.routing.max_tokens)
    route_fallback = property(lambda self: self.routing.fallback)
    route_adapters = property(lambda self: self.routing.adapters)
    answer_max_tokens = property(lambda self: self.answer.max_tokens)
    temperature = property(lambda self: self.answer.temperature)
    repeat_penalty = property(lambda self: self.answer.repeat_penalty)
    summary_max_tokens = property(lambda self: self.summary.max_tokens)


def frozen_map(items: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(items))


def _plain(value: Any) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    return value
