"""The shipped route adapter: seeded once as L0's router layer, used by the route hop only, and it routes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mol_local.adapters.builtin import ROUTE_ADAPTER
from mol_local.adapters.manifest import check_checksums, read_manifest
from mol_local.adapters.registry import Registry
from trainer.route_data import requests


def test_shipped_folder_is_intact_and_fits_the_embedded_base(base_model_path: Path) -> None:
    from mol_local.models import base_fingerprint

    manifest = read_manifest(ROUTE_ADAPTER)
    check_checksums(ROUTE_ADAPTER, manifest)
    assert manifest["base_fingerprint"] == base_fingerprint(base_model_path)
    assert manifest["hops"] == ["route"] and manifest["slot"] == "L0" and manifest["layer"] == "router"
    assert manifest["eval"]["heldout_accuracy_transformers"] >= 0.75
    assert len(manifest["training_data_ids"]) >= 400


def test_seeded_once_route_hop_only_and_rollback_is_respected(runtime, mol_home: Path) -> None:
    stack = runtime.router.stack
    registry = Registry(mol_home / "adapters")
    active = registry.active("L0", "router")
    assert active is not None and active.manifest["name"] == "smollm2-route"
    assert [s.path for s in stack] == [str(active.gguf)]
    assert str(active.gguf) not in [s.path for s in runtime.slot_stack("L0")]  # the answer hop does not apply it
    registry.rollback("L0", "router")
    assert runtime.router.stack == ()
    runtime._adapters_seeded = False  # a fresh start must not seed it again
    assert runtime.router.stack == () and [r.revision for r in registry.revisions("L0", "router")] == ["r0001"]


@pytest.mark.slow
def test_routes_unseen_requests(runtime) -> None:
    rows = list(requests("heldout"))
    sample = [r for slot in ("L0", "L1", "L2", "L3") for r in [x for x in rows if x["slot"] == slot][:6]]
    router = runtime.router
    hits = sum(router.route(r["text"]).slot == r["slot"] for r in sample)
    assert hits / len(sample) >= 0.75, json.dumps(sample)  # zero-shot is ~25%


TICK_OFFS = ["I've watered the plants, tick that reminder off", "buy milk is done, please mark it done",
             "You can cross 'call the dentist' off my reminders now, it's done", "The bins are out, you can tick that off",
             "done with the dentist call, mark the reminder complete"]  # none is a route template; the v4 router sent all to L0
NEW_REMINDERS = ["Remind me to call the dentist tomorrow at 9am", "Remind me to buy milk on Saturday at 10am", "What reminders do I have?"]


@pytest.mark.slow
def test_a_tick_off_goes_to_the_agent_and_a_new_reminder_stays_on_chat(runtime) -> None:
    """Ticking off needs reminders.list then reminders.complete, which only the L1 specialist learned (L0 made up a
    reminder for 'the dentist' instead)."""
    router = runtime.router
    ticked = [t for t in TICK_OFFS if router.route(t).slot == "L1"]
    assert len(ticked) >= 4, ticked
    assert [router.route(t).slot for t in NEW_REMINDERS] == ["L0"] * len(NEW_REMINDERS)
