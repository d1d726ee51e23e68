"""A pasted text summarized in its own central sentences (mol_local/turn/gist.py)."""

from __future__ import annotations

from mol_local.turn.gist import gist_answer

CAR_PARK = ("The council will close the Elm Street car park from 3 to 17 January for resurfacing. Residents with permits can "
            "park at the leisure centre instead. Buses will not be affected.")
MEETING = ("Our team met on Tuesday to plan the spring launch. The launch date is now 14 March, two weeks later than planned, "
           "because the supplier delayed the packaging. Marketing will start the email campaign on 1 March. Sales asked for "
           "demo units by the end of February. The budget stays at 40,000 euros, with 5,000 moved from events to online ads. "
           "Priya will own the launch checklist and send a weekly update every Friday. The next meeting is on 20 January at 10am.")


def test_a_pasted_text_is_summarized_in_its_own_words_with_no_model(scripted_runtime) -> None:
    """`mol chat -c "Summarize this: …"` got "Noted."; alone, the first two sentences with "residents" lower-cased."""
    rt, scripted = scripted_runtime(["Noted."])
    result = rt.session().run_turn(f"Summarize this: {CAR_PARK}")
    assert result.answer == ("In short: The council will close the Elm Street car park from 3 to 17 January for resurfacing.\n\n"
                             "(1 of its 3 sentences, in its own words.)")
    assert scripted.outputs == ["Noted."]  # the model was not asked


def test_the_count_asked_is_kept_and_bullets_when_asked() -> None:
    two = gist_answer(f"Summarise in 2 sentences: {CAR_PARK}")
    assert two is not None and two.startswith("In short: The council will close") and "(2 of its 3 sentences" in two
    bullets = gist_answer(f"Can you summarize this email in 3 bullet points: {MEETING}")
    assert bullets is not None and bullets.count("\n- ") == 2 and bullets.startswith("- Our team met on Tuesday")
    assert "- The launch date is now 14 March, two weeks later than planned, because the supplier delayed the packaging." in bullets
    default = gist_answer(f"tl;dr: {MEETING}")
    assert default is not None and "(2 of its 7 sentences, in its own words.)" in default
    every = MEETING.split(". ")
    assert all(line[2:].rstrip(".") in MEETING for line in bullets.splitlines() if line.startswith("- ")) and len(every) == 7


def test_without_a_text_to_summarize_it_is_not_this() -> None:
    for asked in ("Summarize this", "Summarize this: hello there", "Summarize our conversation", "What's the summary of Dune?"):
        assert gist_answer(asked) is None, asked
