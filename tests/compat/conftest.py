"""The compatibility suite runs the real `mol serve` (tests/mol_local/server/conftest.py) with the installed openai SDK."""

from tests.mol_local.server.conftest import live, memory_keyring  # noqa: F401  (fixtures, re-exported for this folder)
