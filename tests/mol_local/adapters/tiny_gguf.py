"""Tiny llama-architecture GGUFs written with gguf-py: one block, 32-wide, a 16-token byte vocab.

The unmodified file loads in the real llama.cpp (a test proves it), so a file
that differs in one header field tests exactly that field.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np

N_EMBD, N_VOCAB, N_FF, N_HEAD = 32, 16, 64, 4
# value kinds -> GGUFWriter method
_ADD = {"u32": "add_uint32", "u64": "add_uint64", "i32": "add_int32", "f32": "add_float32", "str": "add_string"}


def write_tiny_model(path: Path, fields: Mapping[str, tuple[object, str]] | None = None, *, n_layer: int = 1) -> Path:
    """A base model GGUF; `fields` adds or replaces header keys: {"llama.block_count": (4_000_000_000, "u32")}."""
    import gguf

    kv: dict[str, tuple[object, str]] = {
        "llama.context_length": (256, "u32"),
        "llama.embedding_length": (N_EMBD, "u32"),
        "llama.block_count": (n_layer, "u32"),
        "llama.feed_forward_length": (N_FF, "u32"),
        "llama.attention.head_count": (N_HEAD, "u32"),
        "llama.attention.head_count_kv": (N_HEAD, "u32"),
        "llama.attention.layer_norm_rms_epsilon": (1e-5, "f32"),
        "llama.rope.dimension_count": (N_EMBD // N_HEAD, "u32"),
        **(fields or {}),
    }
    writer = gguf.GGUFWriter(str(path), "llama")
    for key, (value, kind) in kv.items():
        getattr(writer, _ADD[kind])(key, value)
    writer.add_tokenizer_model("gpt2")
    writer.add_token_list([chr(65 + i) for i in range(N_VOCAB)])
    writer.add_token_types([1] * N_VOCAB)
    writer.add_token_merges(["A B"])
    rng = np.random.default_rng(0)

    def tensor(name: str, *shape: int) -> None:
        writer.add_tensor(name, rng.normal(0, 0.02, shape).astype(np.float32))

    tensor("token_embd.weight", N_VOCAB, N_EMBD)
    tensor("output_norm.weight", N_EMBD)
    for i in range(n_layer):
        for norm in ("attn_norm", "ffn_norm"):
            tensor(f"blk.{i}.{norm}.weight", N_EMBD)
        for proj in ("attn_q", "attn_k", "attn_v", "attn_output"):
            tensor(f"blk.{i}.{proj}.weight", N_EMBD, N_EMBD)
        tensor(f"blk.{i}.ffn_gate.weight", N_FF, N_EMBD)
        tensor(f"blk.{i}.ffn_up.weight", N_FF, N_EMBD)
        tensor(f"blk.{i}.ffn_down.weight", N_EMBD, N_FF)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def write_tiny_lora(path: Path, fields: Mapping[str, tuple[object, str]] | None = None, *, rank: int = 2) -> Path:
    """A LoRA GGUF for the tiny model (attn_q of block 0); `fields` as for write_tiny_model."""
    import gguf

    writer = gguf.GGUFWriter(str(path), "llama")
    kv = {"general.type": ("adapter", "str"), "adapter.type": ("lora", "str"), "adapter.lora.alpha": (4.0, "f32"), **(fields or {})}
    for key, (value, kind) in kv.items():
        getattr(writer, _ADD[kind])(key, value)
    rng = np.random.default_rng(1)
    writer.add_tensor("blk.0.attn_q.weight.lora_a", rng.normal(0, 0.02, (rank, N_EMBD)).astype(np.float32))
    writer.add_tensor("blk.0.attn_q.weight.lora_b", rng.normal(0, 0.02, (N_EMBD, rank)).astype(np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path
