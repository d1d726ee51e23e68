"""A message said more politely (mol_local/turn/polite.py)."""

from __future__ import annotations

import pytest

from mol_local.turn.polite import polite_answer


def test_a_blunt_message_is_said_politely_with_no_model(scripted_runtime) -> None:
    """`mol chat "Rewrite this more politely: Send me the report now."` got "Thanks for letting me know:" and "#" on
    twenty-six lines."""
    rt, scripted = scripted_runtime(["Thanks for letting me know:\n\n#\n\n#"])
    result = rt.session().run_turn("Rewrite this more politely: Send me the report now.")
    assert result.answer == 'Here it is, more politely:\n\n"Could you please send me the report as soon as you can? Thank you!"'
    assert scripted.outputs == ["Thanks for letting me know:\n\n#\n\n#"]  # the model was not asked


@pytest.mark.parametrize(("asked", "said"), [
    ("Make this more polite: You need to fix the heating. It has been broken for a week!",
     "Could you please fix the heating? It has been broken for a week. Thank you!"),
    ("How can I say this more politely: Don't be late again.", "Please don't be late again. Thank you!"),
    ("Rewrite this politely: I want the money back. Why is it taking so long?",
     "I'd like the money back, please. Why is it taking so long? Thank you!"),  # a question stays as asked
    ("Say this nicely - STOP PARKING IN MY SPOT", "Could you please stop parking in my spot? Thank you!"),
    ("rephrase more politely: Call me back.", "Could you please call me back? Thank you!"),
    ("Make it nicer: thanks, but no.", "Thanks, but no."),  # thanked already: no second thank-you
    ('Rewrite this more politely: "The meeting is at 3. Bring the slides."', "The meeting is at 3. Could you please bring the slides? Thank you!"),
])
def test_each_sentence_is_made_polite_and_every_word_asked_is_kept(asked: str, said: str) -> None:
    assert polite_answer(asked) == f'Here it is, more politely:\n\n"{said}"'


@pytest.mark.parametrize("asked", ["Rewrite this more politely", "Be more polite", "Write a polite email to my landlord about the heating",
                                   "Make a list: milk, eggs"])
def test_without_a_message_to_rewrite_it_is_not_this(asked: str) -> None:
    assert polite_answer(asked) is None
