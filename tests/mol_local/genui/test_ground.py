"""A timer counts down the length the request named, whatever number the model copied."""

from __future__ import annotations

import pytest

from mol_local.genui.document import parse_document
from mol_local.genui.ground import ground, named_items, stated_seconds


@pytest.mark.parametrize(("text", "seconds"), [
    ("count down 20 minutes for my tea", 1200),
    ("a 20-minute timer", 1200),
    ("count down an hour for my study", 3600),
    ("a countdown of half an hour for reading", 1800),
    ("a 90 second timer", 90),
    ("timer for 1.5 hours", 5400),
    ("count down ten minutes for the eggs", 600),
    ("an hour and a half for the roast", 5400),
    ("a timer of 1 hour 15 minutes", 4500),
    ("a timer", None),  # none named: the model's number stands
    ("5 mins for the eggs and 10 mins for the rice", None),  # two named: which timer is which is the model's call
])
def test_the_length_a_request_names(text: str, seconds: int | None) -> None:
    assert stated_seconds(text) == seconds


def _timer_doc(seconds: int):
    return parse_document({"catalog": "1", "title": "Tea", "components": [
        {"id": "tea", "type": "Timer", "label": "Tea", "bind": "left", "seconds": seconds}],
        "state": {"left": seconds}, "actions": {}})


def test_a_copied_number_becomes_the_named_length_in_seconds() -> None:
    doc = _timer_doc(20)
    fixes = ground(doc, "I need a timer for 20 minutes for my tea")
    assert doc.component("tea")["seconds"] == 1200 and doc.state["left"] == 1200 and fixes
    parse_document(doc.to_json())  # still valid


def test_a_timer_that_says_only_timer_says_its_length() -> None:
    """`mol chat "Start a 10 minute timer"` got a Timer labelled and titled " timer"."""
    doc = parse_document({"catalog": "1", "title": " timer", "components": [
        {"id": "timer", "type": "Timer", "label": " timer", "bind": "seconds", "seconds": 600}], "state": {"seconds": 600}, "actions": {}})
    assert ground(doc, "Start a 10 minute timer") == ["timer 'timer' labelled with its length"]
    assert doc.component("timer")["label"] == "Timer: 10 minutes" and doc.title == "Timer: 10 minutes"
    verb = parse_document({"catalog": "1", "title": "Set", "components": [  # `mol chat "Set a timer for 5 minutes"`
        {"id": "timer", "type": "Timer", "label": "Set", "bind": "seconds", "seconds": 300}], "state": {"seconds": 300}, "actions": {}})
    ground(verb, "Set a timer for 5 minutes")
    assert verb.component("timer")["label"] == "Timer: 5 minutes" and verb.title == "Timer: 5 minutes"
    tea = _timer_doc(5400)
    ground(tea, "an hour and a half for the roast")
    assert tea.component("tea")["label"] == "Tea" and tea.title == "Tea"  # the model's own words stay


def test_a_right_timer_or_an_unnamed_length_is_left_alone() -> None:
    doc = _timer_doc(1200)
    assert ground(doc, "a 20 minute timer") == [] and doc.component("tea")["seconds"] == 1200
    doc = _timer_doc(45)
    assert ground(doc, "a timer for the eggs") == [] and doc.component("tea")["seconds"] == 45


@pytest.mark.slow
def test_a_twenty_minute_timer_counts_twenty_minutes(runtime, monkeypatch) -> None:
    """`mol chat "I need a timer for 20 minutes for my tea"` showed "Tea: timer, 20 s" before."""
    monkeypatch.setattr("mol_local.turn.ui.UI_MAX_TOKENS", 160)  # the test profile's 48 tokens cut a document
    result = runtime.session().run_turn("I need a timer for 20 minutes for my tea", slot="L3")
    assert result.document is not None, result.answer
    timers = [c for c in result.document["components"] if c["type"] == "Timer"]
    assert timers and all(t["seconds"] == 1200 for t in timers)


def test_a_countdown_reads_as_a_clock() -> None:
    from mol_local.genui.text import clock

    assert [clock(s) for s in (1200, 3600, 45, 0, 59.6, 5400)] == ["20:00", "1:00:00", "0:45", "0:00", "1:00", "1:30:00"]


@pytest.mark.parametrize(("text", "items"), [
    ("a packing checklist for a ski trip with gloves, goggles and a helmet", ["gloves", "goggles", "helmet"]),
    ("a checklist for the move: hand back keys; redirect mail; cancel internet", ["hand back keys", "redirect mail", "cancel internet"]),
    ("a revision checklist covering acids, moles, the periodic table, and rates?", ["acids", "moles", "the periodic table", "rates"]),
    ("a checklist for my trip to Paris, Rome and Berlin", []),  # no colon or listing word: not a list of items
    ("checklist for the weekend with a long walk", []),  # one part is not a list
    ("Carrots; spinach; rice - shopping list", ["Carrots", "spinach", "rice"]),  # the list before its kind
    ("pay rent and reply to emails as a checklist", ["pay rent", "reply to emails"]),
    ("gift ideas for my dad (board game, candles) as a checklist and a button that asks you for more",
     ["board game", "candles"]),
    ("a checklist of gift ideas: mug, candles and socks, with a button to ask you for more", ["mug", "candles", "socks"]),
    ("a dashboard with a 30 minute timer and a checklist of moles, the periodic table, acids",
     ["moles", "the periodic table", "acids"]),  # the parts naming views are not the items
    ("checklist of chores - vacuum, dishes please", ["vacuum", "dishes"]),
    ("checklist: bread with butter, jam, milk", ["bread with butter", "jam", "milk"]),
    ("how far am I: 2,715/5000 dollars of savings", []),  # a thousands comma splits nothing
    # mol chat: a six-word item dropped the whole list, and "birthday" drew the party starter in its place
    ("Make a to-do list: email Sarah, fix the bike, buy a birthday card for Tom", ["email Sarah", "fix the bike", "buy a birthday card for Tom"]),
    ("a checklist with gloves, a pair of very warm ski socks", []),  # no colon: a long part is prose, not an item
])
def test_the_items_a_request_names(text: str, items: list[str]) -> None:
    assert named_items(text) == items


def _checklist(*labels: str):
    return parse_document({"catalog": "1", "title": "Ski trip", "components": [
        {"id": "list", "type": "Checklist", "label": "To pack", "bind": "items"}],
        "state": {"items": [{"label": label, "done": False} for label in labels]}, "actions": {}})


def test_a_misspelt_item_is_spelt_as_asked_and_a_missing_one_added() -> None:
    """Seen in the app: "Gloves, Goggles, Helmage"; in the bench, "Acid" for acids and the periodic table left out."""
    doc = _checklist("Gloves", "Goggles", "Helmage")
    assert ground(doc, "a packing checklist for a ski trip with gloves, goggles and a helmet")
    assert [i["label"] for i in doc.state["items"]] == ["Gloves", "Goggles", "Helmet"]
    doc = _checklist("Acid", "Moles", "Rates", "Flashcards")
    ground(doc, "a revision checklist covering acids, moles, the periodic table, and rates")
    assert [i["label"] for i in doc.state["items"]] == ["Acids", "Moles", "The periodic table", "Rates", "Flashcards"]
    parse_document(doc.to_json())  # still valid


def test_a_checklist_that_holds_the_named_items_is_left_alone() -> None:
    doc = _checklist("Gloves", "Goggles", "Helmet", "Travel insurance")
    assert ground(doc, "a packing checklist with gloves, goggles and a helmet") == []
    assert [i["label"] for i in doc.state["items"]] == ["Gloves", "Goggles", "Helmet", "Travel insurance"]


def test_what_the_model_added_beside_the_named_items_stays_only_when_such_a_list_holds_it() -> None:
    """`mol chat`: "a packing list for a beach holiday with sunscreen, a hat and my kindle" came back with "Mavericks";
    a gym bag with "Tofu"; Paris with "Parcel" and "Miscellaneous"."""
    doc = _checklist("Sunscreen", "Hat", "Kindle", "Mavericks", "Beach towel")
    fixes = ground(doc, "Make a packing list for a beach holiday with sunscreen, a hat and my kindle")
    assert [i["label"] for i in doc.state["items"]] == ["Sunscreen", "Hat", "Kindle", "Beach towel"]
    assert any("Mavericks" in f for f in fixes)
    doc = _checklist("Passport", "Umbrella", "Comfy shoes", "Parcel", "Clothing", "Miscellaneous")
    ground(doc, "Make a packing list for Paris with my passport, an umbrella and comfy shoes")
    assert [i["label"] for i in doc.state["items"]] == ["Passport", "Umbrella", "Comfy shoes", "Clothing"]
    doc = _checklist("Acid", "Moles", "Flashcards")  # no starter for the kind: nothing to judge an extra by
    ground(doc, "a checklist for chemistry covering acids and moles")
    assert [i["label"] for i in doc.state["items"]] == ["Acids", "Moles", "Flashcards"]


def test_a_label_that_holds_the_named_words_counts_as_that_item() -> None:
    doc = _checklist("Wax", "Pack the gloves", "Goggles")
    ground(doc, "a checklist with gloves and goggles")
    assert [i["label"] for i in doc.state["items"]] == ["Gloves", "Goggles", "Wax"]  # named first, in their order


def test_a_list_written_out_after_a_colon_is_the_whole_checklist() -> None:
    """`mol chat`: "…for a picnic: blanket, sandwiches, lemonade, frisbee" came back with Bacon, Chicken, Frozen yogurt."""
    doc = _checklist("Blanket", "Bacon", "Chicken", "Frozen yogurt", "Lemonade", "Frisbee", "Sandwiches")
    doc.state["items"][4]["done"] = True
    fixes = ground(doc, "Make a checklist for a picnic: blanket, sandwiches, lemonade, frisbee")
    assert [i["label"] for i in doc.state["items"]] == ["Blanket", "Sandwiches", "Lemonade", "Frisbee"]
    assert doc.state["items"][2]["done"] is True  # what the model set on a named item stays
    assert any("Bacon" in f for f in fixes)
    parse_document(doc.to_json())
    assert ground(doc, "Make a checklist for a picnic: blanket, sandwiches, lemonade, frisbee") == []  # settled


def test_a_notes_card_lists_every_point_named() -> None:
    doc = parse_document({"catalog": "1", "title": "Review", "components": [
        {"id": "card", "type": "Card", "label": "Board review", "children": ["notes"]},
        {"id": "notes", "type": "Markdown", "label": "Notes", "text": "- Launch in May"}], "state": {}, "actions": {}})
    fixes = ground(doc, "a markdown card with notes from the board review: launch in May, new logo ok and budget approved")
    assert doc.component("notes")["text"] == "- Launch in May\n- New logo ok\n- Budget approved" and fixes
    assert ground(doc, "a markdown card with notes from the board review: launch in May, new logo ok and budget approved") == []


def test_a_list_titled_with_a_cut_off_word_is_named_as_asked() -> None:
    """`mol chat "Make a shopping list: eggs, milk, bread"` was titled "Shop"."""
    def doc(title: str):
        return parse_document({"catalog": "1", "title": title, "components": [
            {"id": "checklist", "type": "Checklist", "label": "Items", "bind": "items"}], "state": {"items": []}, "actions": {}})

    shop = doc("Shop")
    assert ground(shop, "Make a shopping list: eggs, milk, bread")[-1] == "title 'shop' named as the request names the list"
    assert shop.title == "Shopping list"
    for title, request in (("Groceries", "Make a shopping list: eggs"), ("Weekend", "a checklist for my weekend: clean the car"),
                           ("Shopping", "Make a shopping list: eggs")):
        kept = doc(title)
        ground(kept, request)
        assert kept.title == title


def test_a_list_titled_with_a_word_from_nowhere_is_named_by_what_it_is_for() -> None:
    """`mol chat -c`: "Make a shopping list for a vegetarian lasagne" drew a list titled "Theater"."""
    drawn = parse_document({"catalog": "1", "title": "Theater", "components": [
        {"id": "checklist", "type": "Checklist", "label": "Items", "bind": "items"}], "state": {"items": []}, "actions": {}})
    ground(drawn, "Make a shopping list for a vegetarian lasagne")
    assert drawn.title == "Shopping list for vegetarian lasagne"
    own = parse_document({"catalog": "1", "title": "Lasagne", "components": [
        {"id": "checklist", "type": "Checklist", "label": "Items", "bind": "items"}], "state": {"items": []}, "actions": {}})
    ground(own, "Make a shopping list for a vegetarian lasagne")
    assert own.title == "Lasagne"  # a word of the request: its own title stays
    chef = parse_document({"catalog": "1", "title": "Chef's menu", "components": [
        {"id": "checklist", "type": "Checklist", "label": "Items", "bind": "items"}], "state": {"items": []}, "actions": {}})
    ground(chef, "Give me a checklist for cleaning the kitchen")  # mol chat: titled "Chef's menu", whole-house chores
    assert chef.title == "Cleaning the kitchen" and chef.state["items"][0]["label"] == "Clear and wipe the counters"


@pytest.mark.parametrize(("request_text", "title", "spelt"), [
    ("Make a table of my weekly workouts: Monday run 5k, Wednesday swim, Friday weights", "Wirkey workouts", "Weekly workouts"),  # mol chat
    ("Make a form to collect RSVP names and dietary needs", "RSP", "RSVP"),  # mol chat
    ("Make me a chore rota for Sam, Alex and Jo", "Chore chart", "Chore chart"),  # a word of its own: not "Chore chore"
    ("Set a timer for the tea", "Tea", "Tea"), ("Log my runs", "Run log", "Run log"),  # short, or another form of a word said
])
def test_a_title_word_the_request_nearly_has_is_spelt_as_the_request_has_it(request_text: str, title: str, spelt: str) -> None:
    from mol_local.genui.ground import ground_spelling

    doc = parse_document({"catalog": "1", "title": title, "components": [{"id": "t", "type": "Text", "text": "x", "label": title}],
                          "state": {}, "actions": {}})
    ground_spelling(doc, request_text)
    assert (doc.title, doc.components[0]["label"]) == (spelt, spelt)


def test_a_line_of_dashes_and_the_box_it_leaves_empty_are_dropped_beside_the_checklist() -> None:
    """`mol chat`: "Make a checklist for the wedding with a card, a gift and my suit" drew a Card holding a Text of
    "- - - - - -" above the checklist."""
    doc = parse_document({"catalog": "1", "title": "Wedding notes", "components": [
        {"id": "box", "type": "Card", "label": "Guidelines", "children": ["line_1"]},
        {"id": "line_1", "type": "Text", "label": "Line 1", "text": "- - - - - - - - - -"},
        {"id": "list", "type": "Checklist", "label": "Guidelines", "bind": "items"}],
        "state": {"items": [{"label": "Card", "done": False}, {"label": "Gift", "done": False}, {"label": "Suit", "done": False}]},
        "actions": {}})
    ground(doc, "Make a checklist for the wedding with a card, a gift and my suit")
    assert [c["id"] for c in doc.components] == ["list"]
    parse_document(doc.to_json())


def test_several_checklists_for_named_items_become_one_holding_them() -> None:
    """`mol chat`: the same wedding request, in a fresh conversation, drew three empty checklists in nested cards."""
    doc = parse_document({"catalog": "1", "title": "Wedding", "components": [
        {"id": "outer", "type": "Card", "label": "My wedding", "children": ["inner"]},
        {"id": "inner", "type": "Card", "label": "My wedding", "children": ["gift_2"]},
        {"id": "save", "type": "Checklist", "label": "My wedding", "bind": "save"},
        {"id": "checklist_2", "type": "Checklist", "label": "Gift me", "bind": "items"},
        {"id": "gift_2", "type": "Checklist", "label": "Gift me", "bind": "items"}],
        "state": {"save": [], "items": [{"label": "Gift", "done": True}]}, "actions": {}})
    ground(doc, "Make a checklist for the wedding with a card, a gift and my suit")
    assert [c["id"] for c in doc.components] == ["save"]
    assert [(i["label"], i["done"]) for i in doc.state["save"]] == [("Card", False), ("Gift", True), ("Suit", False)]
    parse_document(doc.to_json())
