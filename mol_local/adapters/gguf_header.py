"""A fast read of a GGUF's header: scalar fields and the tensor table, arrays skipped.

gguf-py's GGUFReader builds an object per vocabulary entry (~150k for the
embedded base), which takes seconds on every model load; our checks only need
scalars and tensor shapes. This reader walks the same layout (GGUF v2/v3),
skips array bodies, and checks every tensor's bytes lie inside the file, so a
truncated or damaged file raises CorruptModel before llama.cpp sees it.
"""

from __future__ import annotations

import struct
from pathlib import Path

from mol_local.errors import CorruptModel
from mol_local.models import GGUFInfo

# GGUF value type -> struct format of one element (strings, arrays handled apart)
_SCALAR = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}
_STRING, _ARRAY = 8, 9


class _Cursor:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def take(self, fmt: str):
        size = struct.calcsize(fmt)
        if self.at + size > len(self.data):
            raise ValueError("header runs past the end of the file")
        (value,) = struct.unpack_from(fmt, self.data, self.at)
        self.at += size
        return value

    def string(self) -> str:
        n = self.take("<Q")
        if self.at + n > len(self.data):
            raise ValueError("string runs past the end of the file")
        raw = self.data[self.at : self.at + n]
        self.at += n
        return raw.decode("utf-8", errors="replace")

    def skip_array(self) -> None:
        kind, n = self.take("<I"), self.take("<Q")
        if kind == _STRING:
            for _ in range(n):
                self.at += 8 + struct.unpack_from("<Q", self.data, self.at)[0]
        elif kind in _SCALAR:
            self.at += n * struct.calcsize(_SCALAR[kind])
        else:
            raise ValueError(f"array of unsupported type {kind}")
        if self.at > len(self.data):
            raise ValueError("array runs past the end of the file")


def _tensor_bytes(shape: tuple[int, ...], ggml_type: int) -> int:
    from gguf.constants import GGML_QUANT_SIZES, GGMLQuantizationType

    try:
        block, size = GGML_QUANT_SIZES[GGMLQuantizationType(ggml_type)]
    except (ValueError, KeyError) as exc:
        raise ValueError(f"unknown tensor type {ggml_type}") from exc
    n = 1
    for dim in shape:
        n *= dim
    return n // block * size


def read_header(path: Path, *, what: str = "model") -> GGUFInfo:
    """GGUFInfo (scalar/string fields, tensor shapes, data offset) without touching tensor data."""
    path = Path(path)
    size = path.stat().st_size
    with path.open("rb") as fh:
        head = fh.read(min(size, 64 << 20))
    try:
        cur = _Cursor(head)
        if head[:4] != b"GGUF":
            raise ValueError("bad magic")
        cur.at = 4  # past the magic
        version = cur.take("<I")
        if version not in (2, 3):
            raise ValueError(f"GGUF version {version}")
        n_tensors, n_fields = cur.take("<Q"), cur.take("<Q")
        fields: dict[str, object] = {}
        for _ in range(n_fields):
            key, kind = cur.string(), cur.take("<I")
            if kind == _STRING:
                fields[key] = cur.string()
            elif kind == _ARRAY:
                cur.skip_array()
                fields[key] = None
            elif kind in _SCALAR:
                fields[key] = cur.take(_SCALAR[kind])
            else:
                raise ValueError(f"field {key} has unknown type {kind}")
        tensors: dict[str, tuple[int, ...]] = {}
        extents: list[tuple[str, int, int]] = []
        for _ in range(n_tensors):
            name, n_dims = cur.string(), cur.take("<I")
            tensors[name] = tuple(cur.take("<Q") for _ in range(n_dims))
            ggml_type = cur.take("<I")
            extents.append((name, cur.take("<Q"), _tensor_bytes(tensors[name], ggml_type)))
        align = int(fields.get("general.alignment") or 32)
        data_offset = (cur.at + align - 1) // align * align
        for name, off, n_bytes in extents:
            if data_offset + off + n_bytes > size:
                raise ValueError(f"tensor {name} runs past the end of the file")
    except (ValueError, struct.error, UnicodeDecodeError) as exc:
        raise CorruptModel(f"{path} is damaged ({exc}) — re-download or re-export the {what}") from exc
    arch = str(fields.get("general.architecture") or "")
    kind = "adapter" if fields.get("general.type") == "adapter" else "model"
    return GGUFInfo(path, kind, arch, data_offset, tensors, fields)
