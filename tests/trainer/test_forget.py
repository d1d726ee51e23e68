"""Forget-aware retraining: a revision marked by a forget is skipped back to its last clean parent."""

from __future__ import annotations

import time
from pathlib import Path

from memory.forget import mark_revisions
from mol_local.adapters.registry import Registry
from tests.trainer.conftest import FACTS, commit
from trainer.nightly import personal_lineage
from trainer.select import select


def _register(registry: Registry, lora: Path, base: Path, parent: str | None, ids: list[str], until: str):
    return registry.register("L1", "personal", lora, base=base, parent=parent, training_ids=ids, extra={"data_until": until}, activate=True)


def test_marked_revision_retrains_from_last_clean_parent(runtime, lora_dir: Path, base_model_path: Path) -> None:
    first = commit(runtime, FACTS[:3])
    t1 = [r["id"] for r in runtime.db.query("select id from tasks where conversation_id = ?", [first])]
    until1 = max(r["closed_at"] for r in runtime.db.query("select closed_at from tasks"))
    time.sleep(0.005)  # timestamps have millisecond resolution: a commit in the same millisecond would tie with the cut
    second = commit(runtime, FACTS[3:6])
    t2 = [r["id"] for r in runtime.db.query("select id from tasks where conversation_id = ?", [second])]
    registry = Registry(runtime.adapters_root())
    _register(registry, lora_dir / "a.gguf", base_model_path, None, [f"task:{t}" for t in t1], until1)
    from memory.consent import training_id

    r1 = registry.active("L1", "personal")
    r2 = _register(registry, lora_dir / "b.gguf", base_model_path, r1.revision, [training_id(t) for t in t2], "9999")
    assert personal_lineage(registry, runtime.db, "L1")[1].revision == r2.revision  # nothing forgotten yet

    marked = mark_revisions(runtime.db, registry, [t2[0]], "conversation forgotten")
    assert marked == [str(r2.path)]
    active, parent, dirty = personal_lineage(registry, runtime.db, "L1")
    assert active.revision == r2.revision and parent.revision == r1.revision and dirty == [r2.revision]
    # the retrain selects everything after the clean parent again (minus what was forgotten)
    sel = select(runtime.db, "L1", default_on=False, since=parent.manifest["data_until"])
    assert {t.task_id for t in sel.train + sel.holdout} == set(t2)

    mark_revisions(runtime.db, registry, [t1[0]], "memory forgotten")
    active, parent, dirty = personal_lineage(registry, runtime.db, "L1")
    assert parent is None and dirty == [r2.revision, r1.revision]  # no clean ancestor: start fresh
