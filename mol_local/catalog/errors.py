"""User-facing errors of `mol models` (catalog, scan, use, pull).

Every message is one line naming the problem and the fix; they subclass
MolError so the CLI prints them without a traceback and the app notifies.
"""

from __future__ import annotations

from mol_local.errors import MolError


class CatalogError(MolError):
    """Base class of model catalog problems."""


class UnknownModel(CatalogError):
    """A name given to `mol models info/use/remove` is not in the catalog."""


class ModelGone(CatalogError):
    """A catalogued model's file was moved or deleted after it was added."""


class ModelTooBig(CatalogError):
    """The model (weights + KV cache + overhead) needs more RAM than this machine has free."""


class UnloadableModel(CatalogError):
    """llama.cpp cannot load the file (an architecture it does not know, a tokenizer it lacks)."""


class CatalogWriteError(CatalogError):
    """The catalog file under MOL_HOME cannot be written (read-only folder, full disk)."""


class PullError(CatalogError):
    """`mol models pull` could not fetch a file (offline, unknown repo, disk full, checksum)."""
