"""A short email or message drafted from the request's own words (mol_local/turn/email_draft.py)."""

from __future__ import annotations

import pytest

from mol_local.turn.email_draft import draft_answer


def _draft(request: str) -> str:
    answer = draft_answer(request)
    assert answer is not None and answer.startswith("Here's a draft — change anything before you send it:\n\n")
    return answer.split("\n\n", 1)[1]


def test_saying_asking_and_about_each_become_the_body() -> None:
    assert _draft("Draft an email to Sam asking if the meeting is still on for Friday") == (
        "Subject: A quick question\n\nHi Sam,\n\nCould you let me know if the meeting is still on for Friday?\n\nThanks,\n[your name]")
    assert _draft("Can you write an email to my teacher asking for an extension on my essay").splitlines()[:5] == [
        "Subject: Request: an extension on my essay", "", "Hello,", "", "Could I ask for an extension on my essay? Please let me know."]
    assert _draft("Write a formal email to the council about the broken street light").splitlines()[2:] == [
        "Dear Council,", "", "I'm writing about the broken street light. Could you get back to me about it when you have a moment?",
        "", "Kind regards,", "[your name]"]
    assert _draft("write a message to my boss telling him I will be late today") == (  # a message has no subject line
        "Hello,\n\nI wanted to let you know that I will be late today.\n\nThanks,\n[your name]")
    assert "Could you please fix the heater?" in _draft("Write an email to my landlord asking him to fix the heater")


def test_the_name_comes_from_a_remembered_fact() -> None:
    answer = draft_answer("Write an email to Priya saying I'm running late", ["The user's sister is called Priya.", "The user's name is Ada."])
    assert answer is not None and answer.endswith("Thanks,\nAda")


@pytest.mark.parametrize("request_text", [
    "Write a poem about the sea",
    "Write an email to Sam saying hi and make it funny",  # more than one message: the model's
    "Write an email to my landlord",  # says nothing to put in it
    "Write a function that sends an email",
    "Did you write an email to Sam saying hi?",
])
def test_other_requests_are_not_drafted(request_text: str) -> None:
    assert draft_answer(request_text) is None


def test_an_email_asked_as_a_verb_is_drafted_and_a_question_is_put_to_its_reader() -> None:
    """`mol chat "Email my boss that I'll be late"` got "Thanks for letting me know: your boss will be late if you're late."."""
    from mol_local.turn.email_draft import asks_draft, draft_answer

    late = draft_answer("Email my boss that I'll be late")
    assert late is not None and "Subject: I'll be late" in late and "I wanted to let you know that I'll be late." in late
    text = draft_answer("Text Sam that I'm running late")
    assert text is not None and "Hi Sam," in text and "Subject" not in text
    asked = draft_answer("Message Anna asking if she is free on Friday")
    assert asked is not None and "Could you let me know if you are free on Friday?" in asked
    assert not asks_draft("Email is broken") and not asks_draft("Text me later")


def test_a_thank_you_sorry_or_congratulations_says_what_it_is_for() -> None:
    """`mol chat "Help me write a short thank-you message to my neighbour for feeding the cat"` called
    memory.remember("The user's cat is fed") and answered "Got it — I'll remember that."."""
    assert _draft("Help me write a short thank-you message to my neighbour for feeding the cat") == (
        "Hello,\n\nThank you so much for feeding the cat. I really appreciate it.\n\nBest wishes,\n[your name]")
    assert _draft("Write a thank you email to Sam for his help with the move").splitlines()[:5] == [
        "Subject: Thank you", "", "Hi Sam,", "", "Thank you so much for your help with the move. I really appreciate it."]
    assert "Congratulations on your new baby!" in _draft("Write a congratulations card to my cousin on her new baby")
    assert "I'm so sorry for missing the meeting." in _draft("Write an apology email to my boss for missing the meeting")
    assert draft_answer("Write an email to my boss for a day off") is None  # "for" with no occasion is no thank-you


def test_a_card_for_an_occasion_wishes_the_occasion() -> None:
    """`mol chat -c`: "Write a card to my sister for her wedding" drew a view of dashes."""
    assert _draft("Write a card to my sister for her wedding") == (
        "Hello,\n\nCongratulations on your wedding! Wishing you both every happiness.\n\nBest wishes,\n[your name]")
    assert "Happy birthday!" in _draft("Write a message to Tom for his birthday")
    assert "Congratulations on your new job!" in _draft("Write a card to my friend for her new job")
