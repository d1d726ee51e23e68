""".moladapter bundles: one tar holding a registry revision (manifest, GGUF, PEFT weights).

Import never extracts with tarfile's own extract: each allowed member is read
and written by us into a private temp folder outside the registry, then every
check runs (layout, links, traversal, pickle, sizes, checksums, base
fingerprint, architecture, tensor names/shapes, rank). Only then does the
registry see it, as a new revision that is not active unless asked.
"""

from __future__ import annotations

import os
import shutil
import tarfile
import tempfile
from pathlib import Path, PurePosixPath

from mol_local.adapters.errors import BundleError, PickleRefused, ShapeMismatch
from mol_local.adapters.manifest import (
    base_fingerprint,
    check_checksums,
    check_gguf_adapter,
    inspect_adapter,
    read_manifest,
    sha256_file,
)
from mol_local.adapters.manifest import base_info as cached_base_info
from mol_local.adapters.peft_io import PICKLE_SUFFIXES
from mol_local.adapters.registry import Registry, Revision, parse_target
from mol_local.adapters.tar_scan import scan_tar
from mol_local.errors import AdapterMismatch

SUFFIX = ".moladapter"
MAX_BUNDLE_BYTES = 8 << 30
MAX_MEMBERS = 16
SPARE_BYTES = 64 << 20  # free space left in the temp folder after unpacking
# member name -> largest size accepted
ALLOWED: dict[str, int] = {
    "manifest.json": 4 << 20,
    "adapter.gguf": 8 << 30,
    "peft/adapter_config.json": 1 << 20,
    "peft/adapter_model.safetensors": 8 << 30,
}
_DIRS = {"peft"}


def export_bundle(registry: Registry, target: str, out: Path, *, revision: str | None = None) -> Path:
    """Verify the revision, then write it as a tar atomically (temp file + rename)."""
    slot, layer = parse_target(target)
    if revision is None:
        rev = registry.active(slot, layer)
        if rev is None:
            raise BundleError(f"{slot}/{layer} has no active revision — pass --revision (see `mol adapters list`)")
    else:
        rev = registry.revision(slot, layer, revision)
    check_checksums(rev.path, rev.manifest)
    out = Path(out)
    if out.suffix != SUFFIX:
        out = out.with_name(out.name + SUFFIX)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    try:
        with tarfile.open(tmp, "w", format=tarfile.PAX_FORMAT) as tar:
            for rel in ["manifest.json", *sorted(rev.manifest["files"])]:
                info = tar.gettarinfo(str(rev.path / rel), arcname=rel)
                info.uid = info.gid = 0
                info.uname = info.gname = ""
                info.mode = 0o644
                with (rev.path / rel).open("rb") as fh:
                    tar.addfile(info, fh)
        os.replace(tmp, out)
    finally:
        tmp.unlink(missing_ok=True)
    return out


def _safe_name(member: tarfile.TarInfo, bundle: Path) -> str:
    name = member.name
    path = PurePosixPath(name)
    if member.issym() or member.islnk():
        raise BundleError(f"{bundle}: {name} is a link — bundles may hold plain files only; this one is refused")
    if not (member.isfile() or member.isdir()):
        raise BundleError(f"{bundle}: {name} is a device, fifo or other special file — refused")
    if path.is_absolute() or ".." in path.parts or "\\" in name or name.startswith("/"):
        raise BundleError(f"{bundle}: member {name!r} escapes the bundle folder (path traversal) — refused")
    clean = path.as_posix().removeprefix("./")
    if Path(clean).suffix.lower() in PICKLE_SUFFIXES:
        raise PickleRefused(f"{bundle}: {clean} is a pickle file, which can run code when loaded — refused")
    if member.isdir():
        if clean not in _DIRS:
            raise BundleError(f"{bundle}: unexpected folder {clean!r} — a bundle holds manifest.json, adapter.gguf and peft/")
        return clean
    if clean not in ALLOWED:
        raise BundleError(f"{bundle}: unexpected file {clean!r} — a bundle holds only {', '.join(ALLOWED)}")
    if member.size > ALLOWED[clean]:
        raise BundleError(f"{bundle}: {clean} is {member.size:,} bytes, over the {ALLOWED[clean]:,} limit — refused")
    return clean


def _unpack(bundle: Path, into: Path) -> None:
    """Copy the allowed members into `into`, checking every header first."""
    if not bundle.is_file():
        raise BundleError(f"bundle not found: {bundle} — pass a .moladapter file")
    if bundle.stat().st_size > MAX_BUNDLE_BYTES:
        raise BundleError(f"{bundle} is larger than {MAX_BUNDLE_BYTES:,} bytes — refused")
    shape = scan_tar(bundle, max_members=MAX_MEMBERS, max_total=MAX_BUNDLE_BYTES)
    free = shutil.disk_usage(into).free
    if shape.declared_bytes + SPARE_BYTES > free:
        raise BundleError(
            f"{bundle} unpacks to {shape.declared_bytes:,} bytes but {into.parent} has {free:,} free — free some space or set TMPDIR"
        )
    written = 0
    try:
        with tarfile.open(bundle, "r:") as tar:
            members = tar.getmembers()
            names = [_safe_name(m, bundle) for m in members]
            if len(set(names)) != len(names):
                raise BundleError(f"{bundle} lists a file twice — refused")
            for member, name in zip(members, names, strict=True):
                if member.isdir():
                    continue
                dest = into / name
                dest.parent.mkdir(parents=True, exist_ok=True)
                source = tar.extractfile(member)
                if source is None:
                    raise BundleError(f"{bundle}: {name} cannot be read — the bundle is damaged")
                with dest.open("wb") as fh:
                    copied = 0
                    for chunk in iter(lambda: source.read(1 << 20), b""):
                        copied += len(chunk)
                        written += len(chunk)
                        if copied > member.size or written > shape.declared_bytes:  # actual bytes, not only the headers
                            raise BundleError(f"{bundle}: {name} holds more than its header declares — refused")
                        fh.write(chunk)
                if copied != member.size:
                    raise BundleError(f"{bundle}: {name} is cut short — the bundle is truncated; export it again")
    except (tarfile.TarError, EOFError) as exc:
        raise BundleError(f"{bundle} is truncated or not a .moladapter bundle ({exc}) — export it again") from exc


def validate_unpacked(folder: Path, base: Path) -> dict:
    """All checks on an unpacked bundle against the configured base; returns its manifest."""
    if not (folder / "manifest.json").is_file():
        raise BundleError(f"{folder.name}: the bundle has no manifest.json — it is truncated or not a bundle")
    manifest = read_manifest(folder)
    slot, layer = parse_target(f"{manifest.get('slot')}/{manifest.get('layer')}")
    check_checksums(folder, manifest)
    if "adapter.gguf" not in manifest["files"]:
        raise BundleError("the bundle has no adapter.gguf — export it again")
    base_info = cached_base_info(base)
    if manifest["base_fingerprint"] != base_fingerprint(base):
        raise AdapterMismatch(
            f"the bundle's adapter was made for another base model (fingerprint {manifest['base_fingerprint'][:12]}…, "
            f"yours is {base_fingerprint(base)[:12]}…) — import it on the base it was trained for"
        )
    if manifest["architecture"] != base_info.architecture:
        raise AdapterMismatch(f"the bundle is for {manifest['architecture']}, the base is {base_info.architecture} — wrong base")
    facts = check_gguf_adapter(inspect_adapter(folder / "adapter.gguf"), base_info)
    if facts["rank"] != manifest["rank"]:
        raise ShapeMismatch(f"adapter.gguf has rank {facts['rank']} but the manifest says {manifest['rank']} — the bundle is inconsistent")
    if (folder / "peft").is_dir():
        from mol_local.adapters.convert import plan_tensors
        from mol_local.adapters.peft_io import read_peft_dir

        adapter = read_peft_dir(folder / "peft")
        plan_tensors(adapter, base_info)
        if adapter.rank != manifest["rank"]:
            raise ShapeMismatch(f"peft/ has rank {adapter.rank} but the manifest says {manifest['rank']} — the bundle is inconsistent")
    manifest["slot"], manifest["layer"] = slot, layer
    return manifest


def import_bundle(registry: Registry, bundle: Path, *, base: Path, activate: bool = False) -> Revision:
    """Validate completely, then register a new revision (active only if `activate`)."""
    bundle = Path(bundle)
    with tempfile.TemporaryDirectory(prefix="moladapter-") as tmp:
        folder = Path(tmp)
        _unpack(bundle, folder)
        manifest = validate_unpacked(folder, Path(base))
        keep = {k: manifest[k] for k in ("name", "hops", "scale") if k in manifest}
        keep["origin"] = {
            "bundle": bundle.name,
            "bundle_sha256": sha256_file(bundle),
            "revision": manifest.get("revision"),
            "parent_revision": manifest.get("parent_revision"),
            "created_at": manifest.get("created_at"),
        }
        return registry.register(
            manifest["slot"],
            manifest["layer"],
            folder / "adapter.gguf",
            base=Path(base),
            peft_dir=folder / "peft" if (folder / "peft").is_dir() else None,
            training_ids=manifest.get("training_data_ids") or [],
            evidence=manifest.get("eval") or {},
            extra=keep,
            activate=activate,
        )
