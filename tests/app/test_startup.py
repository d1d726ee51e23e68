"""Start-up stays light: building the app imports no model, vector store or torch on the UI thread."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

HEAVY = ("llama_cpp", "torch", "chromadb", "sentence_transformers", "sqlite_utils", "numpy")

PROBE = f"""
import json, sys
from app.app import MolApp
app = MolApp()
print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))
"""


def test_constructing_the_app_imports_nothing_heavy(mol_home) -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], check=True, capture_output=True, text=True, timeout=120)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


def test_mol_with_a_bad_hcp_file_fails_in_the_app_not_with_a_traceback(tmp_path, mol_home) -> None:
    """An HCP that does not load is reported in the app (status + notification); the app itself starts."""
    import asyncio

    from app.app import MolApp

    bad = tmp_path / "bad.toml"
    bad.write_text("schema = 1\n[runtime\n", encoding="utf-8")

    async def run() -> str | None:
        app = MolApp(hcp_path=bad)
        async with app.run_test(size=(100, 30)) as pilot:
            for _ in range(400):
                if app.runtime_error:
                    break
                await pilot.pause(0.05)
            assert "failed" in app.screen.query_one("#status").classes
            await pilot.press(*"kept", "enter")
            await pilot.pause()
            assert app.screen.query_one("#prompt").text == "kept"
            return app.runtime_error

    error = asyncio.run(run())
    assert error is not None and "not valid TOML" in error


@pytest.mark.slow
@pytest.mark.startup_prewarm
@pytest.mark.asyncio
async def test_model_load_prewarms_every_slot_head_so_the_first_turn_prefills_only_its_message(make_app, app_runtime) -> None:
    """While the user types the first message, every slot's head goes into its KV (off the answer path)."""
    from app.widgets.chat.bubbles import AssistantMessage
    from tests.app.conftest import press_now, wait_for

    engine = app_runtime.engine
    app = make_app()
    async with app.run_test(size=(110, 36)) as pilot:
        await wait_for(pilot, lambda: app.model_ready, what="the model to be ready")
        session = app.chat.session
        heads = {s: engine.count_tokens(session.view_for(s, []), add_generation_prompt=False) for s in app_runtime.hcp.slots}
        await wait_for(pilot, lambda: all(engine.held_tokens(s) == n for s, n in heads.items()), timeout=120, what="every head resident")
        await pilot.press(*"What is the capital of France?")
        await press_now(pilot, "enter")
        await wait_for(pilot, lambda: app.chat.turn_id == 1 and not app.chat.running, timeout=120, what="the turn to finish")
        answer = app.screen.query(AssistantMessage).last()
        slot = app.chat.session.tasks[-1].slot
        assert answer.text.strip() and slot in heads
        body = str(answer.query_one(".details-body").render())
        found = re.search(r"prefill_tokens: (\d+)", body)
        assert found, body
        prefill = int(found.group(1))
        assert prefill < heads[slot] / 2  # only the new message: its head was already there
