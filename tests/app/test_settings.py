"""Settings: a change becomes one new HCP version (hcp.store) and the runtime reloads with it; theme persists."""

from __future__ import annotations

import pytest

from app.backend import load_prefs
from app.screens.settings import SettingsScreen
from tests.app.conftest import wait_for

pytestmark = pytest.mark.asyncio


@pytest.mark.slow
async def test_save_records_a_version_and_reloads(make_app, mol_home) -> None:
    from hcp.store import VersionStore

    app = make_app()
    async with app.run_test(size=(100, 34)) as pilot:
        await wait_for(pilot, lambda: app.model_ready, what="the model")
        given = app.runtime
        await pilot.press("f4")
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen), what="settings")
        app.screen.query_one("#threads").value = "1"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not isinstance(app.screen, SettingsScreen), what="the save")
        versions = VersionStore(mol_home).versions()
        assert [v.reason for v in versions] == ["init from profile local-default", "settings: runtime.threads = 1"]
        assert 'threads = 1' in (mol_home / "hcp.toml").read_text()
        await wait_for(pilot, lambda: app.model_ready and app.runtime is not given, timeout=240, what="the reload")
        assert app.runtime.hcp.threads == 1
        assert "ready" in str(app.screen.query_one("#status").render())


async def test_unchanged_settings_save_nothing(make_app, mol_home) -> None:
    app = make_app()
    async with app.run_test(size=(100, 34)) as pilot:
        await wait_for(pilot, lambda: app.runtime is not None, what="the runtime")
        await pilot.press("f4")
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen), what="settings")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: any("Nothing to save" in str(n.message) for n in app._notifications), what="the notice")
        assert not (mol_home / "hcp.toml").exists()
        assert isinstance(app.screen, SettingsScreen)


async def test_theme_applies_now_and_persists(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.press("f4")
        await wait_for(pilot, lambda: isinstance(app.screen, SettingsScreen), what="settings")
        app.screen.query_one("#theme").value = "nord"
        await pilot.pause()
        assert app.theme == "nord"
        assert load_prefs()["theme"] == "nord"
    again = make_app()
    assert again.theme == "nord"
