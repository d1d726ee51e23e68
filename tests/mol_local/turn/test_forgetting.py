"""Forget, asked in the chat (mol_local/turn/forgetting.py): the memories named go, every turn that says them is
redacted, the forget turn keeps neither, and a later question is not answered from anything left."""

from __future__ import annotations

import pytest

from mol_local.turn.forgetting import SAID_AS, forget_what


@pytest.mark.parametrize(("text", "what"), [
    ("Forget that my car is a red Honda Civic", "my car is a red Honda Civic"),
    ("forget my sister's birthday", "my sister's birthday"),
    ("Please forget everything I told you about my car", "my car"),
    ("Can you forget what you know about my job?", "my job"),
    ("don't let me forget to call mum", None), ("Delete my note about wifi", None), ("forget it", None),
    ("Remove the gym reminder", None), ("I always forget my keys", None), ("Forget this conversation", None),
])
def test_what_a_message_asks_to_forget(text: str, what: str | None) -> None:
    assert forget_what(text) == what


def test_a_fact_asked_to_be_forgotten_is_gone_from_memory_and_every_turn_that_says_it(scripted_runtime) -> None:
    """Tried with mol chat: after "Forget that my car is a red Honda Civic" the next "Do you know my car?" still got
    "Your car is a red Honda Civic." (from the turn that had said it), then "Your car is the user's sister."."""
    rt, scripted = scripted_runtime(["Your car is a red Honda Civic."])
    session = rt.session()
    session.run_turn("/remember my car is a red Honda Civic")
    session.run_turn("/remember my sister is called Mia")
    session.run_turn("Do you know my car?", slot="L0")
    other = rt.session()
    other.run_turn("/remember I park my red Honda Civic on Elm Street")
    forgot = session.run_turn("Forget that my car is a red Honda Civic")
    assert forgot.answer == "Forgotten: 2 memories (your car). I no longer know it." and scripted.outputs == []
    from mol_local.turn.forgetting import _subject  # `mol chat`: "Forget that my favourite food is sushi" said only "2 memories"
    assert [_subject(k) for k in ("favourite:food", "home", "name", "my:sister", "allergy", None)] == \
        ["your favourite food", "where you live", "your name", "your sister", None, None]
    assert [m.text for m in rt.memory.store.list(said=True)] == ["my sister is called Mia"]
    said = [r["content"] for r in rt.db.query("select content from messages")]
    assert not [c for c in said if "honda" in c.lower()], said  # the remember turns and the answer that said it: redacted
    assert SAID_AS in said and "my sister is called Mia" in " ".join(said)
    scripted.outputs = ["Your car is the user's sister."]
    again = session.run_turn("Do you know my car?", slot="L0")
    assert again.answer == "I don't know your car yet — tell me and I'll remember it."
    assert session.run_turn("forget about the plumber").answer == "I had nothing stored about that, so there was nothing to forget."


def test_forget_where_i_live_forgets_the_home_fact_only(scripted_runtime) -> None:
    """`mol chat -c`: after "I live in York" and "Actually I moved to Leeds last month", "Forget where I live" got "I had
    nothing stored about that" ("where" was read as a word the fact must hold) and "Where do I live?" still said Leeds."""
    rt, _ = scripted_runtime([])
    session = rt.session()
    session.run_turn("/remember I live in Leeds")
    session.run_turn("/remember my sister Clara lives in Berlin")
    forgot = session.run_turn("Forget where I live")
    assert forgot.answer == "Forgotten: 1 memory (where you live). I no longer know it."
    assert [m.text for m in rt.memory.store.list(said=True) if "Leeds" in m.text] == []
    assert any("Berlin" in m.text for m in rt.memory.store.list(said=True))  # the sister who "lives" stays
    said = " ".join(r["content"] for r in rt.db.query("select content from messages"))
    assert "Leeds" not in said and "Berlin" in said
