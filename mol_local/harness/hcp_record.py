"""Record promotions and demotions in the HCP's `[skills]` table, as new HCP versions.

Only the versioned HCP of the data folder (`$MOL_HOME/hcp.toml`, or the shipped
local-default it starts from) is written: an HCP the user passed by path is
theirs to edit. When the HCP cannot take the change, the reason is returned
(and shown by `mol tools promote`); SQLite still holds the skill registry.
"""

from __future__ import annotations

from pathlib import Path

import tomlkit

from hcp.errors import HCPError
from memory.timeline import now_iso


class HcpSkillRecorder:
    def __init__(self, home: Path, running_source: Path | None) -> None:
        self.home = Path(home)
        self.running_source = running_source

    def _store(self):
        from hcp.loader import profile_path
        from hcp.store import VersionStore

        store = VersionStore(self.home)
        ours = {store.active.resolve(), profile_path("local-default").resolve()}
        if self.running_source is not None and Path(self.running_source).resolve() not in ours:
            return None, f"not recorded in the HCP: the running HCP is {self.running_source}, not the versioned {store.active}"
        return store, ""

    def promoted(self, name: str, sha256: str, source_file: Path, description: str) -> str:
        store, why = self._store()
        if store is None:
            return why
        try:
            rel = source_file.resolve().relative_to(self.home.resolve())
        except ValueError:
            rel = source_file.resolve()
        try:
            version = store.update(
                {
                    f"skills.{name}.sha256": sha256,
                    f"skills.{name}.path": str(rel),
                    f"skills.{name}.description": description,
                    f"skills.{name}.promoted_at": now_iso(),
                },
                reason=f"promote tool {name} (held-out tests passed)",
            )
        except HCPError as exc:
            return f"not recorded in the HCP: {exc}"
        return f"recorded in HCP version {version.n}"

    def demoted(self, name: str, reason: str) -> str:
        store, why = self._store()
        if store is None:
            return why
        if not store.active.is_file():
            return "the HCP has no skills recorded"
        try:
            doc = tomlkit.parse(store.active.read_text(encoding="utf-8"))
            skills = doc.get("skills")
            if skills is None or name not in skills:
                return f"the HCP had no skill {name!r}"
            del skills[name]
            if not skills:
                del doc["skills"]
            version = store.replace(doc.as_string(), reason=f"demote tool {name}: {reason}"[:200])
        except (HCPError, tomlkit.exceptions.TOMLKitError, OSError) as exc:
            return f"not removed from the HCP: {exc}"
        return f"removed from the HCP in version {version.n}"
