"""Secrets (the `mol serve` token, remote API keys) live only in the OS keyring.

An environment variable overrides the keyring for scripts and tests and is
never persisted. Where no keyring backend exists (keyring's `fail` backend,
e.g. a headless server) we say so and take the key from the environment.
Nothing here writes a secret to a file, a database or a log line.
"""

from __future__ import annotations

import os
import secrets as _random  # stdlib
from dataclasses import dataclass

import keyring
import keyring.errors
from keyring.backends import fail

from mol_local.errors import KeyStoreError

SERVICE = "mol-local"
SERVE_TOKEN_ENV = "MOL_SERVE_TOKEN"
REMOTE_KEY_ENV = "MOL_REMOTE_API_KEY"
SERVE_TOKEN_NAME = "serve-token"


def remote_key_name(profile: str) -> str:
    """The keyring entry of one profile's remote API key."""
    return f"remote-api-key:{profile}"


def keyring_available() -> bool:
    """False when keyring fell back to its `fail` backend (no OS keyring here)."""
    backend = keyring.get_keyring()
    if isinstance(backend, fail.Keyring):
        return False
    inner = getattr(backend, "backends", None)  # the chainer: usable only if it chains something
    return inner is None or bool(inner)


def backend_name() -> str:
    backend = keyring.get_keyring()
    return f"{type(backend).__module__}.{type(backend).__name__}"


def get_secret(name: str) -> str | None:
    """The stored secret, or None when absent or when no keyring can be read."""
    if not keyring_available():
        return None
    try:
        return keyring.get_password(SERVICE, name)
    except keyring.errors.KeyringError:
        return None


def set_secret(name: str, value: str, *, env_hint: str) -> None:
    if not keyring_available():
        raise KeyStoreError(
            f"No OS keyring backend is available here ({backend_name()}) — nothing was saved; "
            f"set {env_hint} in the environment instead (it is read, never stored)"
        )
    try:
        keyring.set_password(SERVICE, name, value)
    except keyring.errors.KeyringError as exc:
        raise KeyStoreError(
            f"The OS keyring refused to store the secret ({type(exc).__name__}) — unlock it, or set {env_hint} in the environment"
        ) from exc


def delete_secret(name: str) -> bool:
    if not keyring_available():
        return False
    try:
        keyring.delete_password(SERVICE, name)
    except keyring.errors.PasswordDeleteError:
        return False
    return True


@dataclass(frozen=True)
class Token:
    """A secret and where it came from: env, keyring, new (generated and stored) or ephemeral (not stored)."""

    value: str
    source: str

    def __repr__(self) -> str:  # never show the value in tracebacks or logs
        return f"Token(source={self.source!r})"


def serve_token() -> Token:
    """MOL_SERVE_TOKEN, else the keyring's token, else a new one stored in the keyring (or kept in memory only)."""
    if env := os.environ.get(SERVE_TOKEN_ENV):
        return Token(env, "env")
    if stored := get_secret(SERVE_TOKEN_NAME):
        return Token(stored, "keyring")
    value = _random.token_urlsafe(32)
    if keyring_available():
        set_secret(SERVE_TOKEN_NAME, value, env_hint=SERVE_TOKEN_ENV)
        return Token(value, "new")
    return Token(value, "ephemeral")


def remote_api_key(profile: str) -> str | None:
    """MOL_REMOTE_API_KEY, else the key `mol remote login --profile` stored; None if neither."""
    return os.environ.get(REMOTE_KEY_ENV) or get_secret(remote_key_name(profile))
