"""The reply to a short statement about the person (mol_local/turn/told_ack.py)."""

from __future__ import annotations

import pytest

from mol_local.turn.told_ack import acked_answer


@pytest.mark.parametrize(("text", "answer", "reply"), [
    ("My name is Ada", "Nice to meet you, mate! Congratulations on naming it Ada!", "Nice to meet you, Ada!"),  # seen in `mol chat`
    ("My sister's name is Priya", "Nice to meet you, my sister's name is Priya.", "Got it — your sister is called Priya."),
    ("Call me Bob", "Hi Bob, how are you?", "Nice to meet you, Bob!"),
    ("My dog is called Biscuit and my cat is called Tiger", "Cats are great.",
     "Got it — your dog is called Biscuit and your cat is called Tiger."),
    ("I need to pay the electricity bill by the 15th", "Noted — you need to pay the electricity bill by the 15th.",  # mol chat -c: no offer
     'Noted — you need to pay the electricity bill by the 15th. Say "remind me the day before" (or "an hour before") and I\'ll set a reminder.'),
    ("My daughter's name is Lily and she is 7", "Got it — your daughter is called Lily.",  # mol chat -c: "… and your daughter is 7."
     "Got it — your daughter is called Lily and is 7 years old."),
    ("My mum is called Ann and she lives in Leeds", "Nice.", "Got it — your mum is called Ann and lives in Leeds."),
    ("I parked on level 3, row F", "Good to know — your sister's birthday is on March 3rd.",  # mol chat -c: an earlier fact
     "Noted — you parked on level 3, row F."),
    ("I have a dentist appointment on Thursday at 2pm", "Good to know — your dentist appointment on Thursday at 2pm has been approved.",
     'Noted — you have a dentist appointment on Thursday at 2pm. Say "remind me the day before" (or "an hour before") and I\'ll set a reminder.'),
    ("I'm allergic to peanuts", "Thanks for letting me know: your allergy to peanuts is a serious issue.",  # mol chat: a judgement added
     "Got it — you are allergic to peanuts."),
])
def test_a_statement_gets_back_what_was_understood(text: str, answer: str, reply: str) -> None:
    assert acked_answer(text, answer) == reply


@pytest.mark.parametrize(("text", "answer"), [
    ("I'm allergic to peanuts", "Thanks for letting me know: you are allergic to peanuts."),  # already plain and right
    ("My favourite colour is green", "Good to know — your favourite colour is green."),
    ("I parked on level 3, row F", "Good to know — you parked on level 3, row F."),
    ("I feel a bit down today", "I'm sorry to hear that. Do you want to talk about it?"),  # not an acknowledgement: kept
    ("My name is Ada, can you help me with my taxes?", "Sure."),  # asks something
    ("What is my name?", "I don't know yet."),
    ("Remind me to call Ada at 5", "Reminder set."),
    ("The meeting went well and everyone liked the new design we showed them on Monday afternoon", "Great!"),  # long: not this
])
def test_anything_else_keeps_the_models_answer(text: str, answer: str) -> None:
    assert acked_answer(text, answer) is None


def test_in_a_turn_the_reply_replaces_the_models(scripted_runtime) -> None:
    rt, _scripted = scripted_runtime(["Nice to meet you, mate! Congratulations on naming it Ada!"])
    result = rt.session().run_turn("My name is Ada", slot="L0")
    assert result.answer == "Nice to meet you, Ada!"
    assert [m.content for m in rt.timeline.load_tasks(result.conversation_id)[-1].messages][-1] == "Nice to meet you, Ada!"


def test_a_statement_answered_with_an_unasked_read_is_said_back() -> None:
    """`mol chat "I parked the car on level 3, spot 42"`: routed L1, which listed the reminders and answered "No reminders
    for the plan: - Reminders.create(text, …)"."""
    said = "I parked the car on level 3, spot 42"
    assert acked_answer(said, "No reminders for the plan", read_only=True) == "Noted — you parked the car on level 3, spot 42."
    assert acked_answer(said, "No reminders for the plan") is None  # with no read, a reply of its own stays
    assert acked_answer("My train leaves at 6 and I'm on coach B", "x", read_only=True) == \
        "Noted — your train leaves at 6 and you're on coach B."
    assert acked_answer("Can you check my reminders?", "x", read_only=True) is None


def test_only_a_turn_that_wrote_nothing_gets_the_statements_reply() -> None:
    from mol_local.turn.told_ack import statement_reply

    said = "I parked the car on level 3, spot 42"
    refused = [{"name": "reminders.create", "result": "Error: not run: the request asks for no reminder"}]
    assert statement_reply(said, "I didn't do that", refused) == "Noted — you parked the car on level 3, spot 42."
    written = [{"name": "notes.create", "result": "Saved note ab12: Car"}]
    assert statement_reply(said, "Saved a note.", written) is None  # something was written: its answer stands


def test_remember_that_a_fact_is_the_fact_said_back_when_the_model_wrote_nothing() -> None:
    """`mol chat "Remember that my car's MOT is due on the 3rd of March"`: routed L1, which listed the reminders, tried to tick
    one off (refused) and answered "I didn't do that: … nothing was ticked off"."""
    from mol_local.turn.told_ack import statement_reply

    said = "Remember that my car's MOT is due on the 3rd of March"
    refused = [{"name": "reminders.list", "result": "9345 · Mon 7 Dec 2026, 09:30 · a meeting with Sam"},
               {"name": "reminders.complete", "result": "Error: not run: the request does not say a reminder is done"}]
    assert statement_reply(said, "I didn't do that: nothing was ticked off.", refused) == \
        "Got it — your car's MOT is due on the 3rd of March."
    remembered = [{"name": "memory.remember", "result": "Remembered 12ab: The user's car's MOT is due on the 3rd of March."}]
    assert statement_reply(said, "I'll remember that.", remembered) is None  # written: its answer stands
    assert acked_answer("Remember to buy milk", "x", read_only=True) is None  # a reminder asked, not a fact told
