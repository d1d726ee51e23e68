"""Route: the entry slot reads the request and emits exactly one slot label.

Under the grammar the output is always a label; a remote engine is not held to
our grammar, so junk falls back to the HCP fallback slot and is recorded.
The routing prompt's stable part (instruction) comes first so its KV is reused.
A local engine scores the labels from one forward pass (`Engine.choose`), which
picks what greedy decoding under the label grammar would, minus the decode steps.

Modes (HCP routing.mode): `grammar` (the above), `fixed` (always the entry
slot), `embed` (the embeddings head of mol_local.route_embed alone) and
`hybrid` (the head when it is at least routing.min_confidence sure, else the
grammar). A record's mode says which path decided: "embed" or "grammar".

Before either, in every mode but `fixed`: a request that asks for a view by
name ("a checklist for the move: …", "count down ten minutes") goes to the UI
slot (`view_slot`) as the slot table in DESIGN §3 says, mode "rule" — the
route adapter sent 12 of 30 held-out view requests elsewhere, while the rule
(`genui.asked.names_a_view`) matches none of the other slots' requests in the
route and specialist sets. Likewise a request that hands over a text to work on
("Summarize in one sentence: …", "Rewrite this more politely: …", "Translate
'…' into French") goes to the entry slot, the chat specialist, mode "rule": the
route adapter sent "Summarize in one sentence: The meeting moved from Tuesday to
Thursday …" to L1, which ticked reminders off instead (`mol chat`). A request to see the notes or the
reminders ("Show my notes", `turn/ground.py`) goes to the entry slot too, which reads them: the route adapter
sent "Show my notes" to L3, which drew an empty checklist called "Notes". So does a request that moves or cancels a
reminder it names ("Push the birthday card reminder to Saturday" had been drawn as a card of two toggles).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Sequence

from memory.errors import MemoryStoreError
from memory.timeline import RouteRecord
from mol_local.engine.base import Engine, GenerationRequest, Message, Stack
from mol_local.errors import MolError
from mol_local.genui.asked import names_a_view
from mol_local.route_embed import EmbedClassifier
from mol_local.structured import choice_grammar
from mol_local.turn.ground import asks_to_see_notes, asks_to_see_reminders
from mol_local.turn.notes_asked import note_question_call
from mol_local.turn.rescheduled import edits_a_reminder


_TEXT_WORK = re.compile(
    r"^(?:(?:please|can you|could you|would you)\s+)*(?:summari[sz]e|sum up|tl;?dr|rephrase|paraphrase|reword|rewrite|proofread|"
    r"shorten|simplify|(?:fix|correct|check) the (?:grammar|spelling)(?: (?:in|of))?|translate)\b[^:\"“']{0,60}"
    r"(?::\s*\S+(?:\s+\S+){3,}|[\"“'‘][^\"”'’]{3,}[\"”'’])", re.IGNORECASE)


def works_on_given_text(text: str) -> bool:
    """Whether the request asks for a summary, a rewrite, a proofread or a translation of a text it gives (after a
    colon, at least four words, or in quotes)."""
    return bool(_TEXT_WORK.match(text.strip()))


def label_grammar(labels: Sequence[str]) -> str:
    return choice_grammar(labels)  # the shared grammar path (mol_local/structured.py): a bare label, not JSON


def route_messages(instruction: str, text: str) -> list[Message]:
    return [{"role": "system", "content": instruction}, {"role": "user", "content": text}]


def parse_route(raw: str, labels: Sequence[str], fallback: str) -> tuple[str, bool]:
    """The label in `raw`, or (fallback, True) when it is not exactly one known label."""
    cleaned = raw.strip().strip(".").strip()
    if cleaned in labels:
        return cleaned, False
    found = set(re.findall(r"\bL\d\b", raw))
    if len(found) == 1 and (label := found.pop()) in labels:
        return label, False
    return fallback, True


class Router:
    def __init__(
        self,
        engine: Engine,
        *,
        instruction: str,
        labels: Sequence[str],
        mode: str = "grammar",
        entry_slot: str = "L0",
        fallback: str = "L0",
        max_tokens: int = 24,
        stack: Stack = (),
        use_grammar: bool = True,
        classifier: EmbedClassifier | None = None,
        min_confidence: float = 0.9,
        view_slot: str | None = None,
    ) -> None:
        if mode in ("hybrid", "embed") and classifier is None:
            raise ValueError(f"routing mode {mode!r} needs an embeddings classifier")
        self.engine = engine
        self.instruction = instruction
        self.labels = list(labels)
        self.mode = mode
        self.entry_slot = entry_slot
        self.fallback = fallback
        self.max_tokens = max_tokens
        self.stack = stack
        self.grammar = label_grammar(self.labels) if use_grammar else None
        self.classifier = classifier
        self.min_confidence = min_confidence
        self.view_slot = view_slot if view_slot in self.labels else None
        self._warming: threading.Thread | None = None

    def warm(self) -> None:
        """Load the embeddings head and its embedder (hybrid/embed) so the first request does not."""
        if self.classifier is not None:
            self.classifier.warm()

    def warm_in_background(self) -> threading.Thread:
        """`warm` on a daemon thread. Loading MiniLM takes ~8 s on 2 cores (most of it importing
        sentence-transformers); until it is done, hybrid asks the grammar route (~0.1 s) instead of
        waiting, and embed mode waits. A head that fails to load fails the next route that needs it."""
        self._warming = threading.Thread(target=self._warm_quietly, name="router-warm", daemon=True)
        self._warming.start()
        return self._warming

    def _warm_quietly(self) -> None:
        try:
            self.warm()
        except (MolError, MemoryStoreError):  # no one to tell on this thread; the next route that needs the head loads it again and raises
            pass

    def _head_loading(self) -> bool:
        return self._warming is not None and self._warming.is_alive()

    def prewarm(self, cancel: threading.Event | None = None) -> int:
        """Put the grammar route's instruction into the route sequence's KV (speculative: never evicts
        a slot), so even the first request the head is unsure of evaluates only itself. Tokens evaluated."""
        if self.mode == "fixed" or (self.mode == "embed" and self.classifier is not None):
            return 0
        try:
            return self.engine.prefill("route", route_messages(self.instruction, "")[:1], self.stack, cancel, speculative=True)
        except MolError:
            return 0  # a full cache or an unloadable stack: the first grammar route says why

    def route(self, text: str, cancel: threading.Event | None = None) -> RouteRecord:
        t0 = time.perf_counter()
        if self.mode == "fixed":
            return RouteRecord(self.entry_slot, "fixed", "", False, 0.0)
        if self.view_slot is not None and names_a_view(text):
            return RouteRecord(self.view_slot, "rule", "names a view", False, (time.perf_counter() - t0) * 1000)
        if works_on_given_text(text) and self.entry_slot in self.labels:
            return RouteRecord(self.entry_slot, "rule", "works on a given text", False, (time.perf_counter() - t0) * 1000)
        if (asks_to_see_notes(text) or asks_to_see_reminders(text) or note_question_call(text)) and self.entry_slot in self.labels:
            return RouteRecord(self.entry_slot, "rule", "reads the notes or reminders", False, (time.perf_counter() - t0) * 1000)
        if edits_a_reminder(text) and self.entry_slot in self.labels:
            return RouteRecord(self.entry_slot, "rule", "moves or cancels a reminder", False, (time.perf_counter() - t0) * 1000)
        if self.mode == "embed" and self._head_loading():
            self._warming.join()  # type: ignore[union-attr]
        if self.mode in ("hybrid", "embed") and self.classifier is not None and not self._head_loading():
            guess = self.classifier.classify(text, self.labels)
            if guess is not None and (self.mode == "embed" or guess[1] >= self.min_confidence):
                return RouteRecord(guess[0], "embed", f"{guess[0]} p={guess[1]:.3f}", False, (time.perf_counter() - t0) * 1000)
            if guess is None and self.mode == "embed":
                return RouteRecord(self.fallback, "embed", "", True, (time.perf_counter() - t0) * 1000)
        return self._route_grammar(text, cancel, t0)

    def _route_grammar(self, text: str, cancel: threading.Event | None, t0: float) -> RouteRecord:
        if self.grammar is not None:
            chosen = self.engine.choose("route", route_messages(self.instruction, text), self.labels, self.stack, cancel)
            if chosen is not None:
                return RouteRecord(chosen, "grammar", chosen, False, (time.perf_counter() - t0) * 1000)
        result = self.engine.generate(
            GenerationRequest(
                seq="route",
                messages=route_messages(self.instruction, text),
                stack=self.stack,
                max_tokens=self.max_tokens,
                temperature=0.0,
                grammar=self.grammar,
                cancel=cancel,
            )
        )
        slot, fell_back = parse_route(result.text, self.labels, self.fallback)
        return RouteRecord(slot, "grammar", result.text, fell_back, (time.perf_counter() - t0) * 1000)
