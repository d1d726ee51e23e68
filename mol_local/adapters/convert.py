"""PEFT LoRA directory -> llama.cpp LoRA GGUF.

Names come from gguf-py's own tables (`gguf.get_tensor_name_map`), so the
tensor a LoRA targets is exactly the one llama.cpp's base converter wrote.

The llama converter (convert_hf_to_gguf.py, LlamaModel) permutes the rows of
q_proj and k_proj from HF's rotate-half RoPE layout to llama.cpp's interleaved
one, per head (k with the KV head count). B@A adds to those rows, so `lora_b`
(out x r) of q/k needs the same row permutation; `lora_a` (r x in) does not.
Architectures whose converter does not permute (qwen2, qwen3, qwen3moe,
gemma3) pass through unchanged. Anything else is refused by name rather than guessed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mol_local.adapters.errors import BadPeftDir, ForbiddenTensor, ShapeMismatch, UnsupportedArchitecture
from mol_local.adapters.peft_io import PeftAdapter, read_peft_dir
from mol_local.adapters.manifest import base_info
from mol_local.models import GGUFInfo, check_adapter_fits, inspect_gguf

# architecture (general.architecture) -> whether the base converter permutes q/k rows
SUPPORTED_ARCHITECTURES: dict[str, bool] = {"llama": True, "qwen2": False, "qwen3": False, "qwen3moe": False, "gemma3": False}
_FORBIDDEN_GGUF = ("token_embd", "output", "token_embd_norm", "output_norm")


@dataclass(frozen=True)
class ConvertReport:
    out: Path
    architecture: str
    rank: int
    alpha: float
    target_modules: tuple[str, ...]
    tensors: int  # LoRA pairs written
    permuted: int  # pairs whose lora_b rows were permuted


def rope_row_permute(rows: np.ndarray, n_head: int) -> np.ndarray:
    """HF rotate-half row order -> llama.cpp interleaved order, per head.

    Within each head the first half of the rows holds the "real" parts and the
    second half the "imaginary" ones; llama.cpp wants them interleaved.
    """
    out_dim = rows.shape[0]
    if out_dim % (2 * n_head):
        raise ShapeMismatch(f"{out_dim} rows do not split into {n_head} heads of even width — wrong head count")
    half = out_dim // n_head // 2
    split = rows.reshape(n_head, 2, half, *rows.shape[1:])
    return np.ascontiguousarray(np.swapaxes(split, 1, 2).reshape(rows.shape))


def _arch_enum(arch: str):
    import gguf

    for member, name in gguf.MODEL_ARCH_NAMES.items():
        if name == arch:
            return member
    raise UnsupportedArchitecture(f"gguf-py does not know the architecture {arch!r} — update the gguf package")


def _require_supported(arch: str) -> bool:
    if arch not in SUPPORTED_ARCHITECTURES:
        raise UnsupportedArchitecture(
            f"LoRA conversion for the {arch!r} architecture is not supported (supported: "
            f"{', '.join(sorted(SUPPORTED_ARCHITECTURES))}) — use a base of a supported architecture"
        )
    return SUPPORTED_ARCHITECTURES[arch]


def _head_counts(base: GGUFInfo) -> tuple[int, int]:
    arch = base.architecture
    n_head = base.fields.get(f"{arch}.attention.head_count")
    n_kv = base.fields.get(f"{arch}.attention.head_count_kv", n_head)
    if not isinstance(n_head, int) or not isinstance(n_kv, int) or n_head <= 0 or n_kv <= 0:
        raise UnsupportedArchitecture(f"{base.path} has no scalar {arch}.attention.head_count — per-layer head counts are not supported")
    return n_head, n_kv


def plan_tensors(adapter: PeftAdapter, base: GGUFInfo, *, permute_qk: bool = True) -> list[tuple[str, np.ndarray, np.ndarray, bool]]:
    """(gguf base tensor name, lora_a, lora_b, permuted) for every pair, checked against the base."""
    import gguf

    arch = base.architecture
    wants_permute = _require_supported(arch) and permute_qk
    n_blocks = base.fields.get(f"{arch}.block_count")
    if not isinstance(n_blocks, int):
        raise UnsupportedArchitecture(f"{base.path} has no {arch}.block_count — not a complete base model")
    names = gguf.get_tensor_name_map(_arch_enum(arch), n_blocks)
    n_head, n_kv = _head_counts(base)
    ref_alpha = adapter.alpha
    plan = []
    for pair in adapter.pairs:
        target = names.get_name(pair.module + ".weight", try_suffixes=(".weight",))
        if target is None:
            raise BadPeftDir(f"{adapter.path}: module {pair.module} has no llama.cpp tensor for {arch} — it cannot be converted")
        stem = target.removesuffix(".weight")
        if stem in _FORBIDDEN_GGUF:
            raise ForbiddenTensor(f"{adapter.path}: {pair.module} adapts {stem}, which llama.cpp LoRA cannot apply — retrain without it")
        if stem.endswith("_exps") or stem.endswith("_shexp"):
            raise UnsupportedArchitecture(f"{adapter.path}: {pair.module} is a per-expert LoRA, which is not supported — adapt attention/dense layers only")
        if target not in base.tensors:
            raise ShapeMismatch(f"{adapter.path}: {target} does not exist in the base {base.path.name} — wrong base model")
        n_in, n_out = base.tensors[target][:2]
        if pair.a.shape[1] != n_in or pair.b.shape[0] != n_out:
            raise ShapeMismatch(
                f"{adapter.path}: {pair.module} maps {pair.a.shape[1]}->{pair.b.shape[0]} but the base's {target} "
                f"maps {n_in}->{n_out} — the adapter was trained for another base"
            )
        b = pair.b
        # llama.cpp scales every tensor by alpha/rank; fold any per-module difference into B.
        wanted, applied = pair.scale, ref_alpha / pair.rank
        if not np.isclose(wanted, applied):
            b = b * np.float32(wanted / applied)
        permuted = False
        if wants_permute and stem.endswith(".attn_q"):
            b, permuted = rope_row_permute(b, n_head), True
        elif wants_permute and stem.endswith(".attn_k"):
            b, permuted = rope_row_permute(b, n_kv), True
        plan.append((target, pair.a, b, permuted))
    return plan


def convert_peft_to_gguf(
    peft_dir: Path,
    base_gguf: Path,
    out: Path,
    *,
    dtype: str = "f32",
    permute_qk: bool = True,
) -> ConvertReport:
    """Convert and verify; the output appears atomically or not at all.

    `permute_qk=False` exists only so the parity test can prove the permutation
    matters; a real export never turns it off.
    """
    import gguf

    if dtype not in ("f32", "f16"):
        raise BadPeftDir(f"unknown output type {dtype!r} — use f32 or f16")
    base = base_info(Path(base_gguf))
    if base.kind != "model":
        raise ShapeMismatch(f"{base_gguf} is an adapter, not a base model — pass the base GGUF with --base")
    adapter = read_peft_dir(Path(peft_dir))
    plan = plan_tensors(adapter, base, permute_qk=permute_qk)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    np_type = np.float32 if dtype == "f32" else np.float16
    try:
        writer = gguf.GGUFWriter(str(tmp), base.architecture)
        writer.add_string("general.type", "adapter")
        writer.add_string("adapter.type", "lora")
        writer.add_float32("adapter.lora.alpha", float(adapter.alpha))
        for target, a, b, _ in plan:
            writer.add_tensor(f"{target}.lora_a", a.astype(np_type))
            writer.add_tensor(f"{target}.lora_b", b.astype(np_type))
        writer.write_header_to_file()
        writer.write_kv_data_to_file()
        writer.write_tensors_to_file()
        writer.close()
        check_adapter_fits(inspect_gguf(tmp, what="adapter"), base)
        os.replace(tmp, out)
    finally:
        tmp.unlink(missing_ok=True)
    return ConvertReport(
        out=out,
        architecture=base.architecture,
        rank=adapter.rank,
        alpha=adapter.alpha,
        target_modules=adapter.target_modules,
        tensors=len(plan),
        permuted=sum(1 for *_, p in plan if p),
    )
