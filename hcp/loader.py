"""Load and validate an HCP document into typed, frozen settings.

Every error names the key path, the bad value and the fix, e.g.
`runtime.threads = 0: must be between 1 and 256 — set it in profile.toml`.
Unknown keys are errors with a did-you-mean, so a typo never silently does nothing.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.exceptions import ParseError

from hcp.errors import HCPError

PROFILES_DIR = Path(__file__).parent / "profiles"
SLOT_LABELS = ("L0", "L1", "L2", "L3")


@dataclass(frozen=True)
class AdapterRef:
    """A LoRA in a stack: a GGUF path (relative to the HCP file) and its scale."""

    path: str
    scale: float = 1.0


@dataclass(frozen=True)
class SlotConfig:
    label: str
    name: str
    persona: str
    adapters: tuple[AdapterRef, ...] = ()


@dataclass(frozen=True)
class HCP:
    name: str
    source: Path | None
    persona_pack: str
    backend: str
    base_model: str
    n_ctx: int
    kv_cells: int
    threads: int
    gpu_layers: int
    kv_reuse: bool
    routing_mode: str
    entry_slot: str
    route_max_tokens: int
    route_fallback: str
    route_adapters: tuple[AdapterRef, ...]
    answer_max_tokens: int
    temperature: float
    summary_max_tokens: int
    slots: dict[str, SlotConfig] = field(default_factory=dict)

    @property
    def base_dir(self) -> Path | None:
        return self.source.parent if self.source else None


_SCHEMA: dict[str, dict[str, tuple]] = {
    # section -> key -> (type, default, check) ; check is a range (lo, hi) or a tuple of allowed values
    "": {
        "schema": (int, 1, (1, 1)),
        "name": (str, "custom", None),
        "persona_pack": (str, "local-default", None),
    },
    "runtime": {
        "backend": (str, "llama-cpp", ("llama-cpp", "remote")),
        "base_model": (str, "builtin:smollm2-135m", None),
        "n_ctx": (int, 4096, (256, 1_048_576)),
        "kv_cells": (int, 8192, (256, 4_194_304)),
        "threads": (int, 2, (1, 256)),
        "gpu_layers": (int, 0, (-1, 100_000)),
        "kv_reuse": (bool, True, None),
    },
    "routing": {
        "mode": (str, "grammar", ("grammar", "fixed")),
        "entry_slot": (str, "L0", SLOT_LABELS),
        "max_tokens": (int, 24, (1, 24)),
        "fallback": (str, "L0", SLOT_LABELS),
        "adapters": (list, [], None),
    },
    "answer": {
        "max_tokens": (int, 384, (1, 32768)),
        "temperature": (float, 0.0, (0.0, 2.0)),
    },
    "summary": {
        "max_tokens": (int, 192, (1, 192)),
    },
}
_SLOT_KEYS = {"name": str, "persona": str, "adapters": list}


def _fail(path: str, value: Any, why: str, source: Path | None) -> HCPError:
    where = f" in {source}" if source else ""
    return HCPError(f"{path} = {value!r}: {why} — fix it{where}")


def _unknown(path: str, key: str, known: list[str], source: Path | None) -> HCPError:
    guess = difflib.get_close_matches(key, known, n=1)
    hint = f"did you mean {guess[0]!r}?" if guess else f"known keys: {', '.join(sorted(known))}"
    where = f" in {source}" if source else ""
    return HCPError(f"{path}{'.' if path else ''}{key}: unknown key — {hint}{where}")


def _check(path: str, value: Any, kind: type, check: Any, source: Path | None) -> Any:
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if kind is int and isinstance(value, bool) or not isinstance(value, kind):
        raise _fail(path, value, f"must be a {kind.__name__}", source)
    if isinstance(check, tuple) and len(check) == 2 and all(isinstance(c, (int, float)) for c in check):
        lo, hi = check
        if not lo <= value <= hi:
            raise _fail(path, value, f"must be between {lo} and {hi}", source)
    elif isinstance(check, tuple) and value not in check:
        raise _fail(path, value, f"must be one of {', '.join(map(str, check))}", source)
    return value


def _adapters(path: str, raw: Any, source: Path | None) -> tuple[AdapterRef, ...]:
    if not isinstance(raw, list):
        raise _fail(path, raw, "must be a list of {path = ..., scale = ...} tables", source)
    out = []
    for i, item in enumerate(raw):
        where = f"{path}[{i}]"
        if not isinstance(item, dict) or "path" not in item:
            raise _fail(where, item, "must be a table with a `path` (and optional `scale`)", source)
        for key in item:
            if key not in ("path", "scale"):
                raise _unknown(where, key, ["path", "scale"], source)
        scale = _check(f"{where}.scale", item.get("scale", 1.0), float, (-4.0, 4.0), source)
        out.append(AdapterRef(path=_check(f"{where}.path", item["path"], str, None, source), scale=scale))
    return tuple(out)


def _plain(value: Any) -> Any:
    return value.unwrap() if hasattr(value, "unwrap") else value


def parse_hcp(text: str, *, source: Path | None = None) -> HCP:
    """Validate an HCP TOML string; raise HCPError naming the first problem."""
    try:
        doc = _plain(tomlkit.parse(text))
    except ParseError as exc:
        raise HCPError(f"{source or 'HCP'} is not valid TOML ({exc}) — fix the syntax at that line") from exc
    values: dict[str, dict[str, Any]] = {}
    sections = set(_SCHEMA) - {""} | {"slots"}
    for key in doc:
        if key not in _SCHEMA[""] and key not in sections:
            raise _unknown("", key, list(_SCHEMA[""]) + sorted(sections), source)
    for section, spec in _SCHEMA.items():
        raw = doc if section == "" else doc.get(section, {})
        if not isinstance(raw, dict):
            raise _fail(section, raw, "must be a table", source)
        if section:
            for key in raw:
                if key not in spec:
                    raise _unknown(section, key, list(spec), source)
        values[section] = {}
        for key, (kind, default, check) in spec.items():
            path = f"{section}.{key}" if section else key
            value = raw.get(key, default)
            values[section][key] = value if kind is list else _check(path, value, kind, check, source)
    slots_raw = doc.get("slots", {})
    if not isinstance(slots_raw, dict) or not slots_raw:
        raise _fail("slots", slots_raw, "must define at least the entry slot, e.g. [slots.L0]", source)
    slots: dict[str, SlotConfig] = {}
    for label, raw in slots_raw.items():
        if label not in SLOT_LABELS:
            raise _unknown("slots", label, list(SLOT_LABELS), source)
        if not isinstance(raw, dict):
            raise _fail(f"slots.{label}", raw, "must be a table", source)
        for key in raw:
            if key not in _SLOT_KEYS:
                raise _unknown(f"slots.{label}", key, list(_SLOT_KEYS), source)
        slots[label] = SlotConfig(
            label=label,
            name=_check(f"slots.{label}.name", raw.get("name", label), str, None, source),
            persona=_check(f"slots.{label}.persona", raw.get("persona", label), str, None, source),
            adapters=_adapters(f"slots.{label}.adapters", raw.get("adapters", []), source),
        )
    routing = values["routing"]
    for key in ("entry_slot", "fallback"):
        if routing[key] not in slots:
            raise _fail(f"routing.{key}", routing[key], f"names a slot that is not defined (have {', '.join(slots)})", source)
    runtime = values["runtime"]
    if runtime["kv_cells"] < runtime["n_ctx"]:
        raise _fail("runtime.kv_cells", runtime["kv_cells"], f"must be at least runtime.n_ctx ({runtime['n_ctx']})", source)
    top = values[""]
    return HCP(
        name=top["name"],
        source=source,
        persona_pack=top["persona_pack"],
        backend=runtime["backend"],
        base_model=runtime["base_model"],
        n_ctx=runtime["n_ctx"],
        kv_cells=runtime["kv_cells"],
        threads=runtime["threads"],
        gpu_layers=runtime["gpu_layers"],
        kv_reuse=runtime["kv_reuse"],
        routing_mode=routing["mode"],
        entry_slot=routing["entry_slot"],
        route_max_tokens=routing["max_tokens"],
        route_fallback=routing["fallback"],
        route_adapters=_adapters("routing.adapters", routing["adapters"], source),
        answer_max_tokens=values["answer"]["max_tokens"],
        temperature=values["answer"]["temperature"],
        summary_max_tokens=values["summary"]["max_tokens"],
        slots=slots,
    )


def load_hcp(path: Path) -> HCP:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise HCPError(f"HCP file not found: {path} — pass an existing file or use a profile name") from exc
    except UnicodeDecodeError as exc:
        raise HCPError(f"{path} is not UTF-8 text — save it as UTF-8") from exc
    return parse_hcp(text, source=path)


def profile_path(name: str) -> Path:
    path = PROFILES_DIR / f"{name}.toml"
    if not path.is_file():
        known = sorted(p.stem for p in PROFILES_DIR.glob("*.toml"))
        raise HCPError(f"Unknown profile {name!r} — use one of: {', '.join(known)}")
    return path


def load_profile(name: str) -> HCP:
    return load_hcp(profile_path(name))
