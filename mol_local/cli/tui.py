"""`mol` with no subcommand: open the Textual app."""

from __future__ import annotations

from pathlib import Path


def open_tui(hcp_path: str | None) -> None:
    from app.app import MolApp

    MolApp(hcp_path=Path(hcp_path) if hcp_path else None).run()
