"""Walk a bundle's raw tar headers before tarfile (or the disk) sees a byte of its members.

tarfile trusts what headers declare: a sparse member of 650 KB expands to
gigabytes when read, a pax header is read into memory whatever size it
claims, and getmembers() walks every header however many there are. A
.moladapter is an uncompressed tar of plain files that we wrote, so here the
headers are read 512 bytes at a time and a bundle is refused unless every
member is a plain file or folder (no sparse, link or device entries), the
member count and meta-header sizes are small, and the declared sizes add up
to no more than the archive holds (a plain tar stores every byte it unpacks).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mol_local.adapters.errors import BundleError

BLOCK = 512
MAX_META_BYTES = 64 << 10  # one pax or GNU long-name header
_FILE_TYPES = (b"0", b"\0", b"7")
_DIR_TYPE = b"5"
_META_TYPES = (b"x", b"g", b"L", b"K")
_KIND = {b"1": "a hard link", b"2": "a symbolic link", b"3": "a device", b"4": "a device", b"6": "a fifo", b"S": "a sparse file"}


@dataclass(frozen=True)
class TarShape:
    files: int
    declared_bytes: int


def _number(field: bytes) -> int:
    """A tar numeric field: octal text, or GNU base-256 (high bit set)."""
    if field[:1] and field[0] & 0x80:
        value = int.from_bytes(field[1:], "big")
        return -value if field[0] & 0x40 else value
    text = field.split(b"\0", 1)[0].strip()
    return int(text, 8) if text else 0


def _checksums(header: bytes) -> tuple[int, int]:
    """The unsigned and the signed header sums (the checksum field counted as spaces), as tarfile accepts."""
    rest = header[:148] + b" " * 8 + header[156:]
    return sum(rest), sum(b - 256 if b > 127 else b for b in rest)


def _pax_keys(data: bytes) -> dict[str, str]:
    """Records `<len> <key>=<value>\\n` of a pax header (only what we look at; malformed -> BundleError)."""
    out: dict[str, str] = {}
    at = 0
    while at < len(data) and data[at:at + 1] != b"\0":
        space = data.find(b" ", at)
        if space < 0:
            raise ValueError("pax record without a length")
        length = int(data[at:space])
        if length <= 0 or at + length > len(data):
            raise ValueError("pax record runs past its header")
        key, _, value = data[space + 1 : at + length - 1].partition(b"=")
        out[key.decode("utf-8", "replace")] = value.decode("utf-8", "replace")
        at += length
    return out


def scan_tar(bundle: Path, *, max_members: int, max_total: int) -> TarShape:
    """Check every header of `bundle`; return how many files it holds and the bytes they declare."""
    size = bundle.stat().st_size
    files = entries = declared = 0
    pax_size: int | None = None
    try:
        with bundle.open("rb") as fh:
            at = 0
            while True:
                header = fh.read(BLOCK)
                if len(header) < BLOCK:
                    raise ValueError("the archive ends inside a header")
                if header == b"\0" * BLOCK:
                    break
                if _number(header[148:156]) not in _checksums(header):
                    raise ValueError(f"header checksum mismatch at byte {at}")
                kind, n = header[156:157], _number(header[124:136])
                if n < 0:
                    raise ValueError(f"negative size at byte {at}")
                if kind in _META_TYPES:
                    if n > MAX_META_BYTES:
                        raise BundleError(f"{bundle}: a {n:,}-byte tar meta header (at most {MAX_META_BYTES:,}) — refused")
                    keys = _pax_keys(fh.read(n)) if kind in (b"x", b"g") else {}
                    if any(k.startswith("GNU.sparse") for k in keys):
                        raise BundleError(f"{bundle}: holds a sparse file — bundles hold plain files only; refused")
                    if "size" in keys:
                        pax_size = int(keys["size"])
                else:
                    entries += 1
                    if kind in _KIND:
                        raise BundleError(f"{bundle}: entry at byte {at} is {_KIND[kind]} — bundles hold plain files only; refused")
                    if kind not in _FILE_TYPES and kind != _DIR_TYPE:
                        raise BundleError(f"{bundle}: entry at byte {at} has tar type {kind!r} — bundles hold plain files only; refused")
                    if pax_size is not None:
                        n, pax_size = pax_size, None
                    if kind in _FILE_TYPES:
                        files += 1
                        declared += n
                if entries > max_members:
                    raise BundleError(f"{bundle} has more than {max_members} entries — refused")
                at += BLOCK + (n + BLOCK - 1) // BLOCK * BLOCK
                if at > size:
                    raise ValueError("a member runs past the end of the archive")
                fh.seek(at)
    except (ValueError, UnicodeDecodeError) as exc:
        raise BundleError(f"{bundle} is truncated or not a .moladapter bundle ({exc}) — export it again") from exc
    if declared > size:
        raise BundleError(
            f"{bundle}: its members declare {declared:,} bytes but the archive holds {size:,} — forged sizes or a sparse file; refused"
        )
    if declared > max_total:
        raise BundleError(f"{bundle}: its members declare {declared:,} bytes, over the {max_total:,} limit — refused")
    return TarShape(files, declared)
