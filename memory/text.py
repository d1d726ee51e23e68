"""Text hygiene for everything the store writes: valid UTF-8, bounded size."""

from __future__ import annotations

from memory.errors import InvalidMemory

MAX_MEMORY_CHARS = 2000


def clean_text(value: str | bytes) -> str:
    """Valid UTF-8 text: undecodable bytes and lone surrogates become U+FFFD.

    Tools may hand back bytes that are not UTF-8, or str decoded with
    surrogateescape; SQLite refuses lone surrogates, which would lose the turn.
    """
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    try:
        value.encode("utf-8")
        return value
    except UnicodeEncodeError:
        return value.encode("utf-8", errors="surrogatepass").decode("utf-8", errors="replace")


def memory_text(value: str | bytes, *, where: str = "memory") -> str:
    """A memory's text, cleaned and checked: not empty, at most MAX_MEMORY_CHARS."""
    text = " ".join(clean_text(value).split())
    if not text:
        raise InvalidMemory(f"Empty {where} — give the text to remember")
    if len(text) > MAX_MEMORY_CHARS:
        raise InvalidMemory(
            f"The {where} is {len(text)} characters; a memory holds at most {MAX_MEMORY_CHARS} — "
            "shorten it to the fact worth remembering"
        )
    return text
