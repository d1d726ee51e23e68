"""Saved KV: a slot's view written to disk and loaded back gives the same answer without the prefill."""

from __future__ import annotations

from pathlib import Path

import pytest

from mol_local.engine.base import GenerationRequest
from mol_local.kvcache import SavedKV

pytestmark = pytest.mark.slow
VIEW = [
    {"role": "system", "content": "You are Mol, a helpful assistant that runs on this computer. " * 6},
    {"role": "user", "content": "What causes the seasons on Earth?"},
    {"role": "assistant", "content": "The tilt of Earth's axis makes each hemisphere lean toward the Sun for part of the year."},
]
NEXT = {"role": "user", "content": "And why is it warmer in summer?"}


def answer(engine, view) -> tuple[str, int]:
    result = engine.generate(GenerationRequest(seq="L0", messages=[*view, NEXT], max_tokens=16))
    return result.text, result.prefill_tokens


def test_a_saved_view_loads_back_and_answers_exactly_as_a_fresh_prefill(engine, base_model_path: Path, tmp_path: Path) -> None:
    kv = SavedKV(tmp_path / "kv")
    tokens = engine.tokenize_messages(VIEW, add_generation_prompt=False)
    engine.prefill("L0", VIEW)
    assert kv.save(engine, "L0", base_model_path, ()) > 0
    assert kv.save(engine, "L0", base_model_path, ()) == 0  # already saved: nothing written twice
    fresh, fresh_prefill = answer(engine, VIEW)
    engine.reset()
    assert kv.restore(engine, "L0", base_model_path, (), tokens) == len(tokens)
    restored, restored_prefill = answer(engine, VIEW)
    assert restored == fresh
    assert restored_prefill < 30 < len(tokens) and fresh_prefill < 30  # only the new message was evaluated


def test_another_history_stack_or_base_finds_no_file_and_a_damaged_file_is_dropped(engine, base_model_path: Path, lora_dir: Path, tmp_path: Path) -> None:
    from mol_local.engine.base import AdapterSpec

    kv = SavedKV(tmp_path / "kv")
    tokens = engine.tokenize_messages(VIEW, add_generation_prompt=False)
    engine.prefill("L0", VIEW)
    kv.save(engine, "L0", base_model_path, ())
    engine.reset()
    assert kv.restore(engine, "L0", base_model_path, (), tokens[:-1]) == 0  # the history moved on
    assert kv.restore(engine, "L0", base_model_path, (AdapterSpec(str(lora_dir / "a.gguf"), 1.0),), tokens) == 0
    assert kv.restore(engine, "L0", tmp_path / "other.gguf", (), tokens) == 0
    (saved,) = list((tmp_path / "kv").glob("*.kv"))
    saved.write_bytes(saved.read_bytes()[: saved.stat().st_size // 3])  # a crash mid-write, a full disk
    assert kv.restore(engine, "L0", base_model_path, (), tokens) == 0
    assert not saved.exists() and engine.held_tokens("L0") == 0
    assert answer(engine, VIEW)[0]  # the slot still answers, from a prefill


def test_files_beyond_the_cap_go_oldest_first(engine, base_model_path: Path, tmp_path: Path) -> None:
    kv = SavedKV(tmp_path / "kv", cap_bytes=1)
    engine.prefill("L0", VIEW)
    kv.save(engine, "L0", base_model_path, ())
    engine.prefill("L1", VIEW[:2])
    kv.save(engine, "L1", base_model_path, ())
    assert len(list((tmp_path / "kv").glob("*.kv"))) == 0  # each over the cap by itself


def test_reopening_a_conversation_loads_every_slot_instead_of_prefilling(runtime) -> None:
    session = runtime.session()
    session.run_turn("What causes the seasons on Earth?", slot="L0")
    session.prewarm()
    assert session.save_kv() > 0
    runtime.engine.reset()  # a fresh process: nothing resident
    before = runtime.engine.prefill_total
    again = runtime.session(session.conversation_id)
    warmed = again.prewarm()
    assert all(warmed[slot] <= 1 for slot in runtime.hcp.slots), warmed  # each slot's view came from its file
    assert runtime.engine.prefill_total - before == warmed["route"] + sum(warmed[s] for s in runtime.hcp.slots)  # nothing else
