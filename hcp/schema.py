"""The HCP schema: every section, key, type, default, allowed range and its meaning.

This table is the single source of truth: the loader validates against it,
`mol hcp set` coerces command-line values with it, and `mol hcp schema` /
hcp/SCHEMA.md are rendered from it (a test keeps SCHEMA.md in sync).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

SLOT_LABELS = ("L0", "L1", "L2", "L3")
# Built-in tool families and their tools (the harness, mol_local/harness/limits.py, runs these).
# `tools.enabled` may name a family ("notes") or one of its tools ("notes.find").
TOOL_FAMILIES: dict[str, tuple[str, ...]] = {
    "python": ("python",),
    "notes": ("notes.create", "notes.find", "notes.read", "notes.delete"),
    "reminders": ("reminders.create", "reminders.list", "reminders.complete", "reminders.cancel"),
    "files": ("files.list", "files.read"),
    "memory": ("memory.search", "memory.remember"),
    "skills": ("save_tool", "promote_tool"),
}
BUILTIN_TOOLS = tuple(dict.fromkeys([*TOOL_FAMILIES, *(t for tools in TOOL_FAMILIES.values() for t in tools)]))
AUTHORS = ("user", "trainer", "import")
TOOL_NAME = r"[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*"
SHA256 = r"[0-9a-f]{64}"
HHMM = r"([01][0-9]|2[0-3]):[0-5][0-9]"
# A field whose name looks like a credential is refused anywhere in the document.
SECRET_KEY = re.compile(r"(^|[_\-.])(api[_\-]?key|key|token|secret|password|passwd|bearer|authorization|credentials?)$", re.I)


@dataclass(frozen=True)
class Key:
    """One key: `kind` is str|int|float|bool|list[str]|table[str]|adapters; `lo`/`hi` bound numbers; `choices` bounds strings."""

    kind: str
    default: Any
    doc: str
    lo: float | None = None
    hi: float | None = None
    choices: tuple[str, ...] | None = None
    pattern: str | None = None
    required: bool = False

    def describe(self) -> str:
        """The allowed values in words, for errors and docs."""
        if self.choices:
            return "one of " + ", ".join(self.choices)
        if self.lo is not None:
            return f"{self.lo} .. {self.hi}"
        if self.pattern == HHMM:
            return "HH:MM (24 h, local time)"
        if self.pattern == SHA256:
            return "64 lowercase hex digits"
        if self.pattern:
            return f"matches {self.pattern}"
        return ""


@dataclass(frozen=True)
class Section:
    """A table with fixed keys, e.g. [runtime] or [trainer.gate] ("" is the top level)."""

    doc: str
    keys: dict[str, Key]


@dataclass(frozen=True)
class Collection:
    """A table of named tables, e.g. [slots.L0] or [skills.weekday_of]; `names` limits the names."""

    doc: str
    keys: dict[str, Key]
    names: tuple[str, ...] | None = None
    name_pattern: str | None = None


_LIMIT_DOC = {
    "timeout_s": "wall-clock seconds one call may run; past it the sandbox is killed and restarted",
    "cpu_s": "CPU seconds one call may use (RLIMIT_CPU)",
    "memory_mb": "address-space limit of the sandbox process in MiB (RLIMIT_AS)",
    "output_kb": "largest result (stdout + value) returned to the model, in KiB; the rest is cut and said so",
    "disk_mb": "total the workspace may hold on disk, in MiB (allocated blocks); no single file may pass what is left, and once full no file can grow until some are deleted",
}


def _limits(defaults: dict[str, float] | None) -> dict[str, Key]:
    ranges = {"timeout_s": (0.1, 3600.0), "cpu_s": (0.1, 3600.0), "memory_mb": (16, 1_048_576), "output_kb": (1, 102_400),
              "disk_mb": (1, 1_048_576)}
    kinds = {"timeout_s": "float", "cpu_s": "float", "memory_mb": "int", "output_kb": "int", "disk_mb": "int"}
    return {
        k: Key(kinds[k], defaults[k] if defaults else None, _LIMIT_DOC[k] + ("" if defaults else " (default: tools.defaults)"), *ranges[k])
        for k in _LIMIT_DOC
    }


SECTIONS: dict[str, Section] = {
    "": Section(
        "Top level: which contract this is.",
        {
            "schema": Key("int", 1, "schema version of this document", 1, 1),
            "name": Key("str", "custom", "a name for this assistant, shown in the app"),
            "persona_pack": Key("str", "local-default", "a persona pack shipped under personas/ (by name) or a folder path (relative to this file)"),
        },
    ),
    "runtime": Section(
        "How the base model runs.",
        {
            "backend": Key("str", "llama-cpp", "in-process llama.cpp, or an OpenAI-compatible server described in [remote]", choices=("llama-cpp", "remote")),
            "base_model": Key("str", "builtin:smollm2-135m", "`builtin:smollm2-135m` (embedded) or a GGUF path (`~` and paths relative to this file work)"),
            "n_ctx": Key("int", 4096, "tokens one slot's view may use", 256, 1_048_576),
            "kv_layout": Key("str", "split", "split: one KV stream of n_ctx cells per slot and the router, so a step attends over its own slot only "
                             "(memory: 5 x n_ctx cells); unified: kv_cells shared by all, least recently used slot evicted when full "
                             "(smaller, but every step walks the other slots' cells too)", choices=("split", "unified")),
            "kv_cells": Key("int", 8192, "with kv_layout = unified: KV cells shared by all slots (least recently used slot is evicted when full); at least n_ctx", 256, 4_194_304),
            "threads": Key("int", 2, "CPU threads for llama.cpp", 1, 256),
            "gpu_layers": Key("int", 0, "layers offloaded to the GPU (-1 = all, 0 = CPU only)", -1, 100_000),
            "kv_reuse": Key("bool", True, "keep each slot's prefix resident between visits"),
            "hop_max_seconds": Key("float", 60.0, "wall-clock seconds one hop (route, answer, summary, memory extraction, UI document) may "
                                   "decode before it is cut off, so a model that never stops cannot hold a turn for minutes", 1.0, 3600.0),
        },
    ),
    "routing": Section(
        "How a turn picks its slot.",
        {
            "mode": Key("str", "grammar", "grammar: the entry slot emits one label under a GBNF grammar; fixed: always the entry slot; "
                        "embed: a linear head over the memory embedder's vector of the request; hybrid: embed when it is sure "
                        "(see min_confidence), else grammar", choices=("grammar", "fixed", "hybrid", "embed")),
            "entry_slot": Key("str", "L0", "the slot that reads every request first; must be defined under [slots]", choices=SLOT_LABELS),
            "max_tokens": Key("int", 24, "token budget of the route decision", 1, 24),
            "fallback": Key("str", "L0", "the slot used when the route output is not a label; must be defined", choices=SLOT_LABELS),
            "adapters": Key("adapters", [], "the router's LoRA stack"),
            "min_confidence": Key("float", 0.9, "hybrid mode: the embeddings head's probability at or above which it decides alone (0.9: the shipped head made no mistake above it on validation templates)", 0.0, 1.0),
        },
    ),
    "answer": Section(
        "How the chosen slot answers.",
        {
            "max_tokens": Key("int", 384, "token budget of one answer", 1, 32768),
            "temperature": Key("float", 0.0, "sampling temperature (0 = greedy)", 0.0, 2.0),
            "repeat_penalty": Key("float", 1.1, "repetition penalty (1.0 = off)", 1.0, 2.0),
        },
    ),
    "summary": Section(
        "The hidden summary hop after each task.",
        {"max_tokens": Key("int", 192, "token budget of one summary", 1, 192)},
    ),
    "tools": Section(
        "Tools the harness may run for the model.",
        {
            "enabled": Key("list[str]", list(TOOL_FAMILIES), "tools the model may call: a built-in family (" + ", ".join(TOOL_FAMILIES) + "), one tool of a family (e.g. notes.find), or a promoted skill"),
            "max_rounds": Key("int", 4, "tool-call rounds per task before the slot must answer", 1, 32),
        },
    ),
    "tools.defaults": Section("Sandbox limits every tool call gets unless [tools.limits.<tool>] overrides them.", _limits(
        {"timeout_s": 10.0, "cpu_s": 10.0, "memory_mb": 512, "output_kb": 64, "disk_mb": 1024})),
    "hooks": Section(
        "Tools or skills run at fixed points of a turn; each entry must be an enabled tool or a skill.",
        {
            "pre_answer": Key("list[str]", [], "run before the slot answers; results go in the view's tail"),
            "post_turn": Key("list[str]", [], "run after the turn is committed"),
            "stop_gate": Key("list[str]", [], "run before a task closes; a failure keeps the task open with the reason"),
        },
    ),
    "memory": Section(
        "Per-user memory.",
        {
            "auto_extract": Key("bool", True, "propose memories from each turn automatically"),
            "top_k": Key("int", 4, "memories retrieved into the view's tail per turn", 0, 64),
        },
    ),
    "consent": Section(
        "Training consent for new conversations (opt-in, revocable per conversation).",
        {"default": Key("bool", False, "whether a new conversation starts consented to training")},
    ),
    "trainer": Section(
        "The nightly consolidation job.",
        {
            "enabled": Key("bool", False, "run the nightly job at all"),
            "schedule": Key("str", "03:00", "local start time", pattern=HHMM),
            "time_budget_min": Key("int", 60, "minutes one run may take before it stops and resumes next night", 1, 1440),
            "memory_budget_mb": Key("int", 4096, "RAM one run may use, in MiB", 256, 1_048_576),
        },
    ),
    "trainer.gate": Section(
        "A new personal adapter is promoted only if it passes all of these.",
        {
            "new_data_gain_min_rel": Key("float", 0.02, "least relative loss improvement on held-out new data", 0.0, 1.0),
            "regression_worse_max_rel": Key("float", 0.01, "most relative loss increase allowed on the frozen regression set, vs the bare base", 0.0, 1.0),
            "route_accuracy_not_lower": Key("bool", True, "reject if routing accuracy on the regression set drops"),
            "data_nll_per_char_max": Key("float", 2.0, "most base-model NLL per character (nats) of a new answer; above it the example is dropped as garbage, and a night with nothing left is rejected", 0.0, 100.0),
            "specialist_drop_max": Key("float", 2.0, "most points (of 100) a personal layer may lower its slot's specialist suite (held-out real turns) before it is rejected", 0.0, 100.0),
        },
    ),
    "serve": Section(
        "What `mol serve` gives API clients (OpenAI-compatible, on loopback).",
        {
            "api_memory": Key("str", "off", "personal memories in the tail of an API client's `mol` turn: off (never), opt_in (only when the "
                              "request sends metadata.mol_memory = true) or on (always, like the app)", choices=("off", "opt_in", "on")),
        },
    ),
    "remote": Section(
        "An OpenAI-compatible server (used when runtime.backend = \"remote\"). The API key is never here: `mol remote login` stores it in the OS keyring.",
        {
            "base_url": Key("str", "", "server URL, e.g. https://host/v1 (no credentials in it)"),
            "model": Key("str", "", "model name sent to the server"),
            "mode": Key("str", "engine", "engine: the server runs our slots' adapters as models, we route and summarise; mol: the server is itself a MoL", choices=("engine", "mol")),
            "fallback": Key("str", "", "a shipped local profile used when the server is unreachable (\"\" = none)"),
            "send_memories": Key("bool", False, "send retrieved memories with requests (off: memories stay on this machine)"),
        },
    ),
}

COLLECTIONS: dict[str, Collection] = {
    "slots": Collection(
        "One table per slot; at least the entry slot.",
        {
            "name": Key("str", None, "display name (default: the label)"),
            "persona": Key("str", None, "persona file in the pack, without .md (default: the label)"),
            "adapters": Key("adapters", [], "LoRA stack: [{path = \"x.gguf\", scale = 1.0}, ...]; paths relative to this file or `~`"),
            "remote_model": Key("str", "", "with remote.mode = \"engine\": the server's model name for this slot (\"\" = remote.model)"),
        },
        names=SLOT_LABELS,
    ),
    "tools.limits": Collection(
        "Per-tool (or per-family) overrides of [tools.defaults]; the tool must be enabled.",
        _limits(None),
        name_pattern=TOOL_NAME,
    ),
    "tools.mcp": Collection(
        "MCP tool servers (Model Context Protocol). Each server's tools reach the model as `<name>.<tool>`, next to the "
        "built-ins, through the same argument checks, audit log, limits and tools.max_rounds. Give `command` (stdio: a "
        "program this machine runs) or `url` (streamable HTTP on loopback), not both.",
        {
            "command": Key("str", "", "the program that speaks MCP on stdin/stdout, e.g. `uvx` or a path"),
            "args": Key("list[str]", [], "its arguments"),
            "env": Key("table[str]", {}, "extra environment variables for it (no secrets: key-like names are refused)"),
            "url": Key("str", "", "a streamable-HTTP MCP endpoint on this machine, e.g. http://127.0.0.1:8000/mcp"),
            "enabled": Key("bool", True, "offer this server's tools at all"),
            "allow": Key("list[str]", [], "tools (the server's names) that run without asking; \"*\" = every tool the server does not "
                         "mark destructive. Others ask in the app (allow once / always / deny) and are refused by `mol serve` and `mol chat`"),
            "timeout_s": Key("float", 30.0, "seconds to start (initialize) and for one call; past it the call is one error line", 0.5, 3600.0),
            "max_result_kb": Key("int", 64, "largest result a call may return, in KiB (at most tools.defaults.output_kb is shown); a bigger one is refused whole, with its size", 1, 102_400),
        },
        name_pattern=r"[a-z][a-z0-9_]*",
    ),
    "skills": Collection(
        "Promoted tools (written by `mol tools promote`); callable in every conversation.",
        {
            "sha256": Key("str", None, "sha256 of the tool's source when it passed validation", pattern=SHA256, required=True),
            "path": Key("str", "", "the tool's source file (relative to this file); checked against sha256 when given"),
            "description": Key("str", "", "one line shown to the model"),
            "promoted_at": Key("str", "", "ISO-8601 time of promotion"),
        },
        name_pattern=TOOL_NAME,
    ),
}


def parent_of(name: str) -> str:
    return name.rsplit(".", 1)[0] if "." in name else ""


def children_of(section: str) -> list[str]:
    """Names of sub-tables directly under `section` (e.g. "tools" -> ["defaults", "limits"])."""
    out = []
    for name in (*SECTIONS, *COLLECTIONS):
        if name and parent_of(name) == section:
            out.append(name.rsplit(".", 1)[-1])
    return out


def split_path(dotted: str) -> list[str]:
    """The TOML key parts of a dotted path; a collection entry keeps its dots ("tools.limits.memory.search.cpu_s")."""
    for name in COLLECTIONS:
        if dotted.startswith(name + ".") and dotted.count(".") > name.count(".") + 1:
            entry, _, key = dotted[len(name) + 1:].rpartition(".")
            return [*name.split("."), entry, key]
    return dotted.split(".")


def lookup(dotted: str) -> tuple[str, Key] | None:
    """Find the Key a dotted path names, e.g. "slots.L1.adapters"; None if there is none."""
    section, _, key = dotted.rpartition(".")
    if section in SECTIONS and key in SECTIONS[section].keys:
        return section, SECTIONS[section].keys[key]
    for name, col in COLLECTIONS.items():
        if section.startswith(name + ".") and key in col.keys:
            return name, col.keys[key]
    return None


def all_key_paths() -> list[str]:
    """Every settable dotted path, with <name> for collection entries (for did-you-mean)."""
    out = [f"{s}.{k}" if s else k for s, sec in SECTIONS.items() for k in sec.keys]
    for c, col in COLLECTIONS.items():
        names = col.names or ("<name>",)
        out += [f"{c}.{n}.{k}" for n in names for k in col.keys]
    return out
