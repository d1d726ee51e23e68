""""What can you do?" is answered from the runtime (mol_local/turn/about.py); "What did I do last week?" is answered with
what was said since then, or that nothing was (mol_local/turn/recall.said_then_answer)."""

from __future__ import annotations

import pytest

from mol_local.turn.about import _LIVE, ABILITIES, LIVE, asks_abilities
from tests.mol_local.conftest import call


@pytest.mark.parametrize(("text", "asks"), [
    ("What can you do?", True), ("hi, what can you help me with?", True), ("How can you help me?", True), ("help", True),
    ("What can you do about my back pain?", False), ("Help me plan a trip", False), ("What can I cook tonight?", False),
])
def test_what_asks_for_the_abilities(text: str, asks: bool) -> None:
    assert asks_abilities(text) is asks


def test_the_abilities_are_what_this_runtime_has_and_the_turn_is_kept(scripted_runtime) -> None:
    """L0 had answered "I can do everything from writing notes to creating tools."."""
    rt, scripted = scripted_runtime(["never read"])
    result = rt.session().run_turn("What can you do?")
    assert scripted.outputs == ["never read"] and result.route is not None and result.route.raw_output == ABILITIES
    assert result.answer.startswith("I'm your assistant, running on this machine, offline")
    tools = set(rt.tool_hub.specs())
    assert ("- Reminders:" in result.answer) == ("reminders.create" in tools)
    assert ("- Code:" in result.answer) == ("python" in tools)
    assert ("Views you can tick and fill" in result.answer) == ("L3" in rt.hcp.slots)
    assert "is off until you switch it" in result.answer  # consent.default = false
    kept = rt.timeline.load_tasks(result.conversation_id)[-1]
    assert [m.content for m in kept.messages] == ["What can you do?", result.answer]


@pytest.mark.parametrize(("text", "live"), [
    ("What's the weather like today?", True), ("Is it going to rain tomorrow?", True), ("What's the latest news?", True),
    ("What's the stock price of Apple?", True), ("Who won the football last night?", True), ("How's the weather?", True),
    ("Write a poem about the weather", False), ("Remind me to check the weather at 7", False), ("The weather is nice", False),
    ("What's the temperature in Celsius if it's 80F?", False), ("What is news in journalism?", False),
    ("Who won the 1966 world cup?", False),  # history, not live
])
def test_which_questions_ask_about_what_is_happening_now(text: str, live: bool) -> None:
    assert bool(_LIVE.match(text)) is live


def test_the_weather_is_said_to_be_unknown_not_made_up(scripted_runtime) -> None:
    """`mol chat "What's the weather like today?"`: L0 answered "Good to know — the weather like today is sunny."."""
    rt, scripted = scripted_runtime(["The weather today is sunny."])
    result = rt.session().run_turn("What's the weather like today?")
    assert scripted.outputs == ["The weather today is sunny."]  # the model is never asked
    assert result.route is not None and result.route.raw_output == LIVE
    assert result.answer.startswith("I can't see the weather: I run on this machine with no internet connection")
    assert [m.content for m in rt.timeline.load_tasks(result.conversation_id)[-1].messages][-1] == result.answer


def test_a_thank_you_that_asks_nothing_gets_a_short_reply(scripted_runtime) -> None:
    """`mol chat "Thanks, that's helpful"`: L0 answered "Thanks for letting me know: your suggestion helped me …"."""
    from mol_local.turn.about import THANKS, thanks_answer

    rt, scripted = scripted_runtime(["never read"])
    result = rt.session().run_turn("Thanks, that's helpful")
    assert result.answer == "You're welcome!" and result.route.raw_output == THANKS and scripted.outputs == ["never read"]  # type: ignore[union-attr]
    assert thanks_answer("Thanks, that's all for now") == "You're welcome — talk soon."
    assert thanks_answer("Thanks, can you also set a reminder?") is None and thanks_answer("thanks to you I passed") is None


def test_what_was_said_since_the_time_asked_about_is_the_answer(scripted_runtime) -> None:
    """`mol chat "What did I do last week?"` on a fresh home: L0 answered "Noted — your last week was filled with tasks.";
    after "I ran a half marathon in Leeds on Sunday" it searched the notes for "birthday"."""
    from memory.store import new_memory, said_text

    rt, scripted = scripted_runtime(["Noted — your last week was filled with tasks."])
    result = rt.session().run_turn("What did I do last week?", slot="L0")
    assert result.answer == "You haven't told me anything from last week, so I don't know — I only know what you tell me here."
    rt.memory.add([new_memory(said_text("I ran a half marathon in Leeds on Sunday"), kind="said", said_at="2026-11-29T18:00")])
    scripted.outputs = [call("notes.find", query="birthday"), "You haven't told me anything about your birthday yet."]
    told = rt.session().run_turn("What did I do last week?", slot="L0")  # what L0 did with it in the tail
    assert told.answer == 'Since Tue 17 Nov you told me:\n- Sun 29 Nov: "I ran a half marathon in Leeds on Sunday"'
    scripted.outputs = ["You ran a half marathon in Leeds on Sunday."]
    used = rt.session().run_turn("What did I do last week?", slot="L0")
    assert used.answer == "You ran a half marathon in Leeds on Sunday."  # an answer that uses what was told stands
    scripted.outputs = ["You haven't told me anything about the half marathon yet."]  # mol chat: its words, denied
    denied = rt.session().run_turn("What did I tell you last week?", slot="L0")
    assert denied.answer == 'Last week you told me:\n- Sun 29 Nov: "I ran a half marathon in Leeds on Sunday"'
    scripted.outputs = ["You asked about the weather."]
    other = rt.session().run_turn("What did the forecast say last week?", slot="L0")
    assert other.answer == "You asked about the weather."  # not a question about what the person did or said


def test_what_was_told_in_a_month_is_what_was_said_in_it(scripted_runtime) -> None:
    """`mol chat`: "What did I tell you in October?" listed, under "Since Thu 1 Oct", a thing said on 10 November."""
    from memory.store import new_memory, said_text

    rt, scripted = scripted_runtime(["You haven't told me anything about October yet."])
    rt.memory.add([new_memory(said_text(t), kind="said", said_at=at) for t, at in (
        ("The car failed its MOT because of the brake pads", "2026-10-28T17:30"),
        ("Dr Okafor changed my blood pressure pills to 5mg amlodipine", "2026-11-10T11:00"))])
    told = rt.session().run_turn("What did I tell you in October?", slot="L0")
    assert told.answer == 'In October you told me:\n- Wed 28 Oct: "The car failed its MOT because of the brake pads"'


def test_a_translation_on_the_embedded_model_says_it_cannot_and_how_to_get_one(scripted_runtime) -> None:
    """`mol chat "Translate good morning into Spanish"`: L0 answered "Cualqué estás conozco sobre good morning?"."""
    from mol_local.turn.about import translation_answer

    rt, scripted = scripted_runtime(["Cualqué estás"])
    assert rt.hcp.base_model == "builtin:smollm2-135m"
    result = rt.session().run_turn("Translate good morning into Spanish")
    assert result.answer.startswith("I can't translate into Spanish reliably") and "`mol models use NAME`" in result.answer
    assert scripted.outputs == ["Cualqué estás"] and result.route.raw_output == LIVE  # type: ignore[union-attr]
    assert translation_answer(rt, "How do you say thank you in French?") is not None
    assert translation_answer(rt, "What's 'cat' in German?") is not None
    assert translation_answer(rt, "What is the capital of Spain?") is None and translation_answer(rt, "Translate this code to Rust") is None


def test_a_short_email_is_drafted_from_the_persons_words_and_signed_with_their_name(scripted_runtime) -> None:
    """`mol chat`: "Write a short email to my landlord saying the heater is broken" got "Dear landlord,\n\nDear,\n\nThanks for
    letting me know about the heater: the heater is broken."."""
    from memory.store import new_memory

    from mol_local.turn.about import DRAFT

    rt, scripted = scripted_runtime(["Dear landlord, Dear,"])
    rt.memory.add([new_memory("The user's name is Ada.", origin="explicit")], index_now=False)
    result = rt.session().run_turn("Write a short email to my landlord saying the heater is broken")
    assert result.answer.endswith("Subject: The heater is broken\n\nHello,\n\nI wanted to let you know that the heater is broken.\n\nThanks,\nAda")
    assert result.route.raw_output == DRAFT and scripted.outputs == ["Dear landlord, Dear,"]  # type: ignore[union-attr]


def test_a_goodbye_and_what_was_asked_earlier_are_answered_from_the_conversation(scripted_runtime) -> None:
    """`mol chat -c`: "What did I ask you earlier?" got "You asked what did I ask earlier?", then "Good night" got "You asked
    what I asked earlier." (the previous answer again); "who are you?" got "I'm happy to help and connect with you."."""
    from mol_local.turn.about import EARLIER, farewell_answer

    rt, scripted = scripted_runtime(["Hi! What can I do for you?", "never read"])
    session = rt.session()
    first = session.run_turn("What did I ask you earlier?")
    assert first.answer == "Nothing yet — this is the first thing you've asked in this conversation."
    session.run_turn("hi", slot="L0")
    earlier = session.run_turn("What did I ask you earlier?")
    assert earlier.answer == 'Earlier in this conversation you said:\n- "What did I ask you earlier?"\n- "hi"'
    assert earlier.route.raw_output == EARLIER  # type: ignore[union-attr]
    assert session.run_turn("Good night").answer == "Good night!" and scripted.outputs == ["never read"]
    assert farewell_answer("See you tomorrow") == "See you later!" and farewell_answer("bye, and remind me at 9") is None
    assert session.run_turn("who are you?").answer.startswith("I'm your assistant, running on this machine, offline")
    assert session.run_turn("Tell me about yourself").answer.startswith("I'm your assistant")  # mol chat: "I run on my own computer."


def test_small_talk_and_a_plan_with_nothing_in_it_get_plain_replies(scripted_runtime) -> None:
    """`mol chat`: "What's your name?" got "Your name is: Michael · What is your name?", "How are you?" "I'm fine — I don't
    know what to say.", and "Can you help me plan my week?" a numbered week of "2 hours before work; 3 hours after work"."""
    from mol_local.turn.about import small_talk_answer

    rt, scripted = scripted_runtime(["never read"])
    named = rt.session().run_turn("What's your name?")
    assert named.answer.startswith("I'm mol, your assistant on this machine") and scripted.outputs == ["never read"]
    assert small_talk_answer("How are you?") == "I'm running well, thanks. What can I do for you?"
    assert small_talk_answer("Can you help me plan my week?").startswith("Happy to — tell me what's on")  # type: ignore[union-attr]
    for other in ("Plan my Saturday: gym at 9, lunch at 1", "What is your name for the cat?", "How are you able to run offline?"):
        assert small_talk_answer(other) is None, other


def test_what_to_pack_for_a_common_trip_is_the_usual_start_and_how_to_make_it_a_checklist(scripted_runtime) -> None:
    """`mol chat "What should I pack for a beach holiday?"`: L0 answered "- beach towels" twelve times."""
    from mol_local.turn.about import starter_answer

    rt, scripted = scripted_runtime(["- beach towels\n- beach towels"])
    result = rt.session().run_turn("What should I pack for a beach holiday?")
    assert result.answer.startswith("A usual start for a beach holiday:\n- Swimsuit\n- Sunscreen\n")
    assert result.answer.endswith('Say "Make a checklist for a beach holiday" and I\'ll put them in a list you can tick, add to and cut.')
    assert scripted.outputs == ["- beach towels\n- beach towels"]  # the model was not asked
    assert starter_answer(rt, "what do I need for a camping trip") is not None
    assert starter_answer(rt, "What should I pack for my wedding speech?") is None  # no starter: the model answers
    assert starter_answer(rt, "What should I say to my boss?") is None
    assert starter_answer(rt, "What should I bring to a birthday party?") is None  # a guest's question, not the host's plan


def test_meal_ideas_keep_to_the_diet_and_allergies_the_person_told(scripted_runtime) -> None:
    """`mol chat -c`, after "I'm vegetarian": "Suggest a dinner for me" got "You can suggest a dinner for me."."""
    from datetime import date

    from memory.store import new_memory
    from mol_local.turn.meals import meal_answer, meals

    rt, scripted = scripted_runtime(["You can suggest a dinner for me."])
    rt.memory.add([new_memory("The user is vegetarian.", origin="explicit"), new_memory("The user is allergic to peanuts.", origin="explicit")],
                  index_now=False)
    result = rt.session().run_turn("Suggest a dinner for me")
    assert result.answer.startswith("Some ideas for dinner (you're vegetarian, no peanuts):\n- ")
    named = [line[2:].lower() for line in result.answer.splitlines()[1:]]
    fits = {m.name for m in meals() if m.diet & {"vegan", "vegetarian"} and "peanuts" not in m.has}
    assert len(named) == 3 and set(named) <= fits and scripted.outputs == ["You can suggest a dinner for me."]
    every_day = {meal_answer("What should I have for dinner?", ["The user is vegan."], date(2026, 12, d)) for d in range(1, 8)}
    assert len(every_day) > 1 and all("Mushroom risotto" not in a for a in every_day if a)  # it rotates; risotto has cheese
    assert meal_answer("Suggest a restaurant for dinner", [], date(2026, 12, 5)) is None
    partner = meal_answer("Suggest a dinner for tonight", ["The user's partner Alex is vegetarian."], date(2026, 12, 5))  # mol chat -c:
    assert partner is not None and partner.startswith("Some ideas for dinner (Alex is vegetarian):")  # "(you're vegetarian)"
    told = meal_answer("Suggest a dinner for tonight", ['You said: "My partner Alex is vegetarian"'], date(2026, 12, 5))  # their words
    assert told is not None and told.startswith("Some ideas for dinner (Alex is vegetarian):")
    assert meal_answer("Any lunch ideas?", [], date(2026, 12, 5)).startswith("Some ideas for lunch:")  # type: ignore[union-attr]
    for asked in ("Suggest a dinner recipe I can eat", "suggest a recipe for dinner"):  # mol chat: "Noted — I can suggest a dinner recipe …"
        assert meal_answer(asked, ["The user is allergic to peanuts."], date(2026, 12, 5)).startswith("Some ideas for dinner (no peanuts):")  # type: ignore[union-attr]


def test_a_shell_command_for_a_file_job_is_the_coders_turn_and_is_kept(scripted_runtime) -> None:
    """`mol chat "Write a shell command to count the lines in all .py files"`: L2 wrote a Python function reading an
    undefined `files` and was told it did not work; the command is now the answer, on the coding slot."""
    from mol_local.turn.about import SHELL

    rt, scripted = scripted_runtime(["never read"])
    result = rt.session().run_turn("Write a shell command to count the lines in all .py files")
    assert scripted.outputs == ["never read"] and result.route is not None and result.route.raw_output == SHELL
    assert result.slot == "L2" and result.answer.startswith("```bash\nfind . -type f -name '*.py' -exec cat {} + | wc -l\n```")
    kept = rt.timeline.load_tasks(result.conversation_id)[-1]
    assert kept.slot == "L2" and [m.content for m in kept.messages][-1] == result.answer
    other = rt.session().run_turn("Write a Python function that counts the lines in a file", slot="L2")
    assert other.route is not None and other.route.raw_output != SHELL  # Python asked: the coder writes it


def test_a_joke_is_told_and_another_one_is_a_different_joke(scripted_runtime) -> None:
    """`mol chat -c` after "I moved to Leeds": "Tell me a joke" got "What do you mean, I live in Leeds?"."""
    from mol_local.turn.about import JOKE
    from mol_local.turn.jokes import jokes

    rt, scripted = scripted_runtime(["never read"])
    session = rt.session()
    first = session.run_turn("Tell me a joke")
    assert first.route is not None and first.route.raw_output == JOKE and first.answer in {j.text for j in jokes()}
    second = session.run_turn("another one")
    assert second.answer in {j.text for j in jokes()} and second.answer != first.answer
    cats = session.run_turn("Tell me a joke about cats")
    assert "cat" in cats.answer.lower() and scripted.outputs == ["never read"]
    odd = session.run_turn("Can you tell me a joke about volcanoes?")
    assert odd.answer.startswith("I don't have one about volcanoes — here's another: ")
    assert rt.session().run_turn("another one", slot="L0").route.raw_output != JOKE  # type: ignore[union-attr]  (no joke before it)


@pytest.mark.parametrize(("text", "starts"), [
    ("Remind me", "What should I remind you about, and when?"),  # mol chat: "When should I remind you to reminders.create?"
    ("Set a reminder", "What should I remind you about, and when?"),
    ("Make a list", "What kind of list, and what goes on it?"),  # mol chat: a list of the tools
    ("Write a function", "What should it do?"),  # mol chat: a word counter nobody asked for
    ("can you take a note please", "What should the note say?"),
    ("Set a timer", "For how long?"),
])
def test_a_request_with_nothing_to_do_it_with_gets_one_question_back(scripted_runtime, text: str, starts: str) -> None:
    from mol_local.turn.about import VAGUE

    rt, scripted = scripted_runtime(["never read"])
    result = rt.session().run_turn(text)
    assert result.route is not None and result.route.raw_output == VAGUE and result.answer.startswith(starts)
    assert scripted.outputs == ["never read"] and result.slot == ("L2" if "function" in text else "L0")


@pytest.mark.parametrize("text", ["Remind me to call Mum at 5", "Make a shopping list: eggs, milk", "Write a function that adds two numbers",
                                  "Set a timer for 10 minutes", "Remember that my dog is called Biscuit", "Take a note: buy stamps"])
def test_a_request_that_says_what_is_not_asked_back(text: str) -> None:
    from mol_local.turn.vague import vague_ask

    assert vague_ask(text) is None


@pytest.mark.parametrize(("asked", "reply", "whole"), [
    ("Set a reminder", "To call the vet", "Remind me to call the vet"),  # mol chat -c: "You can call the vet on Sun 6 Dec 2026, 05:27."
    ("Remind me", "tomorrow at 9 to call the bank", "Remind me tomorrow at 9 to call the bank"),
    ("Make a list", "Groceries: apples, pasta, tomatoes", "Make a groceries list: apples, pasta, tomatoes"),  # mol chat -c: "… a shopping
    ("Make a list", "a packing list for a beach holiday", None),  # whole already                               list for a beach holiday."
    ("Take a note", "the wifi password is bluefish42", "Note: the wifi password is bluefish42"),
    ("Set a timer", "10 minutes", "Set a timer for 10 minutes"),
    ("Write a function", "checks if a number is prime", "Write a Python function that checks if a number is prime"),
    ("Set a reminder", "What can you do?", None),  # a question of its own
])
def test_the_reply_to_our_question_back_is_read_as_the_whole_request(asked: str, reply: str, whole: str | None) -> None:
    from mol_local.turn.vague import completed_request, vague_ask

    question = vague_ask(asked)
    assert question is not None
    assert completed_request(reply, question[1]) == whole
    assert completed_request(reply, "Hello! What can I do for you?") is None  # no question of ours before it


def test_a_reminder_asked_for_in_two_messages_is_set(scripted_runtime) -> None:
    """`mol chat -c`: "Set a reminder", then "To call the vet" got "You can call the vet on Sun 6 Dec 2026, 05:27.", nothing set."""
    rt, scripted = scripted_runtime([call("reminders.create", text="call the vet", due="at 4pm"), "never read"])
    session = rt.session()
    session.run_turn("Set a reminder")
    asked = session.run_turn("To call the vet", slot="L0")
    assert asked.answer == "When should I remind you to call the vet?" and rt.tool_hub.reminders.list() == []
