"""Checks the settings screen runs (on a worker thread) before anything is saved."""

from __future__ import annotations

import os
from pathlib import Path

from app.errors import SettingsError

REMOTE_TIMEOUT_S = 3.0


def check_model(ref: str, base_dir: Path | None) -> Path:
    """The model reference resolves to a readable GGUF file, or SettingsError says why."""
    from mol_local.models import inspect_gguf, resolve_model

    if not ref.strip():
        raise SettingsError("Model path is empty — type a .gguf path or builtin:smollm2-135m")
    path = resolve_model(ref.strip(), relative_to=base_dir)
    if not os.access(path, os.R_OK):
        raise SettingsError(f"Model file {path} is not readable (permission denied) — fix its permissions or pick another file")
    try:
        inspect_gguf(path)
    except OSError as exc:
        raise SettingsError(f"Model file {path} cannot be read ({exc.strerror or exc}) — pick another file") from exc
    return path


def check_threads(text: str) -> int:
    try:
        threads = int(text.strip())
    except ValueError as exc:
        raise SettingsError(f"Threads = {text!r}: must be a whole number, e.g. {os.cpu_count() or 2}") from exc
    if not 1 <= threads <= 256:
        raise SettingsError(f"Threads = {threads}: must be between 1 and 256")
    return threads


def check_remote(base_url: str) -> None:
    """A configured endpoint answers `GET {base_url}/models`; a down or wrong endpoint is refused."""
    import httpx

    url = base_url.rstrip("/") + "/models"
    if not base_url.startswith(("http://", "https://")):
        raise SettingsError(f"Remote endpoint {base_url!r} must start with http:// or https://")
    try:
        response = httpx.get(url, timeout=REMOTE_TIMEOUT_S)
    except httpx.HTTPError as exc:
        raise SettingsError(
            f"Remote endpoint {base_url} is not reachable ({type(exc).__name__}) — start the server or fix the URL; nothing was saved"
        ) from exc
    if response.status_code >= 500:
        raise SettingsError(f"Remote endpoint {base_url} answered HTTP {response.status_code} — check the server; nothing was saved")
