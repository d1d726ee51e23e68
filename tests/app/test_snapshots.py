"""One SVG snapshot per screen (pytest-textual-snapshot). Animations and cursor blink are off, the data is
seeded through the real timeline, and nothing time- or id-dependent is drawn (timings stay collapsed)."""

from __future__ import annotations

import time

import pytest

from tests.app.conftest import seed_conversation, wait_for

ANSWER = """Here is a small **Python** function:

```python
def greet(name: str) -> str:
    return f"Hello, {name}!"
```

- it takes a name
- it returns a greeting
"""


@pytest.fixture(autouse=True)
def no_animation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEXTUAL_ANIMATIONS", "none")


@pytest.fixture
def seeded(app_runtime):
    first = seed_conversation(app_runtime, "Weekend plan", "Saturday: market. Sunday: rest.", slot="L1")
    time.sleep(0.01)  # distinct updated_at stamps (ms): the sidebar order must not depend on a tie
    seed_conversation(app_runtime, "Greeting function", ANSWER, slot="L2", user="Write a greeting function in Python")
    app_runtime.timeline.set_consent(first, True)
    return app_runtime


async def settle(pilot) -> None:
    app = pilot.app
    await wait_for(pilot, lambda: app.model_ready, what="the model")
    await pilot.pause()  # let the ready state's own refreshes land first
    for widget in app.screen.query("TextArea, Input"):
        widget.cursor_blink = False
    # Whether the prompt's cursor cell was drawn still depended on timing (blink phase, repaint order:
    # drawn in a full run, not alone), so the pictures are taken with nothing focused.
    app.screen.set_focus(None)
    await pilot.pause()


def test_chat_screen(snap_compare, make_app, seeded) -> None:
    assert snap_compare(make_app(), terminal_size=(110, 32), run_before=settle)


def test_chat_with_conversation_and_route_details(snap_compare, make_app, seeded) -> None:
    async def open_code_answer(pilot) -> None:
        await settle(pilot)
        listing = pilot.app.screen.query_one("#conversation-list")
        listing.focus()
        listing.highlighted = 1
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(pilot.app.screen.query(".assistant-message .details")), what="the opened conversation")
        await pilot.press("f3")
        await wait_for(pilot, lambda: not pilot.app.screen.query_one(".details").collapsed, what="the details")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=(110, 40), run_before=open_code_answer)


def test_chat_forty_columns(snap_compare, make_app, seeded) -> None:
    assert snap_compare(make_app(), terminal_size=(40, 24), run_before=settle)


def test_settings_screen(snap_compare, make_app, seeded) -> None:
    async def open_settings(pilot) -> None:
        await settle(pilot)
        await pilot.press("f4")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=(100, 40), run_before=open_settings)


def test_help_screen(snap_compare, make_app, seeded) -> None:
    async def open_help(pilot) -> None:
        await settle(pilot)
        await pilot.press("f1")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=(110, 44), run_before=open_help)


def test_delete_confirmation(snap_compare, make_app, seeded) -> None:
    async def ask(pilot) -> None:
        await settle(pilot)
        listing = pilot.app.screen.query_one("#conversation-list")
        listing.focus()
        listing.highlighted = 2
        await pilot.press("f8")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=(100, 30), run_before=ask)


def test_memory_screen(snap_compare, make_app, seeded) -> None:
    from dataclasses import replace

    from memory.store import new_memory

    fixed = "2026-01-02T09:30:00.000+00:00"  # the table shows dates: pin them so the snapshot is stable
    row = replace(new_memory("Prefers tea over coffee", kind="preference"), created_at=fixed, updated_at=fixed)
    seeded.memory.store.add_many([row])

    async def open_memory(pilot) -> None:
        await settle(pilot)
        await pilot.press("f9")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=(100, 24), run_before=open_memory)


def test_adapters_screen_shipped(snap_compare, make_app, seeded, monkeypatch) -> None:
    """A fresh MOL_HOME lists the shipped route adapter and four specialists (seeded at a fixed time here)."""
    monkeypatch.setattr("mol_local.adapters.registry._now", lambda: "2026-11-30T09:00:00+00:00")

    async def open_adapters(pilot) -> None:
        await settle(pilot)
        await pilot.press("f5")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=(120, 24), run_before=open_adapters)


def test_trainer_screen_with_runs_and_chart(snap_compare, make_app, seeded, base_info, base_model_path, tmp_path, monkeypatch) -> None:
    """Seeded verdicts (fixed dates) and two personal revisions; no systemctl on PATH, so the schedule line is the same everywhere."""
    import json

    from memory.db import transaction
    from mol_local.adapters.registry import Registry
    from mol_local.adapters.synthetic import write_random_lora

    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))
    registry = Registry(seeded.adapters_root())
    for i, gain in enumerate((0.12, 0.05, 0.31)):
        lora = write_random_lora(base_info, tmp_path / f"l{i}.gguf", seed=i)
        registry.register("L1", "personal", lora, base=base_model_path, evidence={"new_gain_rel": gain})
    runs = [
        ("2026-03-01T03:00:00", "promoted", "held-out NLL +31.00%, regression +0.20%", "r0003", 0.31),
        ("2026-03-02T03:00:00", "rejected", "held-out NLL improved +0.50%, below the required 2.00%", None, 0.005),
    ]
    with transaction(seeded.db) as db:
        for i, (started, status, reason, rev, gain) in enumerate(runs):
            db["trainer_runs"].insert({"id": f"run{i}", "slot": "L1", "started_at": started, "finished_at": started, "status": status,
                                       "reason": reason, "revision": rev, "metrics": json.dumps({"new_gain_rel": gain})})

    async def open_trainer(pilot) -> None:
        await settle(pilot)
        await pilot.press("f6")
        await wait_for(pilot, lambda: "systemd" in str(pilot.app.screen.query_one("#trainer-schedule").render()), what="the schedule line")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=(130, 44), run_before=open_trainer)


def test_file_picker_filters_to_bundles(snap_compare, make_app, seeded, tmp_path, monkeypatch) -> None:
    """A relative start folder keeps tmp paths out of the picture."""
    from pathlib import Path

    from app.screens.file_picker import FilePicker

    folder = tmp_path / "bundles"
    for sub in ("old", "shared"):
        (folder / sub).mkdir(parents=True)
    for name in ("L1-personal-r0001.moladapter", "L2-personal-r0003.moladapter", "notes.txt", ".hidden.moladapter"):
        (folder / name).write_text("x", encoding="utf-8")
    monkeypatch.chdir(tmp_path)

    async def open_picker(pilot) -> None:
        await settle(pilot)
        picker = FilePicker("Import an adapter bundle (.moladapter)", start=Path("bundles"), suffix=".moladapter")
        await pilot.app.push_screen(picker)
        await wait_for(pilot, lambda: len(picker.query_one("#picker-tree").root.children) == 4, what="the tree")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=(110, 30), run_before=open_picker)
