"""The model catalog: `$MOL_HOME/models.json`, one entry per GGUF we know of.

A JSON file, not a SQLite table: like the HCP and the adapter registry it is this
machine's configuration (a handful of rows, read by `mol models` and the app without
opening the memory store), and it must never hold a copy of a model, only its path,
size, mtime and header facts (with the base fingerprint adapters are matched by).
Writes are atomic (temp file + os.replace) under a lock file; the user's GGUF files
are only ever read.
"""

from __future__ import annotations

import contextlib
import difflib
import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from mol_local.catalog.errors import CatalogWriteError, ModelGone, UnknownModel
from mol_local.catalog.facts import ModelFacts, read_facts
from mol_local.catalog.sources import Found, Scan, stem_name
from mol_local.errors import MolError
from mol_local.models import BUILTINS, resolve_model

FORMAT = 1
NOT_CHAT = ("clip",)  # multimodal projectors (mmproj files) sit next to models but are not one


@dataclass(frozen=True)
class Entry:
    name: str
    ref: str  # what runtime.base_model gets: a path, or builtin:<name>
    path: str
    source: str  # builtin, ollama, lmstudio, hf-cache, folder, pull, added
    added_at: str
    size: int
    mtime_ns: int
    facts: ModelFacts

    def to_dict(self) -> dict[str, Any]:
        return {**{k: getattr(self, k) for k in ("name", "ref", "path", "source", "added_at", "size", "mtime_ns")}, "facts": self.facts.to_dict()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Entry:
        return cls(**{**{k: data[k] for k in ("name", "ref", "path", "source", "added_at", "size", "mtime_ns")},
                      "facts": ModelFacts.from_dict(data["facts"])})

    def state(self) -> str:
        """ok, missing (the file is gone) or changed (size or mtime differ from when it was read)."""
        try:
            st = Path(self.path).stat()
        except OSError:
            return "missing"
        return "ok" if (st.st_size, st.st_mtime_ns) == (self.size, self.mtime_ns) else "changed"


@dataclass
class ScanResult:
    added: list[Entry]
    known: list[Entry]
    skipped: list[str]  # adapters, projectors: GGUFs that are not a base model
    problems: list[str]
    searched: list[str]


class Catalog:
    def __init__(self, home: Path) -> None:
        self.path = Path(home) / "models.json"

    # -- reading ------------------------------------------------------------
    def entries(self) -> dict[str, Entry]:
        """Every entry, the embedded built-ins first (read from their package on first use)."""
        stored = self._read()
        missing = [ref for ref in BUILTINS if ref.removeprefix("builtin:") not in stored]
        if missing:
            with self._locked():
                stored = self._read()
                for ref in missing:
                    stored.setdefault(ref.removeprefix("builtin:"), _entry(ref.removeprefix("builtin:"), ref, resolve_model(ref), "builtin"))
                self._write(stored)
        builtins = {n: e for n, e in stored.items() if e.source == "builtin"}
        return {**builtins, **{n: e for n, e in stored.items() if e.source != "builtin"}}

    def get(self, name: str) -> Entry:
        entries = self.entries()
        if name in entries:
            return entries[name]
        by_path = [e for e in entries.values() if e.path == str(Path(name).expanduser().resolve())]
        if by_path:
            return by_path[0]
        guess = difflib.get_close_matches(name, list(entries), n=1, cutoff=0.5)
        hint = f"did you mean {guess[0]!r}? " if guess else ""
        raise UnknownModel(f"no model named {name!r} in the catalog — {hint}see `mol models list`, or `mol models add PATH`")

    def checked(self, name: str) -> Entry:
        """The entry, re-read if its file changed; ModelGone if the file is no longer there."""
        entry = self.get(name)
        state = entry.state()
        if state == "missing":
            raise ModelGone(
                f"{entry.name} was at {entry.path} but the file is gone — put it back, or run `mol models scan` / `mol models remove {entry.name}`"
            )
        if state == "changed":
            with self._locked():
                stored = self._read()
                entry = _entry(entry.name, entry.ref, Path(entry.path), entry.source, added_at=entry.added_at)
                stored[entry.name] = entry
                self._write(stored)
        return entry

    # -- changing -----------------------------------------------------------
    def add(self, path: Path, *, source: str = "added", name: str | None = None) -> Entry:
        """Read the header and record the file (idempotent per path); CorruptModel etc. name the problem."""
        given = Path(path).expanduser()
        path = given.resolve()  # a link (an HF snapshot, a shortcut) is recorded as its target, named after the link
        facts = read_facts(path)
        with self._locked():
            stored = self._read()
            entry = self._record(stored, Found(path, source, name or stem_name(given)), facts, rename=name is not None)
            self._write(stored)
        return entry

    def add_found(self, scan: Scan) -> ScanResult:
        """Record what a scan found: unchanged files are not read again; bad files become problem lines."""
        result = ScanResult([], [], [], list(scan.problems), list(scan.searched))
        with self._locked():
            stored = self._read()
            by_path = {e.path: e for e in stored.values()}
            for found in scan.found:
                path = found.path.resolve()
                known = by_path.get(str(path))
                if known is not None and known.state() == "ok":
                    result.known.append(known)
                    continue
                try:
                    facts = read_facts(path)
                except MolError as exc:
                    if "LoRA adapter" in str(exc):
                        result.skipped.append(f"{path} (a LoRA adapter)")
                    else:
                        result.problems.append(str(exc))
                    continue
                if facts.architecture in NOT_CHAT:
                    result.skipped.append(f"{path} (a {facts.architecture} projector, not a model)")
                    continue
                entry = self._record(stored, Found(path, found.source, found.name), facts)
                (result.known if known is not None else result.added).append(entry)
            self._write(stored)
        return result

    def remove(self, name: str) -> Entry:
        """Forget an entry; the file itself is never touched."""
        entry = self.get(name)
        if entry.source == "builtin":
            raise UnknownModel(f"{entry.name} is the embedded default and cannot be removed — `mol models use` another model instead")
        with self._locked():
            stored = self._read()
            stored.pop(entry.name, None)
            self._write(stored)
        return entry

    def _record(self, stored: dict[str, Entry], found: Found, facts: ModelFacts, *, rename: bool = False) -> Entry:
        path = str(found.path)
        old = next((e for e in stored.values() if e.path == path), None)
        name = found.name if rename or old is None else old.name
        if old is not None and old.name != name:
            stored.pop(old.name)
        if name in stored and stored[name].path != path:
            if rename:
                raise UnknownModel(f"the name {name!r} is taken by {stored[name].path} — choose another with --name")
            name = _free_name(stored, name)
        st = found.path.stat()
        entry = Entry(name, path, path, found.source, old.added_at if old else _now(), st.st_size, st.st_mtime_ns, facts)
        stored[name] = entry
        return entry

    # -- the file -----------------------------------------------------------
    def _read(self) -> dict[str, Entry]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            return {name: Entry.from_dict(row) for name, row in data["models"].items()}
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise CatalogWriteError(
                f"{self.path} is damaged ({exc}) — move it away and run `mol models scan` to rebuild it (no model file is affected)"
            ) from exc

    def _write(self, stored: dict[str, Entry]) -> None:
        body = json.dumps({"format": FORMAT, "models": {n: e.to_dict() for n, e in stored.items()}}, indent=1, sort_keys=True)
        try:
            fd, tmp = tempfile.mkstemp(prefix=".models.", suffix=".tmp", dir=self.path.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(body)
            os.replace(tmp, self.path)
        except OSError as exc:
            raise CatalogWriteError(f"cannot write {self.path} ({exc.strerror}) — make {self.path.parent} writable or set MOL_HOME") from exc

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fh = open(self.path.with_name(".models.lock"), "a+")
        except OSError as exc:
            raise CatalogWriteError(f"cannot write in {self.path.parent} ({exc.strerror}) — make it writable or set MOL_HOME") from exc
        with fh:
            try:
                import fcntl

                fcntl.flock(fh, fcntl.LOCK_EX)
            except ImportError:  # Windows: one writer at a time is the user's own doing
                pass
            yield


def _entry(name: str, ref: str, path: Path, source: str, *, added_at: str | None = None) -> Entry:
    st = path.stat()
    return Entry(name, ref, str(path), source, added_at or _now(), st.st_size, st.st_mtime_ns, read_facts(path))


def _free_name(stored: dict[str, Entry], name: str) -> str:
    n = 2
    while f"{name}-{n}" in stored:
        n += 1
    return f"{name}-{n}"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
