"""Read a PEFT LoRA directory without pickle and without torch.

A PEFT adapter is `adapter_config.json` + `adapter_model.safetensors`. The
safetensors reader here is deliberately small: it checks the header and every
offset against the file size, and decodes F32/F16/BF16/F64 into float32, so a
damaged or hostile file becomes a one-line error instead of a crash.
"""

from __future__ import annotations

import json
import re
import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mol_local.adapters.errors import BadPeftDir, ForbiddenTensor, PickleRefused, ShapeMismatch

PICKLE_SUFFIXES = (".bin", ".pt", ".pth", ".pkl", ".pickle", ".ckpt")
_DTYPES = {"F32": np.float32, "F16": np.float16, "F64": np.float64, "BF16": np.uint16}
_KEY = re.compile(r"^(?:base_model\.model\.)?(?P<module>.+)\.lora_(?P<ab>[AB])(?:\.[A-Za-z0-9_-]+)?\.weight$")
_FORBIDDEN_MODULES = ("embed_tokens", "lm_head", "wte", "embed_out", "tok_embeddings", "output_layer")


@dataclass(frozen=True)
class LoraPair:
    """One adapted module: A is (r, in), B is (out, r), as PEFT stores them."""

    module: str  # HF module name, e.g. model.layers.3.self_attn.q_proj
    a: np.ndarray
    b: np.ndarray
    scale: float  # what PEFT multiplies B@A by for this module

    @property
    def rank(self) -> int:
        return int(self.a.shape[0])


@dataclass(frozen=True)
class PeftAdapter:
    path: Path
    config: dict
    rank: int
    alpha: float
    target_modules: tuple[str, ...]
    pairs: tuple[LoraPair, ...]


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """All tensors of a safetensors file as float32 arrays; BadPeftDir on any damage."""
    data = path.read_bytes()
    if len(data) < 8:
        raise BadPeftDir(f"{path} is truncated (no header) — re-save the adapter")
    (n,) = struct.unpack("<Q", data[:8])
    if n > len(data) - 8 or n > 100_000_000:
        raise BadPeftDir(f"{path} has a header longer than the file — the file is truncated or not safetensors")
    try:
        header = json.loads(data[8 : 8 + n])
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BadPeftDir(f"{path} has an unreadable header ({exc}) — re-save the adapter") from exc
    if not isinstance(header, dict):
        raise BadPeftDir(f"{path} header is not a JSON object — re-save the adapter")
    body = memoryview(data)[8 + n :]
    out: dict[str, np.ndarray] = {}
    for name, meta in header.items():
        if name == "__metadata__":
            continue
        try:
            dtype, shape, (start, end) = meta["dtype"], [int(x) for x in meta["shape"]], meta["data_offsets"]
        except (KeyError, TypeError, ValueError) as exc:
            raise BadPeftDir(f"{path}: tensor {name} has a malformed entry — re-save the adapter") from exc
        if dtype not in _DTYPES:
            raise BadPeftDir(f"{path}: tensor {name} has dtype {dtype} — save LoRA weights as F32, F16 or BF16")
        np_type = _DTYPES[dtype]
        want = int(np.prod(shape)) * np.dtype(np_type).itemsize
        if not (0 <= start <= end <= len(body)) or end - start != want:
            raise BadPeftDir(f"{path}: tensor {name} lies outside the file — the file is truncated")
        raw = np.frombuffer(body[start:end], dtype=np_type).reshape(shape)
        if dtype == "BF16":
            raw = (raw.astype(np.uint32) << 16).view(np.float32)
        out[name] = np.ascontiguousarray(raw, dtype=np.float32)
    return out


def refuse_pickles(folder: Path) -> None:
    """Pickle files execute code when loaded; refuse the whole directory if one is there."""
    for item in sorted(folder.iterdir()):
        if item.suffix.lower() in PICKLE_SUFFIXES:
            raise PickleRefused(
                f"{item} is a pickle file, which can run code when loaded — re-save the adapter "
                "with safetensors (`model.save_pretrained(dir, safe_serialization=True)`)"
            )


def _pattern_value(patterns: dict, module: str, default: float) -> float:
    """PEFT's rank/alpha_pattern lookup: a key matches a module name by suffix."""
    for key, value in patterns.items():
        if re.match(rf"(.*\.)?({key})$", module):
            return float(value)
    return default


def _forbidden(module: str) -> bool:
    return any(part in _FORBIDDEN_MODULES for part in module.split("."))


def read_peft_dir(folder: Path) -> PeftAdapter:
    """Parse and sanity-check a PEFT LoRA directory (config + safetensors weights)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise BadPeftDir(f"{folder} is not a directory — pass the folder that holds adapter_config.json")
    refuse_pickles(folder)
    cfg_path = folder / "adapter_config.json"
    weights = folder / "adapter_model.safetensors"
    if not cfg_path.is_file():
        raise BadPeftDir(f"{folder} has no adapter_config.json — pass a PEFT adapter directory")
    if not weights.is_file():
        raise BadPeftDir(f"{folder} has no adapter_model.safetensors — save the adapter with safetensors")
    try:
        config = json.loads(cfg_path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BadPeftDir(f"{cfg_path} is not valid JSON ({exc}) — re-save the adapter") from exc
    if not isinstance(config, dict) or str(config.get("peft_type", "LORA")).upper() != "LORA":
        raise BadPeftDir(f"{cfg_path}: peft_type is {config.get('peft_type')!r}; only LORA converts — use a LoRA adapter")
    if config.get("use_dora"):
        raise BadPeftDir(f"{cfg_path}: DoRA adapters have no llama.cpp form — retrain with use_dora=false")
    if config.get("fan_in_fan_out"):
        raise BadPeftDir(f"{cfg_path}: fan_in_fan_out (GPT-2 Conv1D) layouts are not supported — use a llama-family base")
    for key in config.get("modules_to_save") or []:
        raise ForbiddenTensor(
            f"{cfg_path}: modules_to_save = {key!r} trains full weights, which a llama.cpp LoRA cannot carry — "
            "retrain without modules_to_save"
        )
    try:
        rank, alpha = int(config["r"]), float(config["lora_alpha"])
    except (KeyError, TypeError, ValueError) as exc:
        raise BadPeftDir(f"{cfg_path} lacks a numeric r / lora_alpha — re-save the adapter") from exc
    rslora = bool(config.get("use_rslora"))
    tensors = read_safetensors(weights)
    halves: dict[str, dict[str, np.ndarray]] = {}
    for name, value in tensors.items():
        if "lora_embedding" in name or _forbidden(name.removesuffix(".weight")):
            raise ForbiddenTensor(
                f"{weights}: {name} adapts the token embedding or output head, which llama.cpp LoRA "
                "cannot apply — retrain without embed_tokens/lm_head in target_modules"
            )
        match = _KEY.match(name)
        if not match:
            raise BadPeftDir(f"{weights}: {name} is not a LoRA A/B weight — only LoRA matrices convert")
        halves.setdefault(match["module"], {})[match["ab"]] = value
    pairs = []
    for module, ab in sorted(halves.items()):
        if set(ab) != {"A", "B"}:
            raise ShapeMismatch(f"{weights}: {module} has lora_{'A' if 'A' in ab else 'B'} only — the file is incomplete")
        a, b = ab["A"], ab["B"]
        if a.ndim != 2 or b.ndim != 2 or a.shape[0] != b.shape[1]:
            raise ShapeMismatch(
                f"{weights}: {module} has lora_A {tuple(a.shape)} and lora_B {tuple(b.shape)} — ranks differ; "
                "the adapter is damaged"
            )
        r_m = _pattern_value(config.get("rank_pattern") or {}, module, rank)
        if int(r_m) != a.shape[0]:
            raise ShapeMismatch(f"{weights}: {module} has rank {a.shape[0]} but the config says {int(r_m)} — fix adapter_config.json")
        a_m = _pattern_value(config.get("alpha_pattern") or {}, module, alpha)
        scale = a_m / (np.sqrt(r_m) if rslora else r_m)
        pairs.append(LoraPair(module, a, b, float(scale)))
    if not pairs:
        raise BadPeftDir(f"{weights} holds no LoRA weights — is this the right directory?")
    targets = config.get("target_modules") or sorted({p.module.rsplit(".", 1)[-1] for p in pairs})
    if isinstance(targets, str):
        targets = [targets]
    return PeftAdapter(folder, config, rank, alpha, tuple(sorted(targets)), tuple(pairs))
