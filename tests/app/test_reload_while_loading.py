"""A runtime is closed only after its loader thread let go of it.

CI crashed with a segmentation fault: a test saved settings (and another quit) while the model
was still loading, and the app closed that runtime (freeing the llama.cpp model and the SQLite
connection) under the loader thread, which was counting memories in it. Here the load is made
slow on purpose, and the order of "loaded" and "closed" is recorded per runtime.
"""

from __future__ import annotations

import threading
import time

import pytest

from app.messages import SettingsSaved
from tests.app.conftest import wait_for

pytestmark = pytest.mark.asyncio

SLOW_S = 1.5


@pytest.fixture
def journal(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """("loaded" | "closed", id(runtime)) in the order they happened; each load sleeps in its loader thread."""
    import mol_local.catalog.service as service
    from mol_local.runtime import Runtime

    events: list[tuple[str, int]] = []
    real_stack, real_notes, real_close = Runtime.route_stack, service.base_notes, Runtime.close

    def slow_stack(self: Runtime, *args, **kwargs):
        out = real_stack(self, *args, **kwargs)
        if threading.current_thread() is not threading.main_thread():
            time.sleep(SLOW_S)
        return out

    def notes(rt: Runtime) -> list[str]:  # the loader's last step
        events.append(("loaded", id(rt)))
        return real_notes(rt)

    def close(self: Runtime) -> None:
        events.append(("closed", id(self)))
        real_close(self)

    monkeypatch.setattr(Runtime, "route_stack", slow_stack)
    monkeypatch.setattr(service, "base_notes", notes)
    monkeypatch.setattr(Runtime, "close", close)
    return events


def loaded_then_closed(events: list[tuple[str, int]], rt: object) -> bool:
    return ("closed", id(rt)) in events and events.index(("loaded", id(rt))) < events.index(("closed", id(rt)))


async def opened_still_loading(pilot, app) -> object:
    """The runtime the app opened, while its model still loads (the slow `route_stack` holds it there)."""
    await wait_for(pilot, lambda: app.runtime is not None, what="the runtime")
    assert not app.model_ready
    return app.runtime


async def test_settings_saved_while_loading_close_the_old_runtime_after_its_load(journal, mol_home) -> None:
    from app.app import MolApp

    app = MolApp()
    async with app.run_test(size=(100, 30)) as pilot:
        first = await opened_still_loading(pilot, app)
        app.post_message(SettingsSaved(None, "settings: a test"))
        await wait_for(pilot, lambda: app.model_ready and app.runtime is not first, timeout=120, what="the reload")
        second = app.runtime
        await wait_for(pilot, lambda: ("closed", id(first)) in journal, timeout=60, what="the old runtime closed")
        assert app.runtime_error is None
    assert loaded_then_closed(journal, first)
    assert loaded_then_closed(journal, second)


async def test_quitting_while_loading_waits_for_the_load_then_closes(journal, mol_home) -> None:
    from app.app import MolApp

    app = MolApp()
    async with app.run_test(size=(100, 30)) as pilot:
        rt = await opened_still_loading(pilot, app)
    assert loaded_then_closed(journal, rt)
