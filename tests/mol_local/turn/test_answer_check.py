"""An answer that loops is sampled again, else said once (mol_local/turn/answer_check.py)."""

from __future__ import annotations

from mol_local.turn.answer_check import checked_answer, loops, unlooped

TOWELS = ("For a beach holiday, pack:\n\n" + "- beach towels\n" * 8 + "\nYou should pack:\n\n" + "- beach towels\n" * 4
          + "\nYou should pack beach towels.")  # mol chat, L0: "What should I pack for a beach holiday?"
PUBS = "Here are some ideas for dinner tonight:\n\nDinner:\n- pizza\n- steak\n- pub\n" + "- pub lounge\n- pub\n" * 2 + "- pub lounge\n" * 20 + "--\n"


def test_an_answer_saying_one_line_over_and_over_loops_and_a_list_or_code_does_not() -> None:
    assert loops(TOWELS) and loops(PUBS)
    assert not loops("- sunscreen\n- towel\n- hat\n- swimsuit")
    assert not loops("Mon\n- Rest\nTue\n- Run\nWed\n- Rest\nThu\n- Rest\nFri\n- Swim")  # a plan may rest three days
    assert not loops("```python\ndef f():\n    return 1\n" + "}\n" * 8 + "```")  # code is not read


def test_a_looping_answer_has_each_line_said_once() -> None:
    """Not redrafted: warm samples of the embedded L0 were worse than the loop ("That sounds great: dinner tonight.")."""
    got = checked_answer(PUBS, "Give me some ideas for dinner tonight", lambda _seed: "never asked")
    assert got.answer == "Here are some ideas for dinner tonight:\n\nDinner:\n- pizza\n- steak\n- pub\n- pub lounge" and "looped" in got.report
    towels = checked_answer(TOWELS, "What should I pack for a beach holiday?", lambda _seed: "never asked").answer
    assert towels.count("beach towels") == 2  # the item once, and the sentence
    assert unlooped("pack: beach towels, beach towels, beach towels, hats") == "pack: beach towels, hats"
    fine = checked_answer("- sunscreen\n- towel", "What should I pack?", lambda _seed: "never asked")
    assert fine.answer == "- sunscreen\n- towel" and fine.report == ""


def test_a_line_of_marks_said_over_and_over_loops_and_is_said_once() -> None:
    """`mol chat "Rewrite this more politely: …"` (before turn/polite.py): "#" on twenty-six lines."""
    hashes = "Thanks for letting me know:\n\nYou can use it to print a note:\n\n" + "#\n\n" * 26 + "You can use"
    assert loops(hashes) and unlooped(hashes) == "Thanks for letting me know:\n\nYou can use it to print a note:\n\n#\n\nYou can use"
    assert not loops("| a | b |\n|---|---|\n| 1 | 2 |")  # a table's one rule


def test_a_list_of_a_named_count_is_sampled_again_until_it_has_that_many() -> None:
    """`mol chat "Give me three tips for better sleep"`: L0 answered one bullet."""
    from mol_local.turn.answer_check import asked_count, checked_count

    assert asked_count("Give me three tips for better sleep") == 3 and asked_count("List 5 ways to save money") == 5
    assert asked_count("Plan 3 days in Rome") is None and asked_count("Give me tips") is None
    one = "• Good sleep can improve your mood and energy levels."
    drafts = {1: "- Go to bed at the same time", 2: "- Same bedtime\n- No screens late\n- Same bedtime\n- Cool dark room\n- Less coffee"}
    got = checked_count(one, "Give me three tips for better sleep", lambda seed: drafts[seed])
    assert got.answer == "- Same bedtime\n- No screens late\n- Cool dark room" and got.redrafted  # the repeat counted once
    assert checked_count("- a\n- b\n- c", "Give me three tips", lambda seed: "never").report == ""  # right first time
    assert checked_count("- a\n- b\n- c\n- d", "Give me two tips", lambda seed: "never").answer == "- a\n- b"
    never = checked_count(one, "Give me three tips for better sleep", lambda seed: "No list here.")
    assert never.answer == one and not never.redrafted  # nothing better came: the answer stands
