"""Fixtures for adapter tests: PEFT directories written with numpy, bundle crafting, registry snapshots."""

from __future__ import annotations

import io
import json
import tarfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

HF_NAMES = {
    "attn_q": "self_attn.q_proj",
    "attn_k": "self_attn.k_proj",
    "attn_v": "self_attn.v_proj",
    "attn_output": "self_attn.o_proj",
}


def write_peft_dir(
    folder: Path,
    base_info,
    *,
    rank: int = 4,
    alpha: float = 8.0,
    targets: Sequence[str] = ("attn_q", "attn_k", "attn_v"),
    layers: Sequence[int] = (0, 1),
    std: float = 0.05,
    seed: int = 0,
    extra: dict[str, np.ndarray] | None = None,
    config: dict | None = None,
) -> Path:
    """A PEFT LoRA directory in PEFT's own naming, for the embedded base's shapes."""
    from safetensors.numpy import save_file

    rng = np.random.default_rng(seed)
    tensors: dict[str, np.ndarray] = {}
    for layer in layers:
        for target in targets:
            n_in, n_out = base_info.tensors[f"blk.{layer}.{target}.weight"][:2]
            stem = f"base_model.model.model.layers.{layer}.{HF_NAMES[target]}"
            tensors[f"{stem}.lora_A.weight"] = rng.normal(0, std, (rank, n_in)).astype(np.float32)
            tensors[f"{stem}.lora_B.weight"] = rng.normal(0, std, (n_out, rank)).astype(np.float32)
    tensors.update(extra or {})
    folder.mkdir(parents=True, exist_ok=True)
    save_file(tensors, str(folder / "adapter_model.safetensors"))
    cfg = {
        "peft_type": "LORA",
        "r": rank,
        "lora_alpha": alpha,
        "target_modules": sorted({HF_NAMES[t].split(".")[1] for t in targets}),
        "base_model_name_or_path": "builtin:smollm2-135m",
    }
    cfg.update(config or {})
    (folder / "adapter_config.json").write_text(json.dumps(cfg), encoding="utf-8")
    return folder


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file (and link) under root with its bytes: 'byte-identical' checks compare these."""
    if not root.exists():
        return {}
    out = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_symlink():
            out[rel] = b"LINK:" + str(path.readlink()).encode()
        elif path.is_file():
            out[rel] = path.read_bytes()
        else:
            out[rel] = b"DIR"
    return out


def write_tar(out: Path, members: Sequence[tuple[str, bytes | None, str]]) -> Path:
    """Craft a tar: (name, data, kind) with kind 'file', 'dir', 'symlink' (data = target) or 'hardlink'."""
    with tarfile.open(out, "w") as tar:
        for name, data, kind in members:
            info = tarfile.TarInfo(name)
            if kind == "file":
                info.size = len(data or b"")
                tar.addfile(info, io.BytesIO(data or b""))
            elif kind == "dir":
                info.type = tarfile.DIRTYPE
                tar.addfile(info)
            else:
                info.type = tarfile.SYMTYPE if kind == "symlink" else tarfile.LNKTYPE
                info.linkname = (data or b"").decode()
                tar.addfile(info)
    return out


def bundle_members(bundle: Path) -> dict[str, bytes]:
    with tarfile.open(bundle) as tar:
        return {m.name: tar.extractfile(m).read() for m in tar.getmembers() if m.isfile()}


@pytest.fixture
def peft_dir(tmp_path: Path, base_info) -> Path:
    return write_peft_dir(tmp_path / "peft", base_info)


@pytest.fixture
def registry(mol_home: Path):
    from mol_local.adapters.registry import Registry

    return Registry(mol_home / "adapters")


@pytest.fixture
def registered(registry, peft_dir: Path, base_model_path: Path, tmp_path: Path):
    """One converted revision registered (not active) under L1/specialist."""
    from mol_local.adapters.convert import convert_peft_to_gguf

    gguf = convert_peft_to_gguf(peft_dir, base_model_path, tmp_path / "conv.gguf").out
    return registry.register("L1", "specialist", gguf, base=base_model_path, peft_dir=peft_dir, training_ids=["t1", "t2"], evidence={"acc": 0.5})
