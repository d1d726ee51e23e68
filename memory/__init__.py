"""Per-user memory: the SQLite store (timeline, memories, consent) and its vector index.

Import the submodules you need (`memory.db`, `memory.timeline`, ...): this package
imports nothing itself, so `memory.errors` stays cheap for the CLI's start-up.
"""
