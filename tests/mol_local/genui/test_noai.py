"""A noai form's values never reach any engine: every prompt of every hop is captured and searched.

The L3 task is held open by its view (it has an ask_model action), so the
event turn is sticky on L3 with no route; then ordinary chat continues.
"""

from __future__ import annotations

import pytest

from mol_local.turn import ui as turn_ui
from mol_local.genui.actions import ViewController
from mol_local.genui.binding import DataPort
from mol_local.genui.document import parse_document
from mol_local.genui.store import GenUIStore

from .conftest import SECRET


@pytest.fixture
def fast_runtime(engine, mol_home):
    from hcp import parse_hcp
    from mol_local.runtime import Runtime
    from tests.app.conftest import fast_hcp_text

    rt = Runtime(parse_hcp(fast_hcp_text()), engine=engine)
    yield rt
    rt.db.close()


def open_l3_task(rt, planner: dict) -> tuple[str, str]:
    """Commit an L3 turn whose answer is the planner view, held open, the way Session does."""
    from memory.timeline import MessageRecord, TaskRecord, TurnRecord, new_id

    doc = parse_document(planner)
    store = GenUIStore(rt.db)
    conv, task_id = new_id(), new_id()
    row = store.row(doc, conversation_id=conv, task_id=task_id)
    task = TaskRecord(task_id, conv, 0, "L3", "open", [])
    new = [MessageRecord("user", "plan my weekend"), MessageRecord("assistant", doc.dumps())]
    record = TurnRecord(conv, "plan my weekend", task, True, new, 0, extra_writes=[store.writer(row)])
    rt.timeline.commit_turn(record)
    return conv, row["id"]


@pytest.mark.slow
def test_noai_values_never_reach_any_engine(fast_runtime, planner, monkeypatch):
    rt = fast_runtime
    monkeypatch.setattr(turn_ui, "UI_MAX_TOKENS", 12)
    prompts: list[str] = []
    real = rt.engine.generate

    def capture(request):
        prompts.append("\n".join(m["content"] for m in request.messages) + (request.grammar or ""))
        return real(request)

    monkeypatch.setattr(rt.engine, "generate", capture)
    conv, view_id = open_l3_task(rt, planner)
    ctl = ViewController(GenUIStore(rt.db), DataPort(rt.db), view_id)
    ctl.run("save", {"entry": SECRET, "tired": True})
    ask = ctl.run("ask").ask
    session = rt.session(conv)
    first = session.run_turn(ask, continue_task=session.tasks[-1].id)
    assert first.slot == "L3" and first.route is None  # sticky: the view's task continued, no route
    # 12 tokens cannot hold a document: the fallback says what failed, the task closes, and chat goes on
    assert first.view_id is None and first.answer.startswith("I could not build this view")
    assert session.tasks[-1].status == "closed"
    second = session.run_turn("thanks, what is the capital of France?")
    assert second.answer
    assert len(prompts) >= 4 and any("Suggest more" in p for p in prompts)  # the capture sees real prompts
    assert not [p for p in prompts if SECRET in p]
    assert ctl.snapshot().state["entry"] == SECRET  # kept locally
