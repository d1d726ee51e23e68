"""Check the files an HCP names: base model, adapters, persona pack and personas, skill sources.

A profile may name files the user has not downloaded yet (the `tall` profile
does), so loading never touches the disk beyond the HCP itself; these checks
run when the files are about to be used and in `mol hcp validate`. Each
problem names the key path, the missing path and the fix.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from hcp.errors import HCPError, HCPFileError
from hcp.files import MAX_HCP_BYTES, file_kind, read_limited
from hcp.model import HCP, AdapterRef

GGUF_MAGIC = b"GGUF"
PACK_FILES = ("intro", "route", "summary")


@dataclass(frozen=True)
class Problem:
    """One unusable reference: `key` is the HCP key path, `message` the one-line problem and fix."""

    key: str
    path: str
    message: str
    missing: bool = False  # the file is not there (yet): a profile may name files not downloaded


def packs_dir() -> Path:
    """The shipped persona packs (the `personas` package folder), found without importing it."""
    spec = importlib.util.find_spec("personas")
    if spec is None or not spec.submodule_search_locations:
        raise HCPFileError("The `personas` package is not installed — reinstall mol-local (`pip install -e .`)")
    return Path(next(iter(spec.submodule_search_locations)))


def _head(path: Path, n: int) -> tuple[int, bytes]:
    """(st_mode, first n bytes) of the file `path` resolves to, opened without blocking (a FIFO never hangs)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        return mode, os.read(fd, n) if stat.S_ISREG(mode) else b""
    finally:
        os.close(fd)


def _gguf(hcp: HCP, key: str, ref: str, what: str, fix: str) -> Problem | None:
    path = hcp.resolve_path(ref)
    if not path.exists():
        return Problem(key, str(path), f"{key}: {what} {path} does not exist — {fix}", missing=True)
    real = path.resolve()
    shown = f"{path} (-> {real})" if real != path else str(path)
    try:
        mode, magic = _head(real, 4)
    except OSError as exc:
        return Problem(key, str(path), f"{key}: {shown} cannot be read ({exc.strerror}) — {fix}")
    if stat.S_ISDIR(mode):
        return Problem(key, str(path), f"{key}: {shown} is a folder — point at the .gguf file inside it")
    if not stat.S_ISREG(mode):
        return Problem(key, str(path), f"{key}: {shown} is {file_kind(mode)}, not a .gguf {what} — {fix}")
    if magic != GGUF_MAGIC:
        return Problem(key, str(path), f"{key}: {shown} is not a GGUF file — point at a .gguf {what}")
    return None


def _stack(hcp: HCP, key: str, refs: tuple[AdapterRef, ...]) -> list[Problem]:
    fix = f"put the adapter there or change it with `mol hcp set {key} '[...]' --reason ...`"
    found = (_gguf(hcp, f"{key}[{i}].path", ref.path, "adapter", fix) for i, ref in enumerate(refs))
    return [p for p in found if p]


def pack_folder(hcp: HCP) -> Path:
    location = hcp.pack_location()
    return Path(location) if location != hcp.persona_pack else packs_dir() / location


def check_personas(hcp: HCP) -> list[Problem]:
    folder = pack_folder(hcp)
    fix_pack = "use a pack under personas/ or a folder with intro.md, route.md, summary.md and one <persona>.md per slot"
    if not folder.is_dir():
        return [Problem("persona_pack", str(folder), f"persona_pack: {folder} does not exist — {fix_pack}")]
    problems = [
        Problem("persona_pack", str(folder / f"{name}.md"), f"persona_pack: {folder} lacks {name}.md — add it")
        for name in PACK_FILES
        if not (folder / f"{name}.md").is_file()
    ]
    for label, slot in hcp.slots.items():
        file = folder / f"{slot.persona}.md"
        if not file.is_file():
            have = sorted(p.stem for p in folder.glob("*.md") if p.stem not in PACK_FILES)
            problems.append(Problem(
                f"slots.{label}.persona", str(file),
                f"slots.{label}.persona = {slot.persona!r}: no {file.name} in pack {folder.name} — use one of {', '.join(have) or '(none)'} or add the file",
            ))
    return problems


def check_models(hcp: HCP) -> list[Problem]:
    """Base model and every adapter stack (only for the llama-cpp backend; a remote server has its own)."""
    if hcp.runtime.backend != "llama-cpp":
        return []
    problems: list[Problem] = []
    if not hcp.runtime.base_model.startswith("builtin:"):
        fix = "download it there or run `mol hcp set runtime.base_model /path/to/model.gguf --reason ...`"
        if found := _gguf(hcp, "runtime.base_model", hcp.runtime.base_model, "base model", fix):
            problems.append(found)
    problems += _stack(hcp, "routing.adapters", hcp.routing.adapters)
    for label, slot in hcp.slots.items():
        problems += _stack(hcp, f"slots.{label}.adapters", slot.adapters)
    return problems


def check_skills(hcp: HCP) -> list[Problem]:
    """A skill's source must still hash to what passed validation."""
    problems = []
    for name, skill in hcp.skills.items():
        if not skill.path:
            continue
        path = hcp.resolve_path(skill.path)
        key = f"skills.{name}.path"
        if not path.exists():
            problems.append(Problem(key, str(path), f"{key}: {path} does not exist — restore it or demote the skill (`mol tools demote {name}`)", missing=True))
            continue
        try:
            data = read_limited(path.resolve(), limit=MAX_HCP_BYTES, what="skill source", fix=f"restore it or demote the skill (`mol tools demote {name}`)")
        except HCPError as exc:
            problems.append(Problem(key, str(path), f"{key}: {exc}"))
            continue
        if hashlib.sha256(data).hexdigest() != skill.sha256:
            problems.append(Problem(key, str(path), f"{key}: {path} changed since it was promoted — re-promote it (`mol tools promote {name}`) or restore it"))
    return problems


def check_files(hcp: HCP) -> list[Problem]:
    """Every file problem of this HCP (empty when all is usable)."""
    return check_models(hcp) + check_personas(hcp) + check_skills(hcp)


def problems_of(hcp: HCP, keys: Iterable[str]) -> list[Problem]:
    """The file problems of `keys` only (what `mol hcp set` changed; the rest of the document may name files
    not downloaded yet, as the `tall` profile does)."""
    keys = tuple(keys)
    return [p for p in check_files(hcp) if any(p.key == k or p.key.startswith((f"{k}[", f"{k}.")) for k in keys)]


def require(problems: list[Problem]) -> None:
    """Raise the first problem, saying how many more there are."""
    if problems:
        more = f" (and {len(problems) - 1} more: `mol hcp validate` lists them)" if len(problems) > 1 else ""
        raise HCPFileError(problems[0].message + more)
