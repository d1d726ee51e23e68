"""Adapters screen: registry revisions listed with the active one; activate and roll back (confirmed); export."""

from __future__ import annotations

import pytest

from app.screens.adapters import AdaptersScreen
from app.screens.file_picker import FilePicker
from app.screens.modals import Confirm
from tests.app.conftest import type_text, wait_for

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


async def type_path(pilot, widget_id: str, text: str) -> None:
    """Focus a picker box, clear it with the keyboard, and paste `text` the way the terminal does."""
    pilot.app.screen.query_one(widget_id).focus()
    await pilot.press("end", "ctrl+u")
    await type_text(pilot, text)


def tree_labels(picker) -> list[str]:
    tree = picker.query_one("#picker-tree")
    return [str(node.label) for node in tree.root.children]


async def test_export_through_the_picker_then_confirm_replacing(make_app, registry, tmp_path) -> None:
    out = tmp_path / "l2.moladapter"
    app = make_app()
    async with app.run_test(size=(120, 34)) as pilot:
        await open_adapters(pilot)
        screen = app.screen
        screen.query_one("#adapters-table").move_cursor(row=screen.rows.index(("L2", "personal", "r0001")))
        await pilot.press("e")
        await pilot.pause()
        picker = app.screen
        assert isinstance(picker, FilePicker)
        assert picker.query_one("#picker-name").value == "L2-personal-r0001.moladapter"
        await type_path(pilot, "#picker-path", str(tmp_path))
        await pilot.press("enter")
        await pilot.pause()
        assert picker.query_one("#picker-tree").has_focus
        await type_path(pilot, "#picker-name", "l2")
        await pilot.press("enter")  # the suffix is added
        await wait_for(pilot, lambda: out.is_file() or any(n.severity == "error" for n in app._notifications), what="the bundle file")
        assert out.is_file(), [str(n.message) for n in app._notifications]
        first = out.stat().st_mtime_ns
        await pilot.press("e")
        await pilot.pause()
        await type_path(pilot, "#picker-name", str(out.name))
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, Confirm), "the picker starts where the last export went, and replacing asks first"
        await pilot.press("y")
        await wait_for(pilot, lambda: out.stat().st_mtime_ns != first, what="the replaced bundle")


async def test_picker_refuses_a_missing_folder_and_a_name_with_folders(make_app, registry, tmp_path) -> None:
    app = make_app()
    async with app.run_test(size=(120, 34)) as pilot:
        await open_adapters(pilot)
        await pilot.press("e")
        await pilot.pause()
        await type_path(pilot, "#picker-path", str(tmp_path / "nope" / "x.moladapter"))  # its folder does not exist
        await pilot.press("enter")
        await pilot.pause()
        await type_path(pilot, "#picker-name", "a/b")
        await pilot.press("enter")
        await pilot.pause()
        errors = [str(n.message) for n in app._notifications if n.severity == "error"]
        assert any("No folder or file at" in m for m in errors) and any("no folders in it" in m for m in errors)
        assert isinstance(app.screen, FilePicker)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, AdaptersScreen) and not list(tmp_path.rglob("*.moladapter"))


async def test_import_picks_a_real_bundle_in_the_tree_with_the_keyboard(make_app, registry, tmp_path) -> None:
    from mol_local.adapters.bundle import export_bundle

    folder = tmp_path / "bundles"
    (folder / "sub").mkdir(parents=True)
    (folder / "notes.txt").write_text("not a bundle", encoding="utf-8")
    (folder / ".hidden.moladapter").write_text("hidden", encoding="utf-8")
    export_bundle(registry, "L2/personal", folder / "b.moladapter", revision="r0002")
    app = make_app()
    async with app.run_test(size=(120, 34)) as pilot:
        await open_adapters(pilot)
        await pilot.press("i")
        await pilot.pause()
        picker = app.screen
        assert isinstance(picker, FilePicker)
        await type_path(pilot, "#picker-path", str(folder))
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(tree_labels(picker)) == 2, what="the filtered tree")
        assert tree_labels(picker) == ["sub", "b.moladapter"]  # folders first; other files and hidden ones left out
        await pilot.press("down", "down", "enter")
        await wait_for(pilot, lambda: len(registry.revisions("L2", "personal")) == 3 or any(n.severity == "error" for n in app._notifications), what="the import")
        assert [r.revision for r in registry.revisions("L2", "personal")] == ["r0001", "r0002", "r0003"], [str(n.message) for n in app._notifications]
        assert registry.pointer("L2", "personal")["revision"] == "r0002", "an import is not activated by itself"
        assert isinstance(app.screen, AdaptersScreen)
