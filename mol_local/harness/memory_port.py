"""memory.search / memory.remember through the memory package's MemoryBank."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memory.errors import InvalidMemory, MemoryStoreError
from memory.store import new_memory
from mol_local.extract import supersede
from mol_local.harness.errors import BadArguments, ToolFailed

if TYPE_CHECKING:
    from memory.bank import MemoryBank


class BankMemory:
    """Adapts `memory.bank.MemoryBank` to the harness's MemoryPort."""

    def __init__(self, bank: MemoryBank) -> None:
        self.bank = bank

    def search(self, query: str, k: int, *, conversation_id: str | None = None) -> list[str]:
        """The texts go into the calling turn's view: the bank notes them, so the commit records them as
        used and the turn's training eligibility follows their consent (memory.consent)."""
        try:
            hits = self.bank.search(query, max(1, min(k, 20)))
        except MemoryStoreError as exc:
            raise ToolFailed(f"memory search is unavailable ({exc})") from exc
        if conversation_id is not None:
            self.bank.viewing(conversation_id, hits)
        return [hit.memory.text for hit in hits]

    def remember(self, text: str, *, conversation_id: str | None) -> str:
        try:
            row = new_memory(text, kind="fact", origin="explicit", conversation_id=conversation_id)
        except InvalidMemory as exc:
            raise BadArguments(str(exc)) from exc
        try:
            self.bank.add([row], sources=self.bank.write_sources(conversation_id))  # the words may come from its view
            supersede(self.bank, row)  # "my dog is called Rufus" replaces "... Biscuit" rather than contradicting it
        except MemoryStoreError as exc:
            raise ToolFailed(f"the memory could not be stored ({exc})") from exc
        return row.id
