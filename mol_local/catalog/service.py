"""What `mol models` and the app's model picker share: the rows of the list, and `use`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from hcp import HCP
from mol_local.catalog.errors import ModelTooBig, UnknownModel
from mol_local.catalog.fit import available_ram, candidates, suggest
from mol_local.catalog.store import Catalog, Entry
from mol_local.errors import MolError


@dataclass(frozen=True)
class Row:
    """One model as the list and the picker show it (JSON-able with dataclasses.asdict)."""

    name: str
    in_use: bool
    state: str  # ok, changed, missing
    architecture: str
    parameters: int
    quant: str
    file_size: int
    context_length: int | None
    template: bool
    fits: str  # "yes (n_ctx 4096 split)" or "no"
    needs_bytes: int
    source: str
    path: str


def catalog() -> Catalog:
    from mol_local.paths import mol_home

    return Catalog(mol_home())


def in_use(hcp: HCP) -> str | None:
    """The resolved path of the HCP's base model (None for a remote backend or a missing file)."""
    from mol_local.models import resolve_model

    if hcp.backend != "llama-cpp":
        return None
    try:
        return str(resolve_model(hcp.base_model, relative_to=hcp.base_dir).resolve())
    except MolError:
        return None


def row(entry: Entry, using: str | None, available: int) -> Row:
    f = entry.facts
    try:
        fit = suggest(f, available=available)
        fits = f"yes (n_ctx {fit.n_ctx} {fit.kv_layout})"
    except ModelTooBig:
        fit = min(candidates(f), key=lambda e: e.with_runtime)
        fits = "no"
    return Row(entry.name, entry.path == using, entry.state(), f.architecture, f.parameters, f.quant, f.file_size,
               f.context_length, f.has_template, fits, fit.with_runtime, entry.source, entry.path)


def rows(hcp: HCP) -> tuple[int, list[Row]]:
    """(bytes of RAM free now, one row per catalogued model, the embedded one first)."""
    available = available_ram()
    using = in_use(hcp)
    return available, [row(e, using, available) for e in catalog().entries().values()]


def use_model(name: str, hcp: HCP, *, n_ctx: int | None = None, kv_layout: str | None = None, reason: str | None = None):
    """Check NAME (a catalog name, or a GGUF path that is added first) and write one HCP version: (version, plan)."""
    from hcp.store import VersionStore
    from mol_local.adapters.registry import Registry
    from mol_local.catalog.choose import plan_use
    from mol_local.paths import mol_home

    cat = catalog()
    try:
        entry = cat.checked(name)
    except UnknownModel:
        if not Path(name).expanduser().is_file():
            raise
        entry = cat.add(Path(name))
    plan = plan_use(entry, hcp, Registry(mol_home() / "adapters"), n_ctx=n_ctx, kv_layout=kv_layout)
    version = VersionStore(mol_home()).update(plan.changes, reason=reason or f"mol models use {entry.name}")
    return version, plan


def base_notes(runtime) -> list[str]:
    """What the app says at model load about this base: no chat template, slots that run bare here."""
    from mol_local.adapters.registry import Registry
    from mol_local.catalog.choose import adapters_note, template_note
    from mol_local.catalog.facts import read_facts

    if runtime.hcp.backend != "llama-cpp":
        return []
    facts = read_facts(runtime.model_path())
    return [n for n in (template_note(facts), adapters_note(facts.fingerprint, Registry(runtime.adapters_root()))) if n]
