"""The tool loop inside a turn, on the real engine: what the model writes is forced by a GBNF grammar
(`Scripted` in tests/mol_local/conftest.py). The turn's rules on the person's words are in test_turn_rules.py.
"""

from __future__ import annotations

import pytest

from mol_local.harness.store import local_due
from mol_local.turn.tasks import UNFINISHED_CALL
from mol_local.turn import TurnHooks
from tests.mol_local.conftest import call


def test_a_reminder_call_runs_and_the_result_goes_back_to_the_slot(scripted_runtime) -> None:
    rt, scripted = scripted_runtime([call("reminders.create", text="call the dentist", due="tomorrow 9am"), "Done."])
    result = rt.session().run_turn("Remind me to call the dentist tomorrow at 9am", slot="L0")
    assert result.slot == "L0" and result.route is not None and result.route.mode == "forced"
    assert [c["name"] for c in result.tool_calls] == ["reminders.create"]
    assert "Wed 2 Dec 2026, 09:00" in result.tool_calls[0]["result"]
    rows = rt.tool_hub.reminders.list()
    assert [(r["text"], local_due(r["due_at"])) for r in rows] == [("call the dentist", "Wed 2 Dec 2026, 09:00")]
    second_view = scripted.views[1]
    assert second_view[-1]["role"] == "tool" and "Reminder" in second_view[-1]["content"]
    assert second_view[-3]["content"].startswith("Now: Tue 1 Dec 2026, 20:53\n\n")  # the clock in the tail
    assert result.answer == "Done." and result.summary


def test_a_malformed_call_is_shown_to_the_model_and_the_task_still_answers(scripted_runtime) -> None:
    rt, scripted = scripted_runtime(['<tool_call>{"name": "notes.find", "arguments": {query: milk}}</tool_call>', "Sorry, I could not search."])
    result = rt.session().run_turn("find my note about milk", slot="L0")
    assert result.tool_calls[0]["error"] and "malformed tool call" in result.tool_calls[0]["result"]
    assert "malformed tool call" in scripted.views[1][-1]["content"]
    assert result.answer == "Sorry, I could not search."
    assert rt.db["tasks"].count == 1


def test_a_tool_error_goes_back_to_the_model(scripted_runtime) -> None:
    rt, scripted = scripted_runtime([call("reminders.create", text="x", due="blorp"), "When should I remind you?"])
    result = rt.session().run_turn("remind me about x in blorp minutes", slot="L0")  # a time word: not asked when
    assert "not a time I can read" in scripted.views[1][-1]["content"]
    assert result.answer == "When should I remind you?" and rt.tool_hub.reminders.list() == []


@pytest.mark.parametrize(("said", "want"), [
    ('Let me look.<tool_call>{"name": "reminders.complete", "arguments": {"id": "0000000000', "Let me look."),
    ('<tool_call>{"name": "reminders.complete", "arguments": {"id": "0000000000', UNFINISHED_CALL),
])
def test_an_answer_cut_off_inside_a_tool_call_is_words_not_markup(scripted_runtime, said: str, want: str) -> None:
    """Seen in the app: a Lisbon plan answered with `<tool_call>{"name": "reminders.complete", …"000…` up to the cap."""
    rt, _ = scripted_runtime([said])
    result = rt.session().run_turn("Plan a relaxed Saturday in Lisbon", slot="L1")
    assert result.answer == want and result.tool_calls == []
    assert rt.timeline.load_tasks(result.conversation_id)[0].messages[-1].content == want


def test_a_call_in_a_loop_stops_at_max_rounds_with_words_not_markup(scripted_runtime) -> None:
    looping = call("notes.find", query="milk")
    rounds = 4  # tools.max_rounds in local-default
    rt, scripted = scripted_runtime([looping] * (rounds + 1))
    result = rt.session().run_turn("find milk notes forever", slot="L0")
    assert result.tool_rounds == rounds and len(result.tool_calls) == rounds
    assert "<tool_call>" not in result.answer and "max_rounds" in result.answer
    assert "No notes match" in result.answer
    stored = rt.timeline.load_tasks(result.conversation_id)[0]
    assert stored.messages[-1].content == result.answer and stored.status == "closed"


def test_a_failed_call_sent_again_word_for_word_ends_the_task_with_the_error_in_words(scripted_runtime) -> None:
    """Seen on the embedded base: a reminder "last month" failed, and the same call went out until max_rounds."""
    past = call("reminders.create", text="move to Leeds", due="yesterday at 9am")
    rt, scripted = scripted_runtime([past, past, past])
    result = rt.session().run_turn("Remind me yesterday at 9am to move to Leeds", slot="L0")
    assert len(result.tool_calls) == 1 and result.tool_rounds == 1  # the repeat was not run
    assert result.answer.startswith("I couldn't do that: ") and "has already passed" in result.answer
    assert "<tool_call>" not in result.answer and rt.tool_hub.reminders.list() == []
    assert len(scripted.outputs) == 1  # two answer hops, not max_rounds + 1
    stored = rt.timeline.load_tasks(result.conversation_id)[0]
    assert stored.messages[-1].content == result.answer and stored.status == "closed"


def test_the_same_read_after_a_success_still_runs(scripted_runtime) -> None:
    find = call("notes.find", query="milk")
    rt, _ = scripted_runtime([find, find, "Nothing about milk."])
    result = rt.session().run_turn("find my milk notes, twice", slot="L0")
    assert len(result.tool_calls) == 2 and result.answer == "Nothing about milk."


def test_a_write_sent_again_word_for_word_is_not_done_twice(scripted_runtime) -> None:
    """Seen in `mol bench specialists`: one reminder asked for, the same create sent round after round (six made),
    and the same reminder twice in one round."""
    make = call("reminders.create", text="print the tickets", due="tomorrow at 12:30pm")
    rt, scripted = scripted_runtime([make + make, make, make])
    result = rt.session().run_turn("remind me tomorrow at 12:30pm to print the tickets", slot="L0")
    assert len(rt.tool_hub.reminders.list()) == 1 and len(result.tool_calls) == 1
    assert result.answer.startswith("Done — Reminder set for ") and result.answer.endswith(": print the tickets")  # no id
    assert "<tool_call>" not in result.answer and len(scripted.outputs) == 1  # two answer hops, not max_rounds + 1


def test_forced_slot_skips_the_router(scripted_runtime) -> None:
    rt, _ = scripted_runtime(["ok"])
    hooks = TurnHooks(on_route=lambda r: pytest.fail("routed"))
    result = rt.session().run_turn("What causes the seasons?", slot="L2", hooks=hooks)
    assert result.slot == "L2" and rt.timeline.route_decision(result.task_id)["mode"] == "forced"


def _three_open(rt) -> dict[str, str]:
    made = [rt.tool_hub.reminders.create(t, d) for t, d in
            (("take the bins out", "2026-12-04T08:00"), ("pay the rent", "2026-12-07T07:30"), ("call the dentist", "2026-12-04T15:00"))]
    return {r["text"]: r["id"] for r in made}


def test_asking_what_is_open_ticks_nothing_off(scripted_runtime) -> None:
    """Seen with the shipped L1 on "Do I have any reminders?": reminders.list, then reminders.complete of the first
    one it read. Now the list it asked for is the answer; and a completion runs only when the request says
    something is done."""
    rt, scripted = scripted_runtime([])
    ids = _three_open(rt)
    complete = call("reminders.complete", id=ids["pay the rent"])
    scripted.outputs += [call("reminders.list"), complete, "You have three reminders."]
    result = rt.session().run_turn("Do I have any reminders?", slot="L1")
    assert sorted(r["text"] for r in rt.tool_hub.reminders.list()) == sorted(ids)  # all three still open
    assert result.answer.startswith("Your open reminders (3):") and len(scripted.outputs) == 2
    scripted.outputs = [call("reminders.list"), complete, "Here is a plan."]
    result = rt.session().run_turn("Help me plan tomorrow around my reminders", slot="L1")
    assert sorted(r["text"] for r in rt.tool_hub.reminders.list()) == sorted(ids)
    refused = result.tool_calls[-1]
    assert refused["name"] == "reminders.complete" and refused["result"].startswith("Error: not run: the request does not say")
    statuses = [r["status"] for r in rt.db.query("select status from tool_calls where tool = 'reminders.complete'")]
    assert statuses == ["denied"] and result.answer == "Here is a plan."


def test_a_tick_off_completes_the_reminder_the_person_named_in_other_words(scripted_runtime) -> None:
    """Seen with `mol chat`: "I already took the bins out, tick that off" completed 'pay the rent'. (That sentence is now
    settled before the model is asked, `rescheduled.named_done`; this one is not, so the model's pick is grounded.)"""
    rt, scripted = scripted_runtime([])
    ids = _three_open(rt)
    scripted.outputs += [call("reminders.list"), call("reminders.complete", id=ids["pay the rent"]), "Ticked off."]
    result = rt.session().run_turn("The bins went out already, tick that off", slot="L1")
    assert sorted(r["text"] for r in rt.tool_hub.reminders.list()) == ["call the dentist", "pay the rent"]
    assert result.tool_calls[-1]["result"] == ("Done: take the bins out. Still open: call the dentist (Fri 4 Dec 2026, 15:00); "
                                               "pay the rent (Mon 7 Dec 2026, 07:30).")  # what is left, soonest first
    assert result.answer == result.tool_calls[-1]["result"] and scripted.outputs == ["Ticked off."]  # the tool's words, not the model's


def test_deleting_a_repeating_reminder_stops_it_and_cancel_all_empties_the_list(scripted_runtime) -> None:
    """`mol chat`: "Delete my stretch reminder" ticked the daily one off and it was open again for tomorrow; "Cancel all
    my reminders" got "The request failed to run …" and kept every one. Both are settled before the model is asked."""
    rt, scripted = scripted_runtime(["never read"])
    _three_open(rt)
    rt.tool_hub.reminders.create("stretch", "every day at 7am")
    result = rt.session().run_turn("Delete my stretch reminder", slot="L0")
    assert result.answer.startswith("Cancelled: stretch (") and "repeated every day; no more times" in result.answer
    assert "stretch" not in [r["text"] for r in rt.tool_hub.reminders.list(include_done=True)]
    result = rt.session().run_turn("Cancel all my reminders", slot="L0")
    assert rt.tool_hub.reminders.list(include_done=True) == [] and result.answer.endswith("No reminders are open now.")
    assert len(result.answer.splitlines()) == 4 and scripted.outputs == ["never read"]


def test_a_request_to_see_the_reminders_lists_them_and_makes_none(scripted_runtime) -> None:
    """Seen with `mol chat "List my reminders"`: the shipped L0 made a reminder called "Reminders" for 10:00."""
    rt, scripted = scripted_runtime([call("reminders.create", text="Reminders", due="today at 10:00"), "never read"])
    ids = _three_open(rt)
    result = rt.session().run_turn("List my reminders", slot="L0")
    assert sorted(r["text"] for r in rt.tool_hub.reminders.list()) == sorted(ids)  # nothing made
    assert [c["name"] for c in result.tool_calls] == ["reminders.list"] and scripted.outputs == ["never read"]
    assert result.answer.splitlines()[0] == "Your open reminders (3):" and "- pay the rent — Mon 7 Dec 2026, 07:30" in result.answer


def test_a_request_to_see_the_reminders_answered_in_words_still_reads_the_list(scripted_runtime) -> None:
    """Seen in the app: "What reminders do I have?" got L0's "You haven't told me any reminders yet." with one open."""
    rt, scripted = scripted_runtime(["You haven't told me any reminders yet.", "never read"])
    ids = _three_open(rt)
    result = rt.session().run_turn("What reminders do I have?", slot="L0")
    assert [c["name"] for c in result.tool_calls] == ["reminders.list"] and scripted.outputs == ["never read"]
    assert result.answer.splitlines()[0] == "Your open reminders (3):" and sorted(r["text"] for r in rt.tool_hub.reminders.list()) == sorted(ids)
    scripted.outputs = ["Paris is the capital of France."]
    assert rt.session().run_turn("What is the capital of France?", slot="L0").tool_calls == []  # other words stay words


def test_a_note_the_model_only_says_it_wrote_is_written(scripted_runtime) -> None:
    """Held-out L0: "Write down that the office printer PIN is 3308!" got "Noted — the office printer PIN is 3308."
    and no note."""
    rt, scripted = scripted_runtime(["Noted — the office printer PIN is 3308.", "never read"])
    result = rt.session().run_turn("Quick one: write down that the office printer PIN is 3308!", slot="L0")
    rows = list(rt.db.query("select title, body from notes"))
    assert rows == [{"title": "Office printer PIN", "body": "the office printer PIN is 3308"}]
    assert result.answer == "Noted: the office printer PIN is 3308." and scripted.outputs == ["never read"]
    scripted.outputs = [call("reminders.create", text="call mum", due="today at 9am"), "never read"]
    made = rt.session().run_turn("Write down that the bins go out on Thursdays", slot="L0")  # seen in the app
    assert rt.tool_hub.reminders.list() == [] and made.answer == "Noted: the bins go out on Thursdays."
    scripted.outputs = [call("notes.find", query=" PIN"), "never read"]  # seen in the app too
    found = rt.session().run_turn("Write down that the gate code is 4471", slot="L0")
    assert found.answer == "Noted: the gate code is 4471." and len(list(rt.db.query("select id from notes"))) == 3
    scripted.outputs = ["You noted that the office printer PIN is 3308."]
    asked = rt.session().run_turn("What did I note about the printer?", slot="L0")  # a question reads, writes nothing
    assert [c["name"] for c in asked.tool_calls] == ["notes.find"] and len(list(rt.db.query("select id from notes"))) == 3
    assert "the office printer PIN is 3308" in asked.answer


def test_a_reminder_made_for_a_tick_off_completes_the_one_named_instead(scripted_runtime) -> None:
    """Routed to L0, "You can cross 'call the dentist' off my reminders now" became a reminder due 'the dentist'."""
    rt, scripted = scripted_runtime([call("reminders.create", text="the dentist", due="the dentist"), "never read"])
    ids = _three_open(rt)
    result = rt.session().run_turn("Called the dentist already, cross that one off", slot="L0")
    assert sorted(r["text"] for r in rt.tool_hub.reminders.list()) == ["pay the rent", "take the bins out"]
    assert [(c["name"], c["arguments"]) for c in result.tool_calls] == [("reminders.complete", {"id": ids["call the dentist"]})]
    assert result.answer.startswith("Done: call the dentist. Still open: take the bins out") and scripted.outputs == ["never read"]


def test_tool_call_markup_left_in_an_answer_is_never_shown_raw() -> None:
    """`mol chat -c`: "Remind me two days before Alex's birthday to buy flowers" was answered with a whole
    `<tool_call>{"name": "reminders.create", …}</tool_call>`, nothing set."""
    from mol_local.turn.tasks import UNRUN_CALL, without_markup

    raw = '<tool_call>{"name": "reminders.create", "arguments": {"text": "buy flowers", "due": "x"}}</tool_call>'
    assert without_markup(raw) == UNRUN_CALL
    assert without_markup(f"Sure. {raw}") == "Sure."
    assert without_markup("Reminder set for Mon 7 Dec 2026, 09:00: call Sam.") == "Reminder set for Mon 7 Dec 2026, 09:00: call Sam."
