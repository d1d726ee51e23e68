"""Adapters screen: registry revisions listed with the active one; activate and roll back (confirmed); export."""

from __future__ import annotations

import pytest

from app.screens.adapters import AdaptersScreen
from app.screens.modals import Confirm, TextPrompt
from tests.app.conftest import wait_for

pytestmark = pytest.mark.asyncio


@pytest.fixture
def registry(app_runtime, lora_dir, base_model_path):
    from mol_local.adapters.registry import Registry

    reg = Registry(app_runtime.adapters_root())
    reg.register("L2", "personal", lora_dir / "a.gguf", base=base_model_path, evidence={"gate": "promoted", "new_data_gain_rel": 0.05})
    reg.register("L2", "personal", lora_dir / "b.gguf", base=base_model_path, parent="r0001", evidence={"gate": "promoted"})
    reg.activate("L2", "personal", "r0001")
    reg.activate("L2", "personal", "r0002")
    return reg


def table_text(app) -> list[list[str]]:
    table = app.screen.query_one("#adapters-table")
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


async def open_adapters(pilot) -> None:
    await wait_for(pilot, lambda: pilot.app.runtime is not None, what="the runtime")
    await pilot.press("f5")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, AdaptersScreen), what="the adapters screen")
    await pilot.pause()


async def test_rollback_asks_then_moves_the_pointer(make_app, registry) -> None:
    app = make_app()
    async with app.run_test(size=(120, 34)) as pilot:
        await open_adapters(pilot)
        rows = [r for r in table_text(app) if r[1] == "personal"]
        assert [(r[2], r[3]) for r in rows] == [("r0001", ""), ("r0002", "● active")]
        assert "gate=promoted" in rows[0][6]
        screen = app.screen
        screen.query_one("#adapters-table").move_cursor(row=screen.rows.index(("L2", "personal", "r0002")))
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        await pilot.press("escape")
        await pilot.pause()
        assert registry.pointer("L2", "personal")["revision"] == "r0002"
        await pilot.press("r")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert registry.pointer("L2", "personal")["revision"] == "r0001"
        assert [(r[2], r[3]) for r in table_text(app) if r[1] == "personal"] == [("r0001", "● active"), ("r0002", "")]
        screen.query_one("#adapters-table").move_cursor(row=screen.rows.index(("L2", "personal", "r0002")))
        await pilot.press("a")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert registry.pointer("L2", "personal")["revision"] == "r0002"


async def test_export_writes_a_bundle_and_import_refuses_a_missing_file(make_app, registry, tmp_path) -> None:
    app = make_app()
    out = tmp_path / "l2.moladapter"
    async with app.run_test(size=(120, 34)) as pilot:
        await open_adapters(pilot)
        screen = app.screen
        screen.query_one("#adapters-table").move_cursor(row=screen.rows.index(("L2", "personal", "r0001")))
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, TextPrompt)
        app.screen.query_one("#prompt-value").value = str(out)
        await pilot.press("enter")
        await wait_for(pilot, lambda: out.is_file() or any(n.severity == "error" for n in app._notifications), what="the bundle file")
        assert out.is_file(), [str(n.message) for n in app._notifications]
        await pilot.press("i")
        await pilot.pause()
        app.screen.query_one("#prompt-value").value = str(tmp_path / "nope.moladapter")
        await pilot.press("enter")
        await pilot.pause()
        assert any("No file at" in str(n.message) for n in app._notifications if n.severity == "error")


async def test_import_brings_an_exported_bundle_back(make_app, registry, tmp_path) -> None:
    from mol_local.adapters.bundle import export_bundle

    bundle = export_bundle(registry, "L2/personal", tmp_path / "b.moladapter", revision="r0002")
    app = make_app()
    async with app.run_test(size=(120, 34)) as pilot:
        await open_adapters(pilot)
        await pilot.press("i")
        await pilot.pause()
        app.screen.query_one("#prompt-value").value = str(bundle)
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(registry.revisions("L2", "personal")) == 3 or any(n.severity == "error" for n in app._notifications), what="the import")
        assert [r.revision for r in registry.revisions("L2", "personal")] == ["r0001", "r0002", "r0003"], [str(n.message) for n in app._notifications]
        assert registry.pointer("L2", "personal")["revision"] == "r0002", "an import is not activated by itself"
