"""A checklist changed by a follow-up (mol_local/turn/list_edit.py): which requests are edits, and the committed turn."""

from __future__ import annotations

import pytest

from mol_local.genui.document import parse_document
from mol_local.genui.store import GenUIStore
from mol_local.turn.list_edit import LIST_EDIT, asked_edit

TODO = {"catalog": "1", "title": "To do", "components": [{"id": "checklist", "type": "Checklist", "label": "To do", "bind": "items"}],
        "state": {"items": [{"label": "Call mom", "done": False}, {"label": "Pay rent", "done": False},
                            {"label": "Book flights", "done": False}]}, "actions": {}}


@pytest.mark.parametrize(("text", "asked"), [
    ("Add buy stamps to the list", ("add", ["buy stamps"])),  # mol chat -c: L0 "You haven't told me what I need to buy stamps"
    ("add eggs and milk to my shopping list please", ("add", ["eggs", "milk"])),
    ("Remove pay rent from the list", ("remove", ["pay rent"])),
    ("Tick off call mom", ("tick", ["call mom"])), ("Mark book flights as done", ("tick", ["book flights"])),
    ("Cross pay rent off the list", ("tick", ["pay rent"])),
    ("Take the flour off", ("remove", ["flour"])), ("Take off the flour", ("remove", ["flour"])),  # mol chat -c: L0 told a story
    ("Get rid of the butter", ("remove", ["butter"])), ("Take it off", None), ("Take the dog out", None),
    ("Delete the gym reminder", None), ("I took my pills, tick that off", None),  # reminders: not this
    ("Add a column to the table", None), ("Put the kettle on", None), ("What's on my calendar?", None),
    ("What's on my list?", ("show", [])), ("Show me the shopping list", ("show", [])), ("Show my reminders", None),
])
def test_which_requests_edit_a_list(text: str, asked: tuple[str, list[str]] | None) -> None:
    assert asked_edit(text) == asked


def test_right_after_a_list_a_bare_add_is_an_edit() -> None:
    """`mol chat -c`: after the weekend checklist, "Add call the plumber" got L0's "The plumber performed a routine task"."""
    assert asked_edit("Add call the plumber", list_shown_last=True) == ("add", ["call the plumber"])
    assert asked_edit("Add call the plumber") is None  # a list shown turns ago: not sure enough
    assert asked_edit("please add eggs and milk too", list_shown_last=True) == ("add", ["eggs", "milk"])
    assert asked_edit("Add 5 and 7", list_shown_last=True) is None  # a sum, not items
    # mol chat -c after "Make a checklist for moving house": routed L0, "You should cancel the gym membership on Sun 6 Dec"
    assert asked_edit('Add "cancel the gym membership" to it', list_shown_last=True) == ("add", ["cancel the gym membership"])
    assert asked_edit("Put eggs on it too", list_shown_last=True) == ("add", ["eggs"])
    assert asked_edit("Add buy a birthday card for Tom to the list") == ("add", ["buy a birthday card for Tom"])  # "to the list" said
    assert asked_edit("Add buy a birthday card for Tom", list_shown_last=True) is None  # bare: six words read as a sentence
    assert asked_edit("Add eggs to it") is None and asked_edit("Add 5 to it", list_shown_last=True) is None


def test_the_newest_checklist_changes_with_its_live_state_and_the_model_is_not_asked(scripted_runtime) -> None:
    rt, scripted = scripted_runtime(["never read"])
    session = rt.session()
    store = GenUIStore(rt.db)
    first = store.save(parse_document(TODO), conversation_id=session.conversation_id)
    store.set_state(first, {"items": [{"label": "Call mom", "done": True}, *TODO["state"]["items"][1:]]})  # ticked in the app

    added = session.run_turn("Add buy stamps to the list")
    assert scripted.outputs == ["never read"] and added.slot == "L3" and added.route is not None
    assert added.route.raw_output == LIST_EDIT
    items = added.document["state"]["items"]  # type: ignore[index]
    assert [(i["label"], i["done"]) for i in items] == [("Call mom", True), ("Pay rent", False), ("Book flights", False),
                                                        ("Buy stamps", False)]
    assert store.for_task(added.task_id) == added.view_id and store.state(first)["items"][-1]["label"] == "Book flights"

    removed = session.run_turn("Remove pay rent from the list")  # the newest list: stamps still on it
    assert [i["label"] for i in removed.document["state"]["items"]] == ["Call mom", "Book flights", "Buy stamps"]  # type: ignore[index]
    ticked = session.run_turn("add call the plumber")  # right after the list: no "to the list" needed
    assert ticked.document["state"]["items"][-1] == {"label": "Call the plumber", "done": False}  # type: ignore[index]
    removed = session.run_turn("Remove call the plumber")
    ticked = session.run_turn("tick off buy stamps")
    assert ticked.document["state"]["items"][-1] == {"label": "Buy stamps", "done": True}  # type: ignore[index]
    kept = rt.timeline.load_tasks(session.conversation_id)
    assert [t.slot for t in kept] == ["L3"] * 5 and kept[-1].messages[-1].content == ticked.answer
    shown = session.run_turn("What's on my list?")
    assert shown.document == ticked.document  # as it is now, ticks kept
    assert rt.timeline.load_tasks(session.conversation_id)[-1].summary.endswith("Still to do: Book flights.")  # type: ignore[union-attr]
    got = session.run_turn("Actually I already have book flights")
    assert got.document["state"]["items"][1] == {"label": "Book flights", "done": True}  # type: ignore[index]
    cleared = session.run_turn("Clear the list")
    assert cleared.document["state"]["items"] == [] and scripted.outputs == ["never read"]  # type: ignore[index]
    assert rt.timeline.load_tasks(session.conversation_id)[-1].summary.endswith("Cleared 3 items.")  # type: ignore[union-attr]


def test_without_a_checklist_or_a_named_item_the_model_answers(scripted_runtime) -> None:
    rt, scripted = scripted_runtime(["Which item do you mean?", "Which one?"])
    session = rt.session()
    assert session.run_turn("Remove pay rent from the list").route.raw_output != LIST_EDIT  # type: ignore[union-attr]
    GenUIStore(rt.db).save(parse_document(TODO), conversation_id=session.conversation_id)
    assert session.run_turn("Tick off walk the dog").route.raw_output != LIST_EDIT  # type: ignore[union-attr]  (not on it)
    assert len(scripted.outputs) < 2  # the model answered


def test_add_with_no_list_in_the_conversation_asks_which_list(scripted_runtime) -> None:
    """`mol chat "Add milk"` in a new conversation: L0 wrote "The user's milk: the user's milk" forty times."""
    rt, scripted = scripted_runtime(["never read"])
    session = rt.session()
    asked = session.run_turn("Add milk")
    assert asked.answer.startswith("There's no list in this conversation to add milk to.") and scripted.outputs == ["never read"]
    assert asked.route is not None and asked.route.raw_output == LIST_EDIT
    GenUIStore(rt.db).save(parse_document(TODO), conversation_id=session.conversation_id)
    added = session.run_turn("Add milk to the list")
    assert added.document["state"]["items"][-1] == {"label": "Milk", "done": False}  # type: ignore[index]


def test_add_that_names_no_list_item_is_left_to_the_model(scripted_runtime) -> None:
    rt, scripted = scripted_runtime(["Stir it in slowly.", "Stir it in slowly."])
    assert not rt.session().run_turn("Add salt to the soup").answer.startswith("There's no list")


def test_saying_an_item_is_done_ticks_it_off() -> None:
    """`mol chat -c`: after a weekend checklist with "Clean the car", "I finished cleaning the car" got "Congratulations on
    completing the task to clean the car!" and the box stayed open."""
    from mol_local.turn.list_edit import asked_edit

    assert asked_edit("I finished cleaning the car") == ("tick", ["cleaning the car"])
    assert asked_edit("I've already done the laundry") == ("tick", ["laundry"])
    assert asked_edit("I finished it") is None and asked_edit("Did I finish the laundry?") is None
    assert asked_edit("I already packed the towel") == ("tick", ["towel"])  # mol chat -c: "the user told you to pack the towel now"
    assert asked_edit("I paid the rent and booked the flights") == ("tick", ["rent", "flights"])
    assert asked_edit("Add packed lunch to the list") == ("add", ["packed lunch"])  # only a tick drops the verb


def test_what_is_left_to_pack_shows_the_list() -> None:
    """`mol chat -c` after a packing list: "What's left to pack?" got "You haven't told me anything yet"."""
    from mol_local.turn.list_edit import asked_edit

    for text in ("What's left to pack?", "What do I still need to buy?", "what is still to do"):
        assert asked_edit(text) == ("show", []), text
    assert asked_edit("What's left to do on the house?") is None


def test_whats_left_right_after_a_tick_shows_the_list_and_after_anything_else_is_the_models(scripted_runtime) -> None:
    """`mol chat -c`: after "I've done the car tax" ticked it on the to-do list, "What's left?" got "You've done the car tax."."""
    rt, scripted = scripted_runtime(["Half of your budget.", "never read"])
    session = rt.session()
    GenUIStore(rt.db).save(parse_document(TODO), conversation_id=session.conversation_id)
    other = session.run_turn("What's left?")  # the list was not the last thing: the model answers
    assert other.route is not None and other.route.raw_output != LIST_EDIT
    session.run_turn("tick off pay rent")
    left = session.run_turn("What's left?")
    assert left.route is not None and left.route.raw_output == LIST_EDIT
    assert rt.timeline.load_tasks(session.conversation_id)[-1].summary.endswith("Still to do: Call mom, Book flights.")  # type: ignore[union-attr]


def test_got_not_needed_and_clear_the_list() -> None:
    """`mol chat -c` after a shopping list: "Actually I already have bread" and "Clear the list" got L0 copying the last list
    edit's summary ("the user told you to change the list 'Shop': Still to do.")."""
    from mol_local.turn.list_edit import asked_edit

    assert asked_edit("Actually I already have bread") == ("tick", ["bread"])
    assert asked_edit("We don't need jam any more") == ("remove", ["jam"])
    assert asked_edit("Clear the list") == ("clear", []) and asked_edit("please empty my shopping list") == ("clear", [])
    assert asked_edit("I have a dentist appointment on Tuesday at 2pm and a haircut on Thursday") is None  # long: not a list edit


SHOPPING = {"catalog": "1", "title": "Groceries", "components": [{"id": "checklist", "type": "Checklist", "label": "Items", "bind": "items"}],
            "state": {"items": [{"label": "Eggs", "done": False}, {"label": "Flour", "done": False}]}, "actions": {}}


def test_a_named_list_is_found_in_another_conversation_and_started_when_there_is_none(scripted_runtime) -> None:
    """`mol chat` starts a new conversation each time: "Add bananas to my shopping list" answered "There's no list in
    this conversation", and "What's on my shopping list?" got "Your shopping list contains bananas: strawberries, …"."""
    from mol_local.turn.list_edit import named_kind

    rt, scripted = scripted_runtime(["never read"])
    none = rt.session().run_turn("What's on my shopping list?")
    assert none.answer.startswith("You don't have a shopping list yet.") and none.document is None
    started = rt.session().run_turn("Add bananas to my shopping list")
    assert started.document["title"] == "Shopping list" and started.document["state"]["items"] == [{"label": "Bananas", "done": False}]  # type: ignore[index]

    store = GenUIStore(rt.db)
    yesterday = rt.session()
    store.save(parse_document(SHOPPING), conversation_id=yesterday.conversation_id)
    store.save(parse_document(TODO), conversation_id=yesterday.conversation_id)  # newer, another kind
    added = rt.session().run_turn("add milk to the grocery list")  # a new conversation: the Groceries list, not the to-do
    assert [i["label"] for i in added.document["state"]["items"]] == ["Eggs", "Flour", "Milk"]  # type: ignore[index]
    later = rt.session().run_turn("What's on my shopping list?")  # the newest shopping list: the one milk went on
    assert [i["label"] for i in later.document["state"]["items"]] == ["Eggs", "Flour", "Milk"]  # type: ignore[index]
    todo = rt.session().run_turn("Tick off pay rent on my to-do list")
    assert todo.document["state"]["items"][1] == {"label": "Pay rent", "done": True}  # type: ignore[index]
    beach = {**SHOPPING, "title": "Beach holiday"}
    store.save(parse_document(beach), conversation_id=yesterday.conversation_id)
    packed = rt.session().run_turn("Add sunscreen to my packing list")  # a holiday's list is a packing list
    assert packed.document["title"] == "Beach holiday" and packed.document["state"]["items"][-1]["label"] == "Sunscreen"  # type: ignore[index]
    assert scripted.outputs == ["never read"]
    assert (named_kind("my shopping list"), named_kind("the grocery list"), named_kind("my to-do list"), named_kind("the list")) == \
        ("shopping", "shopping", "to-do", None)


def test_a_list_borrowed_from_a_conversation_without_consent_never_reaches_training(scripted_runtime) -> None:
    """Changing another conversation's list writes its items into this one's answer: from a conversation without
    consent they must not be trained on through one that has it, even when consent comes later (read at training)."""
    from memory.consent import BORROWED, eligible_trajectories

    rt, _scripted = scripted_runtime(["never read"])
    private = rt.session()
    private.run_turn("Add flour to my shopping list")  # a conversation with no consent starts the list
    shared = rt.session()
    added = shared.run_turn("Add eggs to my shopping list")  # another conversation changes that list
    assert [i["label"] for i in added.document["state"]["items"]] == ["Flour", "Eggs"]  # type: ignore[index]
    assert added.route.raw_output == f"{BORROWED}{private.conversation_id}"  # type: ignore[union-attr]
    rt.timeline.set_consent(shared.conversation_id, True)
    trained = lambda: " ".join(m["content"] for t in eligible_trajectories(rt.db) for m in t.messages)  # noqa: E731
    assert "Flour" not in trained() and "Eggs" not in trained()  # the borrowing task and what follows it are out
    rt.timeline.set_consent(private.conversation_id, True)
    assert "Flour" in trained() and "Eggs" in trained()  # both conversations consent now


def test_a_list_renamed_right_after_it_is_shown_keeps_its_items(scripted_runtime) -> None:
    """`mol chat -c` after a camping checklist: "Rename it to Lake District camping" got L0's "Noted — the user changed the
    list 'Camping trip': Added Lake District camping."."""
    from mol_local.turn.list_edit import asked_edit

    assert asked_edit("Rename it to Lake District camping", list_shown_last=True) == ("rename", ["Lake District camping"])
    assert asked_edit("Rename it to parse_date") is None  # not right after a list: it may be a function
    assert asked_edit("call the list 'Weekend jobs'") == ("rename", ["Weekend jobs"])
    rt, scripted = scripted_runtime(["never read"])
    session = rt.session()
    GenUIStore(rt.db).save(parse_document(TODO), conversation_id=session.conversation_id)
    session.run_turn("tick off pay rent")
    renamed = session.run_turn("Rename it to Lake District camping")
    assert renamed.document["title"] == "Lake District camping" and scripted.outputs == ["never read"]  # type: ignore[index]
    assert [i["done"] for i in renamed.document["state"]["items"]] == [False, True, False]  # type: ignore[index]
