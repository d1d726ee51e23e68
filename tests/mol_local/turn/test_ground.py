"""A reminder asked for "30 minutes before" an appointment is set 30 minutes before it, even when the model drops the offset."""

from __future__ import annotations

from dataclasses import replace

import pytest

from mol_local.harness.when import copies_a_time, stated_offset
from mol_local.turn.ground import asks_to_complete, asks_to_see_reminders, grounded
from mol_local.turn.read import read_answer
from mol_local.turn.options import AnswerOptions
from mol_local.turn.tasks import ToolCall

ASK = "Give me a heads-up 30 minutes before my dentist appointment tomorrow at 14:00"


@pytest.mark.parametrize(("text", "offset"), [
    (ASK, "30 minutes"),
    ("remind me an hour before the match at 3pm", "an hour"),
    ("a heads-up 30 min before each of these: the dentist at 12:30 and football at 10:30", "30 min"),
    ("remind me at 9 to call mum", None),
    ("15 minutes before the bus at 8:10, and an hour before the film at 20:00", None),  # two offsets: no guess
])
def test_the_offset_a_request_states(text: str, offset: str | None) -> None:
    assert stated_offset(text) == offset


def create(**arguments) -> ToolCall:
    return ToolCall("reminders.create", arguments, "<tool_call>…</tool_call>")


def test_a_copied_appointment_time_gets_the_stated_offset() -> None:
    got = grounded(create(text="my dentist appointment", due="tomorrow at 14:00"), ASK)
    assert got.arguments == {"text": "my dentist appointment", "due": "tomorrow at 14:00", "before": "30 minutes"}


@pytest.mark.parametrize("call", [
    create(text="my dentist appointment", due="tomorrow 13:30"),  # the model worked the time out itself
    create(text="my dentist appointment", due="tomorrow at 14:00", before="30 minutes"),  # it said the offset
    ToolCall("reminders.create", {}, "garbled", error="not JSON"),
])
def test_anything_else_is_left_as_the_model_wrote_it(call: ToolCall) -> None:
    assert grounded(call, ASK) is call
    note = ToolCall("notes.create", {"title": "dentist", "body": "14:00"}, "")
    assert grounded(note, ASK + " and note it down") is note  # (with no note asked, it is refused: below)


@pytest.mark.parametrize(("due", "request_text", "wanted"), [
    ("yesterday at 14:00", ASK, "tomorrow at 14:00"),  # seen with mol chat --slot L0
    ("Monday 9am", "remind me on Friday at 9am to pay rent", "friday 9am"),
    ("tomorrow at 14:00", ASK, "tomorrow at 14:00"),  # the day said: unchanged
    ("Friday 10am", "remind me Monday or Friday at 10am", "Friday 10am"),  # two days said: no guess
    ("in 2 hours", "remind me in 2 hours", "in 2 hours"),  # no day anywhere
])
def test_the_day_is_the_one_the_person_said(due: str, request_text: str, wanted: str) -> None:
    assert grounded(create(text="x", due=due, before="5 minutes"), request_text).arguments["due"] == wanted


OPEN = [{"id": "a1", "text": "water the garden"}, {"id": "b2", "text": "confirm the flight"}]


@pytest.mark.parametrize(("chosen", "request_text", "wanted"), [
    ("a1", "You can cross 'confirm the flight' off my reminders now — it's done", "b2"),  # seen in the bench
    ("b2", "You can cross 'confirm the flight' off my reminders now", "b2"),
    ("a1", "I watered the garden, tick it off", "a1"),  # not named word for word: the model's pick stands
    ("a1", "water the garden and confirm the flight are both done", "a1"),  # both named: the model's pick stands
])
def test_the_reminder_completed_is_the_one_named(chosen: str, request_text: str, wanted: str) -> None:
    call = ToolCall("reminders.complete", {"id": chosen}, "")
    assert grounded(call, request_text, lambda: OPEN).arguments["id"] == wanted


@pytest.mark.parametrize(("chosen", "request_text", "wanted"), [
    ("b2", "I already watered the garden, tick that off", "a1"),  # other words: "watered" ~ "water", "garden"
    ("a1", "Confirmed the flights, cross it off", "b2"),
    ("b2", "done, tick it off", "b2"),  # nothing named: the model's pick stands
    ("a1", "the garden and the flight are done", "a1"),  # both named as well: the model's pick stands
])
def test_a_reminder_named_in_other_words_is_the_one_completed(chosen: str, request_text: str, wanted: str) -> None:
    call = ToolCall("reminders.complete", {"id": chosen}, "")
    assert grounded(call, request_text, lambda: OPEN).arguments["id"] == wanted


@pytest.mark.parametrize("request_text", [
    "Do I have any reminders?", "Show me my reminders", "What's on my list for tomorrow?", "What are my reminders?",
    "Did I already set a reminder for the dentist?", "Remind me to call mum at 5",
])
def test_a_completion_the_request_does_not_ask_for_is_refused(request_text: str) -> None:
    assert not asks_to_complete(request_text)
    got = grounded(ToolCall("reminders.complete", {"id": "a1"}, ""), request_text, lambda: OPEN)
    assert got.refused and got.arguments == {"id": "a1"}


@pytest.mark.parametrize("request_text", [
    "I already took the bins out, tick that off", "You can cross 'call the dentist' off my reminders now, it's done",
    "Called the bank already, cross that one off", "Mark the reminder 'water the plants' as done",
    "I took care of the car insurance; that reminder can go", "Got the tax return sorted — mark that reminder as complete",
    "Can you check off pay the rent?", "Remove the dentist reminder", "Finished the report",
])
def test_a_completion_asked_for_runs(request_text: str) -> None:
    assert asks_to_complete(request_text)
    assert not grounded(ToolCall("reminders.complete", {"id": "a1"}, ""), request_text, lambda: OPEN).refused


def test_copies_a_time() -> None:
    assert copies_a_time("tomorrow at 14:00", ASK) and copies_a_time("3 PM", "the match at 3pm")
    assert not copies_a_time("tomorrow 13:30", ASK) and not copies_a_time("tomorrow", ASK)


@pytest.mark.slow
def test_the_call_that_runs_carries_the_offset(runtime) -> None:
    """`mol chat` set this one for 14:00 before the offset was grounded; the call the turn ran (and reports) has it."""
    result = runtime.session().run_turn(ASK, slot="L0", options=AnswerOptions(max_tokens=128))  # the test profile's 48 cut a call
    made = [c for c in result.tool_calls if c["name"] == "reminders.create"]
    copied = [c for c in made if copies_a_time(c["arguments"].get("due", ""), ASK)]
    assert copied, (made, result.answer)  # the embedded L0 copies the appointment's time
    for call in copied:
        assert call["arguments"]["before"] == "30 minutes", call
        assert "13:30" in call["result"], call  # the time the tool worked out and said back (or refused)


@pytest.mark.parametrize(("request_text", "see"), [
    ("List my reminders", True), ("Do I have any reminders?", True), ("What reminders do I have?", True),
    ("Which reminders are still open?", True), ("What's on my list for tomorrow?", True),
    ("Remind me to call mum at 5", False), ("Set a reminder to check the oven at 6", False),
    ("Can you list my reminders and add one for 5pm?", False), ("Remind me tomorrow at 9 to read my reminders", False),
    ("Mark all my reminders as done", False),
])
def test_a_request_to_see_the_reminders(request_text: str, see: bool) -> None:
    assert asks_to_see_reminders(request_text) is see
    got = grounded(create(text="Reminders", due="today at 10:00"), request_text)
    assert (got.name, got.answers) == (("reminders.list", True) if see else ("reminders.create", False))


def test_the_list_or_the_completion_asked_for_is_the_answer() -> None:
    listed = "a1 · Fri 4 Dec 2026, 08:00 · take the bins out\nb2 · Mon 7 Dec 2026, 07:30 · pay the rent"
    assert read_answer([{"name": "reminders.list", "result": listed}]) == (
        "Your open reminders (2):\n- take the bins out — Fri 4 Dec 2026, 08:00\n- pay the rent — Mon 7 Dec 2026, 07:30")
    assert read_answer([{"name": "reminders.list", "result": "No reminders."}]) == "You have no open reminders."
    done = "Done: pay the rent. Nothing else is open."
    assert read_answer([{"name": "reminders.complete", "result": done}]) == done


@pytest.mark.parametrize(("request_text", "wanted"), [
    ("Called the bank already, cross that one off", None),  # names no open reminder: refused, nothing made
    ("Watered the garden, you can cross that one off", "a1"),
    ("I confirmed the flight, tick it off", "b2"),
    ("Remind me to tick off the flight tomorrow at 9", "create"),  # a reminder asked for: it stands
])
def test_a_reminder_made_for_a_tick_off_completes_the_one_named(request_text: str, wanted: str | None) -> None:
    """Routed to L0, "You can cross 'call the dentist' off …" became a reminder due 'the dentist'."""
    got = grounded(create(text="the flight", due="tomorrow at 9"), request_text, lambda: OPEN)
    if wanted == "create":
        assert got.name == "reminders.create" and not got.refused
    elif wanted is None:
        assert got.name == "reminders.create" and got.refused
    else:
        assert (got.name, got.arguments, got.answers) == ("reminders.complete", {"id": wanted}, True)


@pytest.mark.parametrize(("request_text", "settled"), [
    ("Put this in my notes: the living room paint is Farrow Ash No. 5!",
     ("notes.create", {"title": "Living room paint", "body": "the living room paint is Farrow Ash No. 5"})),
    ("Can you write down that the boiler was serviced in October?",
     ("notes.create", {"title": "Boiler", "body": "the boiler was serviced in October"})),
    ("What reminders do I have?", ("reminders.list", {})),
    ("What did I note about the gate?", ("notes.find", {"query": "gate"})),  # was left to the model, which saved a new note
    ("Search my notes for key", ("notes.find", {"query": "key"})),
    ("look through my notes for the wifi password", ("notes.find", {"query": "wifi password"})),
    ("Remind me at 5 to call Sam and note that the gate code is 4471", None),  # a reminder too: the model's to write
    ("Write me a poem about the sea", None),
])
def test_the_call_a_request_settles_when_the_model_wrote_none(request_text: str, settled) -> None:
    from mol_local.turn.ground import settled_call

    call = settled_call(request_text)
    assert (call and (call.name, call.arguments)) == settled or (call is None and settled is None)
    assert call is None or (call.answers and call.raw.startswith("<tool_call>"))


@pytest.mark.parametrize(("request_text", "written", "kept"), [
    ("Remind me tomorrow at 7am to walk Biscuit", "walk", "walk Biscuit"),  # seen with `mol chat`
    ("remind me to take the bins out tonight", "take the bins", "take the bins out"),
    ("Remind me to call the dentist tomorrow at 9", "call the dentist", "call the dentist"),
    ("Remind me to buy milk, eggs and bread on Saturday", "buy milk", "buy milk"),  # a list is not one phrase
    ("Remind me at 5 to stretch my legs for ten minutes in the garden", "stretch", "stretch"),  # too much to guess
    ("Remind me to pay", "pay the rent", "pay the rent"),  # not in the request: the model's words stay
    ("Wake me up at 6:30 tomorrow", "the user's reminders", "wake up"),  # `mol chat`: set as "the user's reminders"
    ("Wake me up at 6:30 tomorrow for the flight", "catch the flight", "catch the flight"),  # the model's own words fit
])
def test_a_reminder_text_cut_short_gets_the_rest_of_its_phrase(request_text: str, written: str, kept: str) -> None:
    from mol_local.turn.ground import grounded

    call = grounded(ToolCall("reminders.create", {"text": written, "due": "tomorrow at 7am"}, ""), request_text)
    assert call.arguments["text"] == kept


def test_with_both_asked_turns_the_reminder_made_of_the_notes_words_into_the_note() -> None:
    from mol_local.turn.ground import with_both_asked
    from mol_local.turn.tasks import ToolCall

    request = "Can you remind me on October 8 at 16:00 to reply to Ana? And write down that the fridge filter is model WF-22."
    reply = ToolCall("reminders.create", {"text": "reply to Ana", "due": "October 8 at 16:00"}, "raw")
    fridge = ToolCall("reminders.create", {"text": "the fridge filter", "due": "October 8 at 16:00"}, "raw")
    got = with_both_asked([reply, fridge], request, [])
    assert [(c.name, c.arguments.get("text") or c.arguments["body"]) for c in got] == \
        [("reminders.create", "reply to Ana"), ("notes.create", "the fridge filter is model WF-22")]
    assert with_both_asked([reply], request, [{"name": "notes.create"}]) == [reply]  # written earlier in the task
    assert with_both_asked([], request, []) == []  # words only: the model's answer stands
    assert with_both_asked([reply], "Remind me on October 8 at 16:00 to reply to Ana.", []) == [reply]


def test_with_both_asked_adds_the_reminder_the_model_left_out_when_its_sentence_reads_plainly() -> None:
    from mol_local.turn.ground import with_both_asked
    from mol_local.turn.tasks import ToolCall

    request = "Can you remind me tomorrow at 6pm to email the landlord? And write down that the boiler was serviced in October."
    note = ToolCall("notes.create", {"title": "Boiler", "body": "the boiler was serviced in October"}, "raw")
    got = with_both_asked([note], request, [])  # seen in the app: L0 wrote only the note
    assert [(c.name, c.arguments) for c in got][0] == ("reminders.create", {"text": "email the landlord", "due": "tomorrow at 6pm"})
    other = "Remind me to email the landlord tomorrow at 6pm, and note that the boiler was serviced in October."
    assert with_both_asked([note], other, [])[0].arguments == {"text": "email the landlord", "due": "tomorrow at 6pm"}
    vague = "Remind me about the landlord sometime. And write down that the boiler was serviced in October."
    assert with_both_asked([note], vague, []) == [note]  # no time to read: nothing is made up
    assert with_both_asked([note], request, [{"name": "reminders.create"}]) == [note]  # set earlier in the task


def test_with_both_asked_puts_the_asked_reminder_in_place_of_one_about_something_else() -> None:
    from mol_local.turn.ground import with_both_asked
    from mol_local.turn.tasks import ToolCall

    request = "Can you remind me tomorrow at 6pm to email the landlord? And write down that the boiler was serviced in October."
    wrong = ToolCall("reminders.create", {"text": "write a note", "due": "tomorrow at 6pm"}, "raw")  # seen in the app
    note = ToolCall("notes.create", {"title": "Boiler", "body": "the boiler was serviced in October"}, "raw")
    got = with_both_asked([wrong, note], request, [])
    assert [c.arguments.get("text") for c in got if c.name == "reminders.create"] == ["email the landlord"]
    right = ToolCall("reminders.create", {"text": "email landlord", "due": "tomorrow at 6pm"}, "raw")
    assert with_both_asked([right, note], request, []) == [right, note]  # the model's own reminder for it stands



def test_a_remembered_fact_is_what_the_person_said_about_themselves() -> None:
    """Held-out L0: "Please keep in mind that I am allergic to shellfish" called memory.remember("your notes are the user's
    notes") and answered "I'll remember that your notes are the user's notes."."""
    request = "Please keep in mind that I am allergic to shellfish"
    wrong = grounded(ToolCall("memory.remember", {"text": "your notes are the user's notes"}, ""), request)
    assert wrong.arguments == {"text": "The user is allergic to shellfish."} and wrong.answers
    said = ToolCall("memory.remember", {"text": "The user is allergic to shellfish"}, "")
    assert grounded(said, request) == replace(said, answers=True)  # the model's own words for it stand; they are the answer
    # (mol chat: "I'm allergic to penicillin" was kept right and answered "I'll remember that your dentist is Dr Patel …")
    contracted = grounded(ToolCall("memory.remember", {"text": "The user's allergic to peanuts"}, ""), "I'm allergic to peanuts")
    assert contracted.arguments == {"text": "The user is allergic to peanuts."}  # mol chat: "I'll remember that your allergic to peanuts"
    asked = grounded(said, "I'm allergic to shellfish, what can I eat at a sushi bar?")
    assert not asked.answers  # a question with it: the model answers that
    other = ToolCall("memory.remember", {"text": "The user likes jazz"}, "")
    assert grounded(other, "Remember this for me please") == other  # nothing read from the request: the model's
    whose = grounded(ToolCall("memory.remember", {"text": "The user's birthday is on March 3rd"}, ""),
                     "My sister's birthday is on March 3rd, remember that")  # tried with mol chat: the sister was dropped
    assert whose.arguments == {"text": "The user's sister's birthday is March 3rd."}
    assert read_answer([{"name": "memory.remember", "arguments": wrong.arguments, "result": "Remembered (abc)."}]) == \
        "Got it — I'll remember that you are allergic to shellfish."
    two = grounded(ToolCall("memory.remember", {"text": "Lily"}, ""), "My daughter Lily starts school on 8 January")
    assert read_answer([{"name": "memory.remember", "arguments": two.arguments, "result": "Remembered (abc)."}]) == \
        "Got it — I'll remember that your daughter is called Lily and that your daughter Lily starts school on 8 January."


@pytest.mark.parametrize(("text", "asks"), [
    ("What notes do I have?", True), ("Show me my notes please", True), ("list all my notes", True),
    ("Do I have notes about the wifi?", False),  # a search: the model's words
    ("Write down a note: the wifi password is in the blue drawer", False), ("Remind me to read my notes at 6pm", False),
])
def test_asking_to_see_the_notes(text: str, asks: bool) -> None:
    from mol_local.turn.ground import asks_to_see_notes, settled_call

    assert asks_to_see_notes(text) is asks
    if asks:
        assert settled_call(text).arguments == {"query": ""}  # type: ignore[union-attr]


def test_the_notes_asked_to_see_are_all_listed() -> None:
    """Tried with mol chat: "What notes do I have?" got notes.find("milk") — the prompt's example — and "You haven't told
    me anything about milk yet." with two notes saved."""
    wrong = grounded(ToolCall("notes.find", {"query": "milk"}, "raw"), "What notes do I have?")
    assert (wrong.name, wrong.arguments, wrong.answers) == ("notes.find", {"query": ""}, True)
    made = grounded(ToolCall("notes.create", {"title": "Notes", "body": "notes.create: create a new note"}, "raw"), "What notes do I have?")
    assert (made.name, made.arguments) == ("notes.find", {"query": ""})  # after two plans were saved, L0 saved a third note
    found = "3a6a1f4701d7 · Wifi · the wifi password is in the blue drawer\n4e835fc88646 · Plan · gym at 10"
    assert read_answer([{"name": "notes.find", "arguments": {"query": ""}, "result": found}]) == \
        "Your notes (2):\n- Wifi: the wifi password is in the blue drawer\n- Plan: gym at 10"
    assert read_answer([{"name": "notes.find", "arguments": {"query": ""}, "result": "No notes match ''."}]) == "You have no notes yet."


def test_a_note_asked_for_by_nothing_is_refused_and_dropped_beside_what_was_asked() -> None:
    """Tried with mol chat: "Plan my Saturday: gym at 10am, lunch with Sam at 1pm, and remind me 15 minutes before each"
    set both reminders, saved an unasked note "15 minutes before each appointment" and answered "- Reminder: a: gym and Sam"."""
    from mol_local.turn.ground import NOT_NOTED
    from mol_local.turn.times import grounded_calls

    request = "Plan my Saturday: gym at 10am, lunch with Sam at 1pm, and remind me 15 minutes before each"
    note = ToolCall("notes.create", {"title": "Saturday plan", "body": "15 minutes before each appointment"}, "raw")
    assert grounded(note, request).refused == NOT_NOTED
    assert grounded(note, "Plan my Saturday and save it as a note").refused is None
    calls = grounded_calls([note, create(text="gym", due="Saturday at 10am")], request, [], tuple)
    assert [(c.name, c.arguments["text"], c.arguments["before"], c.answers) for c in calls] == [
        ("reminders.create", "gym", "15 minutes", True), ("reminders.create", "lunch with Sam", "15 minutes", True)]
    alone = grounded_calls([note], "What should I do on Saturday?", [], tuple)
    assert [c.refused for c in alone] == [NOT_NOTED]  # alone: refused, and the turn answers in words


def test_a_reminder_asked_every_day_repeats_and_a_tick_off_is_no_memory() -> None:
    """Tried with mol chat: "Remind me to take my pills every day at 8am" was set once "at 8am" (the stated-reminder
    rule took the time without "every day"), and "I took my pills, tick that off" stored a memory "The user's pills"."""
    from mol_local.turn.times import grounded_calls

    request = "Remind me to take my pills every day at 8am"
    (pills,) = grounded_calls([create(text="take my pills", due="at 8am")], request, [], tuple)
    assert pills.arguments["due"] == "every day at 8am"
    rows = [{"id": "r1", "text": "take my pills"}, {"id": "r2", "text": "call the bank"}]
    ticked = grounded(ToolCall("memory.remember", {"text": "The user's pills"}, "raw"), "I took my pills, tick that off", lambda: rows)
    assert (ticked.name, ticked.arguments) == ("reminders.complete", {"id": "r1"})


def test_a_reminder_with_no_time_asks_when_and_one_clock_time_is_kept() -> None:
    """Tried with mol chat: "Remind me to call Ana" was set for the minute it was asked, "Remind me about the meeting
    later" was refused as "due 'the meeting' is not a time I can read", "Set an alarm for 6:30 tomorrow" was set for
    tomorrow 9am, and "Cancel my dentist reminder" made a reminder called "Cancel my dentist reminder"."""
    from mol_local.turn.when_said import ASK_WHEN

    ana = grounded(create(text="call Ana", due="Fri 4 Dec 2026, 18:43"), "Remind me to call Ana")
    assert ana.refused == ASK_WHEN and ana.answers
    assert read_answer([{"name": "reminders.create", "arguments": ana.arguments, "result": f"Error: {ASK_WHEN}"}]) == \
        "When should I remind you to call Ana?"
    meeting = {"name": "reminders.create", "arguments": {"text": "the meeting later"}, "result": f"Error: {ASK_WHEN}"}
    assert read_answer([meeting]) == "When should I remind you about the meeting?"
    assert grounded(create(text="call Ana", due="in 5 minutes"), "Remind me in five minutes to call Ana").refused is None
    assert grounded(create(text="alarm", due="tomorrow 9am"), "Set an alarm for 6:30 tomorrow").arguments["due"] == "tomorrow 6:30"
    kept = create(text="meeting", due="tomorrow 1:30pm")  # worked out from a lead time: the model's
    assert grounded(kept, "remind me 30 minutes before my 2pm meeting tomorrow").arguments["due"] == "tomorrow 1:30pm"
    rows = [{"id": "d1", "text": "dentist"}, {"id": "g1", "text": "gym"}]
    cancel = grounded(create(text="Cancel my dentist reminder", due="Dec 4 2026"), "Cancel my dentist reminder", lambda: rows)
    assert (cancel.name, cancel.arguments) == ("reminders.complete", {"id": "d1"})


@pytest.mark.parametrize(("text", "sees"), [
    ("What's on my calendar tomorrow?", True), ("what do I have tomorrow?", True), ("What have I got on this week", True),
    ("Add the dentist to my calendar on Friday at 3pm", False), ("What's the weather tomorrow?", False),
    ("What do I have to do today?", True),  # mol chat: "Good to know — you have everything to do on Sat 5 Dec 2026"
    ("What do I have on Friday?", True), ("Anything due tomorrow?", True), ("What do I have to do to bake bread?", False),
])
def test_a_calendar_question_lists_the_reminders(text: str, sees: bool) -> None:
    """Tried with mol chat: "What's on my calendar tomorrow?" got "Your calendar is on November 30th."."""
    assert asks_to_see_reminders(text) is sees


def test_note_colon_is_a_note() -> None:
    """Tried with mol chat: "Note: buy a birthday card for Tom" went to L3 as a card holding "March 3rd" (a memory)."""
    from mol_local.genui.asked import names_a_view
    from mol_local.turn.ground import settled_call

    assert settled_call("Note: buy a birthday card for Tom").arguments == {  # type: ignore[union-attr]
        "title": "Buy a birthday card", "body": "buy a birthday card for Tom"}
    assert not names_a_view("Note: buy a birthday card for Tom") and not names_a_view("buy a birthday card for Tom")
    assert names_a_view("a card for Today with these lines: call Mum; buy bread")


def test_a_question_is_nothing_to_remember_or_to_set() -> None:
    """Held-out L0 (mol bench specialists): "Do you know my car?" called memory.remember and answered "I'll remember
    that your car."; "Remind me what I told you about the dentist" was asked "When should I remind you …?"."""
    from mol_local.turn.ground import NOT_SET, NOT_STATED

    remember = ToolCall("memory.remember", {"text": "your car"}, "")
    assert grounded(remember, "Do you know my car?").refused == NOT_STATED
    assert grounded(remember, "Do you remember my car?").refused == NOT_STATED
    assert grounded(remember, "Can you remember that my dog is called Rex?").refused is None  # asked as a question, still a fact
    dentist = create(text="The dentist", due="the dentist")
    assert grounded(dentist, "Remind me what I told you about the dentist").refused == NOT_SET


def test_a_reminder_with_no_time_for_a_request_that_says_one_is_not_set() -> None:
    """`mol chat -c`: L1 set "book the airport transfer a week before" with no due, open for ever, beside a refused one."""
    from mol_local.turn.ground import NO_DUE

    bare = ToolCall("reminders.create", {"text": "book the airport transfer a week before"}, "")
    assert grounded(bare, "Remind me to book the airport transfer a week before").refused == NO_DUE
    assert grounded(create(text="book it", due="tomorrow 9am"), "Remind me to book it tomorrow at 9").refused is None
    from mol_local.turn.when_said import ASKED_DAY  # the answer asks when (L0 had said "The request didn't run, so I'd be happy to help")

    refused = {"name": "reminders.create", "arguments": bare.arguments, "result": f"Error: {NO_DUE}", "error": None}
    assert grounded(bare, "Remind me 30 minutes before the cinema").answers and read_answer([refused]) == ASKED_DAY


def test_a_request_to_do_something_keeps_no_memory() -> None:
    """`mol chat "Help me write a short thank-you message to my neighbour for feeding the cat"` called
    memory.remember("The user's cat is fed") and answered "Got it — I'll remember that."."""
    from mol_local.turn.ground import NOT_STATED

    remember = ToolCall("memory.remember", {"text": "The user's cat is fed"}, "")
    assert grounded(remember, "Help me write a short thank-you message to my neighbour for feeding the cat").refused == NOT_STATED
    assert grounded(remember, "Give me three ideas for a rainy Sunday").refused == NOT_STATED
    assert grounded(remember, "Please remember to keep this: my son is called Tom").refused is None  # asked to keep it
    assert grounded(remember, "My son is called Tom").arguments == {"text": "The user's son is called Tom."}
    noted = grounded(remember, "Write down that the boiler code is 4471")  # a note, as "Write down that …" is
    assert noted.name == "notes.create" and noted.refused is None
