"""What a trip budget leaves per day, computed in the sandbox (mol_local/turn/budget.py)."""

from __future__ import annotations

import pytest

from mol_local.turn.arith import computed_answer
from mol_local.turn.budget import budget_code
from tests.mol_local.turn.test_dates import _run
from trainer.specialists.agent_plain import BUDGET, HELDOUT_PLAIN


@pytest.mark.parametrize("template", sorted(t for t in BUDGET if t not in HELDOUT_PLAIN))
def test_every_training_template_of_the_l1_recipe_is_read(template: str) -> None:
    """Built on the recipe's training phrasing only; the held-out one is measured by `mol bench specialists`."""
    request = BUDGET[template].format(c="€", total="1,205", n=3, place="Rome", rate=175, travel=190)
    source = budget_code(request)
    assert source is not None, request
    assert computed_answer(source, _run(source)) == ("Room: 3 nights × €175 = €525. Travel and other costs: €190. That is €715 fixed, "
                                                     "which leaves €490 of your €1,205: €163.33 per day for 3 days.")


def test_other_words_and_a_budget_that_does_not_reach() -> None:
    source = budget_code("I have £500 for 4 days. Hotel £80 per night for 3 nights, train £60. How much per day?")
    assert source is not None and computed_answer(source, _run(source)).endswith("leaves £200 of your £500: £50 per day for 4 days.")
    over = budget_code("I have $300 for 2 days, hotel $200 a night for 2 nights, flights $150. What's left per day?")
    assert over is not None and computed_answer(over, _run(over)) == \
        "The room ($400) and the other costs ($150) come to $550, $250 more than your $300: nothing is left to spend per day."


def test_a_total_over_some_days_with_nothing_to_take_off_is_divided() -> None:
    """`mol chat`: "I'm going to Rome for 3 days with a budget of 600 euros. How much can I spend per day?" got
    "Each day: 3 days × 600 € = 1800€"."""
    for request_text, said in (("I'm going to Rome for 3 days with a budget of 600 euros. How much can I spend per day?",
                                "€600 over 3 days is €200 per day."),
                               ("I have €900 for 3 days in Rome. How much per day?", "€900 over 3 days is €300 per day."),
                               ("I have 1,000 pounds for 4 days, how much is that a day?", "£1,000 over 4 days is £250 per day.")):
        source = budget_code(request_text)
        assert source is not None and computed_answer(source, _run(source)) == said


@pytest.mark.parametrize("request_text", [
    "How much should I spend per day on food?",  # no numbers
    "I have €900 for 3 days, and the train is €50. How much per day?",  # a cost and no room: the model's
    "I have €900 and £200 for 3 days; hotel €100 a night for 3 nights, train €50. Per day?",  # two currencies
    "I have €900 for 3 days, hotel €100 a night for 3 nights and €80 a night for 2 nights, train €50. Per day?",  # two rates
])
def test_anything_else_is_left_to_the_model(request_text: str) -> None:
    assert budget_code(request_text) is None


def test_the_l1_budget_check_takes_a_computation_and_refuses_a_write(scripted_runtime) -> None:
    """The recipe's budget plans are answered in words; the turn now computes the sums with python, which changes nothing."""
    from trainer.specialists.toolrun import score_state

    rt, _scripted = scripted_runtime([])
    check = {"calls": "reads only", "answer": {"has": ["€525"]}}
    computed = score_state(rt, check, "c1", "Room: 3 nights × €175 = €525.", [{"name": "python"}])
    assert computed.ok
    wrote = score_state(rt, check, "c1", "Room: 3 nights × €175 = €525.", [{"name": "notes.create"}])
    assert not wrote.ok and "changed something when nothing was asked: notes.create" in wrote.reason
