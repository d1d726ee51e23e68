"""The task said before "remind me <when>" (mol_local/turn/task_said.py, read by turn/ground.py) and "What have I asked
you to remind me about?" (ground.asks_to_see_reminders). Split from test_ground.py."""

from __future__ import annotations

from mol_local.turn.ground import grounded
from tests.mol_local.turn.test_ground import create


def test_the_task_said_before_remind_me_is_the_reminders_text() -> None:
    """`mol chat -c`: "I also need to set up the broadband, remind me tomorrow at 6pm" was set as "6pm" (and, once, "the
    broadband", with a call's markup as the answer)."""
    asked = "I also need to set up the broadband, remind me tomorrow at 6pm"
    for text in ("6pm", "the broadband", "tomorrow", "set the broadband"):
        call = grounded(create(text=text, due="tomorrow at 6pm"), asked)
        assert call.arguments["text"] == "set up the broadband" and call.answers
    assert grounded(create(text="buy a haircut", due="on Monday at 10"), "I need to book a haircut, remind me on Monday at 10"
                    ).arguments["text"] == "book a haircut"  # mol chat: "buy a haircut" beside "book a haircut"
    assert grounded(create(text="pick up the kids", due="tomorrow at 9am"), "I need to call the bank, remind me tomorrow at 9am"
                    ).arguments["text"] == "pick up the kids"  # nothing shared: not this rule's
    assert grounded(create(text="6pm", due="at 6pm"), "Remind me at 6pm").arguments["text"] == "6pm"  # no task said: not this rule's


def test_what_have_i_asked_you_to_remind_me_about_lists_the_reminders() -> None:
    """`mol chat -c`: "What have I asked you to remind me about?" was asked "When should I remind you to install a broadband?"."""
    for asked in ("What have I asked you to remind me about?", "What did I ask you to remind me to do?", "What are you reminding me about tomorrow?"):
        assert grounded(create(text="install a broadband", due="now"), asked).name == "reminders.list"
    assert grounded(create(text="call mum", due="at 5pm"), "Remind me to call mum at 5pm").name == "reminders.create"


def test_an_event_told_before_remind_me_is_no_task_said() -> None:
    from mol_local.turn.task_said import task_before_remind

    assert task_before_remind("6pm", "Tomorrow I have a meeting at 2pm and the dentist at 4pm. Remind me 30 minutes before each") is None
    assert task_before_remind("6pm", "I must renew the car tax, remind me at 6pm") == "renew the car tax"
