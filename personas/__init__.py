"""Prompt packs: one folder per profile with our own prompt texts.

A pack holds `intro.md` (shared system head), `L0.md`..`L3.md` (one persona
per slot), `route.md` (the router's instruction) and `summary.md` (the hidden
summary hop's instruction).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

PACKS_DIR = Path(__file__).parent
REQUIRED = ("intro", "route", "summary")


class PersonaPackError(Exception):
    """A persona pack is missing or incomplete; the message names the file and the fix."""


@dataclass(frozen=True)
class PersonaPack:
    name: str
    intro: str
    route: str
    summary: str
    slots: dict[str, str]  # slot label -> persona text

    def persona(self, slot: str) -> str:
        return self.slots.get(slot, "")


def available_packs() -> list[str]:
    return sorted(p.name for p in PACKS_DIR.iterdir() if p.is_dir() and (p / "intro.md").exists())


def load_pack(name_or_path: str) -> PersonaPack:
    """Load a pack by shipped name or by directory path."""
    folder = Path(name_or_path)
    if not folder.is_dir():
        folder = PACKS_DIR / name_or_path
    if not folder.is_dir():
        raise PersonaPackError(
            f"Persona pack {name_or_path!r} not found — use one of {available_packs()} or a folder path"
        )
    texts: dict[str, str] = {}
    for key in REQUIRED:
        file = folder / f"{key}.md"
        if not file.is_file():
            raise PersonaPackError(f"Persona pack {folder} lacks {file.name} — add it or pick another pack")
        texts[key] = file.read_text(encoding="utf-8").strip()
    slots = {p.stem: p.read_text(encoding="utf-8").strip() for p in sorted(folder.glob("L[0-9].md"))}
    return PersonaPack(name=folder.name, slots=slots, **texts)
