"""L3 in the turn loop: the UI guide lives in L3's cached head, the tail is the user's message."""

from __future__ import annotations

import pytest

from mol_local.genui.generate import ui_guide
from tests.conftest import route_always


def test_the_guide_is_in_l3s_head_only(runtime) -> None:
    assert ui_guide() in runtime.head("L3")
    assert all(ui_guide() not in runtime.head(s) for s in ("L0", "L1", "L2"))
    view = runtime.session().view_for("L3", [{"role": "user", "content": "a packing list"}])
    assert view[0]["content"] == runtime.head("L3") and view[-1] == {"role": "user", "content": "a packing list"}


@pytest.mark.slow
def test_a_second_l3_turn_reuses_the_guide_from_kv(runtime, monkeypatch) -> None:
    """Before the guide moved to the head, every L3 turn prefilled its ~420 tokens again."""
    route_always(monkeypatch, runtime.router, "L3")
    session = runtime.session()
    first = session.run_turn("Make me a checklist for packing a suitcase.")
    second = session.run_turn("Now a timer for boiling an egg.")
    guide = runtime.engine.count_tokens([{"role": "system", "content": ui_guide()}], add_generation_prompt=False)
    assert first.slot == second.slot == "L3"
    assert first.timings_ms["prefill_tokens"] > guide  # the first visit pays for the head once
    assert second.timings_ms["prefill_tokens"] < guide / 4, (second.timings_ms, guide)
