"""HCP versions: every change is a new numbered file with parent, reason, author and time.

Layout under the data folder (the caller passes it; hcp/ knows no paths of ours):

    hcp.toml               the active document (what the runtime loads)
    hcp/versions/0001.toml  every version's full text, never rewritten
    hcp/index.json          [{n, parent, reason, author, timestamp, sha256, rollback_of}]

Writes go version file -> active file -> index, each atomically (temp file +
os.replace), under a lock. If the active file was edited by hand, the edit
is first recorded as an `import` version, so nothing is ever lost.
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import json
import os
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from hcp.edit import parse_cli_value, set_key
from hcp.errors import HCPError, HCPFileError, HCPValidationError, HCPVersionError
from hcp.files import MAX_HCP_BYTES, read_text
from hcp.loader import parse_hcp, parse_toml, profile_path
from hcp.model import HCP
from hcp.references import problems_of
from hcp.validate import build_hcp
from hcp.schema import AUTHORS

try:
    import fcntl
except ImportError:  # Windows: single-writer by convention (the CLI and trainer do not overlap there)
    fcntl = None  # type: ignore[assignment]


@dataclass(frozen=True)
class Version:
    n: int
    parent: int | None
    reason: str
    author: str
    timestamp: str
    sha256: str
    rollback_of: int | None = None


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def atomic_write(path: Path, text: str) -> None:
    """Write via a temp file in the same folder + os.replace: readers see the old or the new file, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


class VersionStore:
    """The versioned HCP of one data folder."""

    def __init__(self, home: Path) -> None:
        self.home = Path(home)
        self.active = self.home / "hcp.toml"
        self.folder = self.home / "hcp"
        self.versions_dir = self.folder / "versions"
        self.index_path = self.folder / "index.json"

    # -- reading ------------------------------------------------------------
    def versions(self) -> list[Version]:
        """All versions in number order; a damaged index is an error naming the fix, never ignored."""
        if not self.index_path.is_file():
            return []
        fix = f"restore {self.index_path} from a backup, or move it away to start a new history (the files in {self.versions_dir} stay)"
        try:
            rows = json.loads(read_text(self.index_path, what="HCP index", fix=fix))
            versions = [Version(**row) for row in rows]
        except (ValueError, TypeError, RecursionError) as exc:
            raise HCPVersionError(f"{self.index_path} is damaged ({exc}) — {fix}") from exc
        numbers = {v.n for v in versions}
        for v in versions:
            if v.parent is not None and v.parent not in numbers:
                raise HCPVersionError(f"{self.index_path}: version {v.n} names parent {v.parent}, which does not exist — {fix}")
        return sorted(versions, key=lambda v: v.n)

    def head(self) -> Version | None:
        versions = self.versions()
        return versions[-1] if versions else None

    def get(self, n: int) -> Version:
        versions = self.versions()
        for v in versions:
            if v.n == n:
                return v
        have = f"1..{versions[-1].n}" if versions else "none yet (run `mol hcp init`)"
        raise HCPVersionError(f"HCP version {n} does not exist — pick one of {have} (`mol hcp history`)")

    def read(self, n: int) -> str:
        """The text of version n, checked against the hash recorded when it was written."""
        version = self.get(n)
        path = self._file(n)
        if not path.is_file():
            raise HCPVersionError(f"{path} is missing though the index lists version {n} — restore it from a backup")
        text = read_text(path, what="HCP version", fix="restore it from a backup")
        if _sha(text) != version.sha256:
            raise HCPVersionError(f"{path} was modified after it was recorded — restore it; versions are never edited, use `mol hcp set`")
        return text

    def lineage(self, n: int | None = None) -> list[Version]:
        """Version n (default: head) and its ancestors, newest first; a parent loop is an error."""
        by_n = {v.n: v for v in self.versions()}
        current = n if n is not None else (max(by_n) if by_n else None)
        out: list[Version] = []
        seen: set[int] = set()
        while current is not None:
            if current in seen:
                raise HCPVersionError(
                    f"{self.index_path}: the parent chain loops at version {current} — restore the index from a backup"
                )
            seen.add(current)
            out.append(by_n[current])
            current = by_n[current].parent
        return out

    def unrecorded_edits(self) -> bool:
        """True when hcp.toml differs from the newest version (edited by hand or never recorded)."""
        if not self.active.is_file():
            return False
        head = self.head()
        return head is None or _sha(self._active_text()) != head.sha256

    def _active_text(self) -> str:
        return read_text(self.active, fix=f"move it away and run `mol hcp init` (its versions stay in {self.versions_dir})")

    def load(self) -> HCP:
        return parse_hcp(self._active_text(), source=self.active)

    # -- writing ------------------------------------------------------------
    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        self.folder.mkdir(parents=True, exist_ok=True)
        with open(self.folder / ".lock", "a+") as fh:
            if fcntl is not None:
                fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
            yield

    def _file(self, n: int) -> Path:
        return self.versions_dir / f"{n:04d}.toml"

    @staticmethod
    def _validate(text: str, plain: dict[str, Any] | None = None) -> None:
        """Validate `text` (or its already-parsed `plain` values, to skip a second tomlkit parse)."""
        try:
            if len(text.encode("utf-8")) > MAX_HCP_BYTES:  # it would be refused on the next load
                raise HCPValidationError(f"the HCP would be {len(text.encode('utf-8')):,} bytes, over {MAX_HCP_BYTES:,} — keep values short")
            if plain is None:
                parse_hcp(text)
            else:
                build_hcp(plain, None)
        except HCPError as exc:
            raise type(exc)(f"{exc} (nothing was saved)") from exc

    def _commit(self, text: str, *, reason: str, author: str, rollback_of: int | None = None, validated: bool = False) -> Version:
        """Validate and record `text` as the new head and make it active. Caller holds the lock."""
        if author not in AUTHORS:
            raise HCPValidationError(f"author = {author!r}: must be one of {', '.join(AUTHORS)}")
        if not reason.strip():
            raise HCPValidationError("reason is empty — say why this change is made (`--reason \"...\"`)")
        if not validated:
            self._validate(text)
        versions = self.versions()
        head = versions[-1] if versions else None
        version = Version(
            n=(head.n + 1) if head else 1,
            parent=head.n if head else None,
            reason=reason.strip(),
            author=author,
            timestamp=datetime.now(timezone.utc).isoformat(timespec="seconds"),
            sha256=_sha(text),
            rollback_of=rollback_of,
        )
        if self._file(version.n).exists():
            raise HCPVersionError(f"{self._file(version.n)} exists but is not in the index — move it away or restore the index")
        atomic_write(self._file(version.n), text)
        atomic_write(self.active, text)
        atomic_write(self.index_path, json.dumps([asdict(v) for v in [*versions, version]], indent=1) + "\n")
        return version

    def _sync(self) -> Version | None:
        """Record a hand edit of hcp.toml (or a file that predates versioning) before changing anything."""
        if not self.unrecorded_edits():
            return None
        text = self._active_text()
        try:
            parse_hcp(text, source=self.active)
        except HCPError as exc:
            raise type(exc)(f"{self.active} was edited outside mol and is not valid: {exc}; nothing was changed") from exc
        return self._commit(text, reason="recorded edit made outside mol", author="import", validated=True)

    def init(self, profile: str = "local-default", *, force: bool = False) -> Version:
        """Start from a shipped profile; an existing hcp.toml is kept in history, and only replaced with force."""
        text = profile_path(profile).read_text(encoding="utf-8")
        with self._locked():
            if self.active.is_file() and not force:
                raise HCPVersionError(
                    f"{self.active} already exists — use `mol hcp set`, or `mol hcp init --profile {profile} --force` (the current one stays in history)"
                )
            self._sync()
            return self._commit(text, reason=f"init from profile {profile}", author="import")

    def _current_text(self) -> str:
        """What edits start from: hcp.toml, or the shipped local-default the runtime uses without one."""
        if self.active.exists():
            return self._active_text()
        return profile_path("local-default").read_text(encoding="utf-8")

    def _commit_edit(self, text: str, *, reason: str, author: str, plain: dict[str, Any] | None = None) -> Version:
        """Commit an edit; without hcp.toml, first record the local-default it was based on (only if the edit is valid)."""
        self._validate(text, plain)
        if not self.active.is_file():
            self._commit(self._current_text(), reason="init from profile local-default", author="import", validated=True)
        return self._commit(text, reason=reason, author=author, validated=True)

    def update(self, changes: Mapping[str, Any], *, reason: str, author: str = "user") -> Version:
        """Apply {dotted key: Python value} to the active document as one new version (trainer, TUI)."""
        with self._locked():
            self._sync()
            doc = parse_toml(self._current_text(), source=self.active)
            for key, value in changes.items():
                set_key(doc, key, value)
            plain = doc.unwrap()
            self._validate(doc.as_string(), plain)
            self._require_files(build_hcp(plain, self.active), changes)
            return self._commit_edit(doc.as_string(), reason=reason, author=author, plain=plain)

    @staticmethod
    def _require_files(hcp: HCP, keys: Iterable[str]) -> None:
        """Files the changed keys name are checked now: one that is there must be usable (a regular GGUF, not a
        FIFO, device or folder) or nothing is saved; a missing one is allowed, as at load (`hcp set` lists it)."""
        problems = [p for p in problems_of(hcp, keys) if not p.missing]
        if problems:
            raise HCPFileError(f"{problems[0].message} (nothing was saved)")

    def set(self, key: str, text: str, *, reason: str, author: str = "user") -> Version:
        """`mol hcp set KEY VALUE`: VALUE is read with KEY's schema type."""
        return self.update({key: parse_cli_value(key, text)}, reason=reason, author=author)

    def replace(self, text: str, *, reason: str, author: str = "user") -> Version:
        """A whole edited document (the TUI's editor) as one new version."""
        with self._locked():
            self._sync()
            return self._commit_edit(text, reason=reason, author=author)

    def rollback(self, n: int, *, reason: str = "", author: str = "user") -> Version:
        """Make version n's text active again, as a new version (history only grows)."""
        with self._locked():
            self._sync()
            head = self.head()
            target = self.get(n)
            self.lineage()
            if head is not None and target.sha256 == head.sha256:
                raise HCPVersionError(
                    f"version {n} is what is active now (version {head.n}) — rolling back to it would change nothing; pick another from `mol hcp history`"
                )
            text = self.read(n)
            return self._commit(text, reason=reason or f"rollback to version {n}", author=author, rollback_of=n)

    # -- comparing ----------------------------------------------------------
    def diff(self, a: int, b: int) -> str:
        """Unified diff of two versions' texts (comments included)."""
        return "".join(difflib.unified_diff(
            self.read(a).splitlines(keepends=True), self.read(b).splitlines(keepends=True),
            fromfile=f"version {a}", tofile=f"version {b}",
        ))

    def changed_keys(self, a: int, b: int) -> list[dict[str, Any]]:
        """Keys whose values differ between two versions: [{key, a, b}] (None = absent)."""
        left = _flatten(parse_toml(self.read(a)).unwrap())
        right = _flatten(parse_toml(self.read(b)).unwrap())
        return [{"key": k, "a": left.get(k), "b": right.get(k)} for k in sorted(set(left) | set(right)) if left.get(k) != right.get(k)]


def _flatten(node: Any, prefix: str = "") -> dict[str, Any]:
    if not isinstance(node, dict):
        return {prefix: node}
    out: dict[str, Any] = {}
    for key, value in node.items():
        out.update(_flatten(value, f"{prefix}.{key}" if prefix else key))
    return out
