"""Adapters shipped inside the package, seeded into the registry on first use.

`shipped/smollm2-route/` is the L0 route adapter for the embedded base
(trained by `python -m trainer.route_recipe`; layer `router`, hop `route`);
`shipped/smollm2-l0` … `smollm2-l3` are the four answer specialists (trained
by `python -m trainer.specialists.recipe`; layer `specialist`, hop `answer`).
Each is registered once per version per MOL_HOME (a marker file records that)
and made active only if its layer has no active revision or a shipped one, so a
user's rollback or own choice is never overridden by a later start. A shipped
folder that is missing or damaged is skipped with a line saying so: its slot
runs bare, and `mol doctor` and the app's status show why.
"""

from __future__ import annotations

import json
from pathlib import Path

from mol_local.adapters.errors import ChecksumMismatch
from mol_local.adapters.manifest import (
    FORMAT,
    base_fingerprint,
    base_info,
    check_checksums,
    check_gguf_adapter,
    file_checksums,
    inspect_adapter,
    read_manifest,
)
from mol_local.adapters.registry import Registry, Revision
from mol_local.errors import MolError

SHIPPED_DIR = Path(__file__).parent / "shipped"
ROUTE_ADAPTER = SHIPPED_DIR / "smollm2-route"
SPECIALISTS = tuple(SHIPPED_DIR / f"smollm2-{slot}" for slot in ("l0", "l1", "l2", "l3"))


def write_shipped_manifest(folder: Path, base: Path, *, name: str, slot: str, layer: str, hops: list[str], evidence: dict, training_ids: list[str], recipe: dict) -> dict:
    """Describe a shipped adapter folder the way a registry revision is described."""
    info = base_info(base)
    facts = check_gguf_adapter(inspect_adapter(folder / "adapter.gguf"), info)
    config = json.loads((folder / "peft" / "adapter_config.json").read_text(encoding="utf-8"))
    manifest = {
        "format": FORMAT,
        "name": name,
        "slot": slot,
        "layer": layer,
        "hops": hops,
        "scale": 1.0,
        "base_fingerprint": base_fingerprint(base),
        "base_file": base.name,
        "architecture": info.architecture,
        "rank": facts["rank"],
        "alpha": float(config["lora_alpha"]),
        "target_modules": sorted(config.get("target_modules") or facts["target_modules"]),
        "parent_revision": None,
        "training_data_ids": training_ids,
        "eval": evidence,
        "recipe": recipe,
        "files": file_checksums(folder),
    }
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True), encoding="utf-8")
    return manifest


def ensure_seeded(registry: Registry, base: Path, folder: Path = ROUTE_ADAPTER) -> Revision | None:
    """Register the shipped adapter once per version if it fits `base`; None when there is nothing to do.

    A new version (a different adapter.gguf) is registered on upgrade and made
    active when the active revision is itself a shipped one (or there is none);
    a user's own activation is left alone.
    """
    if not (folder / "manifest.json").is_file():
        return None
    manifest = read_manifest(folder)
    if manifest["base_fingerprint"] != base_fingerprint(base):
        return None
    slot, layer = manifest["slot"], manifest["layer"]
    version = manifest.get("files", {}).get("adapter.gguf", "")[:12]
    marker = registry.layer_dir(slot, layer) / f".seeded-{manifest['name']}-{version}"
    if marker.exists():
        return None
    try:
        check_checksums(folder, manifest)
    except ChecksumMismatch as exc:
        raise ChecksumMismatch(f"the shipped adapter {manifest['name']} is damaged ({exc}) — reinstall mol-local") from exc
    marker.parent.mkdir(parents=True, exist_ok=True)
    try:
        with marker.open("x", encoding="utf-8") as fh:
            fh.write("seeding\n")
    except FileExistsError:  # another process is seeding right now
        return None
    try:
        rev = registry.register(
            slot,
            layer,
            folder / "adapter.gguf",
            base=base,
            peft_dir=folder / "peft",
            training_ids=manifest.get("training_data_ids") or [],
            evidence=manifest.get("eval") or {},
            extra={"name": manifest["name"], "hops": manifest.get("hops", ["answer"]), "scale": manifest.get("scale", 1.0), "source": "builtin", "recipe": manifest.get("recipe", {})},
            activate=_shipped_or_none(registry.active(slot, layer)),
        )
    except BaseException:
        marker.unlink(missing_ok=True)
        raise
    marker.write_text(rev.revision + "\n", encoding="utf-8")
    return rev


def seed_shipped(registry: Registry, base: Path, folders: tuple[Path, ...] | None = None) -> list[str]:
    """Seed the route adapter and every specialist that fits `base`; one line per folder that could not be."""
    problems = []
    for folder in folders if folders is not None else (ROUTE_ADAPTER, *SPECIALISTS):
        if not (folder / "manifest.json").is_file():
            problems.append(f"the shipped adapter {folder.name} is missing — its slot runs without it; reinstall mol-local")
            continue
        try:
            ensure_seeded(registry, base, folder)
        except (MolError, OSError, ValueError, KeyError) as exc:
            problems.append(f"the shipped adapter {folder.name} could not be used ({exc}) — its slot runs without it; reinstall mol-local")
    return problems


def _shipped_or_none(active: Revision | None) -> bool:
    return active is None or active.manifest.get("source") == "builtin"
