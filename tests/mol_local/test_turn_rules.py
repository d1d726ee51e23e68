"""The turn's rules where the person's words settle it, on the real engine with scripted model output:
memories in the tail, arithmetic and dates computed, a note beside a reminder, reminders asked at several
times or before several appointments, a fact to keep in mind (`Scripted` in tests/mol_local/conftest.py).
"""

from __future__ import annotations

import pytest

from mol_local.harness.store import local_due
from tests.mol_local.conftest import call


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
    assert right.answer == result.answer  # their words, quoted, even when the model's retelling was right (it often is not:
    # "I lent my drill to Marco yesterday" came back as "Marco lent your drill to Marco yesterday")
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


def test_a_unit_conversion_is_computed_in_the_sandbox(scripted_runtime) -> None:
    """On the embedded default "Convert 5 miles to kilometres" got "10 miles (30 km) are equivalent to 5 kilometres."."""
    rt, scripted = scripted_runtime(["never read"])
    result = rt.session().run_turn("Convert 5 miles to kilometres", slot="L0")
    assert result.answer == "5 miles is 8.05 kilometres." and scripted.outputs == ["never read"]
    assert [(c["name"], c["result"]) for c in result.tool_calls] == [("python", "result: 8.05")]


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
    rt, scripted = scripted_runtime([made, "The Colosseum, the Vatican and Trastevere."])  # (a budget per day is computed now:
    result = rt.session().run_turn("Rome, 3 days. What should I see each day?", slot="L1")  # test_budget.py)
    assert rt.tool_hub.reminders.list() == [] and result.tool_calls == [] and result.answer == "The Colosseum, the Vatican and Trastevere."
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


def test_a_follow_up_moves_the_reminder_just_set(scripted_runtime) -> None:
    """Tried with mol chat: after "remind me to renew my passport next Friday at noon", "Actually, make it 3pm instead"
    got "Reminder set for Fri 4 Dec 2026, 18:39: make it 3pm." with no call: the reminder stayed at noon."""
    rt, scripted = scripted_runtime([call("reminders.create", text="renew my passport", due="Friday at noon"), "never read"])
    session = rt.session()
    session.run_turn("Can you remind me to renew my passport on Friday at noon?", slot="L0")
    scripted.outputs = ["never read"]
    moved = session.run_turn("Actually, make it 3pm instead", slot="L0")
    assert moved.answer == "Moved: renew my passport — now Fri 4 Dec 2026, 15:00." and scripted.outputs == ["never read"]
    assert [(r["text"], local_due(r["due_at"])) for r in rt.tool_hub.reminders.list()] == [("renew my passport", "Fri 4 Dec 2026, 15:00")]
    scripted.outputs = ["A timer for ten minutes."]
    session.run_turn("Tell me a joke", slot="L0")
    scripted.outputs = ["Sure."]
    later = session.run_turn("make it 10", slot="L0")  # the reminder is two turns back: not what "it" is
    assert later.answer == "Sure." and local_due(rt.tool_hub.reminders.list()[0]["due_at"]) == "Fri 4 Dec 2026, 15:00"
    again = rt.session(session.conversation_id)
    scripted.outputs = [call("reminders.list"), "never read"]
    again.run_turn("What reminders do I have?", slot="L0")
    past = again.run_turn("move it to 8am today", slot="L0")  # passed: refused, the reminder stays
    assert past.answer.startswith("I couldn't do that:") and "has already passed" in past.answer
    assert len(rt.tool_hub.reminders.list()) == 1


def test_a_reminder_with_no_time_asks_when_and_the_next_message_sets_it(scripted_runtime) -> None:
    """Tried with mol chat: "Remind me to call Ana" was set for the minute it was asked."""
    rt, scripted = scripted_runtime([call("reminders.create", text="call Ana", due="Tue 1 Dec 2026, 20:53"), "never read"])
    session = rt.session()
    asked = session.run_turn("Remind me to call Ana", slot="L0")
    assert asked.answer == "When should I remind you to call Ana?" and rt.tool_hub.reminders.list() == []
    told = session.run_turn("tomorrow at 5pm", slot="L0")
    assert told.answer == "Reminder set for Wed 2 Dec 2026, 17:00: call Ana." and scripted.outputs == ["never read"]
    scripted.outputs = ["Sure."]
    assert session.run_turn("tomorrow at 6pm", slot="L0").answer == "Sure."  # answered already: no second reminder
    assert len(rt.tool_hub.reminders.list()) == 1


def test_saying_a_reminder_is_done_in_the_past_tense_ticks_it_off(scripted_runtime) -> None:
    """`mol chat -c` after "Remind me at noon tomorrow to call mum": "I called mum" got "You've been told to call mum."
    and the reminder stayed open."""
    rt, scripted = scripted_runtime(["You've been told to call mum.", "You've been told to call mum.", "Good for you!", "Good for you!"])
    rt.tool_hub.reminders.create("call mum", "tomorrow at noon")
    rt.tool_hub.reminders.create("take the bins out", "Tuesday at 6pm")
    called = rt.session().run_turn("I called mum", slot="L0")
    assert [c["name"] for c in called.tool_calls] == ["reminders.complete"] and "call mum" in called.answer
    assert [r["text"] for r in rt.tool_hub.reminders.list()] == ["take the bins out"]
    took = rt.session().run_turn("I took the bins out", slot="L0")  # irregular: "took" is "take"
    assert [c["name"] for c in took.tool_calls] == ["reminders.complete"] and rt.tool_hub.reminders.list() == []
    other = rt.session().run_turn("I called the bank", slot="L0")  # no reminder names it: the model's answer
    assert other.tool_calls == []
