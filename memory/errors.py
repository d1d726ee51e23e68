"""User-facing errors of the memory package."""

from __future__ import annotations


class MemoryStoreError(Exception):
    """The store cannot be used as it is; the message names the fix."""


class SchemaTooNew(MemoryStoreError):
    """The database was written by a newer mol-local."""


class NotFound(MemoryStoreError):
    """A conversation, memory or other row the user named does not exist."""


class InvalidMemory(MemoryStoreError):
    """A memory's text (or an input file of memories) cannot be stored as given."""


class IndexUnavailable(MemoryStoreError):
    """The embedding model or the vector index cannot be loaded."""


class ConsentError(MemoryStoreError):
    """A consent command was given without what it needs."""


class TooManyPinned(InvalidMemory):
    """Pinning would exceed the number of memories every turn can carry."""
