"""Chat formats: the GGUF's own template, the plain fallback for files without one, stop strings, hop caps.

gemma3-270m (a base model, no tokenizer.chat_template) is the real case of issue 19: under ChatML its
`<|im_end|>` is not a token of that vocabulary, so the answer never stopped.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mol_local.engine.base import GenerationRequest
from mol_local.engine.stops import Output, StopText
from mol_local.engine.template import FALLBACK, MARKERS, ChatTemplate

VIEW = [{"role": "system", "content": "You are Mol, a helpful assistant. Answer briefly."},
        {"role": "user", "content": "What is the capital of France?"}]


def test_a_stop_string_split_over_pieces_is_held_back_then_cut() -> None:
    scan = StopText(["<|im_end|>"])
    assert scan.feed("Paris") == ("Paris", False)
    assert scan.feed(" <|im") == (" ", False)  # could be the marker: not shown yet
    assert scan.feed("_end|>more") == ("", True)
    scan = StopText(["<|im_end|>"])
    assert scan.feed("a <") == ("a ", False) and scan.feed("b") == ("<b", False) and scan.flush() == ""


def test_output_streams_only_what_is_kept() -> None:
    seen: list[str] = []
    out = Output(["\nUser:"], seen.append, None)
    assert not out.add(" Paris.") and not out.add("\n") and out.add("User: and")
    assert out.close("") == " Paris." and "".join(seen) == " Paris."


def test_fallback_is_a_plain_transcript_whose_prefix_renders_as_a_prefix() -> None:
    t = ChatTemplate(None, bos_token="<bos>")
    assert t.fallback is FALLBACK and t.stops == FALLBACK.stops
    whole = t.render(VIEW + [{"role": "assistant", "content": "Paris."}, {"role": "user", "content": "And Italy?"}], add_generation_prompt=True)
    assert whole == ("<bos>You are Mol, a helpful assistant. Answer briefly.\n\nUser: What is the capital of France?\n"
                     "Assistant: Paris.\n\nUser: And Italy?\nAssistant:")
    assert whole.startswith(t.render(VIEW[:1], add_generation_prompt=False))
    assert ChatTemplate("{{ '<|im_start|>' }}").stops == MARKERS["chatml"]  # a GGUF's own ChatML: its markers stop too


@pytest.fixture(scope="module")
def gemma_engine(gemma3: Path):
    from mol_local.engine.llamacpp import LlamaCppEngine

    engine = LlamaCppEngine(gemma3, sequences=("route", "L0"), n_ctx=512, n_threads=2)
    yield engine
    engine.close()


def test_template_less_gemma3_answers_and_stops(gemma_engine) -> None:
    assert gemma_engine.template.fallback is FALLBACK
    r = gemma_engine.generate(GenerationRequest(seq="L0", messages=VIEW, max_tokens=96, repeat_penalty=1.1))
    assert r.finish_reason == "stop" and r.completion_tokens < 96
    assert r.text.strip() and "User:" not in r.text and "Assistant:" not in r.text


def test_a_marker_that_is_plain_text_in_this_vocabulary_still_stops(gemma_engine) -> None:
    """`<|im_end|>` is several ordinary gemma3 tokens; fed back piece by piece it still ends the answer."""
    tokens = gemma_engine._tok("Paris.<|im_end|>\n<|im_start|>user", True)
    assert len(gemma_engine._tok("<|im_end|>", True)) > 1
    out = Output(MARKERS["chatml"], None, None)
    stopped = any(out.add(gemma_engine._piece(t).decode()) for t in tokens)
    assert stopped and out.close("") == "Paris."


def test_the_hop_cap_ends_a_decode_that_would_run_on(engine) -> None:
    r = engine.generate(GenerationRequest(seq="L1", messages=VIEW, max_tokens=2000, ignore_eos=True, max_seconds=0.5))
    assert r.finish_reason == "time" and 0 < r.completion_tokens < 2000
    engine.hop_max_seconds = 0.5  # the HCP's runtime.hop_max_seconds, for every request without its own cap
    try:
        r = engine.generate(GenerationRequest(seq="L1", messages=VIEW, max_tokens=2000, ignore_eos=True))
    finally:
        engine.hop_max_seconds = None
    assert r.finish_reason == "time"
