"""Per-user memory: the SQLite store (timeline, memories, consent) and its vector index."""

from memory.db import open_db, transaction
from memory.errors import MemoryStoreError, NotFound, SchemaTooNew

__all__ = ["MemoryStoreError", "NotFound", "SchemaTooNew", "open_db", "transaction"]
