"""What a registered adapter revision says about itself, and the checks on it.

`manifest.json` lists the sha256 of every other file of the revision, so a
revision (or a bundle) can be verified without trusting anything but itself
and the configured base.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from memory.consent import hashed_id  # the one training-id hash; re-exported here for the registry and recipes  # noqa: F401
from mol_local.adapters.errors import ChecksumMismatch, ForbiddenTensor, RegistryError, ShapeMismatch
from mol_local.adapters.manifest_schema import check_manifest_values, loads_manifest
from mol_local.models import GGUFInfo, check_adapter_fits, inspect_gguf

FORMAT = 1
LAYERS = ("router", "specialist", "personal")  # router: L0's route-hop adapter; the other two stack on answers
HOPS = ("route", "answer")
MAX_MANIFEST_BYTES = 4 << 20
_FORBIDDEN_STEMS = ("token_embd", "output", "token_embd_norm", "output_norm")


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with Path(path).open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def revision_files(folder: Path) -> list[str]:
    """Relative paths of every file in a revision folder except the manifest itself (sorted)."""
    out = []
    for path in sorted(Path(folder).rglob("*")):
        if path.is_symlink():
            raise RegistryError(f"{path} is a symbolic link — registry revisions hold plain files only")
        if path.is_file() and path.name != "manifest.json":
            out.append(path.relative_to(folder).as_posix())
    return out


def file_checksums(folder: Path) -> dict[str, str]:
    return {rel: sha256_file(Path(folder) / rel) for rel in revision_files(folder)}


def check_checksums(folder: Path, manifest: dict) -> None:
    """Raise ChecksumMismatch unless the folder holds exactly the files the manifest lists, unchanged."""
    listed = manifest.get("files")
    if not isinstance(listed, dict):
        raise ChecksumMismatch(f"{folder}: manifest has no `files` table — the revision cannot be verified")
    actual = revision_files(folder)
    extra = sorted(set(actual) - set(listed))
    missing = sorted(set(listed) - set(actual))
    if extra or missing:
        what = f"unlisted file {extra[0]}" if extra else f"missing file {missing[0]}"
        raise ChecksumMismatch(f"{folder}: {what} — the revision was altered; re-import or re-register it")
    for rel, want in sorted(listed.items()):
        if sha256_file(Path(folder) / rel) != want:
            raise ChecksumMismatch(f"{folder}/{rel}: sha256 differs from the manifest — the file was altered or damaged")


def check_gguf_adapter(info: GGUFInfo, base: GGUFInfo) -> dict:
    """Architecture, shapes and forbidden tensors of a LoRA GGUF against the base; returns rank/targets."""
    check_adapter_fits(info, base)
    ranks: set[int] = set()
    targets: set[str] = set()
    a_names = {n[: -len(".lora_a")] for n in info.tensors if n.endswith(".lora_a")}
    b_names = {n[: -len(".lora_b")] for n in info.tensors if n.endswith(".lora_b")}
    if a_names != b_names or not a_names:
        odd = sorted(a_names ^ b_names)
        raise ShapeMismatch(f"{info.path}: {odd[0] if odd else 'no LoRA tensors'} lacks its A/B partner — the adapter is damaged")
    for stem in sorted(a_names):
        parts = stem.removesuffix(".weight").split(".")
        if parts[0] in _FORBIDDEN_STEMS:
            raise ForbiddenTensor(f"{info.path}: {stem} adapts the embedding or output head — use an adapter without it")
        a_shape, b_shape = info.tensors[f"{stem}.lora_a"], info.tensors[f"{stem}.lora_b"]
        if len(a_shape) != 2 or len(b_shape) != 2 or a_shape[1] != b_shape[0]:
            raise ShapeMismatch(f"{info.path}: {stem} lora_a {a_shape} and lora_b {b_shape} disagree on rank — the adapter is damaged")
        ranks.add(int(a_shape[1]))
        targets.add(parts[2] if len(parts) > 2 else parts[0])
    return {"rank": max(ranks), "target_modules": sorted(targets), "alpha": info.fields.get("adapter.lora.alpha")}


def check_manifest_shape(manifest: object, where: Path) -> dict:
    """The fields every consumer relies on; RegistryError naming the first one missing."""
    if not isinstance(manifest, dict):
        raise RegistryError(f"{where}: manifest is not a JSON object — the revision is damaged")
    for key, kind in (("base_fingerprint", str), ("architecture", str), ("files", dict), ("rank", int)):
        if not isinstance(manifest.get(key), kind):
            raise RegistryError(f"{where}: manifest field {key!r} is missing or not a {kind.__name__} — the revision is damaged")
    if "layer" in manifest and manifest["layer"] not in LAYERS:
        raise RegistryError(f"{where}: manifest layer {manifest['layer']!r} is not one of {', '.join(LAYERS)}")
    hops = manifest.get("hops", ["answer"])
    if not isinstance(hops, list) or not set(hops) <= set(HOPS):
        raise RegistryError(f"{where}: manifest hops {hops!r} must be a list drawn from {', '.join(HOPS)}")
    check_manifest_values(manifest, where)
    return manifest


def read_manifest(folder: Path) -> dict:
    path = Path(folder) / "manifest.json"
    try:
        if path.stat().st_size > MAX_MANIFEST_BYTES:
            raise RegistryError(f"{path} is over {MAX_MANIFEST_BYTES:,} bytes — the revision is damaged; refused")
        return check_manifest_shape(loads_manifest(path.read_text(encoding="utf-8"), path), path)
    except FileNotFoundError as exc:
        raise RegistryError(f"{folder} has no manifest.json — the revision is damaged; remove it") from exc
    except UnicodeDecodeError as exc:
        raise RegistryError(f"{path} is not valid JSON — the revision is damaged") from exc


@lru_cache(maxsize=8)
def _base_info(path: Path, mtime_ns: int, size: int) -> GGUFInfo:
    from mol_local.adapters.gguf_header import read_header

    return read_header(path)


def base_info(path: Path) -> GGUFInfo:
    """inspect_gguf for a base model, parsed once per process and file version (a base's vocab makes parsing slow)."""
    st = Path(path).stat()
    return _base_info(Path(path).resolve(), st.st_mtime_ns, st.st_size)


def base_fingerprint(path: Path) -> str:
    """sha256 of the base's GGUF header + tensor table (one implementation: mol_local.models)."""
    from mol_local.models import base_fingerprint as fingerprint

    return fingerprint(Path(path))


def inspect_adapter(path: Path) -> GGUFInfo:
    return inspect_gguf(Path(path), what="adapter")
