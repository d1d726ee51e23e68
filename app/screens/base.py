"""MolScreen: what every screen of the app shares (the typed app, how workers report)."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from textual.screen import Screen

from app.messages import WorkFailed, WorkNoted

if TYPE_CHECKING:
    from app.app import MolApp

R = TypeVar("R")


class MolScreen(Screen[R]):
    """A screen of MolApp. Its workers reach the UI only through Messages: results to the screen
    (`post_message`), notices to the app (`worker_failed`, `worker_noted`), so one a closed screen would drop is still shown."""

    @property
    def mol(self) -> MolApp:
        return self.app  # type: ignore[return-value]

    def worker_failed(self, error: str, title: str | None = None, timeout: float = 10.0) -> None:
        """From a worker thread: show `error` as an error notification."""
        self.app.post_message(WorkFailed(error, title, timeout))

    def worker_noted(self, text: str) -> None:
        """From a worker thread: show `text` as a notification."""
        self.app.post_message(WorkNoted(text))
