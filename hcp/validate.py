"""Validate a parsed HCP document against hcp.schema and build the frozen HCP.

Every error names the key path, the bad value and the fix, e.g.
`runtime.threads = 0: must be between 1 and 256 — fix it in profile.toml`.
Unknown keys are errors with a did-you-mean, so a typo never silently does nothing.
Only the document itself is checked here; files it names are checked in hcp.references.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from hcp.errors import HCPSecretError, HCPValidationError
from hcp.files import check_ref
from hcp.model import (
    HCP,
    AdapterRef,
    AnswerConfig,
    ConsentConfig,
    GateConfig,
    HooksConfig,
    McpServer,
    MemoryConfig,
    RemoteConfig,
    RoutingConfig,
    RuntimeConfig,
    ServeConfig,
    Skill,
    SlotConfig,
    SummaryConfig,
    ToolLimits,
    ToolsConfig,
    TrainerConfig,
    frozen_map,
)
from hcp.schema import BUILTIN_TOOLS, COLLECTIONS, SECRET_KEY, SECTIONS, TOOL_FAMILIES, Key, children_of

PROFILES_DIR = Path(__file__).parent / "profiles"
_KINDS = {"str": str, "int": int, "float": float, "bool": bool}
PATH_KEYS = ("runtime.base_model", "persona_pack", "skills.<name>.path", "<adapters>[i].path")  # checked with check_ref


def fail(path: str, value: Any, why: str, source: Path | None) -> HCPValidationError:
    where = f" in {source}" if source else ""
    return HCPValidationError(f"{path} = {value!r}: {why} — fix it{where}")


def unknown(path: str, key: str, known: list[str], source: Path | None) -> HCPValidationError:
    guess = difflib.get_close_matches(key, known, n=1)
    hint = f"did you mean {guess[0]!r}?" if guess else f"known: {', '.join(sorted(known)) or '(none)'}"
    where = f" in {source}" if source else ""
    return HCPValidationError(f"{path}{'.' if path else ''}{key}: unknown key — {hint}{where}")


def unknown_ref(path: str, value: str, what: str, known: list[str], source: Path | None) -> HCPValidationError:
    """A value that should name something defined elsewhere (a tool, a profile) but does not."""
    guess = difflib.get_close_matches(value, known, n=1)
    hint = f"did you mean {guess[0]!r}?" if guess else f"known: {', '.join(sorted(known)) or '(none)'}"
    return fail(path, value, f"{what} — {hint}", source)


def check_value(path: str, value: Any, key: Key, source: Path | None) -> Any:
    """Type, range, choice and pattern check of one value; returns it normalised (int -> float, list -> tuple)."""
    if key.kind == "adapters":
        return _adapters(path, value, source)
    if key.kind == "table[str]":
        if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
            raise fail(path, value, 'must be a table of strings, e.g. {LANG = "C"}', source)
        return frozen_map(dict(value))
    if key.kind == "list[str]":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise fail(path, value, 'must be a list of strings, e.g. ["a", "b"]', source)
        if len(set(value)) != len(value):
            raise fail(path, value, "lists a name twice; keep one", source)
        return tuple(value)
    kind = _KINDS[key.kind]
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if (kind is not bool and isinstance(value, bool)) or not isinstance(value, kind):
        article = "an" if key.kind == "int" else "a"
        raise fail(path, value, f"must be {article} {key.kind}", source)
    if key.lo is not None and not key.lo <= value <= key.hi:
        raise fail(path, value, f"must be between {key.lo} and {key.hi}", source)
    if key.choices and value not in key.choices:
        raise fail(path, value, f"must be one of {', '.join(key.choices)}", source)
    if key.pattern and not re.fullmatch(key.pattern, value):
        raise fail(path, value, f"must be {key.describe()}", source)
    return value


def _ref(path: str, value: Any, source: Path | None) -> Any:
    """A path-valued key: refused on its face (NUL, `builtin:../x`, `../` out of the HCP's folder)."""
    if isinstance(value, str) and (why := check_ref(value)):
        raise fail(path, value, why, source)
    return value


def _adapters(path: str, raw: Any, source: Path | None) -> tuple[AdapterRef, ...]:
    if not isinstance(raw, list):
        raise fail(path, raw, "must be a list of {path = ..., scale = ...} tables", source)
    out = []
    for i, item in enumerate(raw):
        where = f"{path}[{i}]"
        if not isinstance(item, dict) or "path" not in item:
            raise fail(where, item, "must be a table with a `path` (and optional `scale`)", source)
        for key in item:
            if key not in ("path", "scale"):
                raise unknown(where, key, ["path", "scale"], source)
        scale = check_value(f"{where}.scale", item.get("scale", 1.0), Key("float", 1.0, "", -4.0, 4.0), source)
        ref = check_value(f"{where}.path", item["path"], Key("str", None, ""), source)
        if not ref.strip():
            raise fail(f"{where}.path", ref, "is empty; give the adapter's .gguf path", source)
        _ref(f"{where}.path", ref, source)
        out.append(AdapterRef(path=ref, scale=scale))
    return tuple(out)


def reject_secrets(node: Any, path: str, source: Path | None) -> None:
    """Refuse credentials anywhere: HCP files are versioned, diffed and shown in plain text."""
    if isinstance(node, dict):
        for key, value in node.items():
            here = f"{path}.{key}" if path else str(key)
            if SECRET_KEY.search(str(key)):
                raise HCPSecretError(
                    f"{here}: HCP must not hold secrets (it is versioned and printed) — remove the line"
                    f"{f' from {source}' if source else ''} and run `mol remote login` to keep the key in the OS keyring"
                )
            reject_secrets(value, here, source)
    elif isinstance(node, list):
        for i, item in enumerate(node):
            reject_secrets(item, f"{path}[{i}]", source)


def _table(doc: dict, dotted: str, source: Path | None) -> dict:
    node: Any = doc
    walked = []
    for part in dotted.split(".") if dotted else []:
        walked.append(part)
        node = node.get(part, {})
        if not isinstance(node, dict):
            raise fail(".".join(walked), node, f"must be a table, e.g. [{'.'.join(walked)}]", source)
    return node


def _section_values(doc: dict, name: str, source: Path | None) -> dict[str, Any]:
    spec = SECTIONS[name]
    raw = _table(doc, name, source)
    allowed = list(spec.keys) + children_of(name)
    for key in raw:
        if key not in allowed:
            raise unknown(name, key, allowed, source)
    out = {}
    for key, meta in spec.keys.items():
        path = f"{name}.{key}" if name else key
        out[key] = check_value(path, raw.get(key, meta.default), meta, source)
        if path in PATH_KEYS:
            _ref(path, out[key], source)
    return out


def _collection(doc: dict, name: str, source: Path | None) -> dict[str, dict[str, Any]]:
    spec = COLLECTIONS[name]
    raw = _table(doc, name, source)
    out: dict[str, dict[str, Any]] = {}
    for entry, table in raw.items():
        if spec.names is not None and entry not in spec.names:
            raise unknown(name, entry, list(spec.names), source)
        if spec.name_pattern and not re.fullmatch(spec.name_pattern, entry):
            raise fail(f"{name}.{entry}", entry, "is not a valid tool name (lowercase letters, digits, _ and dots)", source)
        if not isinstance(table, dict):
            raise fail(f"{name}.{entry}", table, f"must be a table, e.g. [{name}.{entry}]", source)
        for key in table:
            if key not in spec.keys and spec.name_pattern and isinstance(table[key], dict):
                raise fail(f"{name}.{entry}.{key}", table[key], f'a dotted name must be quoted in TOML: [{name}."{entry}.{key}"]', source)
            if key not in spec.keys:
                raise unknown(f"{name}.{entry}", key, list(spec.keys), source)
        values = {}
        for key, meta in spec.keys.items():
            if key not in table:
                if meta.required:
                    raise fail(f"{name}.{entry}.{key}", None, f"is required ({meta.doc})", source)
                values[key] = meta.default
                continue
            values[key] = check_value(f"{name}.{entry}.{key}", table[key], meta, source)
            if f"{name}.<name>.{key}" in PATH_KEYS:
                _ref(f"{name}.{entry}.{key}", values[key], source)
        out[entry] = values
    return out


def build_hcp(doc: dict, source: Path | None) -> HCP:
    """Validate a plain dict (parsed TOML) and build the HCP; raise on the first problem."""
    reject_secrets(doc, "", source)
    values = {name: _section_values(doc, name, source) for name in SECTIONS}
    slots_raw = _collection(doc, "slots", source)
    if not slots_raw:
        raise fail("slots", {}, "must define at least the entry slot, e.g. [slots.L0]", source)
    slots = {
        label: SlotConfig(label=label, name=v["name"] or label, persona=v["persona"] or label,
                          adapters=v["adapters"], remote_model=v["remote_model"])
        for label, v in slots_raw.items()
    }
    skills = {name: Skill(name=name, **v) for name, v in _collection(doc, "skills", source).items()}
    defaults = ToolLimits(**values["tools.defaults"])
    overrides = {
        tool: ToolLimits(**{k: getattr(defaults, k) if v is None else v for k, v in raw.items()})
        for tool, raw in _collection(doc, "tools.limits", source).items()
    }
    mcp = {name: _mcp_server(name, raw, source) for name, raw in _collection(doc, "tools.mcp", source).items()}
    _cross_check(values, slots, skills, overrides, source)
    top, routing, tools, trainer = values[""], values["routing"], values["tools"], values["trainer"]
    return HCP(
        name=top["name"],
        source=source,
        persona_pack=top["persona_pack"],
        runtime=RuntimeConfig(**values["runtime"]),
        routing=RoutingConfig(**routing),
        answer=AnswerConfig(**values["answer"]),
        summary=SummaryConfig(**values["summary"]),
        slots=frozen_map(slots),
        tools=ToolsConfig(enabled=tools["enabled"], max_rounds=tools["max_rounds"], defaults=defaults, overrides=frozen_map(overrides),
                          mcp=frozen_map(mcp)),
        skills=frozen_map(skills),
        hooks=HooksConfig(**values["hooks"]),
        memory=MemoryConfig(**values["memory"]),
        consent=ConsentConfig(**values["consent"]),
        trainer=TrainerConfig(**trainer, gate=GateConfig(**values["trainer.gate"])),
        remote=RemoteConfig(**values["remote"]),
        serve=ServeConfig(**values["serve"]),
    )


def _mcp_server(name: str, raw: dict[str, Any], source: Path | None) -> McpServer:
    """A [tools.mcp.<name>] table: exactly one of command (stdio) and url (streamable HTTP on loopback)."""
    where = f"tools.mcp.{name}"
    if name in TOOL_FAMILIES or name in BUILTIN_TOOLS:
        raise fail(where, name, "has the name of a built-in tool family; call the server something else", source)
    if bool(raw["command"].strip()) == bool(raw["url"].strip()):
        raise fail(where, raw["command"] or raw["url"], "needs exactly one of `command` (a program speaking MCP on stdio) or `url` "
                   "(e.g. http://127.0.0.1:8000/mcp)", source)
    if raw["url"]:
        parts = urlsplit(raw["url"])
        if parts.scheme not in ("http", "https") or parts.hostname not in ("127.0.0.1", "localhost", "::1"):
            raise fail(f"{where}.url", raw["url"], "must be an http URL on this machine (127.0.0.1, localhost or ::1): "
                       "tools run with your data, so a server elsewhere is not accepted", source)
    return McpServer(name=name, **raw)


def _cross_check(values: dict, slots: dict, skills: dict, overrides: dict, source: Path | None) -> None:
    """References inside the document: slots named by routing, tools named by limits/hooks, remote settings."""
    routing, runtime = values["routing"], values["runtime"]
    for key in ("entry_slot", "fallback"):
        if routing[key] not in slots:
            raise fail(f"routing.{key}", routing[key], f"names a slot that is not defined (have {', '.join(slots)})", source)
    if runtime["kv_cells"] < runtime["n_ctx"]:
        raise fail("runtime.kv_cells", runtime["kv_cells"], f"must be at least runtime.n_ctx ({runtime['n_ctx']})", source)
    for name in skills:
        if name in BUILTIN_TOOLS:
            raise fail(f"skills.{name}", name, "has the name of a built-in tool; promote it under another name", source)
    callable_ = list(BUILTIN_TOOLS) + list(skills)
    for i, tool in enumerate(values["tools"]["enabled"]):
        if tool not in callable_:
            raise unknown_ref(f"tools.enabled[{i}]", tool, "no such tool (built-in or skill)", callable_, source)
    enabled = _expand(values["tools"]["enabled"])
    for tool in overrides:
        if tool not in enabled:
            raise unknown_ref(f"tools.limits.{tool}", tool, "limits for a tool that is not in tools.enabled", sorted(enabled), source)
    for hook, names in values["hooks"].items():
        for name in names:
            if name not in enabled and name not in skills:
                raise unknown_ref(f"hooks.{hook}", name, "not an enabled tool or a skill", sorted(enabled | set(skills)), source)
    _check_remote(values["remote"], runtime["backend"], source)


def _expand(enabled: tuple[str, ...]) -> set[str]:
    """Enabled names plus, for a family, its tools and, for a tool, its family (limits may sit on either)."""
    out = set(enabled)
    for family, tools in TOOL_FAMILIES.items():
        if family in enabled:
            out.update(tools)
        if out.intersection(tools) or family in enabled:
            out.add(family)
    return out


def _check_remote(remote: dict, backend: str, source: Path | None) -> None:
    if backend == "remote":
        for key in ("base_url", "model"):
            if not remote[key]:
                raise fail(f"remote.{key}", remote[key], 'is required when runtime.backend = "remote"', source)
    url = remote["base_url"]
    if url:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise fail("remote.base_url", url, "must be an http(s) URL such as https://host/v1", source)
        if parts.username or parts.password or any(SECRET_KEY.search(q) for q in parse_qs(parts.query)):
            raise HCPSecretError(
                "remote.base_url: carries credentials — remove them from the URL and run `mol remote login` to keep the key in the OS keyring"
            )
    fallback = remote["fallback"]
    if fallback:
        path = PROFILES_DIR / f"{fallback}.toml"
        known = sorted(p.stem for p in PROFILES_DIR.glob("*.toml"))
        if not path.is_file():
            raise unknown_ref("remote.fallback", fallback, "not a shipped profile", known, source)
        if re.search(r'(?m)^\s*backend\s*=\s*"remote"', path.read_text(encoding="utf-8")):
            raise fail("remote.fallback", fallback, "is itself a remote profile; pick one that runs locally, e.g. local-default", source)
