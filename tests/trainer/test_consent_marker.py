"""Consent is a property of the data: a marker said in a conversation without consent never reaches training.

The path the red team found: `/remember` a locker code in a conversation without
consent; in a consented conversation recall puts it in the view and the answer
repeats it; that turn was selected for training. Here the marker goes through
the real turn loop (real recall with MiniLM, the real `memory_uses` writer), then
through select -> examples -> the set the nightly trains on, decoded back to
text. A control marker from a consented source goes the same way and is found,
so the search would see a leak.
"""

from __future__ import annotations

import pytest

from memory.consent import eligible_trajectories, set_consent, tainted_tasks, training_id, unconsented_memories
from memory.store import new_memory
from mol_local.extract import Proposal, store_proposal
from tests.memory.conftest import write_hcp

pytestmark = pytest.mark.slow

MARKER = "ZEBRA-LOCKER-7731"
CONTROL = "OTTER-LANTERN-5150"


@pytest.fixture
def rt(engine, tmp_path):
    from hcp import load_hcp
    from mol_local.runtime import Runtime

    path = write_hcp(tmp_path / "h.toml", answer={"max_tokens": 24}, summary={"max_tokens": 16}, routing={"mode": "fixed"},
                     memory={"auto_extract": False})
    runtime = Runtime(load_hcp(path), engine=engine)
    yield runtime
    runtime.db.close()


def _commit(rt, conversation_id: str | None, user: str, answer: str, used: list[str] = ()) -> tuple[str, str]:
    """A turn committed the way the turn loop commits one that recalled `used` and answered `answer`."""
    from memory.bank import Recalled
    from memory.timeline import MessageRecord, TaskRecord, new_id
    from mol_local.turn.recall import uses_writer

    session = rt.session(conversation_id)
    task = TaskRecord(new_id(), session.conversation_id, len(session.tasks), "L0", "closed")
    recalled = [Recalled(rt.memory.store.get(m), 0.9) for m in used]
    new = [MessageRecord("user", user), MessageRecord("assistant", answer)]
    session.commit_turn(rt, user, task, new, None, list(session.tasks), summary=f"answered: {answer}",
                        writes=[uses_writer(rt.memory, task.id, recalled)])
    return session.conversation_id, task.id


def _training_texts(rt, tok, slot: str = "L0") -> tuple[list[str], list[str]]:
    """What the nightly would train on for `slot`, decoded: train + hold-out + replay examples, consent re-checked."""
    from mol_local.turn.view import ViewSpec
    from trainer.examples import build_examples
    from trainer.select import select, still_eligible

    sel = select(rt.db, slot, default_on=False, since=None, holdout_fraction=0.2)
    specs = lambda s: ViewSpec(s, rt.head(s), rt.slot_names())  # noqa: E731
    built = [build_examples(part, rt.timeline, specs, tok, budget=1800, max_len=2048) for part in (sel.train, sel.holdout, sel.replay)]
    allowed = {t.training_id for t in still_eligible(rt.db, sel.train + sel.replay, slot=slot, default_on=False)}
    trained = [e for e in built[0] + built[2] if e.training_id in allowed]
    texts = [tok.hf.decode(e.input_ids) for part in built for e in part] + [tok.hf.decode(e.input_ids) for e in trained]
    return texts, sel.ids


def test_a_marker_from_a_conversation_without_consent_never_reaches_training(rt) -> None:
    from trainer.examples import Tokenizer
    from trainer.hf import load_base

    private = rt.session()
    result = private.run_turn(f"/remember my locker code is {MARKER}")  # conversation without consent (the default)
    secret_id = result.memories_written[0]
    source = rt.session()
    control_id = source.run_turn(f"/remember my bike lock code is {CONTROL}").memories_written[0]
    set_consent(rt.db, source.conversation_id, True)

    shared = rt.session()
    before = shared.run_turn("Hello, how are you today?")  # a turn before any recall: stays eligible
    set_consent(rt.db, shared.conversation_id, True)
    asked = shared.run_turn("What is my locker code?")  # real recall puts the marker in this view's tail
    assert secret_id in asked.memory_ids, asked.memory_ids
    assert secret_id in rt.memory.store.uses(asked.task_id)
    _, repeated = _commit(rt, shared.conversation_id, "Tell me the locker code again", f"Your locker code is {MARKER}.", [secret_id])
    _, later = _commit(rt, shared.conversation_id, "Thanks! Anything else?", "You are welcome.")
    other, control_turn = _commit(rt, None, "And my bike lock?", f"Your bike lock code is {CONTROL}.", [control_id])
    set_consent(rt.db, other, True)

    assert unconsented_memories(rt.db) == {secret_id}
    assert tainted_tasks(rt.db) == {asked.task_id, repeated, later}  # the turn that held it, and every later one of that conversation
    eligible = {t.task_id for t in eligible_trajectories(rt.db)}
    assert before.task_id in eligible and control_turn in eligible and eligible.isdisjoint({asked.task_id, repeated, later})

    _, hf_tok = load_base(rt.model_path())
    tok = Tokenizer(hf_tok)
    texts, ids = _training_texts(rt, tok)
    assert any(CONTROL in t for t in texts)  # the search sees a marker that was allowed in
    assert not any(MARKER in t for t in texts)
    assert not {training_id(t) for t in (asked.task_id, repeated, later)} & set(ids)  # nor among the ids a manifest would list

    # revoking the control's source taints the turn that recalled it: consent follows the data, not the conversation
    set_consent(rt.db, source.conversation_id, False)
    assert control_turn not in {t.task_id for t in eligible_trajectories(rt.db)}
    assert not any(CONTROL in t for t in _training_texts(rt, tok)[0])


def test_a_memory_extracted_from_a_turn_that_recalled_it_keeps_its_source(rt) -> None:
    """Repeating a fact in a consented conversation does not launder it: the new memory carries the old source."""
    private = rt.session()
    secret_id = private.run_turn(f"/remember my locker code is {MARKER}").memories_written[0]
    shared, _ = _commit(rt, None, "hi", "hello")
    set_consent(rt.db, shared, True)
    row = store_proposal(rt.memory, Proposal("add", "The user swims every Tuesday before work"), conversation_id=shared, message_id=None,
                         recalled=[secret_id])
    assert row is not None and rt.memory.store.sources([row.id]) == {shared, private.conversation_id}
    assert row.id in unconsented_memories(rt.db)
    _, used_it = _commit(rt, shared, "what was that code?", f"It is {MARKER}.", [row.id])
    assert used_it in tainted_tasks(rt.db) and used_it not in {t.task_id for t in eligible_trajectories(rt.db)}
    # an update from a consented turn that saw it keeps the old source too
    updated = rt.memory.update(row.id, "The user's locker code changed", sources=[shared])
    assert rt.memory.store.sources([updated.id]) == {shared, private.conversation_id}
    # the conversation's history now holds an answer that repeated it: a later `/remember` there carries it as well
    again = rt.session(shared).run_turn(f"/remember my gym locker is {MARKER} too").memories_written[0]
    assert rt.memory.store.sources([again]) == {shared, private.conversation_id} and again in unconsented_memories(rt.db)


def test_a_memory_a_tool_search_put_in_the_view_keeps_the_turn_out_of_training(engine, tmp_path) -> None:
    """The other way a memory reaches a view: the model calls `memory.search` and the result is a stored tool
    message. Real turn loop and harness; the model's calls are forced by a grammar (`Scripted` in tests/mol_local/conftest.py)."""
    from hcp import load_hcp
    from mol_local.runtime import Runtime
    from tests.mol_local.conftest import Scripted, call
    from trainer.examples import Tokenizer
    from trainer.hf import load_base

    path = write_hcp(tmp_path / "t.toml", answer={"max_tokens": 24}, summary={"max_tokens": 16}, routing={"mode": "fixed"},
                     memory={"auto_extract": False, "top_k": 0})  # no recall tail: only the tool puts memories in view
    outputs = ["Hello!", call("memory.search", query="locker code"), call("memory.remember", text=f"The gym locker is {MARKER}"),
               f"Your locker code is {MARKER}."]
    rt = Runtime(load_hcp(path), engine=Scripted(engine, outputs))  # type: ignore[arg-type]
    try:
        private = rt.session()
        secret_id = private.run_turn(f"/remember my locker code is {MARKER}").memories_written[0]
        shared = rt.session()
        hello = shared.run_turn("Hi")
        set_consent(rt.db, shared.conversation_id, True)
        looked = shared.run_turn("Look up my locker code please")
        assert [c["name"] for c in looked.tool_calls] == ["memory.search", "memory.remember"] and looked.memory_ids == []
        assert MARKER in looked.tool_calls[0]["result"]  # the tool message the turn stores holds the marker
        assert rt.memory.store.uses(looked.task_id) == [secret_id]
        assert tainted_tasks(rt.db) == {looked.task_id}
        assert {t.task_id for t in eligible_trajectories(rt.db)} == {hello.task_id}
        copied = next(m for m in rt.memory.store.list() if m.text == f"The gym locker is {MARKER}")
        assert rt.memory.store.sources([copied.id]) == {shared.conversation_id, private.conversation_id}
        assert copied.id in unconsented_memories(rt.db)

        _, hf_tok = load_base(rt.model_path())
        texts, ids = _training_texts(rt, Tokenizer(hf_tok))
        assert texts and not any(MARKER in t for t in texts) and training_id(looked.task_id) not in ids
    finally:
        rt.close()
        rt.db.close()


def test_a_memory_from_no_conversation_follows_the_consent_default(rt) -> None:
    added = rt.memory.add([new_memory(f"My locker code is {MARKER}")], index_now=False)[0]  # `mol memory add`
    assert added.id in unconsented_memories(rt.db) and added.id not in unconsented_memories(rt.db, default_on=True)
