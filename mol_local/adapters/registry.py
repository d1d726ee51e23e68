"""The versioned adapter registry under `$MOL_HOME/adapters/<slot>/<layer>/<revision>/`.

A revision is immutable once its folder appears: it is assembled in a hidden
staging folder next to it and renamed into place (atomic on one filesystem).
Each slot/layer has an `active` pointer file, rewritten atomically (temp file +
os.replace), holding the active revision and the ones before it, so rollback
is one more atomic write. Readers re-read the pointer on every turn; that is
how the running app sees an activation or rollback without a restart.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from hcp.schema import SLOT_LABELS
from mol_local.adapters.errors import RegistryError
from mol_local.adapters.manifest import (
    FORMAT,
    LAYERS,
    MAX_MANIFEST_BYTES,
    base_fingerprint,
    check_checksums,
    check_gguf_adapter,
    check_manifest_shape,
    file_checksums,
    hashed_id,
    inspect_adapter,
    read_manifest,
)
from mol_local.adapters.manifest import base_info as cached_base_info
from mol_local.engine.base import AdapterSpec, Stack
from mol_local.errors import MolError
from mol_local.paths import mol_home

SLOTS = SLOT_LABELS
_REV = re.compile(r"^r(\d{4,})$")


def parse_target(target: str, *, default_layer: str | None = "specialist") -> tuple[str, str]:
    """`L0` or `L0/personal` -> (slot, layer), with errors that name the fix."""
    slot, _, layer = target.partition("/")
    layer = layer or default_layer or ""
    if slot not in SLOTS:
        raise RegistryError(f"unknown slot {slot!r} — use one of {', '.join(SLOTS)} (e.g. L0/specialist)")
    if layer not in LAYERS:
        raise RegistryError(f"unknown layer {layer!r} in {target!r} — use {' or '.join(LAYERS)} (e.g. {slot}/personal)")
    return slot, layer


@dataclass(frozen=True)
class Revision:
    slot: str
    layer: str
    revision: str
    path: Path
    manifest: dict

    @property
    def gguf(self) -> Path:
        return self.path / "adapter.gguf"

    def spec(self) -> AdapterSpec:
        return AdapterSpec(str(self.gguf), float(self.manifest.get("scale", 1.0)))


class Registry:
    def __init__(self, root: Path | None = None) -> None:
        self.root = Path(root) if root is not None else mol_home() / "adapters"

    # -- layout -------------------------------------------------------------
    def layer_dir(self, slot: str, layer: str) -> Path:
        return self.root / slot / layer

    def _pointer_path(self, slot: str, layer: str) -> Path:
        return self.layer_dir(slot, layer) / "active"

    def revisions(self, slot: str, layer: str) -> list[Revision]:
        folder = self.layer_dir(slot, layer)
        if not folder.is_dir():
            return []
        out = []
        for child in sorted(folder.iterdir(), key=lambda p: (len(p.name), p.name)):
            if child.is_dir() and _REV.match(child.name):
                out.append(Revision(slot, layer, child.name, child, read_manifest(child)))
        return out

    def revision(self, slot: str, layer: str, revision: str) -> Revision:
        path = self.layer_dir(slot, layer) / revision
        if not _REV.match(revision) or not path.is_dir():
            known = ", ".join(r.revision for r in self.revisions(slot, layer)) or "none"
            raise RegistryError(f"{slot}/{layer} has no revision {revision!r} (have: {known}) — see `mol adapters list`")
        return Revision(slot, layer, revision, path, read_manifest(path))

    # -- the active pointer -------------------------------------------------
    def pointer(self, slot: str, layer: str) -> dict:
        path = self._pointer_path(slot, layer)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {"revision": None, "history": []}
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise RegistryError(f"{path} is damaged — run `mol adapters activate {slot}/{layer} REVISION` to rewrite it") from exc
        if not isinstance(data, dict) or not isinstance(data.get("history", []), list):
            raise RegistryError(f"{path} is damaged — run `mol adapters activate {slot}/{layer} REVISION` to rewrite it")
        return {"revision": data.get("revision"), "history": list(data.get("history", []))}

    def _write_pointer(self, slot: str, layer: str, revision: str | None, history: list[str]) -> None:
        path = self._pointer_path(slot, layer)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".active.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
        body = json.dumps({"revision": revision, "history": history, "updated_at": _now()}, indent=1)
        with tmp.open("w", encoding="utf-8") as fh:
            fh.write(body)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)

    def active(self, slot: str, layer: str) -> Revision | None:
        rev = self.pointer(slot, layer)["revision"]
        if not rev:
            return None
        path = self.layer_dir(slot, layer) / rev
        if not path.is_dir():
            return None
        return Revision(slot, layer, rev, path, read_manifest(path))

    def activate(self, slot: str, layer: str, revision: str) -> Revision:
        target = self.revision(slot, layer, revision)
        check_checksums(target.path, target.manifest)
        current = self.pointer(slot, layer)
        if current["revision"] == revision:
            return target
        history = current["history"] + ([current["revision"]] if current["revision"] else [])
        self._write_pointer(slot, layer, revision, history)
        return target

    def rollback(self, slot: str, layer: str) -> Revision | None:
        """Point back at the revision active before this one; None if that was 'no adapter'."""
        current = self.pointer(slot, layer)
        if not current["revision"]:
            raise RegistryError(f"{slot}/{layer} has no active revision — nothing to roll back")
        history = current["history"]
        previous = history[-1] if history else None
        if previous is not None:
            check_checksums(self.revision(slot, layer, previous).path, self.revision(slot, layer, previous).manifest)
        self._write_pointer(slot, layer, previous, history[:-1])
        return self.active(slot, layer)

    def deactivate(self, slot: str, layer: str) -> None:
        current = self.pointer(slot, layer)
        if current["revision"]:
            self._write_pointer(slot, layer, None, current["history"] + [current["revision"]])

    # -- registering ----------------------------------------------------------
    def _next_revision(self, slot: str, layer: str) -> str:
        numbers = [int(m.group(1)) for p in self.layer_dir(slot, layer).glob("r*") if (m := _REV.match(p.name))]
        return f"r{max(numbers, default=0) + 1:04d}"

    def register(
        self,
        slot: str,
        layer: str,
        gguf: Path,
        *,
        base: Path,
        peft_dir: Path | None = None,
        parent: str | None = None,
        training_ids: Iterable[str] = (),
        evidence: dict | None = None,
        extra: dict | None = None,
        activate: bool = False,
    ) -> Revision:
        """Validate everything first, then stage and rename the revision into place."""
        parse_target(f"{slot}/{layer}")
        base_info = cached_base_info(Path(base))
        info = inspect_adapter(Path(gguf))
        facts = check_gguf_adapter(info, base_info)
        peft_facts: dict = {}
        if peft_dir is not None:
            from mol_local.adapters.convert import plan_tensors
            from mol_local.adapters.peft_io import read_peft_dir

            adapter = read_peft_dir(Path(peft_dir))
            plan_tensors(adapter, base_info)
            peft_facts = {"rank": adapter.rank, "alpha": adapter.alpha, "target_modules": list(adapter.target_modules)}
        if parent is not None:
            self.revision(slot, layer, parent)
        manifest = {
            "format": FORMAT,
            "slot": slot,
            "layer": layer,
            "base_fingerprint": base_fingerprint(Path(base)),
            "base_file": Path(base).name,
            "architecture": info.architecture,
            "rank": int(peft_facts.get("rank", facts["rank"])),
            "alpha": float(peft_facts.get("alpha", facts["alpha"] or facts["rank"])),
            "target_modules": peft_facts.get("target_modules", facts["target_modules"]),
            "parent_revision": parent,
            "training_data_ids": sorted({hashed_id(str(t)) for t in training_ids}),
            "eval": evidence or {},
            "created_at": _now(),
            **(extra or {}),
        }
        layer_dir = self.layer_dir(slot, layer)
        layer_dir.mkdir(parents=True, exist_ok=True)
        staging = layer_dir / f".staging-{uuid.uuid4().hex}"
        try:
            staging.mkdir()
            shutil.copyfile(gguf, staging / "adapter.gguf")
            if peft_dir is not None:
                (staging / "peft").mkdir()
                for name in ("adapter_config.json", "adapter_model.safetensors"):
                    shutil.copyfile(Path(peft_dir) / name, staging / "peft" / name)
            manifest["files"] = file_checksums(staging)
            check_manifest_shape(manifest, staging / "manifest.json")  # `extra` (a bundle's name, hops, scale) included
            for _ in range(100):
                revision = self._next_revision(slot, layer)
                manifest["revision"] = revision
                (staging / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True), encoding="utf-8")
                try:
                    os.rename(staging, layer_dir / revision)
                    break
                except OSError:  # another writer took this number first; try the next
                    continue
            else:
                raise RegistryError(f"could not allocate a revision under {layer_dir} — check that the folder is writable")
        finally:
            if staging.exists():
                shutil.rmtree(staging)
        registered = Revision(slot, layer, revision, layer_dir / revision, manifest)
        if activate:
            self.activate(slot, layer, revision)
        return registered

    # -- reading for the runtime ------------------------------------------------
    def stack(self, slot: str, *, hop: str, fingerprint: str) -> Stack:
        """Active specialist then personal revision for `slot` that apply to `hop` and fit this base."""
        out = []
        for layer in LAYERS:
            rev = self.active_for_base(slot, layer, fingerprint)
            if rev is not None and hop in rev.manifest.get("hops", ["route", "answer"] if slot == "L0" else ["answer"]):
                out.append(rev.spec())
        return tuple(out)

    def active_for_base(self, slot: str, layer: str, fingerprint: str) -> Revision | None:
        """The active revision if it belongs to this base; else this base's newest one in the pointer's history.

        One pointer per slot/layer serves every base: after `mol models use` another base (whose trainer
        activates its own revisions), switching back finds this base's last active revision again.
        """
        pointer = self.pointer(slot, layer)
        if not pointer["revision"]:
            return None
        for name in [pointer["revision"], *reversed(pointer["history"])]:
            path = self.layer_dir(slot, layer) / name
            if _REV.match(name) and path.is_dir():
                rev = Revision(slot, layer, name, path, read_manifest(path))
                if rev.manifest.get("base_fingerprint") == fingerprint:
                    return rev
        return None

    def verify(self, slot: str | None = None, layer: str | None = None, *, base: Path | None = None) -> list[dict]:
        """Check every revision (or those of one slot/layer); one row per revision with `ok` and `problem`."""
        fingerprint = base_fingerprint(base) if base is not None else None
        rows = []
        for s in [slot] if slot else SLOTS:
            for lay in [layer] if layer else LAYERS:
                for rev in self.revisions(s, lay):
                    problem = None
                    try:
                        check_checksums(rev.path, rev.manifest)
                        if fingerprint and rev.manifest["base_fingerprint"] != fingerprint:
                            problem = "made for another base model — it is not applied with this base"
                        elif base is not None:
                            check_gguf_adapter(inspect_adapter(rev.gguf), cached_base_info(base))
                    except (MolError, OSError) as exc:
                        problem = str(exc)
                    rows.append({"slot": s, "layer": lay, "revision": rev.revision, "ok": problem is None, "problem": problem})
        return rows

    def training_ids(self) -> Iterator[tuple[str, list[str] | None]]:
        """(folder, the training data ids its manifest lists) for every folder under the root that holds a
        manifest, whatever its name or state; None for a manifest that cannot be read. `memory.forget`
        marks what lists a forgotten turn, and an unreadable one too (it cannot be proved clean)."""
        if not self.root.is_dir():
            return
        for manifest in sorted(self.root.glob("*/*/*/manifest.json")):
            try:
                if manifest.stat().st_size > MAX_MANIFEST_BYTES:
                    raise ValueError("too large to read")
                listed = json.loads(manifest.read_text(encoding="utf-8")).get("training_data_ids") or []
                yield str(manifest.parent), [str(x) for x in listed]
            except (OSError, ValueError, RecursionError, AttributeError, TypeError):  # JSON and UTF-8 errors are ValueErrors
                yield str(manifest.parent), None

    def storage(self, base: Path) -> dict:
        """Bytes of base + every registered adapter file vs one merged full model per adapted slot."""
        base_bytes = Path(base).stat().st_size
        adapter_bytes = sum(p.stat().st_size for p in self.root.rglob("adapter.gguf") if p.is_file()) if self.root.is_dir() else 0
        adapted = [s for s in SLOTS if any(self.pointer(s, lay)["revision"] for lay in LAYERS)]
        merged = base_bytes * max(1, len(adapted))
        four = base_bytes * 4
        return {
            "base_bytes": base_bytes,
            "adapter_bytes": adapter_bytes,
            "total_bytes": base_bytes + adapter_bytes,
            "adapted_slots": adapted,
            "merged_bytes": merged,
            "ratio_vs_merged": round((base_bytes + adapter_bytes) / merged, 4),
            "ratio_vs_four_merged": round((base_bytes + adapter_bytes) / four, 4),
        }


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
