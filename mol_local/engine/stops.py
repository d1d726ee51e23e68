"""Stop strings for streamed decoding: cut the answer where a stop string appears in its text.

A stop string may arrive split over several tokens (`<|im` + `_end|>`), so text that
could still be the start of one is held back, not streamed, until it is clear.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

TAIL_CHARS = 64


class StopText:
    def __init__(self, stops: Sequence[str]) -> None:
        self.stops = tuple(s for s in stops if s)
        self.held = ""

    def feed(self, piece: str) -> tuple[str, bool]:
        """(text that is safe to show now, whether a stop string was reached: nothing after it counts)."""
        text = self.held + piece
        cut = min((i for i in (text.find(s) for s in self.stops) if i >= 0), default=-1)
        if cut >= 0:
            self.held = ""
            return text[:cut], True
        keep = max((n for s in self.stops for n in range(min(len(s) - 1, len(text)), 0, -1) if text.endswith(s[:n])), default=0)
        self.held = text[len(text) - keep:] if keep else ""
        return text[: len(text) - keep], False

    def flush(self) -> str:
        """What was held back when decoding ended without a stop string."""
        held, self.held = self.held, ""
        return held


class Output:
    """The text one generate call streams: stop strings cut it, a wall-clock deadline ends it."""

    def __init__(self, stops: Sequence[str], on_token: Callable[[str], None] | None, deadline: float | None) -> None:
        self.scan = StopText(stops)
        self.on_token = on_token
        self.deadline = deadline
        self.pieces: list[str] = []
        self.stopped = False
        self.tail = ""  # the last TAIL_CHARS decoded, held-back text included (tool-call tags are read here)

    def _show(self, text: str) -> None:
        if text:
            self.pieces.append(text)
            if self.on_token is not None:
                self.on_token(text)

    def add(self, piece: str) -> bool:
        """Stream a decoded piece; True when a stop string was reached (nothing after it is kept)."""
        self.tail = (self.tail + piece)[-TAIL_CHARS:]
        shown, self.stopped = self.scan.feed(piece)
        self._show(shown)
        return self.stopped

    def late(self) -> bool:
        return self.deadline is not None and time.perf_counter() > self.deadline

    def close(self, tail: str) -> str:
        """The whole text, after the decoder's last bytes and whatever was held back."""
        if not self.stopped:
            self._show(self.scan.feed(tail)[0] + self.scan.flush())
        return "".join(self.pieces)
