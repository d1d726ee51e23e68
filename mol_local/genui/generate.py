"""L3 composes a UI document: grammar-constrained generation, one repair, then plain text.

The grammar is llama.cpp's JSON-schema converter applied to the catalog's
generation schema, then tightened where the converter leaves things
unbounded: object keys (state and action ids) get the id pattern, and the
number of state entries / actions / payload fields is capped, so every
generated document is finite and parses.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache

from llama_cpp.llama_grammar import json_schema_to_gbnf

from mol_local.engine.base import Engine, GenerationRequest, Message, Stack
from mol_local.genui.catalog import COMPONENTS, GEN_MAX_COMPONENTS, catalog_prompt, document_schema
from mol_local.genui.asked import asked_kinds
from mol_local.genui.document import UIDocument, parse_document
from mol_local.genui.errors import InvalidDocument
from mol_local.genui.ground import ground
from mol_local.genui.repair import repair as repair_document
from mol_local.genui.grid import grid_document
from mol_local.genui.rota import whole_view

MAX_KEYS = 5  # state entries, actions, payload fields per document under the grammar
GAP = 3  # free components allowed between two kinds the request named
_KVS = re.compile(r"^(?P<name>[\w-]+-additional-kvs) ::= (?P<kv>[\w-]+) \( \"?,\"? space (?P=kv) \)\*$", re.M)
_KEY_KV = re.compile(r"^(?P<name>[\w-]+-additional-kv) ::= string ", re.M)
_ITEM = re.compile(r"^components-item ::= .*components-item-type-kv.*$", re.M)
_COMPONENTS = re.compile(r"^components ::= .*$", re.M)

EXAMPLE = (
    '{"catalog":"1","title":"Packing list","components":['
    '{"id":"box","type":"Card","label":"Trip","children":["list","ask"]},'
    '{"id":"list","type":"Checklist","label":"Pack","bind":"items"},'
    '{"id":"ask","type":"Button","label":"Suggest more","action":"more"}],'
    '"state":{"items":[{"label":"Passport","done":false},{"label":"Charger","done":false}]},'
    '"actions":{"more":{"kind":"ask_model","target":"list","payload":{},"visibility":"model"}}}'
)

GUIDE = (
    "Answer each request with one UI document in JSON, nothing else. Components:\n{catalog}\n"
    "Each action has kind (set_state, submit, call_tool, ask_model), target, payload, visibility (model or noai). "
    "Inputs bind state keys. Example:\n{example}"
)


@lru_cache(maxsize=64)
def document_grammar(kinds: tuple[str, ...] = ()) -> str:
    """GBNF for a generated document (cached: the schema is fixed per catalog version).

    `kinds` (mol_local.genui.asked: what the request named) become the first components, in order,
    after an optional Card when the first is not a container; the rest of the list stays free."""
    gbnf = json_schema_to_gbnf(json.dumps(document_schema(generation=True)))
    gbnf, n_kv = _KEY_KV.subn(lambda m: f"{m['name']} ::= key ", gbnf)
    gbnf, n_kvs = _KVS.subn(lambda m: f"{m['name']} ::= {m['kv']} ( \",\" space {m['kv']} ){{0,{MAX_KEYS - 1}}}", gbnf)
    item = _ITEM.search(gbnf)
    if n_kv != 3 or n_kvs != 3 or item is None or not _COMPONENTS.search(gbnf):
        raise RuntimeError(f"the llama.cpp schema converter changed shape ({n_kv} keys, {n_kvs} maps) — update generate.py")
    gbnf += '\nkey ::= "\\"" [a-z] [a-z0-9_]{0,15} "\\"" space\n'
    return _with_kinds(gbnf, item.group(0), kinds) if kinds else gbnf


def _with_kinds(gbnf: str, item: str, kinds: tuple[str, ...]) -> str:
    """Replace the components rule by one whose first items have the named types."""

    def typed(kind: str) -> str:
        return item.replace("components-item ::=", f"kind-{kind.lower()} ::=", 1).replace(
            "components-item-type-kv", f'"\\"type\\"" space ":" space "\\"{kind}\\""', 1)

    card = not COMPONENTS[kinds[0]].container  # the trained documents often open with a Card around the rest
    rules = [typed(k) for k in (("Card",) if card else ()) + kinds]
    lead = '(kind-card "," space)? ' if card else ""
    # up to GAP free components between named ones: a form's fields come before its "and a toggle for …"
    named = f' ("," space components-item){{0,{GAP}}} "," space '.join(f"kind-{k.lower()}" for k in kinds)
    free = GEN_MAX_COMPONENTS - len(kinds) - int(card)
    rest = f' ("," space components-item){{0,{free}}}' if free > 0 else ""
    components = f'components ::= "[" space {lead}{named}{rest} "]" space'
    return _COMPONENTS.sub(lambda _m: components, gbnf, count=1) + "\n".join(rules) + "\n"


@lru_cache(maxsize=1)
def ui_guide() -> str:
    """The catalog, the action fields and one example: ~420 tokens that go in L3's head, so its KV is reused."""
    return GUIDE.format(catalog=catalog_prompt(), example=EXAMPLE)


def ui_prompt(request: str) -> str:
    """Guide and request in one user message: the placement before the guide moved to L3's head, kept so
    `mol bench genui --placement tail` can compare the two."""
    return f"{ui_guide()}\n\nRequest: {request}"


@dataclass
class Composed:
    """What L3 produced: a valid document, or the fallback text saying what failed."""

    document: UIDocument | None
    text: str  # the document's JSON, or the plain-text fallback
    raw_first: str  # the first attempt as generated
    parsed_first: bool  # the first attempt was JSON
    valid_first: bool  # the first attempt passed semantic validation as generated (before any repair)
    attempts: int = 1
    problems: list[str] = field(default_factory=list)
    gen_ms: float = 0.0  # first attempt's generation time
    results: list = field(default_factory=list)  # GenerationResult of each attempt
    fixes: list[str] = field(default_factory=list)  # what the deterministic repair changed

    @property
    def repaired_first(self) -> bool:
        """The first attempt is valid after the deterministic repair (no second generation)."""
        return self.document is not None and self.attempts == 1


def _parses(text: str) -> bool:
    try:
        json.loads(text)
        return True
    except json.JSONDecodeError:
        return False


def check(text: str) -> tuple[UIDocument | None, list[str], list[str]]:
    """Validate generated text; when only semantic rules fail, try the deterministic repair.

    Returns (document or None, problems left, fixes applied by `repair`).
    """
    try:
        return parse_document(text), [], []
    except InvalidDocument as exc:
        problems = exc.problems
    try:
        fixed, fixes = repair_document(json.loads(text))
    except (json.JSONDecodeError, RecursionError):
        return None, problems, []
    if not fixes:
        return None, problems, []
    try:
        return parse_document(fixed), [], fixes
    except InvalidDocument as exc:
        return None, exc.problems, fixes


def compose(
    engine: Engine,
    messages: Sequence[Message],
    *,
    seq: str = "L3",
    stack: Stack = (),
    grammar: bool = True,
    max_tokens: int = 512,
    repair: bool = True,
    cancel: threading.Event | None = None,
    on_token: Callable[[str], None] | None = None,
    request: str = "",
    starters: bool = True,
    now: datetime | None = None,
) -> Composed:
    """Generate a document from `messages` (an L3 view: `ui_guide` in the head, the user's message as the tail).

    `on_token` gets the first attempt's pieces as they are written (a model repair is not streamed).
    `request` is the person's words: the component kinds it names come first under the grammar
    (mol_local.genui.asked), and a timer counts down the length it names (mol_local.genui.ground). With
    `starters`, a list that names no item starts with its kind's usual items (mol_local.genui.starters): for the
    embedded model, which cannot know them; a larger model's own items stay.

    Invalid output goes through the deterministic repair (`mol_local.genui.repair`) first; what
    that cannot fix gets one model repair attempt (when `repair`), then the plain-text fallback.
    """
    use_grammar = grammar and getattr(engine, "supports_grammar", True)
    kinds = asked_kinds(request)

    def run(msgs: Sequence[Message], stream: Callable[[str], None] | None = None):
        return engine.generate(GenerationRequest(
            seq=seq, messages=msgs, stack=stack, max_tokens=max_tokens, temperature=0.0,
            grammar=document_grammar(kinds) if use_grammar else None, repeat_penalty=1.0, cancel=cancel, on_token=stream,
        ))

    t0 = time.perf_counter()
    first = run(messages, on_token)
    gen_ms = (time.perf_counter() - t0) * 1000
    text = first.text.strip()
    out = Composed(None, text, text, _parses(text), False, gen_ms=gen_ms, results=[first])
    doc, out.problems, out.fixes = check(text)
    out.valid_first = doc is not None and not out.fixes
    if doc is not None:
        out.fixes += ground(doc, request, starters=starters, now=now)
        out.document, out.text = doc, doc.dumps()
        return out
    if cancel is not None and cancel.is_set():
        return out
    if first.finish_reason == "length" and not out.parsed_first:
        # a repair under the same budget would be cut off again: say what to change instead
        out.problems = [f"the document did not fit in {max_tokens} tokens — raise answer.max_tokens in the HCP"]
    elif repair:
        fix = list(messages) + [
            {"role": "assistant", "content": text},
            {"role": "user", "content": f"That document is invalid: {'; '.join(out.problems[:6])}. "
                                        "Reply with the corrected document only."},
        ]
        second = run(fix)
        out.results.append(second)
        out.attempts = 2
        doc, out.problems, fixes = check(second.text.strip())
        out.fixes += fixes
        if doc is not None:
            out.fixes += ground(doc, request, starters=starters, now=now)
            out.document, out.text = doc, doc.dumps()
            return out
    if (made := whole_view(request, now) or grid_document(request)) is not None:  # the view the request lays out needs no valid draft
        out.document, out.fixes = made[0], out.fixes + [made[1]]
        out.text = made[0].dumps()
        return out
    out.text = fallback_text(out.problems)
    return out


def fallback_text(problems: Sequence[str]) -> str:
    """The plain-text answer when no valid document came out: it says what failed."""
    listed = "\n".join(f"- {p}" for p in problems[:6])
    return f"I could not build this view; what failed:\n{listed}"
