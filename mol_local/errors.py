"""User-facing errors of the runtime.

Each carries one line that names the problem and the fix. The CLI prints it
and exits non-zero; the TUI shows it as a notification. Nothing below the
edge turns these into text or exit codes.
"""

from __future__ import annotations


class MolError(Exception):
    """Base class: `str(err)` is the one-line message shown to the user."""

    exit_code: int = 1


class ModelNotFound(MolError):
    """The base model reference does not resolve to a readable file."""


class CorruptModel(MolError):
    """A GGUF file exists but cannot be parsed or loaded."""


class AdapterMismatch(MolError):
    """A LoRA adapter was made for another base, architecture or shape."""


class ContextOverflow(MolError):
    """A single message does not fit in the model's context window."""


class EmptyMessage(MolError):
    """The user sent nothing but whitespace."""


class RouteHeadError(MolError):
    """The embeddings route head is missing, malformed or made for another embedder."""


class EngineError(MolError):
    """The engine failed while decoding (not a user mistake, but say what to do)."""


class TurnCancelled(MolError):
    """The user cancelled the turn; it was rolled back and left no trace."""


class ConversationNotFound(MolError):
    """A conversation id given on the command line or by the app does not exist."""


class RemoteError(MolError):
    """A remote engine (OpenAI-compatible server) could not serve a request."""


class RemoteUnavailable(RemoteError):
    """The remote cannot be reached, timed out, failed with 5xx, or broke a stream; the HCP fallback may answer.

    `str()` is the whole line with the fix (for when nothing falls back); `reason` is what happened alone,
    for the notice when the fallback did answer."""

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason or message.split(" — ", 1)[0]


class RemoteAuthError(RemoteError):
    """The remote refused our API key (401/403)."""


class RemoteRequestError(RemoteError):
    """The remote rejected the request itself (4xx other than auth), e.g. an unknown model name."""


class RemoteProtocolError(RemoteError):
    """The remote answered with something that is not OpenAI chat-completion JSON/SSE (e.g. an HTML page)."""


class KeyStoreError(MolError):
    """No OS keyring backend can hold a secret; the environment variable is the way in."""


class ServeError(MolError):
    """`mol serve` cannot start as asked (unsafe bind, port in use)."""


class SchemaProblem(MolError):
    """A JSON Schema (response_format, a tool's parameters) is not a schema, or too big to become a grammar."""


def user_errors() -> tuple[type[Exception], ...]:
    """Every exception whose message is written for the person: the CLI prints these as one line, the app
    notifies them, `mol serve` answers them as JSON errors. One list, so no edge misses one."""
    from hcp.errors import HCPError
    from memory.errors import MemoryStoreError
    from personas import PersonaPackError

    return (MolError, HCPError, MemoryStoreError, PersonaPackError)
