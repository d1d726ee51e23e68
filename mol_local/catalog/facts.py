"""What a GGUF is, from its header alone: architecture, size, quantisation, context, chat template.

Read with our fast header reader (mol_local/adapters/gguf_header.py: it skips the
vocabulary arrays, and it runs the hostile-header checks of gguf_checks), so no
weight is read and a damaged file raises CorruptModel with the fix.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from mol_local.models import GGUFInfo, header_sha256, inspect_gguf

KV_BYTES = 2  # llama.cpp's default KV cache type is f16


@dataclass(frozen=True)
class ModelFacts:
    """The facts `mol models list/info` show and `use` decides with (JSON-able)."""

    path: str
    title: str  # general.name, else the file name
    architecture: str
    parameters: int
    quant: str
    file_size: int
    context_length: int | None
    n_layer: int
    n_embd: int
    n_vocab: int
    n_ff: int
    kv_bytes_per_cell: int  # K+V bytes one KV cell takes over all layers (f16)
    has_template: bool
    chat_format: str  # chatml, llama3, gemma, mistral, other; "none" without a template
    tool_format: str | None  # hermes, llama3-json, mistral, or None when the template defines no tool calls
    license: str
    fingerprint: str  # sha256 of header + tensor table, as adapters' manifests record it
    split_count: int = 1

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ModelFacts:
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in data.items() if k in known})

    @property
    def parameters_label(self) -> str:
        return human_count(self.parameters)


def read_facts(path: Path) -> ModelFacts:
    """Facts of a base-model GGUF; CorruptModel/ModelNotFound name the problem (a LoRA is refused too)."""
    from mol_local.errors import CorruptModel

    path = Path(path)
    info = inspect_gguf(path)
    if info.kind != "model":
        raise CorruptModel(f"{path} is a LoRA adapter, not a base model — add it with `mol adapters import`, not `mol models add`")
    return facts_of(info, header_sha256(path, info.data_offset))


def facts_of(info: GGUFInfo, fingerprint: str) -> ModelFacts:
    f = info.fields
    arch = info.architecture
    p = f"{arch}."
    template = f.get("tokenizer.chat_template")
    template = template if isinstance(template, str) and template.strip() else None
    embd = _int(f.get(p + "embedding_length"))
    n_layer = _int(f.get(p + "block_count"))
    vocab = info.tensors.get("token_embd.weight")
    return ModelFacts(
        path=str(info.path),
        title=str(f.get("general.name") or info.path.stem),
        architecture=arch or "unknown",
        parameters=sum(math.prod(shape) for shape in info.tensors.values()),
        quant=quant_name(f.get("general.file_type")),
        file_size=info.path.stat().st_size,
        context_length=_int(f.get(p + "context_length")) or None,
        n_layer=n_layer,
        n_embd=embd,
        n_vocab=int(vocab[1]) if vocab and len(vocab) > 1 else _int(f.get(p + "vocab_size")),
        n_ff=_int(f.get(p + "feed_forward_length")),
        kv_bytes_per_cell=kv_bytes_per_cell(f, arch, n_layer, embd),
        has_template=template is not None,
        chat_format=chat_format(template),
        tool_format=tool_format(template),
        license=str(f.get("general.license") or ""),
        fingerprint=fingerprint,
        split_count=_int(f.get("split.count")) or 1,
    )


def _int(value: object) -> int:
    """A header number, or the largest of a per-layer array; 0 when absent."""
    if isinstance(value, tuple):
        return max((int(v) for v in value), default=0)
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


def _per_layer(value: object, n_layer: int) -> list[int]:
    if isinstance(value, tuple):
        return [int(v) for v in value][:n_layer]
    return [_int(value)] * n_layer


def kv_bytes_per_cell(fields: dict[str, object], arch: str, n_layer: int, n_embd: int) -> int:
    """K+V bytes of one cell over all layers: sum over layers of n_head_kv x (key + value length) x 2 bytes.

    llama.cpp keeps sliding-window layers at full size by default (swa_full), which the
    gemma3 measurement confirms (README, `mol bench models`), so every layer counts.
    """
    p = f"{arch}."
    n_head = _int(fields.get(p + "attention.head_count")) or 1
    head_dim = n_embd // n_head if n_embd else 0
    k_len = _int(fields.get(p + "attention.key_length")) or head_dim
    v_len = _int(fields.get(p + "attention.value_length")) or head_dim
    kv_heads = _per_layer(fields.get(p + "attention.head_count_kv", fields.get(p + "attention.head_count")), n_layer)
    return sum(h * (k_len + v_len) for h in kv_heads) * KV_BYTES


def quant_name(file_type: object) -> str:
    """general.file_type as people write it (Q4_K_M, F16); "?" when the header does not say."""
    from gguf import LlamaFileType

    try:
        name = LlamaFileType(int(file_type)).name  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return "?"
    return name.removeprefix("MOSTLY_").replace("ALL_F32", "F32")


def chat_format(template: str | None) -> str:
    """Which family of chat markup a template writes (by its markers)."""
    if template is None:
        return "none"
    for marker, family in (("<|im_start|>", "chatml"), ("<|start_header_id|>", "llama3"), ("<start_of_turn>", "gemma"), ("[INST]", "mistral")):
        if marker in template:
            return family
    return "other"


def tool_format(template: str | None) -> str | None:
    """The tool-call syntax a template defines, if any (mol_local.turn.tasks.parse_tool_calls reads them all)."""
    if not template:
        return None
    if "<tool_call>" in template:
        return "hermes"
    if "[TOOL_CALLS]" in template:
        return "mistral"
    if "<|start_header_id|>" in template and ("<|python_tag|>" in template or '"parameters"' in template):
        return "llama3-json"
    return None


def human_count(n: int) -> str:
    for div, unit in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K")):
        if n >= div:
            return f"{n / div:.1f}{unit}".replace(".0", "")
    return str(n)


def human_bytes(n: float) -> str:
    for div, unit in ((1 << 40, "TiB"), (1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if abs(n) >= div:
            return f"{n / div:.1f} {unit}"
    return f"{int(n)} B"
