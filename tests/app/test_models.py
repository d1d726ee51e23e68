"""F7 models: the catalog with a "fits in memory?" column; `u` checks a model and writes one HCP version
(a model too big for this machine is refused with the numbers and nothing changes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.screens.models import ModelsScreen
from app.screens.modals import Confirm
from tests.app.conftest import wait_for
from tests.mol_local.catalog.ggufs import HERMES_TEMPLATE, huge, tiny

pytestmark = pytest.mark.asyncio


def table_text(app) -> list[list[str]]:
    table = app.screen.query_one("#models-table")
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


def head(mol_home: Path):
    from hcp.store import VersionStore

    return VersionStore(mol_home).head()


async def test_picker_shows_fit_and_refuses_a_model_too_big(make_app, mol_home: Path, tmp_path: Path) -> None:
    from mol_local.catalog.store import Catalog

    Catalog(mol_home).add(tiny(tmp_path / "tiny-chat.gguf", template=HERMES_TEMPLATE))
    Catalog(mol_home).add(huge(tmp_path / "giant.gguf", gib=64))
    app = make_app()
    async with app.run_test(size=(160, 30)) as pilot:
        await wait_for(pilot, lambda: app.runtime is not None, what="the runtime")
        await pilot.press("f7")
        await wait_for(pilot, lambda: isinstance(app.screen, ModelsScreen) and app.screen.names, what="the model rows")
        rows = {r[1]: r for r in table_text(app)}
        assert list(rows)[0] == "smollm2-135m" and set(rows) == {"smollm2-135m", "tiny-chat", "giant"}
        assert rows["smollm2-135m"][0] == "● in use" and rows["smollm2-135m"][8].startswith("yes (n_ctx")
        assert rows["giant"][8] == "no" and rows["tiny-chat"][7] == "yes"
        screen = app.screen
        screen.query_one("#models-table").move_cursor(row=screen.names.index("giant"))
        await pilot.press("u")
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        await pilot.press("y")
        await wait_for(pilot, lambda: any(n.severity == "error" for n in app._notifications), what="the refusal")
        error = next(str(n.message) for n in app._notifications if n.severity == "error")
        assert "needs about" in error and "weights 64.0 GiB" in error and "is free here" in error
        assert head(mol_home) is None  # no HCP version: SmolLM2 stays in use
        assert app.screen is screen and not screen.busy


async def test_use_writes_a_version_and_the_app_reloads(make_app, mol_home: Path, tmp_path: Path) -> None:
    from mol_local.catalog.store import Catalog

    model = tiny(tmp_path / "tiny-chat.gguf", template=HERMES_TEMPLATE)
    Catalog(mol_home).add(model)
    app = make_app()
    async with app.run_test(size=(160, 30)) as pilot:
        await wait_for(pilot, lambda: app.runtime is not None, what="the runtime")
        await pilot.press("f7")
        await wait_for(pilot, lambda: isinstance(app.screen, ModelsScreen) and app.screen.names, what="the model rows")
        app.screen.query_one("#models-table").move_cursor(row=app.screen.names.index("tiny-chat"))
        await pilot.press("u")
        await pilot.pause()
        await pilot.press("y")
        await wait_for(pilot, lambda: head(mol_home) is not None and head(mol_home).reason == "mol models use tiny-chat",
                       what="the new HCP version")
        await wait_for(pilot, lambda: app.runtime is not None and app.runtime.hcp.base_model == str(model), what="the reloaded runtime")
        assert app.runtime.hcp.routing_mode == "embed"
        await wait_for(pilot, lambda: any(r[0] == "● in use" and r[1] == "tiny-chat" for r in table_text(app)), what="the new mark")
