"""The tool loop inside a turn, on the real engine: what the model writes is forced by a GBNF grammar.

`Scripted` hands the real llama.cpp engine a literal grammar for each answer hop,
so the model really decodes (tokenizer, sampler, KV) the call we need to test:
a valid call, a malformed one, or a call repeated past tools.max_rounds.
"""

from __future__ import annotations

import json
from datetime import datetime

import pytest

from mol_local.engine.base import GenerationRequest
from mol_local.harness.store import local_due
from mol_local.turn.tasks import UNFINISHED_CALL, WORDS_ONLY
from mol_local.turn import TurnHooks

NOW = datetime(2026, 12, 1, 20, 53)


def literal(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'root ::= "{escaped}"\n'


class Scripted:
    """The real engine; answer hops (not summaries, not routes) decode the next scripted text under a grammar."""

    def __init__(self, engine, outputs: list[str]) -> None:
        self._engine = engine
        self.outputs = list(outputs)
        self.views: list[list[dict]] = []
        self.words: list[bool] = []  # whether each scripted hop was held to words (tasks.WORDS_ONLY)

    def __getattr__(self, name: str):
        return getattr(self._engine, name)

    def close(self) -> None:
        """The engine is the session's shared one: the runtime closing must not free it."""

    def generate(self, request: GenerationRequest):
        if request.keep_prefix_of is None and request.grammar in (None, WORDS_ONLY) and self.outputs:
            self.views.append([dict(m) for m in request.messages])
            self.words.append(request.grammar == WORDS_ONLY)
            request.grammar = literal(self.outputs.pop(0))
            request.max_tokens = 256
        return self._engine.generate(request)


def call(name: str, **arguments) -> str:
    return "<tool_call>" + json.dumps({"name": name, "arguments": arguments}) + "</tool_call>"


@pytest.fixture
def scripted_runtime(engine, mol_home, test_hcp_path):
    from hcp import load_hcp
    from mol_local.runtime import Runtime

    def make(outputs: list[str]) -> tuple[Runtime, Scripted]:
        scripted = Scripted(engine, outputs)
        rt = Runtime(load_hcp(test_hcp_path), engine=scripted)  # type: ignore[arg-type]
        rt.clock = lambda: NOW
        made.append(rt)
        return rt, scripted

    made: list = []
    yield make
    for rt in made:
        rt.close()


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
    result = rt.session().run_turn("remind me about x at blorp", slot="L0")
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
    assert result.answer.startswith("Done — Reminder") and "print the tickets" in result.answer
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
    """Seen with `mol chat`: "I already took the bins out, tick that off" completed 'pay the rent'."""
    rt, scripted = scripted_runtime([])
    ids = _three_open(rt)
    scripted.outputs += [call("reminders.list"), call("reminders.complete", id=ids["pay the rent"]), "Ticked off."]
    result = rt.session().run_turn("I already took the bins out, tick that off", slot="L1")
    assert sorted(r["text"] for r in rt.tool_hub.reminders.list()) == ["call the dentist", "pay the rent"]
    assert result.tool_calls[-1]["result"] == ("Done: take the bins out. Still open: call the dentist (Fri 4 Dec 2026, 15:00); "
                                               "pay the rent (Mon 7 Dec 2026, 07:30).")  # what is left, soonest first
    assert result.answer == result.tool_calls[-1]["result"] and scripted.outputs == ["Ticked off."]  # the tool's words, not the model's


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
    assert rt.session().run_turn("What did I note about the printer?", slot="L0").tool_calls == []  # a question writes nothing


def test_a_reminder_made_for_a_tick_off_completes_the_one_named_instead(scripted_runtime) -> None:
    """Routed to L0, "You can cross 'call the dentist' off my reminders now" became a reminder due 'the dentist'."""
    rt, scripted = scripted_runtime([call("reminders.create", text="the dentist", due="the dentist"), "never read"])
    ids = _three_open(rt)
    result = rt.session().run_turn("Called the dentist already, cross that one off", slot="L0")
    assert sorted(r["text"] for r in rt.tool_hub.reminders.list()) == ["pay the rent", "take the bins out"]
    assert [(c["name"], c["arguments"]) for c in result.tool_calls] == [("reminders.complete", {"id": ids["call the dentist"]})]
    assert result.answer.startswith("Done: call the dentist. Still open: take the bins out") and scripted.outputs == ["never read"]


def test_a_reminder_request_gets_no_memories_in_its_tail_and_a_question_does(scripted_runtime) -> None:
    """`mol chat` with "My mum is called Ann" stored: "Remind me on Friday at 6pm to call mum" got L0's "I don't
    know your mother yet — tell me and I'll remember it." and no reminder (memory/recall.acts_on_its_own_words)."""
    from memory.store import new_memory

    rt, scripted = scripted_runtime([call("reminders.create", text="call mum", due="on Friday at 6pm"), "Done.",
                                     "Your mum is called Ann."])
    rt.memory.add([new_memory("The user's mum is called Ann.")])
    result = rt.session().run_turn("Remind me on Friday at 6pm to call mum", slot="L0")
    assert result.memory_ids == [] and "Ann" not in scripted.views[0][-1]["content"]
    assert [r["text"] for r in rt.tool_hub.reminders.list()] == ["call mum"]
    asked = rt.session().run_turn("What is my mum called?", slot="L0")
    assert len(asked.memory_ids) == 1 and "The user's mum is called Ann." in scripted.views[-1][-1]["content"]


@pytest.mark.parametrize(("text", "acts"), [
    ("Remind me on Friday at 6pm to call mum", True), ("Can you remind me to buy milk at 5?", True),
    ("Write down that the wifi password is tulip42", True), ("Note that the gate code is 4471", True),
    ("Remind me, what is my locker code?", False), ("Remind me what I told you about the plumber", False),
    ("What did I note about the gate?", False), ("Plan a dinner for my sister", False),
])
def test_what_counts_as_an_action_on_its_own_words(text: str, acts: bool) -> None:
    from mol_local.turn.recall import acts_on_its_own_words

    assert acts_on_its_own_words(text) is acts


def test_asked_what_they_told_an_answer_that_denies_it_gets_what_the_tail_holds(scripted_runtime) -> None:
    """Three weeks after "The plumber Dave is coming on Tuesday to fix the kitchen sink" (clock moved), its said
    memory was in the tail and L0 answered "You haven't told me anything about the plumber Dave yet."."""
    from memory.store import new_memory, said_text

    rt, scripted = scripted_runtime(["You haven't told me anything about the plumber Dave yet."])
    rt.memory.add([new_memory(said_text("The plumber Dave is coming on Tuesday to fix the kitchen sink"), kind="said",
                              said_at="2026-11-12T18:30")])
    result = rt.session().run_turn("What did I tell you about the plumber?", slot="L0")
    assert result.answer == 'On Thu 12 Nov 2026 you told me: "The plumber Dave is coming on Tuesday to fix the kitchen sink"'
    scripted.outputs = ["You told me the plumber is coming on Tuesday."]
    right = rt.session().run_turn("What did I tell you about the plumber?", slot="L0")
    assert right.answer == "You told me the plumber is coming on Tuesday."  # an answer that uses it stands
    scripted.outputs = ["You haven't told me anything about the dentist yet."]
    none = rt.session().run_turn("What did I tell you about the dentist?", slot="L0")
    assert none.answer == "You haven't told me anything about the dentist yet."  # nothing about it in the tail


def test_arithmetic_is_computed_by_python_whatever_the_model_would_say(scripted_runtime) -> None:
    """On the embedded default "What is 17% of 2350?" got "You are 17% of 2350." (L0) and a python call computing
    17 * 2350 (L2): Python computes what was asked, and the model is not asked for an answer."""
    rt, scripted = scripted_runtime(["never read"])
    result = rt.session().run_turn("What is 17% of 2350?", slot="L0")
    assert result.answer == "17% of 2350 is 399.5." and scripted.outputs == ["never read"]
    assert [(c["name"], c["result"]) for c in result.tool_calls] == [("python", "result: 399.5")]
    failed = rt.session().run_turn("What is 10 / 0?", slot="L2")
    assert failed.answer == "I couldn't compute 10 / 0: ZeroDivisionError: division by zero" and scripted.outputs == ["never read"]
    scripted.outputs = ["About a sixth of it."]
    worded = rt.session().run_turn("What is 17% of my budget?", slot="L0")  # not only arithmetic: the model's
    assert worded.answer == "About a sixth of it." and worded.tool_calls == []


def test_a_number_after_a_failed_python_call_is_not_passed_off_as_computed(scripted_runtime) -> None:
    """L2 on the embedded default: a python call that raised NameError, then "The square root of 7921 is 30."."""
    rt, scripted = scripted_runtime([call("python", code="print(aumber)"), "There are 30 primes below 7921."])
    result = rt.session().run_turn("How many primes are there below 7921?", slot="L2")
    assert result.answer == "I couldn't compute that: NameError: name 'aumber' is not defined" and scripted.outputs == []


def test_a_calendar_question_is_computed_from_the_conversations_clock(scripted_runtime) -> None:
    """On the embedded default "How many days until Christmas?" and "What day of the week is 25 December 2027?"
    got sentences with no right date in them: Python computes them from the clock the tail shows."""
    rt, scripted = scripted_runtime(["never read"])
    result = rt.session().run_turn("How many days until Christmas?", slot="L0")
    assert result.answer == "Friday 25 December 2026 is 24 days from today (Tuesday 1 December 2026)."
    assert [(c["name"], c["result"]) for c in result.tool_calls] == [("python", "result: '24 days'")]
    weekday = rt.session().run_turn("What day of the week is 25 December 2027?", slot="L1")
    assert weekday.answer == "25 December 2027 is a Saturday." and scripted.outputs == ["never read"]


def test_a_note_asked_beside_a_reminder_is_written_not_made_a_second_reminder(scripted_runtime) -> None:
    """Held-out L1: "Can you remind me tomorrow 18:00 to email the landlord? And write down that the boiler was
    serviced in October." made two reminders (the second "the boiler was serviced") and no note."""
    request = "Can you remind me tomorrow 18:00 to email the landlord? And write down that the boiler was serviced in October."
    rt, scripted = scripted_runtime([call("reminders.create", text="email the landlord", due="tomorrow at 18:00")
                                     + call("reminders.create", text="the boiler was serviced", due="tomorrow at 18:00"),
                                     "Set, and noted."])
    result = rt.session().run_turn(request, slot="L1")
    assert [r["text"] for r in rt.tool_hub.reminders.list()] == ["email the landlord"]
    assert list(rt.db.query("select body from notes")) == [{"body": "the boiler was serviced in October"}]
    assert [c["name"] for c in result.tool_calls] == ["reminders.create", "notes.create"]
    assert result.answer == "Reminder set for Wed 2 Dec 2026, 18:00: email the landlord.\nNoted: the boiler was serviced in October."
    assert scripted.outputs == ["Set, and noted."]  # what was done is said back, not left to the model
    scripted.outputs = [call("reminders.create", text="take my medication", due="in 10 minutes"), "Done."]
    rt.session().run_turn("Can you remind me in 10 minutes to take my medication? And write down that Ana's birthday is on 14 March.",
                          slot="L1")  # the note dropped altogether: added
    assert {"body": "Ana's birthday is on 14 March"} in list(rt.db.query("select body from notes"))
    scripted.outputs = [call("reminders.create", text="call the plumber", due="tomorrow at 9am"), "Set."]
    rt.session().run_turn("Remind me tomorrow at 9am to call the plumber.", slot="L1")  # no note asked: none written
    assert len(list(rt.db.query("select id from notes"))) == 2
    scripted.outputs = [call("notes.create", title="Gate", body="the gate code is 4471"), "Noted."]
    only_note = rt.session().run_turn("Remind me tomorrow at 7pm to water the plants. And note that the gate code is 4471.",
                                      slot="L0")  # seen in the app: L0 wrote only the note
    assert "water the plants" in [r["text"] for r in rt.tool_hub.reminders.list()]
    assert only_note.answer.startswith("Reminder set for Wed 2 Dec 2026, 19:00: water the plants.\nNoted: the gate code is 4471")


def test_a_reminder_nobody_asked_for_is_not_set(scripted_runtime) -> None:
    """Held-out L1: "Rome, 3 days, €955 to spend. … What does that leave me each day?" set three reminders; L0
    answered "See you later" with one, and the refusal got "I didn't do that: the request asks for no reminder …".
    A call refused as asked for by nothing is not run: the model answers again, held to words."""
    made = call("reminders.create", text="the room", due="tomorrow at 9am")
    rt, scripted = scripted_runtime([made, "About €200 a day."])
    result = rt.session().run_turn("Rome, 3 days, €955 to spend. What does that leave me each day?", slot="L1")
    assert rt.tool_hub.reminders.list() == [] and result.tool_calls == [] and result.answer == "About €200 a day."
    assert scripted.words == [False, True] and scripted.views[1] == scripted.views[0]  # the refused call is not in its view
    scripted.outputs = [made, "Fine."]
    for asked in ("Make sure I check the room tomorrow at 9am", "Give me a heads-up tomorrow at 9am about the room"):
        rt.session().run_turn(asked, slot="L1")
        scripted.outputs = [made, "Fine."]
    assert len(rt.tool_hub.reminders.list()) == 2


def test_a_reminder_asked_at_two_times_is_set_at_both(scripted_runtime) -> None:
    """On the embedded default "Remind me at 8am and 6pm tomorrow to take my medicine" set the 8am one only."""
    rt, scripted = scripted_runtime([call("reminders.create", text="take my medicine", due="tomorrow at 8am"), "never read"])
    result = rt.session().run_turn("Remind me at 8am and 6pm tomorrow to take my medicine", slot="L0")
    rows = rt.tool_hub.reminders.list()
    assert [(r["text"], local_due(r["due_at"])) for r in rows] == \
        [("take my medicine", "Wed 2 Dec 2026, 08:00"), ("take my medicine", "Wed 2 Dec 2026, 18:00")]
    assert result.answer == ("Reminder set for Wed 2 Dec 2026, 08:00: take my medicine.\n"
                             "Reminder set for Wed 2 Dec 2026, 18:00: take my medicine.")
    assert scripted.outputs == ["never read"]


def test_two_appointments_get_a_reminder_each_before_them(scripted_runtime) -> None:
    """Routed to L0, "a haircut at 11am and a call with Sam at 3pm on Monday, remind me an hour before both" got one
    reminder named "reminders.create"; with L1 the plan listed the dentist at the meeting's time."""
    rt, scripted = scripted_runtime([call("reminders.create", text="reminders.create", due="Monday at 10am"), "never read"])
    result = rt.session().run_turn("I have a haircut at 11am and a call with Sam at 3pm on Monday, remind me an hour before both", slot="L0")
    rows = rt.tool_hub.reminders.list()
    assert [(r["text"], local_due(r["due_at"])) for r in rows] == \
        [("a haircut", "Mon 7 Dec 2026, 10:00"), ("a call with Sam", "Mon 7 Dec 2026, 14:00")]
    assert result.answer.splitlines() == ["Reminder set for Mon 7 Dec 2026, 10:00: a haircut.",
                                          "Reminder set for Mon 7 Dec 2026, 14:00: a call with Sam."]
    rt, scripted = scripted_runtime([call("reminders.create", text="a meeting", due="tomorrow at 2pm", before="30 minutes")
                                     + call("reminders.create", text="the dentist", due="tomorrow at 4pm", before="15 minutes"),
                                     "Set:\n- Wed 2 Dec 2026, 13:30: the dentist (at 4pm)\n- Wed 2 Dec 2026, 15:45: the dentist (at 17:00)"])
    plan = rt.session().run_turn("Tomorrow I have a meeting at 2pm and the dentist at 4pm. Remind me 30 minutes before the first and "
                                 "15 minutes before the second.", slot="L1")  # a lead time each: the model's calls, its plan
    assert plan.answer == "Set:\n- Wed 2 Dec 2026, 13:30: a meeting\n- Wed 2 Dec 2026, 15:45: the dentist"


def test_a_fact_to_keep_in_mind_is_the_one_remembered(scripted_runtime) -> None:
    """Held-out L0: "Please keep in mind that I am allergic to shellfish" stored "your notes are the user's notes"."""
    rt, scripted = scripted_runtime([call("memory.remember", text="your notes are the user's notes"), "never read"])
    result = rt.session().run_turn("Please keep in mind that I am allergic to shellfish", slot="L0")
    assert result.answer == "Got it — I'll remember that you are allergic to shellfish."
    assert [m.text for m in rt.memory.store.list()] == ["The user is allergic to shellfish."]  # once: extraction saw it kept
