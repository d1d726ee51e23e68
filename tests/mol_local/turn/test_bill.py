"""A tip, a discount and a split bill (mol_local/turn/bill.py): read only when the request is nothing else, computed by its code."""

from __future__ import annotations

import pytest

from mol_local.turn.arith import computed_answer
from mol_local.turn.bill import bill_code
from mol_local.turn.computed import computed_call
from tests.mol_local.turn.test_dates import TODAY, _run


@pytest.mark.parametrize(("question", "answer"), [
    ("What's 18% tip on a 64 dollar bill?", "An 18% tip on $64 is $11.52, so $75.52 in all."),  # L0: "You owe $1.80 to the bank."
    ("What is a 15% tip on $42?", "A 15% tip on $42 is $6.30, so $48.30 in all."),
    ("How much is a 20 percent tip for a £55 meal", "A 20% tip on £55 is £11.00, so £66.00 in all."),
    ("Split 120 euros between 3 people", "€120 split 3 ways is €40.00 each."),  # L1 tried to set a reminder
    ("split $87.50 between four friends", "$87.50 split 4 ways is $21.88 each."),
    ("What's 15% off 80 dollars?", "15% off $80 is $68.00 (you save $12.00)."),  # L0: "15% of 80 dollars is 15 x 0.15 = 2."
    ("$49.99 with a 20% discount", "20% off $49.99 is $39.99 (you save $10.00)."),
    ("30 percent discount on 60 euros", "30% off €60 is €42.00 (you save €18.00)."),
    ("Split a 84 pound dinner bill between 4 people", "£84 split 4 ways is £21.00 each."),  # L1 listed the reminder tool's docs
    ("split the $90 tab 4 ways", "$90 split 4 ways is $22.50 each."),
    ("Split a 84 pound bill between 3 people with a 10% tip",  # mol chat: L1 listed the reminders and ticked one off
     "£84 plus a 10% tip (£8.40) is £92.40; split 3 ways, £30.80 each."),
    ("How much is 3 coffees at 2.80 each plus a 10% tip?",  # L1: "Tip: 3 × 10% = 3.00"
     "3 coffees at 2.80 each come to 8.40; a 10% tip adds 0.84, so 9.24 in all."),
    ("What do 4 tickets at $12.50 each cost?", "4 tickets at $12.50 each come to $50.00."),
    ("5 pizzas at 9.99 each with 20% VAT", "5 pizzas at 9.99 each come to 49.95; a 20% VAT adds 9.99, so 59.94 in all."),
])
def test_a_tip_or_a_split_is_computed(question: str, answer: str) -> None:
    call = computed_call(question, TODAY)
    assert call is not None and computed_answer(call.arguments["code"], _run(call.arguments["code"])) == answer


@pytest.mark.parametrize("question", ["Split the bill", "Split 120 euros between 1 person", "What's a good tip in Spain?",
                                      "Write a function that splits a bill between n people", "x" * 300,
                                      "15% off my next order", "Is 15% off 80 dollars a good deal?",
                                      "I bought 3 coffees at 2.80 each yesterday, remind me to claim them"])
def test_anything_else_is_left_to_the_model(question: str) -> None:
    assert bill_code(question) is None
