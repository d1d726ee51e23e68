"""`mol models use NAME`: check a catalogued base, then write it into the HCP as one new version.

Every check runs before anything is written, so a refused model leaves the current
one in use: the file must still be there and parse, fit in the RAM free now (with
the numbers when it does not), and load in llama.cpp (a vocabulary-only load in a
child process, so even a file llama.cpp aborts on cannot take this process down).
The new version sets runtime.base_model, n_ctx, kv_layout (and kv_cells), and
routing.mode: a base with a route adapter keeps `hybrid`; one without routes with
the embeddings head (base-independent) or, without that head, the grammar zero-shot.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hcp import HCP
from mol_local.catalog.errors import UnloadableModel
from mol_local.catalog.facts import ModelFacts
from mol_local.catalog.fit import Estimate, suggest
from mol_local.catalog.store import Entry
from mol_local.errors import MolError

NO_TEMPLATE = "no chat template: a base model? answers will be poor"
_PROBE = (
    "import sys, llama_cpp\n"
    "from llama_cpp._internals import LlamaModel\n"
    "p = llama_cpp.llama_model_default_params()\n"
    "p.vocab_only = True\n"
    "try:\n"
    "    LlamaModel(path_model=sys.argv[1], params=p, verbose=True)\n"
    "except ValueError:\n"
    "    sys.exit(3)\n"
)


@dataclass
class Plan:
    entry: Entry
    estimate: Estimate
    routing_mode: str
    changes: dict[str, Any]
    notes: list[str] = field(default_factory=list)  # one line each: template, adapters, routing


def template_note(facts: ModelFacts) -> str | None:
    """The one-line warning for a GGUF without tokenizer.chat_template (add, use, doctor)."""
    if facts.has_template:
        return None
    from mol_local.engine.template import FALLBACK

    return f"{NO_TEMPLATE} ({Path(facts.path).name} has no tokenizer.chat_template; mol-local writes a {FALLBACK.name} and stops at the next turn)"


def probe_llama(facts: ModelFacts) -> None:
    """A vocabulary-only load in a child: UnloadableModel (with llama.cpp's reason) if it fails or aborts."""
    import llama_cpp

    env = {**os.environ, "GGML_NO_BACKTRACE": "1"}
    try:
        done = subprocess.run([sys.executable, "-c", _PROBE, facts.path], env=env, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired as exc:
        raise UnloadableModel(f"llama.cpp took over 5 minutes to read {facts.path} — check the disk, or pick another model") from exc
    if done.returncode == 0:
        return
    reason = next((line.split("error loading model", 1)[1].strip(" :") for line in reversed(done.stderr.splitlines())
                   if "error loading model" in line), "")
    how = "crashed reading" if done.returncode < 0 else "cannot load"
    raise UnloadableModel(
        f"llama.cpp (llama-cpp-python {llama_cpp.__version__}) {how} {facts.path}"
        f" (architecture {facts.architecture!r}{'; ' + reason if reason else ''}) — pick a model of an architecture it supports"
        " (llama, qwen2, qwen3, gemma3, mistral, phi3, ...) or upgrade llama-cpp-python; the current model stays in use"
    )


def route_adapter_for(fingerprint: str, registry) -> bool:
    """Whether a route-hop adapter exists for this base: registered (any revision) or shipped for it."""
    import json

    from mol_local.adapters.builtin import ROUTE_ADAPTER
    from mol_local.adapters.manifest import LAYERS

    for layer in LAYERS:
        for rev in registry.revisions("L0", layer):
            if rev.manifest.get("base_fingerprint") == fingerprint and "route" in rev.manifest.get("hops", ["route", "answer"]):
                return True
    try:
        shipped = json.loads((ROUTE_ADAPTER / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return shipped.get("base_fingerprint") == fingerprint


def routing_for(fingerprint: str, registry) -> str:
    if route_adapter_for(fingerprint, registry):
        return "hybrid"
    from mol_local.route_embed import SHIPPED_HEAD

    return "embed" if Path(SHIPPED_HEAD).is_file() else "grammar"


def adapters_note(fingerprint: str, registry) -> str | None:
    """Which slots have adapters for this base, and that the others' adapters are kept for their own base."""
    from mol_local.adapters.manifest import LAYERS
    from mol_local.adapters.registry import SLOTS

    mine, other = set(), set()
    for slot in SLOTS:
        for layer in LAYERS:
            for rev in registry.revisions(slot, layer):
                (mine if rev.manifest.get("base_fingerprint") == fingerprint else other).add(slot)
    if not other - mine:
        return None
    bare = ", ".join(sorted(other - mine))
    return f"slots {bare} have adapters for another base only: they run bare on this one (their adapters are kept for their base)"


def explicit_adapters(hcp: HCP, base_path: Path) -> tuple[dict[str, Any], list[str]]:
    """HCP-listed adapters (slots.*.adapters, routing.adapters) that do not fit the new base are left out, said so."""
    from mol_local.models import check_adapter_fits, inspect_gguf

    base = inspect_gguf(base_path)
    changes: dict[str, Any] = {}
    notes: list[str] = []
    stacks = {f"slots.{label}.adapters": cfg.adapters for label, cfg in hcp.slots.items()}
    stacks["routing.adapters"] = hcp.routing.adapters
    for key, refs in stacks.items():
        keep = []
        for ref in refs:
            try:
                check_adapter_fits(inspect_gguf(hcp.resolve_path(ref.path), what="adapter"), base)
                keep.append({"path": ref.path, "scale": ref.scale})
            except MolError as exc:
                notes.append(f"{key}: {ref.path} left out of this version ({exc}); `mol hcp rollback` brings it back")
        if len(keep) != len(refs):
            changes[key] = keep
    return changes, notes


def plan_use(entry: Entry, hcp: HCP, registry, *, available: int | None = None, n_ctx: int | None = None,
             kv_layout: str | None = None, probe: bool = True) -> Plan:
    """Every check, nothing written: ModelTooBig / UnloadableModel / CorruptModel stop here."""
    facts = entry.facts
    est = suggest(facts, available=available, n_ctx=n_ctx, kv_layout=kv_layout, sequences=len(hcp.slots) + 1)
    if probe:
        probe_llama(facts)
    mode = routing_for(facts.fingerprint, registry)
    changes: dict[str, Any] = {
        "runtime.backend": "llama-cpp",
        "runtime.base_model": entry.ref,
        "runtime.n_ctx": est.n_ctx,
        "runtime.kv_layout": est.kv_layout,
        "routing.mode": mode,
    }
    if est.kv_layout == "unified":
        changes["runtime.kv_cells"] = est.kv_cells
    dropped, notes = explicit_adapters(hcp, Path(entry.path))
    changes.update(dropped)
    for note in (template_note(facts), adapters_note(facts.fingerprint, registry)):
        if note:
            notes.insert(0, note)
    if mode != "hybrid":
        notes.append(f"routing.mode = {mode}: no route adapter for this base, so "
                     + ("the embeddings head routes (it does not depend on the base)" if mode == "embed" else "the grammar route runs zero-shot"))
    return Plan(entry, est, mode, changes, notes)
