"""A fast read of a GGUF's header: scalar fields and the tensor table, arrays skipped.

gguf-py's GGUFReader builds an object per vocabulary entry (~150k for the
embedded base), which takes seconds on every model load; our checks only need
scalars and tensor shapes. This reader walks the same layout (GGUF v2/v3),
skips array bodies (short numeric arrays, such as per-layer counts, are kept),
and checks every tensor's bytes lie inside the file and the hyper-parameters
llama.cpp asserts on (gguf_checks), so a truncated, damaged or hostile file
raises CorruptModel before llama.cpp sees it.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from itertools import repeat
from pathlib import Path

from mol_local.adapters import gguf_checks
from mol_local.errors import CorruptModel

# GGUF value type -> struct format of one element (strings, arrays handled apart)
_SCALAR = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}
_STRING, _ARRAY = 8, 9
_KEEP_ARRAY = 4096  # numeric arrays up to this length are read (per-layer counts); longer ones skipped
_FIRST_READ, _MAX_READ = 8 << 20, 64 << 20  # most headers fit the first read (a 262k-token vocab takes 6.5 MB)
_U64 = struct.Struct("<Q")


@dataclass(frozen=True)
class GGUFInfo:
    path: Path
    kind: str  # "model" or "adapter"
    architecture: str
    data_offset: int
    tensors: dict[str, tuple[int, ...]]  # name -> shape as gguf stores it (fastest dim first)
    fields: dict[str, object]


class _ShortRead(ValueError):
    """The header goes on past what was read so far, but not past the end of the file: read more."""


class _Cursor:
    def __init__(self, data: bytes, *, whole: bool = True) -> None:
        self.data = data
        self.at = 0
        self.whole = whole  # the buffer holds the whole file (else running past it means: read more)

    def _past_end(self, what: str) -> ValueError:
        return ValueError(f"{what} runs past the end of the file") if self.whole else _ShortRead(what)

    def take(self, fmt: str):
        size = struct.calcsize(fmt)
        if self.at + size > len(self.data):
            raise self._past_end("header")
        (value,) = struct.unpack_from(fmt, self.data, self.at)
        self.at += size
        return value

    def string(self) -> str:
        n = self.take("<Q")
        if self.at + n > len(self.data):
            raise self._past_end("string")
        raw = self.data[self.at : self.at + n]
        self.at += n
        return raw.decode("utf-8", errors="replace")

    def array(self) -> tuple | None:
        """A short numeric array as a tuple; anything else is skipped (None)."""
        kind, n = self.take("<I"), self.take("<Q")
        if kind in _SCALAR and n <= _KEEP_ARRAY:
            return tuple(self.take(_SCALAR[kind]) for _ in range(n))
        if kind == _STRING:
            self.at = self._skip_strings(n)
        elif kind in _SCALAR:
            self.at += n * struct.calcsize(_SCALAR[kind])
        else:
            raise ValueError(f"array of unsupported type {kind}")
        if self.at > len(self.data):
            raise self._past_end("array")
        return None

    def _skip_strings(self, n: int) -> int:
        """Offset after n length-prefixed strings (a vocabulary): one tight loop, bounds checked once per step."""
        data, at, unpack = self.data, self.at, _U64.unpack_from
        try:
            for _ in repeat(None, n):
                (length,) = unpack(data, at)
                at += 8 + length
        except struct.error:  # a length field past the buffer
            raise self._past_end("array") from None
        return at


def read_header(path: Path, *, what: str = "model") -> GGUFInfo:
    """GGUFInfo (scalar/string fields, tensor shapes, data offset) without touching tensor data."""
    path = Path(path)
    size = path.stat().st_size
    limit = _FIRST_READ
    while True:
        with path.open("rb") as fh:
            head = fh.read(min(size, limit))
        try:
            return _parse(path, head, size, whole=len(head) >= size or limit >= _MAX_READ, what=what)
        except _ShortRead:
            limit = _MAX_READ


def _parse(path: Path, head: bytes, size: int, *, whole: bool, what: str) -> GGUFInfo:
    try:
        cur = _Cursor(head, whole=whole)
        if head[:4] != b"GGUF":
            raise ValueError("bad magic")
        cur.at = 4  # past the magic
        version = cur.take("<I")
        if version not in (2, 3):
            raise ValueError(f"GGUF version {version}")
        n_tensors, n_fields = cur.take("<Q"), cur.take("<Q")
        if n_fields > size // 12 or n_tensors > size // 24:  # a field takes >= 12 bytes, a tensor entry >= 24
            raise ValueError(f"header claims {n_fields} fields and {n_tensors} tensors, more than the file can hold")
        fields: dict[str, object] = {}
        types: dict[str, int] = {}
        for _ in range(n_fields):
            key, kind = cur.string(), cur.take("<I")
            if key in fields:
                raise ValueError(f"field {key} appears twice")
            if kind == _STRING:
                fields[key] = cur.string()
            elif kind == _ARRAY:
                fields[key] = cur.array()
            elif kind in _SCALAR:
                fields[key] = cur.take(_SCALAR[kind])
            else:
                raise ValueError(f"field {key} has unknown type {kind}")
            types[key] = kind
        align = gguf_checks.alignment(fields, types)
        tensors: dict[str, tuple[int, ...]] = {}
        extents: list[tuple[str, int, int]] = []
        for _ in range(n_tensors):
            name, n_dims = cur.string(), cur.take("<I")
            if name in tensors:
                raise ValueError(f"tensor {name} appears twice")
            if n_dims > gguf_checks.MAX_DIMS:
                raise ValueError(f"tensor {name} has {n_dims} dimensions (at most {gguf_checks.MAX_DIMS})")
            tensors[name] = tuple(cur.take("<Q") for _ in range(n_dims))
            ggml_type = cur.take("<I")
            extents.append((name, cur.take("<Q"), gguf_checks.tensor_bytes(name, tensors[name], ggml_type)))
        data_offset = (cur.at + align - 1) // align * align
        for name, off, n_bytes in extents:
            if off % align:
                raise ValueError(f"tensor {name} starts at {off}, not a multiple of the alignment {align}")
            if data_offset + off + n_bytes > size:
                raise ValueError(f"tensor {name} runs past the end of the file")
        arch = str(fields.get("general.architecture") or "")
        kind = "adapter" if fields.get("general.type") == "adapter" else "model"
        if kind == "model":
            gguf_checks.model_hparams(arch, fields, types, tensors)
        else:
            gguf_checks.adapter_fields(fields, types)
    except _ShortRead:
        raise
    except (ValueError, struct.error, UnicodeDecodeError) as exc:
        raise CorruptModel(f"{path} is damaged or unsafe ({exc}) — re-download or re-export the {what}") from exc
    return GGUFInfo(path, kind, arch, data_offset, tensors, fields)
