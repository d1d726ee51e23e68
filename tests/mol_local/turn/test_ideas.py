"""Gift ideas by what someone likes, things to do by the kind of day (mol_local/turn/ideas.py)."""

from __future__ import annotations

import tomllib
from datetime import date
from importlib import resources

import pytest

from mol_local.turn.ideas import ideas_answer

DAY = date(2026, 12, 6)


def test_gift_ideas_keep_to_what_the_person_likes_with_no_model(scripted_runtime) -> None:
    """`mol chat "Gift ideas for my dad who likes gardening"` got "Thanks for letting me know: your dad likes gardening."."""
    rt, scripted = scripted_runtime(["Thanks for letting me know: your dad likes gardening."])
    result = rt.session().run_turn("Gift ideas for my dad who likes gardening")
    lines = result.answer.splitlines()
    assert lines[0] == "Some gift ideas for your dad, who likes gardening:" and len(lines) == 5
    garden = next(x for x in tomllib.loads(resources.files("mol_local.turn").joinpath("data/ideas.toml").read_text())["gift"]
                  if x["likes"] == "gardening")
    assert {line[2:].lower() for line in lines[1:]} <= {i.lower() for i in garden["ideas"]}
    assert scripted.outputs == ["Thanks for letting me know: your dad likes gardening."]  # the model was not asked


@pytest.mark.parametrize(("asked", "head", "count"), [
    ("Give me three ideas for a rainy Sunday at home", "Three ideas for a rainy day at home:", 3),  # "A backyard barbecue …"
    ("Give me three ideas for a rainy Sunday", "Three ideas for a rainy day at home:", 3),  # "Brandon's Little House"
    ("What should I get my wife for her birthday? She loves cooking", "Some gift ideas for your wife, who likes cooking:", 4),
    ("Any present ideas for a friend who is into photography?", "Some gift ideas for a friend who likes photography:", 4),
    ("What should I get my brother? He likes video games", "Some gift ideas for your brother, who likes video games:", 4),
    ("What can we do with the kids this weekend?", "Four ideas for a day with the kids:", 4),
    ("Date night ideas", "Four ideas for a date night:", 4), ("Suggest 2 things to do on a sunny day", "Two ideas for a sunny day:", 2),
])
def test_the_ideas_are_for_what_was_named_and_as_many_as_asked(asked: str, head: str, count: int) -> None:
    answer = ideas_answer(asked, DAY)
    assert answer is not None and answer.splitlines()[0] == head and len(answer.splitlines()) == count + 1


@pytest.mark.parametrize("asked", ["I bought a gift for my dad", "What's the date?", "What can I do in my free time?",
                                   "Ideas for a birthday party", "Give me ideas for my garden", "Is it going to be sunny tomorrow?",
                                   "Remind me to buy a present for Tom on Friday", "Any ideas how to get my kids to sleep?",
                                   "Any ideas to stop rain getting into the shed?", "Any ideas to keep warm in winter?",
                                   "Any ideas for a date for the meeting?"])
def test_what_names_nothing_the_lists_know_or_asks_for_no_ideas_is_left_to_the_model(asked: str) -> None:
    assert ideas_answer(asked, DAY) is None


def test_the_ideas_rotate_with_the_day() -> None:
    week = {ideas_answer("Give me three ideas for a rainy day", date(2026, 12, d)) for d in range(1, 8)}
    assert len(week) > 1
