"""Past-tense messages the app's widgets and workers post (textual Messages as dataclasses).

Workers run on threads and only ever talk to the UI through these: posting a
message is thread-safe, touching a widget from a thread is not.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from textual.message import Message

if TYPE_CHECKING:
    from mol_local.runtime import Runtime


@dataclass
class RuntimeOpened(Message):
    """The HCP, persona pack and store are open; the model may still be loading."""

    runtime: Runtime


@dataclass
class ModelLoaded(Message):
    """The engine is warm: turns can run. `notes`: what to say about this base (no template, slots that run bare).
    `runtime` says which load finished: one replaced by a settings change meanwhile is ignored."""

    load_ms: float
    notes: list[str] = field(default_factory=list)
    runtime: Any = None


@dataclass
class RuntimeFailed(Message):
    """Opening the runtime or loading the model failed; `error` is the one-line user message."""

    error: str


@dataclass
class PromptSubmitted(Message):
    """The user pressed Enter in the prompt."""

    text: str


@dataclass
class RouteDecided(Message):
    turn_id: int
    slot: str
    raw_output: str
    fallback: bool
    latency_ms: float
    mode: str = "grammar"  # which path decided: grammar, embed or fixed


@dataclass
class TokenStreamed(Message):
    turn_id: int
    piece: str


@dataclass
class ViewDrafted(Message):
    """More of an L3 document is complete: its draft (mol_local.genui.partial) is drawn until the view replaces it."""

    turn_id: int
    draft: dict


@dataclass
class AnswerDelivered(Message):
    """The answer is final and on screen; the summary, memory extraction and commit follow in the background."""

    turn_id: int
    answer: str


@dataclass
class TurnCompleted(Message):
    turn_id: int
    conversation_id: str
    task_id: str
    slot: str
    answer: str
    timings_ms: dict[str, float] = field(default_factory=dict)
    tool_outputs: list[str] = field(default_factory=list)
    memory_changes: list = field(default_factory=list)  # mol_local.extract.MemoryChange: "remembered: …", undoable
    notices: list[str] = field(default_factory=list)  # "Removed Flour.", "The remote could not answer …": a line each


@dataclass
class TurnFailed(Message):
    """The turn raised a user-facing error; `cancelled` when the user pressed Esc. Nothing was saved."""

    turn_id: int
    text: str
    error: str
    cancelled: bool = False


@dataclass
class ConversationSelected(Message):
    """`conversation_id` None means a new, empty conversation."""

    conversation_id: str | None


@dataclass
class ConversationsChanged(Message):
    """A conversation was created, renamed, deleted or had its consent toggled."""

    select: str | None = None


@dataclass
class SettingsSaved(Message):
    """The HCP was changed on disk; the runtime reopens with it."""

    hcp_path: Any
    reason: str


@dataclass
class TrainingProgressed(Message):
    """One progress event of a running nightly job (trainer/nightly.py `on_event`: stage, slot, step...)."""

    event: dict


@dataclass
class TrainingFinished(Message):
    """The nightly job returned; `report` is run_nightly's JSON-able report (status done | skipped)."""

    report: dict
    dry_run: bool


@dataclass
class TrainingFailed(Message):
    """The nightly job raised a user-facing error or was stopped; `error` is the one-line message."""

    error: str
    stopped: bool = False


@dataclass
class TrainerOptInChanged(Message):
    """HCP trainer.enabled was written as a new HCP version, or refused with `error` (nothing written)."""

    enabled: bool
    version: int = 0
    error: str | None = None


@dataclass
class ModelsListed(Message):
    """The model picker's rows (mol_local.catalog.service.Row), read off the UI thread; `error` when that failed."""

    available: int
    rows: list[Any]
    error: str | None = None


@dataclass
class ModelUsed(Message):
    """`use` wrote a new HCP version (the runtime reopens on it), or was refused with `error` (nothing changed)."""

    name: str
    reason: str = ""
    notes: list[str] = field(default_factory=list)
    error: str | None = None


@dataclass
class WorkFailed(Message):
    """A screen's worker met a user-facing error. Posted to the app, so the notice survives the screen closing."""

    error: str
    title: str | None = None
    timeout: float = 10.0


@dataclass
class WorkNoted(Message):
    """A screen's worker finished something the person should hear about (posted to the app, as WorkFailed)."""

    text: str


@dataclass
class MemoriesChanged(Message):
    """The memory screen's rows after a search (`rows`), or None after a change (read them again); `note` says what."""

    rows: list[Any] | None
    note: str


@dataclass
class SettingsChecked(Message):
    """The settings form was checked and, when something changed, written as an HCP version named `reason`
    ('' = nothing changed); `error` when it was refused (nothing written)."""

    reason: str = ""
    key_stored: bool = False
    error: str | None = None


@dataclass
class ScheduleRead(Message):
    """What the nightly timer's status says, as one line for the trainer screen."""

    text: str


@dataclass
class ScheduleChanged(Message):
    """The nightly timer was installed or removed; `note` says which."""

    note: str


@dataclass
class ConversationForgotten(Message):
    """A conversation was deleted (forgotten) with `tasks` turns and `memories` memories."""

    conversation_id: str
    title: str
    tasks: int
    memories: int


@dataclass
class ApprovalAsked(Message):
    """An MCP tool that must ask asks: the app shows ToolApproval and calls `answered` with the choice."""

    tool: str
    args: dict[str, Any]
    destructive: bool
    answered: Any
