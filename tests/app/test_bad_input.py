"""Bad input: a 1 MB paste, a 40-column terminal, an unreadable model path, a remote endpoint that is down,
no OS keyring. Each time the app stays up, a notification names the problem, and nothing typed is lost."""

from __future__ import annotations

import os
import socket
import time

import pytest

from app.screens.settings import SettingsScreen
from app.widgets.chat.bubbles import UserMessage
from tests.app.conftest import type_text, wait_for

pytestmark = pytest.mark.asyncio


def errors(app) -> list[str]:
    return [str(n.message) for n in app._notifications if n.severity == "error"]


async def open_settings(pilot) -> SettingsScreen:
    await pilot.press("f4")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, SettingsScreen), what="the settings screen")
    return pilot.app.screen


async def test_one_megabyte_paste_is_refused_and_kept(make_app, app_runtime) -> None:
    big = ("lorem ipsum dolor sit amet " * 40 + "\n") * 970
    assert len(big) >= 1_000_000
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.model_ready, what="the model")
        await type_text(pilot, big)
        prompt = app.screen.query_one("#prompt")
        assert prompt.text == big
        t0 = time.perf_counter()
        await pilot.press("enter")
        await pilot.pause()
        assert time.perf_counter() - t0 < 30, "the UI answered"
        assert any("characters; the limit is" in e for e in errors(app))
        assert prompt.text == big, "nothing typed is lost"
        assert not app.chat.running and not app.screen.query(UserMessage)
        assert app_runtime.timeline.list_conversations() == []


async def test_forty_columns_hides_sidebar_and_still_works(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(40, 20)) as pilot:
        await pilot.pause()
        assert app.screen.has_class("-narrow")
        assert not app.screen.query_one("#sidebar").display or app.screen.query_one("#sidebar").size.width == 0
        await pilot.press(*"hi", "ctrl+j", *"there")
        assert app.screen.query_one("#prompt").text == "hi\nthere"
        await pilot.press("ctrl+b")  # the sidebar can still be brought up on purpose
        await pilot.pause()
        assert app.screen.query_one("#sidebar").display


async def test_unreadable_model_path_is_refused_and_the_form_kept(make_app, tmp_path) -> None:
    model = tmp_path / "locked.gguf"
    model.write_bytes(b"GGUF" + b"\0" * 64)
    model.chmod(0)
    if os.access(model, os.R_OK):  # root reads anything: use a path that cannot be a file instead
        model = tmp_path / "no-such-dir" / "model.gguf"
    app = make_app()
    async with app.run_test(size=(100, 34)) as pilot:
        await wait_for(pilot, lambda: app.runtime is not None, what="the runtime")
        screen = await open_settings(pilot)
        field = screen.query_one("#model")
        field.value = str(model)
        screen.query_one("#threads").value = "3"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: bool(errors(app)), what="the error notification")
        assert errors(app)[0].startswith("Model file") and str(model) in errors(app)[0]
        assert app.screen is screen, "the form stays open"
        assert field.value == str(model) and screen.query_one("#threads").value == "3"
        assert not (app_home() / "hcp.toml").exists()


def app_home():
    from mol_local.paths import mol_home

    return mol_home()


async def test_remote_endpoint_down_is_refused_and_the_form_kept(make_app) -> None:
    with socket.socket() as sock:  # a port that was free a moment ago: nothing listens there
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    app = make_app()
    async with app.run_test(size=(100, 34)) as pilot:
        await wait_for(pilot, lambda: app.runtime is not None, what="the runtime")
        screen = await open_settings(pilot)
        screen.query_one("#endpoint").value = url
        screen.query_one("#api-key").value = "sk-typed-by-hand"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: bool(errors(app)), what="the error notification")
        assert f"Remote endpoint {url} is not reachable" in errors(app)[0]
        assert screen.query_one("#endpoint").value == url
        assert screen.query_one("#api-key").value == "sk-typed-by-hand"
        assert not (app_home() / "hcp.toml").exists()


async def test_bad_threads_value_is_refused(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 34)) as pilot:
        await wait_for(pilot, lambda: app.runtime is not None, what="the runtime")
        screen = await open_settings(pilot)
        screen.query_one("#threads").value = "0"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: bool(errors(app)), what="the error notification")
        assert "Threads = 0: must be between 1 and 256" in errors(app)[0]


async def test_api_key_without_a_keyring_says_so(make_app, monkeypatch) -> None:
    """This machine has no OS keyring (keyring's fail backend); force that state so the test means the same everywhere."""
    import keyring
    from keyring.backends import fail

    monkeypatch.setattr(keyring, "get_keyring", lambda: fail.Keyring())
    app = make_app()
    async with app.run_test(size=(100, 34)) as pilot:
        await wait_for(pilot, lambda: app.runtime is not None, what="the runtime")
        screen = await open_settings(pilot)
        screen.query_one("#api-key").value = "sk-secret"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: bool(errors(app)), what="the error notification")
        assert "No OS keyring backend" in errors(app)[0]
        assert screen.query_one("#api-key").value == "sk-secret"
        assert not (app_home() / "hcp.toml").exists(), "nothing is saved when the key cannot be stored"
