"""A day-by-day plan is read before it is shown (mol_local/turn/plan_check.py): the days asked, each once, nothing ruled out."""

from __future__ import annotations

import pytest

from mol_local.turn.plan_check import asked_days, checked_plan, plan_fault, ruled_out

BURRITOS = ("Here's a 3-day meal plan, leaving out what you asked:\n"  # mol chat, "Make a 3 day meal plan"
            "- Day 1 — breakfast: toast with peanut butter; lunch: a bean burrito bowl; dinner: a bean burrito bowl\n"
            "- Day 2 — breakfast: a bean burrito bowl; lunch: a bean burrito bowl; dinner: a bean burrito bowl\n"
            "- Day 3 — breakfast: porridge; lunch: a bean burrito bowl; dinner: a bean burrito bowl")
GOOD = ("Here's a 3-day meal plan, leaving out what you asked:\n"
        "Day 1 — breakfast: porridge; lunch: lentil soup; dinner: veggie chilli\n"
        "Day 2 — breakfast: toast; lunch: a bean salad; dinner: pasta\n"
        "Day 3 — breakfast: yoghurt; lunch: a wrap; dinner: curry")
PARIS = ("A 2-day trip to Paris:\nDay 1 — morning: the old town; evening: dinner\nDay 2 — morning: a museum; evening: a walk\n"
         "Day 3 — morning: a market; evening: a show")  # mol chat, "Plan a 2 day trip to Paris"


@pytest.mark.parametrize(("request_text", "days"), [
    ("Make a 3 day meal plan", 3), ("Plan a 2 day trip to Paris", 2), ("Could you sketch out 3 days of vegan food for me?", 3),
    ("Help me plan my trip to Porto: 4 days, museums", 4), ("I'm going to Rome for 3 days next month. Plan it around food", 3),
    ("Remind me in 3 days", None), ("I'm on a 5-day diet", None), ("Plan meals for Monday to Wednesday", None),
])
def test_which_requests_ask_for_a_day_plan(request_text: str, days: int | None) -> None:
    assert asked_days(request_text) == days


def test_a_plan_fails_for_a_reason_it_names() -> None:
    assert plan_fault(BURRITOS, "Make a 3 day meal plan", 3) == "a bean burrito bowl is at 7 meals"
    assert plan_fault(PARIS, "Plan a 2 day trip to Paris", 2) == "it has 3 days, not the 2 asked"
    assert plan_fault(GOOD, "Make a 3 day meal plan", 3) == ""
    assert plan_fault(GOOD, "Make a 3 day meal plan, no lentils", 3) == "it has lentil, which you ruled out"
    assert ruled_out("3 days of meals without nuts or mushrooms, and I can't eat eggs") == ["nut", "mushroom", "egg"]
    assert "chicken" in ruled_out("4 days of vegetarian food") and "egg" not in ruled_out("4 days of vegetarian food")


def test_a_failing_plan_is_redrafted_and_a_false_claim_goes() -> None:
    two_days = "\n".join(GOOD.splitlines()[:3])
    drafts = iter([two_days, GOOD])
    checked = checked_plan(BURRITOS, "Make a 3 day meal plan", lambda _seed: next(drafts))
    assert checked.redrafted and checked.answer.startswith("Here's a 3-day meal plan:\nDay 1 — breakfast: porridge")  # nothing was ruled out
    assert "draft 3 is a plan of 3 days" in checked.report
    kept = checked_plan(GOOD, "Make a 3 day vegetarian meal plan without tofu", lambda _seed: "never asked")
    assert kept.answer == GOOD and not kept.redrafted  # something was ruled out: the intro stands


def test_with_no_passing_draft_the_plan_is_cut_to_the_days_asked() -> None:
    checked = checked_plan(PARIS, "Plan a 2 day trip to Paris", lambda _seed: PARIS)
    assert "Day 3" not in checked.answer and checked.answer.endswith("Day 2 — morning: a museum; evening: a walk")
    assert checked_plan("Sure!", "What's 2 + 2?", lambda _seed: "never asked").report == ""  # no plan asked: not read


def test_an_answer_repeating_an_earlier_one_to_another_request_is_redrafted() -> None:
    """`mol chat -c`: "Give me a simple recipe for pancakes" got "You're feeling stressed about work.", the answer before."""
    from mol_local.turn.answer_check import checked_fresh

    earlier = [("I'm feeling stressed about work", "You're feeling stressed about work.")]
    drafts = iter(["You're feeling stressed about work!", "Mix flour, eggs and milk, then fry."])
    checked = checked_fresh("You're feeling stressed about work.", "Give me a simple recipe for pancakes", lambda _s: next(drafts), earlier)
    assert checked.answer == "Mix flour, eggs and milk, then fry." and checked.redrafted and "draft 3 is new" in checked.report
    same = checked_fresh("You're welcome!", "Thanks!", lambda _s: "never asked", [("thanks", "You're welcome!")])
    assert same.answer == "You're welcome!" and same.report == ""  # the same request: the same answer stands
    assert checked_fresh("Hello!", "Hi", lambda _s: "never asked", earlier).report == ""
