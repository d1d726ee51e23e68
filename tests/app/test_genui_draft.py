"""An L3 answer is sketched as it is written, and the live view (or the error) replaces the sketch."""

from __future__ import annotations

import pytest

from app.widgets.chat.bubbles import AssistantMessage
from app.widgets.genui.draft import ViewDraft, draft_text
from app.widgets.genui.view import GenUIView
from tests.app.conftest import press_now, wait_for
from tests.conftest import route_always

DRAFT = {"title": "Ski trip", "components": [{"id": "a", "type": "Checklist", "label": "Pack", "bind": "items"},
                                             {"id": "b", "type": "Button", "label": "Suggest more", "action": "more"}],
         "state": {"items": [{"label": "Gloves", "done": False}, {"label": "[bold]Goggles[/]", "done": False}]}}


def test_the_sketch_names_the_title_each_component_and_bound_items_as_plain_text() -> None:
    text = draft_text(DRAFT)
    assert text.splitlines()[:4] == ["Ski trip", "Pack", "  ☐ Gloves", "  ☐ [bold]Goggles[/]"]  # markup stays text
    assert "[ Suggest more ]" in text and text.endswith("(being written…)")
    assert "  …" in draft_text({**DRAFT, "state": {}})  # the list is not complete yet


@pytest.mark.slow
@pytest.mark.asyncio
async def test_an_l3_turn_shows_a_sketch_while_written_then_the_live_view(make_app, app_runtime, monkeypatch) -> None:
    route_always(monkeypatch, app_runtime.router, "L3")
    app = make_app()
    async with app.run_test(size=(110, 40)) as pilot:
        await wait_for(pilot, lambda: pilot.app.model_ready, what="the model to be ready")
        await pilot.press(*"Make me a checklist for a ski trip: gloves, goggles, helmet")
        await press_now(pilot, "enter")
        await wait_for(pilot, lambda: app.chat.running, what="the turn to start")
        answer = app.screen.query(AssistantMessage).last()
        sketches: list[str] = []

        def sketched() -> bool:
            found = answer.query(ViewDraft)
            if found and (text := str(found.first().render())):  # mounted, then shown: an empty render is not a sketch yet
                sketches.append(text)
            return bool(sketches) or not app.chat.running

        await wait_for(pilot, sketched, timeout=120, what="the sketch")
        await wait_for(pilot, lambda: not app.chat.running, timeout=120, what="the turn to finish")
        assert sketches and sketches[0].endswith("(being written…)"), "the view was sketched before the turn ended"
        assert not answer.query(ViewDraft), "the sketch is gone once the turn is saved"
        if answer.query(GenUIView):
            assert answer.markdown.display is False  # the live view, not the JSON
        else:
            assert answer.markdown.display is True and "could not build" in answer.text  # the error, not a sketch
