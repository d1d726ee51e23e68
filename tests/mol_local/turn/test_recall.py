"""Memory in the turn loop on the real embedded model: /remember, recall into the tail, extraction, dedupe."""

from __future__ import annotations

import json

import pytest

from memory.bank import Recalled
from memory.store import new_memory
from mol_local.engine.base import GenerationRequest
from mol_local.errors import ContextOverflow
from mol_local.extract import (
    EXTRACT_INPUT_CHARS,
    Proposal,
    extraction_grammar,
    extraction_messages,
    parse_proposal,
    store_proposal,
)
from mol_local.turn.recall import recall, remember_text

pytestmark = pytest.mark.slow


@pytest.fixture
def small(engine, tmp_path):
    """A runtime on the shared engine with tiny budgets and fixed routing; auto-extraction off unless asked."""
    from hcp import load_hcp
    from mol_local.runtime import Runtime
    from tests.memory.conftest import write_hcp

    def make(auto_extract: bool = False) -> Runtime:
        path = write_hcp(
            tmp_path / f"h{int(auto_extract)}.toml",
            answer={"max_tokens": 16},
            summary={"max_tokens": 16},
            routing={"mode": "fixed"},
            memory={"auto_extract": auto_extract},
        )
        return Runtime(load_hcp(path), engine=engine)

    return make


def test_remember_command_parsing() -> None:
    assert remember_text("/remember I like tea") == "I like tea"
    assert remember_text("  /remember   spaced  ") == "spaced"
    assert remember_text("/remembering things") is None and remember_text("remember this") is None
    assert remember_text("/remember") == ""


def test_remember_turn_links_memory_to_its_message(small) -> None:
    runtime = small()
    session = runtime.session()
    result = session.run_turn("/remember my cat is called Miso")
    assert result.answer.startswith("I'll remember that") and len(result.memories_written) == 1
    row = runtime.memory.store.get(result.memories_written[0])
    msg = list(runtime.db.query("select task_id, role, content from messages where id = ?", [row.source_message_id]))[0]
    assert msg == {"task_id": result.task_id, "role": "user", "content": "/remember my cat is called Miso"}
    assert row.text == "my cat is called Miso" and row.origin == "explicit"


def test_empty_remember_saves_nothing(small) -> None:
    runtime = small()
    from memory.errors import InvalidMemory

    with pytest.raises(InvalidMemory, match="Empty memory"):
        runtime.session().run_turn("/remember   ")
    assert runtime.db["tasks"].count == 0


def test_recalled_memories_go_in_the_tail_and_are_recorded(small) -> None:
    runtime = small()
    runtime.memory.add([new_memory("The user's cat is called Miso"), new_memory("The user's car is a blue Honda Civic")])
    session = runtime.session()
    question = "What is my cat's name?"
    found = recall(runtime, question)
    assert found and found[0].memory.text == "The user's cat is called Miso"
    plain = session.view_for("L0", [{"role": "user", "content": question}])
    noted = session.view_for("L0", [{"role": "user", "content": question}], notes=[r.memory.text for r in found])
    assert noted[:-1] == plain[:-1]  # the stable prefix is untouched
    assert "Miso" in noted[-1]["content"] and noted[-1]["content"].endswith(question)
    result = session.run_turn(question)
    assert found[0].memory.id in result.memory_ids
    assert runtime.memory.store.uses(result.task_id) == result.memory_ids


def test_a_said_message_sharing_a_telling_word_with_the_question_is_recalled(small) -> None:
    """`mol chat`: "What language did I want to learn?" left out "I'm thinking of learning Portuguese …" (said weeks
    before; similarity 0.37, under SAID_MIN_SIMILARITY) and L0 denied being told."""
    from memory.store import SAID, said_text

    runtime = small()
    said = [said_text("I'm thinking of learning Portuguese before the trip to Lisbon in April"), said_text("I had a long day at work")]
    runtime.memory.add([new_memory(t, kind=SAID, said_at="2026-11-25T20:00:00") for t in said])
    found = [r.memory.text for r in recall(runtime, "What language did I want to learn?")]
    assert found == [said[0]]


def test_extraction_answers_json_under_the_grammar(engine) -> None:
    known = [Recalled(new_memory("The user lives in Porto"), 0.8)]
    result = engine.generate(
        GenerationRequest(
            seq="route",
            messages=extraction_messages("I moved to Lisbon last month and I love hiking.", "Lisbon has great trails!", known),
            max_tokens=80,
            grammar=extraction_grammar(len(known)),
        )
    )
    obj = json.loads(result.text)
    assert obj["op"] in {"none", "add", "update"}
    assert parse_proposal(result.text, known).op == obj["op"]


def test_parse_proposal_rejects_junk() -> None:
    known = [Recalled(new_memory("The user lives in Porto"), 0.8)]
    assert parse_proposal("not json", known).op == "none"
    assert parse_proposal('{"op": "update", "id": 5, "text": "x y z"}', known).op == "none"
    upd = parse_proposal('{"op": "update", "id": 1, "text": "The user lives in Lisbon"}', known)
    assert upd.op == "update" and upd.target == known[0].memory.id


def test_enormous_message_is_cut_before_extraction() -> None:
    msgs = extraction_messages("I " + "really " * 50_000 + "like tea", "ok", [])
    assert len(msgs[1]["content"]) < EXTRACT_INPUT_CHARS * 2


def test_enormous_chat_message_is_refused_and_saves_nothing(small) -> None:
    runtime = small()
    with pytest.raises(ContextOverflow, match="shorten"):
        runtime.session().run_turn("word " * 20_000)
    assert runtime.db["tasks"].count == 0 and runtime.db["memories"].count == 0


def test_near_duplicates_are_not_stored_twice(small) -> None:
    runtime = small()
    bank = runtime.memory
    first = store_proposal(bank, Proposal("add", "The user lives in Lisbon"), conversation_id="c", message_id=None)
    again = store_proposal(bank, Proposal("add", "The user lives in Lisbon, Portugal"), conversation_id="c", message_id=None)
    other = store_proposal(bank, Proposal("add", "The user is allergic to penicillin"), conversation_id="c", message_id=None)
    assert first is not None and again is None and other is not None
    assert bank.store.count() == 2
    moved = store_proposal(bank, Proposal("update", "The user moved to Berlin in 2026", target=first.id), conversation_id="c", message_id=None)
    assert moved.id == first.id and bank.search("which city do I live in", 1)[0].memory.text == "The user moved to Berlin in 2026"


def test_auto_extract_switch(small) -> None:
    off = small(auto_extract=False)
    result = off.session().run_turn("I love hiking in the mountains. Any tips?")
    assert result.memories_written == [] and off.db["memories"].count == 0
    on = small(auto_extract=True)
    result = on.session().run_turn("My favourite colour is green and I live in Porto.")
    for memory_id in result.memories_written:  # the model may or may not propose one; what it writes is linked
        row = on.memory.store.get(memory_id)
        source = list(on.db.query("select task_id, role from messages where id = ?", [row.source_message_id]))
        assert source == [{"task_id": result.task_id, "role": "user"}] and row.origin == "auto"


def test_pinned_memories_are_always_recalled_first(small) -> None:
    runtime = small()
    cat, car, tea = (new_memory(t) for t in ("The user's cat is called Miso", "The user's car is a blue Honda Civic", "The user drinks jasmine tea"))
    runtime.memory.add([cat, car, tea])
    question = "What is my cat's name?"
    assert tea.id not in {r.memory.id for r in recall(runtime, question)}  # unrelated: not recalled by similarity
    runtime.memory.store.pin(tea.id)
    found = recall(runtime, question)
    assert found[0].memory.id == tea.id and found[0].memory.pinned
    assert found[1].memory.id == cat.id  # the best similarity match still follows
    assert len([r for r in found if not r.memory.pinned]) <= runtime.hcp.memory.top_k
    result = runtime.session().run_turn(question)
    assert runtime.memory.store.uses(result.task_id)[0] == tea.id
    runtime.memory.store.unpin(tea.id)
    assert tea.id not in {r.memory.id for r in recall(runtime, question)}


def test_an_answer_that_does_not_know_what_the_tail_holds_gets_the_fact() -> None:
    """Held-out L0: "OK, tell me the name of my cat, thanks" got "I don't know your cat yet — tell me and I'll remember
    it." with "The user's cat is called Tiger." in its tail."""
    from mol_local.turn.told import told_answer

    tail = [Recalled(new_memory("The user lives in Porto."), 0.3), Recalled(new_memory("The user's cat is called Tiger."), 0.6)]
    denied = "I don't know your cat yet — tell me and I'll remember it."
    assert told_answer("OK, tell me the name of my cat, thanks", denied, tail) == "Your cat is called Tiger."
    assert told_answer("tell me the name of my sister", "I don't know your sister yet — tell me and I'll remember it.", tail) is None
    assert told_answer("what's my cat called?", "Your cat is called Tiger.", tail) is None  # the model's answer stands


def test_an_answer_that_only_echoes_a_stored_fact_gets_the_fact_that_answers_the_question() -> None:
    """`mol chat "When does Lily start school?"`: L0 answered "The user's daughter is called Lily." (its tail, verbatim)."""
    from mol_local.turn.told import told_answer

    tail = [Recalled(new_memory("The user's daughter is called Lily."), 0.6),
            Recalled(new_memory("The user's daughter Lily starts school on 8 January."), 0.5)]
    assert told_answer("When does Lily start school?", "The user's daughter is called Lily.", tail) == \
        "Your daughter Lily starts school on 8 January."
    assert told_answer("What's my daughter's name?", "The user's daughter is called Lily.", tail) == "Your daughter is called Lily."
    assert told_answer("When does Lily start school?", "On 8 January.", tail) is None  # its own words stand
    wife = [Recalled(new_memory("The user's wife is called Sara."), 0.6), Recalled(new_memory("The user's wife's birthday is 12 May."), 0.5)]
    assert told_answer("When is Sara's birthday?", "You know that the user's wife's birthday is 12 May.", wife) == \
        "Your wife's birthday is 12 May."  # mol chat, L0: the fact with a lead-in around it
    tom = [Recalled(new_memory("The user's best friend is called Tom."), 0.6), Recalled(new_memory("The user's best friend Tom lives in Leeds."), 0.5)]
    assert told_answer("Where does Tom live?", "Your best friend is called Tom.", tom) == "Your best friend Tom lives in Leeds."  # mol chat
    assert told_answer("What's my best friend called?", "Your best friend is called Tom.", tom) is None  # it stands
    hedged = told_answer("When is Sara's birthday?", "I think the user's wife's birthday is 12 May, but I could be wrong about it.", wife)
    assert hedged is not None and hedged.endswith(" you said your wife's birthday is 12 May.")  # "the user's": said from the memory
    sister = [Recalled(new_memory("The user's sister Clara lives in Berlin."), 0.6), Recalled(new_memory("The user's sister is called Clara."), 0.5)]
    assert told_answer("Where does my sister live?", "Your sister lives in Berlin.", sister) is None  # mol chat: was "… called Clara."
    assert told_answer("Where does my sister live?", "Your sister is called Clara.", sister) == "Your sister Clara lives in Berlin."


def test_an_answer_that_denies_what_the_tail_holds_gets_what_was_said() -> None:
    """`mol chat`: "When is the plumber coming?" got "You haven't told me anything about the plumber coming on Tuesday to fix
    the kitchen sink yet." with those words in its tail; "What time is my flight to Lisbon?" "I don't know your flight to Lisbon yet"."""
    from memory.store import SAID
    from mol_local.turn.told import told_answer

    plumber = new_memory("The plumber Dave is coming on Tuesday to fix the kitchen sink", kind=SAID)
    flight = new_memory("My flight to Lisbon is on 12 January at 7am", kind=SAID)
    tail = [Recalled(plumber, 0.5), Recalled(flight, 0.4)]
    denied = "You haven't told me anything about the plumber coming on Tuesday to fix the kitchen sink yet."
    assert told_answer("When is the plumber coming?", denied, tail).endswith(  # type: ignore[union-attr]
        'you told me: "The plumber Dave is coming on Tuesday to fix the kitchen sink"')
    assert "12 January at 7am" in told_answer("What time is my flight to Lisbon?",  # type: ignore[operator]
                                              "I don't know your flight to Lisbon yet — tell me and I'll remember it.", tail)
    assert told_answer("When is the plumber coming?", "On Tuesday.", tail) is None  # no denial: its answer stands
    assert told_answer("When is my dentist?", "I don't know your dentist yet.", tail) is None  # nothing shares two words


def test_a_statement_answered_without_what_was_said_is_said_back() -> None:
    from mol_local.turn.told import told_answer

    moved = "Oh, and I just moved to Valencia last month."
    assert told_answer(moved, "Thanks for letting me know: your move has been confirmed.", []) == \
        "Thanks for letting me know: you live in Valencia."  # held-out L0
    assert told_answer(moved, "Valencia is lovely — noted.", []) is None  # it named it: the model's answer stands
    asked = "I moved to Valencia, can you recommend a restaurant?"
    assert told_answer(asked, "Try a paella place near the beach.", []) is None  # a question too: answered, not said back


def test_what_do_you_know_about_me_gets_every_fact_in_the_tail_and_says_them(small) -> None:
    """With four facts stored, the embedded L0 answered "What do you know about me?" with "I don't know your name yet —
    tell me and I'll remember it." (tried with mol chat). The tail holds the stored facts, not the few most like the
    question, the turn records them as in view (consent follows them), and the answer says them, then the newest
    things said in the person's words (seven said weeks before and no fact had got "I don't know your name or office yet.")."""
    from memory.store import SAID, said_text
    from mol_local.turn.recall import asks_what_you_know
    from mol_local.turn.told import known_all_answer

    runtime = small()
    facts = [f"The user's hobby number {i} is chess variant {i}." for i in range(9)] + ["The user lives in Leeds."]
    runtime.memory.add([new_memory(f) for f in facts] + [new_memory(said_text("I had a long day"), kind=SAID)])
    question = "What do you know about me?"
    assert asks_what_you_know(question) and asks_what_you_know("tell me everything you remember about me")
    assert not asks_what_you_know("What do you know about Leeds?")
    found = recall(runtime, question)
    assert sorted(r.memory.text for r in found) == sorted([*facts, said_text("I had a long day")])  # all ten (top_k is 3), and what was said
    result = runtime.session().run_turn(question)
    lines = result.answer.splitlines()
    assert lines[0] == "Here is what I know about you:" and "- you live in Leeds" in lines and len(lines) == 14
    assert lines[-2] == "You also told me:" and lines[-1].endswith(': "I had a long day"')
    assert set(runtime.memory.store.uses(result.task_id)) == {r.memory.id for r in found}
    assert known_all_answer(question, []) is None  # nothing known: the model's answer stands
    assert known_all_answer("What is my cat called?", found) is None


def test_an_answer_about_something_nothing_names_says_it_is_not_known() -> None:
    """After the car was forgotten L0 answered "Do you know my car?" with "Your car is the user's sister."."""
    from mol_local.turn.not_known import unknown_answer

    tail = [Recalled(new_memory("The user's sister is called Mia."), 0.3)]
    assert unknown_answer("Do you know my car?", "Your car is the user's sister.", tail, []) == \
        "I don't know your car yet — tell me and I'll remember it."
    dog = [Recalled(new_memory("The user's dog is called Biscuit."), 0.5)]
    assert unknown_answer("What is my dog called?", "Your dog is called Rex.", dog, []) is None  # the tail names it
    assert unknown_answer("What's my car?", "Your car is a blue Golf.", tail, ["my car is a blue golf"]) is None  # said here
    insurance = [Recalled(new_memory("Our car insurance renews on 14 January with Aviva", said_at="2026-11-15T12:00:00"), 0.4)]
    assert unknown_answer("Who is my insurer?", "Your insurer is Aviva.", insurance, []) is None  # mol chat: "insurer" meets "insurance"
    assert unknown_answer("Do you know my car?", "I don't know.", tail, []) is None  # claims nothing


def test_where_do_i_live_with_no_home_fact_is_not_made_up() -> None:
    """`mol chat -c`: "Forget where I live" then "Where do I live?" got "You live in New York City."."""
    from mol_local.turn.not_known import unknown_answer

    sister = [Recalled(new_memory("The user's sister Clara lives in Berlin."), 0.4)]
    assert unknown_answer("Where do I live?", "You live in New York City.", sister, []) == \
        "I don't know where you live yet — tell me and I'll remember it."
    assert unknown_answer("How old am I?", "You are 30.", [], []) == "I don't know how old you are yet — tell me and I'll remember it."
    home = [Recalled(new_memory("The user lives in Leeds."), 0.6)]
    assert unknown_answer("Where do I live?", "You live in Leeds.", home, []) is None
    assert unknown_answer("Where do I live?", "You live in York.", [], ["I live in York"]) is None  # said in this conversation
    assert unknown_answer("Where do I live?", "I don't know where you live.", [], []) is None


def test_asked_what_they_told_an_answer_that_says_none_of_it_gets_the_tail() -> None:
    """Held-out L0: "Remind me what I told you about the dentist" got "Thanks for asking, I'll be happy to help. What
    was it about the dentist that caught your attention?" with the dentist's date in its tail."""
    from mol_local.turn.not_known import unknown_answer
    from mol_local.turn.told import told_answer

    tail = [Recalled(new_memory("The user's dentist appointment is on the 3rd of June."), 0.5)]
    asked = "Remind me what I told you about the dentist"
    vague = "Thanks for asking, I'll be happy to help. What was it about the dentist that caught your attention?"
    assert told_answer(asked, vague, tail) == "I know that your dentist appointment is on the 3rd of June."
    assert told_answer(asked, "You told me the dentist is on the 3rd of June.", tail) == \
        "I know that your dentist appointment is on the 3rd of June."  # always what was told (L0 retold the drill lent to Marco
    # as "Marco lent your drill to Marco yesterday")
    said = ["The dentist moved my check-up to the 3rd of June"]  # said earlier in this conversation, not in the tail
    assert told_answer(asked, vague, [], said) == 'You told me: "The dentist moved my check-up to the 3rd of June"'
    assert unknown_answer("Do you know my car?", "Thanks for telling me: your car is a car.", [], []) == \
        "I don't know your car yet — tell me and I'll remember it."
    assert told_answer("What did I tell you about my sister?", "Congratulations on discovering and telling me about your sister!", []) == \
        "You haven't told me anything about your sister yet — tell me and I'll remember it."  # mol chat on a fresh home
    assert told_answer("What did I tell you about my sister?", "You haven't told me about her.", []) is None  # it says so itself
    assert told_answer("What did I tell you about your name?", "Congrats!", []) == \
        "You haven't told me anything about my name yet — tell me and I'll remember it."  # each way, once


def test_an_answer_without_the_value_of_the_fact_asked_about_gets_the_fact() -> None:
    """`mol chat "What car do I drive?"` with "The user's car is a blue 2015 Honda Civic" in the tail: "You are a car."."""
    from mol_local.turn.told import told_answer

    tail = [Recalled(new_memory("The user's car is a blue 2015 Honda Civic"), 0.6),
            Recalled(new_memory("The user's doctor's appointment is 14 January at 10:30."), 0.4)]
    assert told_answer("What car do I drive?", "You are a car.", tail) == "Your car is a blue 2015 Honda Civic."
    assert told_answer("When is my doctor's appointment?", "It is on Monday.", tail) == "Your doctor's appointment is 14 January at 10:30."
    assert told_answer("What car do I drive?", "You drive a blue 2015 Honda Civic.", tail) is None  # the value is there
    assert told_answer("What car should I buy next?", "An electric one.", tail) is None  # advice, not a value
    assert told_answer("Is my car insured?", "I don't know.", tail) is None


def test_a_question_about_them_answered_without_the_memory_it_names_gets_what_they_said() -> None:
    """`mol chat`, memories added weeks before with `mol memory add --file` ("at"): "Who has my ladder?" got "Your ladder is
    mine." beside "I lent my ladder to my neighbour Priya"; "What language did I want to learn?" a denial."""
    from mol_local.turn.told import told_answer

    ladder = [Recalled(new_memory("I lent my ladder to my neighbour Priya", said_at="2026-11-02T10:00:00"), 0.5)]
    assert told_answer("Who has my ladder?", "Your ladder is mine.", ladder) == \
        "On Mon 2 Nov 2026 you said you lent your ladder to your neighbour Priya."
    assert told_answer("Who has my ladder?", "Priya has it.", ladder) is None  # it uses the memory
    assert told_answer("Who has the best ladders?", "Brand X.", ladder) is None  # not about them
    lisbon = [Recalled(new_memory("I'm thinking of learning Portuguese before the trip to Lisbon in April", said_at="2026-11-25T20:00:00"), 0.4)]
    assert told_answer("What language did I want to learn?", "You haven't told me anything about language yet.", lisbon) == \
        "I'm not sure that answers it, but on Wed 25 Nov 2026 you said you're thinking of learning Portuguese before the trip to Lisbon in April."
    assert told_answer("What's my cat called?", "I don't know.", lisbon) is None  # no word shared
    dentist = [Recalled(new_memory("I have a dentist appointment on Thursday at 2pm", said_at="2026-12-05T12:00:00"), 0.5)]
    assert told_answer("When is my dentist appointment?", "Your dentist appointment on Thursday at 2pm has been cancelled.", dentist) == \
        "On Sat 5 Dec 2026 you said you have a dentist appointment on Thursday at 2pm (Thursday 10 December)."  # mol chat: nothing said it was cancelled
    assert told_answer("When is my dentist appointment?", "Your dentist appointment is on Thursday at 2pm.", dentist) is None
    insurance = [Recalled(new_memory("Our car insurance renews on 14 January with Aviva", said_at="2026-11-15T12:00:00"), 0.4)]
    assert told_answer("Who is my insurer?", "I don't know your insurer yet — tell me and I'll remember it.", insurance) == \
        "I'm not sure that answers it, but on Sun 15 Nov 2026 you said your car insurance renews on 14 January with Aviva."  # mol chat


def test_a_person_named_by_a_name_the_memory_gives_a_relation_for_is_that_relation(runtime) -> None:
    """`mol chat -c`: "When is Elena's birthday?" got "Your wife is called Elena." beside her birthday, kept as the wife's."""
    from mol_local.turn.recall import recall
    from mol_local.turn.told import told_answer
    from mol_local.turn.relations import by_relation

    runtime.memory.add([new_memory("The user's wife is called Elena.", origin="explicit"),
                        new_memory("The user's wife's birthday is on the 2nd of February.", origin="explicit"),
                        new_memory("The user's boss is called Tom.", origin="explicit")], index_now=True)
    assert by_relation("When is Elena's birthday?", runtime.memory.store) == "When is my wife's birthday?"
    assert by_relation("When is Mia's birthday?", runtime.memory.store) is None and by_relation("Elena is here", runtime.memory.store) is None
    recalled = recall(runtime, "When is Elena's birthday?")
    assert "The user's wife's birthday is on the 2nd of February." in [r.memory.text for r in recalled]
    assert told_answer("When is Elena's birthday?", "Your wife is called Elena.", recalled) == "Your wife's birthday is on the 2nd of February."
    leo = [Recalled(new_memory("The user's son is called Leo."), 0.6),
           Recalled(new_memory("The user's son Leo has football practice every Saturday at 10am.", said_at="2026-12-05T14:00:00"), 0.5)]
    assert told_answer("What time is Leo's football practice?", "You told me the time Leo's football practice.", leo) == \
        "On Sat 5 Dec 2026 you said your son Leo has football practice every Saturday at 10am."  # mol chat -c: nothing answered
    assert told_answer("What time is Leo's football practice?", "Leo's football practice is every Saturday at 10am.", leo) is None


def test_a_fact_kept_in_the_first_person_is_said_back_in_the_second() -> None:
    from mol_local.statements import second_person

    assert second_person("Our car insurance renews on 14 January with Aviva") == "your car insurance renews on 14 January with Aviva"
    assert second_person("I am vegan and my sister is too") == "you are vegan and your sister is too"
    assert second_person("The user's dentist is Dr Patel.") == "your dentist is Dr Patel."


def test_a_question_about_a_thing_they_said_gets_what_they_said_when_the_answer_adds_to_it() -> None:
    """`mol chat "How much will the boiler valve cost?"` (said on 10 Nov: the plumber … about 180 pounds): "Your estimate is
    off: the boiler valve costs about 180 pounds." A question without "my" is about what they said only when it shares
    three words with it, and only a thing they said (not a stored fact) is quoted for it."""
    from memory.store import SAID
    from mol_local.turn.told import told_answer

    plumber = [Recalled(new_memory("The plumber said he can come back on the 14th to replace the boiler valve, it'll cost about 180 pounds",
                                   kind=SAID, said_at="2026-11-10T10:00:00"), 0.6)]
    assert told_answer("How much will the boiler valve cost?", "Your estimate is off: the boiler valve costs about 180 pounds.", plumber) == \
        "On Tue 10 Nov 2026 you said the plumber said he can come back on the 14th to replace the boiler valve, it'll cost about 180 pounds."
    assert told_answer("How much will the boiler valve cost?", "The boiler valve will cost about 180 pounds.", plumber) is None
    assert told_answer("How much does a boiler cost?", "Between 1500 and 3000 pounds.", plumber) is None  # two words: not about it
    fact = [Recalled(new_memory("The boiler valve will cost about 180 pounds"), 0.6)]
    assert told_answer("How much will the boiler valve cost?", "Your estimate is off: about 180 pounds.", fact) is None
