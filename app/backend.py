"""What the app needs from the runtime, imported lazily so start-up stays light.

Nothing here runs on the UI thread at start-up: `user_errors()` and the
runtime imports happen inside workers (sqlite-utils pulls in numpy, the engine
pulls in llama.cpp).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path


@cache
def user_errors() -> tuple[type[Exception], ...]:
    """The exceptions whose message is meant for the user (mol_local.errors.user_errors: the CLI's and the server's too)."""
    from mol_local.errors import user_errors as every

    return every()


def prefs_path() -> Path:
    from mol_local.paths import mol_home

    return mol_home() / "app.json"


def load_prefs() -> dict:
    """App-only preferences (theme); not part of the HCP because they do not change the assistant."""
    try:
        data = json.loads(prefs_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save_prefs(prefs: dict) -> None:
    path = prefs_path()
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(prefs, indent=2, sort_keys=True), encoding="utf-8")
    tmp.replace(path)
