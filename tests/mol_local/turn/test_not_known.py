"""Nothing made up about what nobody said (mol_local/turn/not_known.py). Split from test_recall.py."""

from __future__ import annotations

from memory.bank import Recalled
from memory.store import new_memory


def test_whats_my_name_with_no_name_told_is_not_made_up() -> None:
    """`mol chat -c`: "Thanks! What's my name?" got "Your name is Danielle." (the name said was not kept)."""
    from mol_local.turn.not_known import unknown_answer

    assert unknown_answer("Thanks! What's my name?", "Your name is Danielle.", [], []) == \
        "I don't know your name yet — tell me and I'll remember it."
    assert unknown_answer("What's my name?", "Your name is Sam.", [], ["Hi! I'm Sam, I just moved to Bristol"]) is None  # said here
    assert unknown_answer("Who am I?", "You are Sam.", [Recalled(new_memory("The user's name is Sam."), 0.6)], []) is None
