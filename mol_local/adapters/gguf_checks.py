"""Sanity checks of a GGUF header that llama.cpp answers with an abort, not an error.

llama.cpp turns most bad files into an exception (our CorruptModel), but a few
hyper-parameters are checked with GGML_ASSERT in `llama_model::load_hparams`,
which kills the whole process (rc 134, a core dump) before Python can answer.
These checks mirror those asserts, and the table rules of gguf.cpp, so such a
file is refused with a message instead. Limits are those of the llama.cpp
bundled with llama-cpp-python 0.3.36, measured on synthetic files
(tests/mol_local/adapters/test_gguf_checks.py): 512 layers, 1024 experts.

Each check raises ValueError; the reader turns it into CorruptModel naming the file.
"""

from __future__ import annotations

import math

MAX_LAYERS = 512  # LLAMA_MAX_LAYERS
MAX_EXPERTS = 1024  # LLAMA_MAX_EXPERTS
MAX_DIMS = 4  # GGML_MAX_DIMS
MAX_ALIGNMENT = 1 << 16  # far above any real file (32 is the default); keeps padding maths sane
ROPE_SCALING = ("none", "linear", "yarn", "longrope")
INT_TYPES = frozenset({0, 1, 2, 3, 4, 5, 10, 11})  # GGUF u8 i8 u16 i16 u32 i32 u64 i64
UINT32 = 4
FLOAT_TYPES = frozenset({6, 12})


def alignment(fields: dict[str, object], types: dict[str, int]) -> int:
    """general.alignment: a uint32 power of two (gguf.cpp asserts the type, then refuses 0 and odd values)."""
    if "general.alignment" not in fields:
        return 32
    value = fields["general.alignment"]
    if types["general.alignment"] != UINT32:
        raise ValueError(f"general.alignment = {value!r} is not a uint32")
    assert isinstance(value, int)
    if value <= 0 or value & (value - 1) or value > MAX_ALIGNMENT:
        raise ValueError(f"general.alignment = {value} is not a power of two up to {MAX_ALIGNMENT}")
    return value


def _int(fields: dict[str, object], types: dict[str, int], key: str) -> int | None:
    if key not in fields:
        return None
    value = fields[key]
    if types[key] not in INT_TYPES or isinstance(value, bool):
        raise ValueError(f"{key} = {value!r} is not an integer")
    assert isinstance(value, int)
    return value


def _int_or_layers(fields: dict[str, object], types: dict[str, int], key: str) -> int | None:
    """A key that may be one integer or one per layer (an int array): its largest value."""
    value = fields.get(key)
    if isinstance(value, tuple):
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise ValueError(f"{key} holds non-integers")
        return max(value, default=0)
    return _int(fields, types, key)


def model_hparams(arch: str, fields: dict[str, object], types: dict[str, int], tensors: dict[str, tuple[int, ...]]) -> None:
    """The asserts of llama.cpp's load_hparams, for a base model of architecture `arch`."""
    p = f"{arch}."
    layers = _int(fields, types, p + "block_count")
    if layers is not None:
        if not 1 <= layers <= MAX_LAYERS:
            raise ValueError(f"{p}block_count = {layers} is outside 1..{MAX_LAYERS}")
        top = max((int(n.split(".")[1]) for n in tensors if n.startswith("blk.") and n.split(".")[1].isdigit()), default=-1)
        if top >= layers:
            raise ValueError(f"{p}block_count = {layers} but the file has tensors for block {top}")
        nextn = _int(fields, types, p + "nextn_predict_layers")
        if nextn is not None and not 0 <= nextn <= layers:
            raise ValueError(f"{p}nextn_predict_layers = {nextn} is more than block_count ({layers})")
    for key in ("context_length", "embedding_length"):
        value = _int(fields, types, p + key)
        if value is not None and value < 1:
            raise ValueError(f"{p}{key} = {value} must be at least 1")
    _experts(p, fields, types)
    scaling = fields.get(p + "rope.scaling.type")
    if scaling is not None and scaling not in ROPE_SCALING:
        raise ValueError(f"{p}rope.scaling.type = {scaling!r} is not one of {', '.join(ROPE_SCALING)}")


def _experts(p: str, fields: dict[str, object], types: dict[str, int]) -> None:
    experts = _int(fields, types, p + "expert_count") or 0
    used = _int_or_layers(fields, types, p + "expert_used_count") or 0
    groups = _int(fields, types, p + "expert_group_count") or 0
    group_used = _int(fields, types, p + "expert_group_used_count") or 0
    if not 0 <= experts <= MAX_EXPERTS:
        raise ValueError(f"{p}expert_count = {experts} is outside 0..{MAX_EXPERTS}")
    if experts == 0:
        if used:
            raise ValueError(f"{p}expert_used_count = {used} but the model has no experts (expert_count = 0)")
        if groups:
            raise ValueError(f"{p}expert_group_count = {groups} but the model has no experts (expert_count = 0)")
        return
    if not 1 <= used <= experts:
        raise ValueError(f"{p}expert_used_count = {used} must be between 1 and expert_count ({experts})")
    if not 0 <= groups < experts:
        raise ValueError(f"{p}expert_group_count = {groups} must be below expert_count ({experts})")
    if groups > 1 and (experts % groups or not 0 < group_used < groups):
        raise ValueError(f"{p}expert_group_count = {groups} / expert_group_used_count = {group_used} do not divide {experts} experts")


def adapter_fields(fields: dict[str, object], types: dict[str, int]) -> None:
    """A LoRA's alpha: a finite, non-negative number (NaN or 1e30 would silently wreck every answer)."""
    if "adapter.lora.alpha" not in fields:
        return
    alpha = fields["adapter.lora.alpha"]
    if types["adapter.lora.alpha"] not in FLOAT_TYPES | INT_TYPES or isinstance(alpha, (bool, str)):
        raise ValueError(f"adapter.lora.alpha = {alpha!r} is not a number")
    assert isinstance(alpha, (int, float))
    if not math.isfinite(alpha) or not 0 <= alpha <= 1e6:
        raise ValueError(f"adapter.lora.alpha = {alpha!r} must be a finite number between 0 and 1e6")


def tensor_bytes(name: str, shape: tuple[int, ...], ggml_type: int) -> int:
    """Bytes of one tensor; refuses shapes gguf.cpp refuses (too many dims, overflow, partial blocks)."""
    from gguf.constants import GGML_QUANT_SIZES, GGMLQuantizationType

    if len(shape) > MAX_DIMS:
        raise ValueError(f"tensor {name} has {len(shape)} dimensions (at most {MAX_DIMS})")
    try:
        block, size = GGML_QUANT_SIZES[GGMLQuantizationType(ggml_type)]
    except (ValueError, KeyError) as exc:
        raise ValueError(f"tensor {name} has unknown type {ggml_type}") from exc
    n = 1
    for dim in shape:
        n *= dim
    if n >= 1 << 62:
        raise ValueError(f"tensor {name} has {n} elements (overflow)")
    if shape and shape[0] % block:
        raise ValueError(f"tensor {name}: row of {shape[0]} is not a multiple of its block size {block}")
    return n // block * size
