"""The types and ranges of every manifest.json field, checked before any consumer reads one.

A manifest comes from our own registry or from a bundle someone sent; both
are checked the same way. JSON is read without NaN/Infinity and with a depth
limit (a deeply nested document raised RecursionError), and every field a
consumer uses has a type and a finite range: an adapter scale of "abc", NaN
or 1e30 is refused here instead of breaking (or silently rerouting) turns.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path, PurePosixPath
from typing import Any

from hcp.schema import SLOT_LABELS
from mol_local.adapters.errors import RegistryError

MAX_DEPTH = 8  # objects/arrays inside each other; the deepest real field (eval evidence) uses 3
MAX_SCALE = 4.0  # the range HCP allows for an adapter's scale
MAX_RANK = 4096
MAX_TEXT = 4096
SLOTS = SLOT_LABELS
_HEX64 = re.compile(r"^[0-9a-f]{64}$")
_REVISION = re.compile(r"^r\d{4,}$")


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number JSON allows")


def _depth(node: Any) -> int:
    """Nesting depth without recursion (the point is to survive hostile depth)."""
    deepest, stack = 0, [(node, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, depth)
            if depth > MAX_DEPTH:
                return depth
            stack.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict) else item))
    return deepest


def loads_manifest(text: str, where: Path | str) -> Any:
    """json.loads with NaN/Infinity refused and the depth limited; RegistryError naming the file otherwise."""
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise RegistryError(f"{where} nests deeper than {MAX_DEPTH} levels — the manifest is damaged or hostile; refused") from None
    except ValueError as exc:  # JSONDecodeError is a ValueError
        raise RegistryError(f"{where} is not valid JSON ({exc}) — the revision is damaged") from exc
    if _depth(data) > MAX_DEPTH:
        raise RegistryError(f"{where} nests deeper than {MAX_DEPTH} levels — the manifest is damaged or hostile; refused")
    return data


def _bad(where: Path | str, key: str, value: Any, want: str) -> RegistryError:
    shown = json.dumps(value)[:60] if not isinstance(value, float) else repr(value)
    return RegistryError(f"{where}: manifest field {key!r} = {shown} must be {want} — the revision is damaged or hostile; refused")


def _number(where: Path | str, m: dict, key: str, lo: float, hi: float) -> None:
    if key not in m:
        return
    value = m[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or not lo <= value <= hi:
        raise _bad(where, key, value, f"a finite number between {lo:g} and {hi:g}")


def _text(where: Path | str, m: dict, key: str, *, pattern: re.Pattern[str] | None = None, optional: bool = True) -> None:
    if key not in m or (optional and m[key] is None):
        return
    value = m[key]
    if not isinstance(value, str) or len(value) > MAX_TEXT or (pattern is not None and not pattern.match(value)):
        raise _bad(where, key, value, "text" + (f" matching {pattern.pattern}" if pattern else f" of at most {MAX_TEXT} characters"))


def _strings(where: Path | str, m: dict, key: str, pattern: re.Pattern[str] | None = None) -> None:
    value = m.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and (pattern is None or pattern.match(v)) for v in value):
        raise _bad(where, key, value, "a list of strings" + (f" matching {pattern.pattern}" if pattern else ""))


def _files(where: Path | str, files: dict) -> None:
    for rel, digest in files.items():
        parts = PurePosixPath(rel).parts
        if not rel or rel.startswith("/") or "\\" in rel or ".." in parts or not isinstance(digest, str) or not _HEX64.match(digest):
            raise _bad(where, f"files[{rel!r}]", digest, "a relative path inside the revision with its sha256 (64 hex digits)")


def check_manifest_values(m: dict, where: Path | str) -> None:
    """Types and finite ranges of every field a consumer reads (shape checks are in manifest.check_manifest_shape)."""
    _number(where, m, "scale", -MAX_SCALE, MAX_SCALE)
    _number(where, m, "alpha", 0, 1e6)
    _number(where, m, "format", 1, 1000)
    if not isinstance(m.get("rank"), bool) and isinstance(m.get("rank"), int) and not 1 <= m["rank"] <= MAX_RANK:
        raise _bad(where, "rank", m["rank"], f"an integer between 1 and {MAX_RANK}")
    _text(where, m, "base_fingerprint", pattern=_HEX64, optional=False)
    _text(where, m, "architecture", pattern=re.compile(r"^[a-z0-9_.-]{1,64}$"), optional=False)
    for key in ("name", "base_file", "created_at"):
        _text(where, m, key)
    for key in ("revision", "parent_revision"):
        _text(where, m, key, pattern=_REVISION)
    if "slot" in m and m["slot"] not in SLOTS:
        raise _bad(where, "slot", m["slot"], f"one of {', '.join(SLOTS)}")
    _strings(where, m, "target_modules")
    _strings(where, m, "training_data_ids", _HEX64)
    for key in ("eval", "origin", "recipe"):
        if key in m and not isinstance(m[key], dict):
            raise _bad(where, key, m[key], "an object")
    _files(where, m["files"])
