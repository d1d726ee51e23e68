"""Greedy grammar decoding that masks the vocabulary only when needed gives llama.cpp's chain output."""

from __future__ import annotations

import time

import pytest

from mol_local.engine import llamacpp
from mol_local.engine.base import GenerationRequest
from mol_local.engine.sampling import ChainSampler, GreedyGrammar
from mol_local.genui.generate import document_grammar

PROMPTS = [
    "Make me a checklist for packing for a weekend hiking trip.",
    "Show a table of my three favourite books with their authors.",
]


def _generate(engine, monkeypatch, text: str, chain: bool, grammar: str, **kw):
    made: list = []
    real = llamacpp.make_sampler

    def pick(vocab, n_vocab, request, eog):
        sampler = ChainSampler(vocab, n_vocab, request, eog) if chain else real(vocab, n_vocab, request, eog)
        made.append(sampler)
        return sampler

    monkeypatch.setattr(llamacpp, "make_sampler", pick)
    engine.reset("L3")
    t0 = time.perf_counter()
    result = engine.generate(
        GenerationRequest(seq="L3", messages=[{"role": "user", "content": text}], max_tokens=48, grammar=grammar, **kw)
    )
    return result, made[0], time.perf_counter() - t0


@pytest.mark.parametrize("text", PROMPTS)
def test_lazy_grammar_matches_the_chain_token_for_token(engine, monkeypatch, text: str) -> None:
    grammar = document_grammar()
    lazy, sampler, lazy_s = _generate(engine, monkeypatch, text, False, grammar)
    full, _, full_s = _generate(engine, monkeypatch, text, True, grammar)
    assert isinstance(sampler, GreedyGrammar)
    assert lazy.text == full.text and lazy.completion_tokens == full.completion_tokens
    assert sampler.refused < lazy.completion_tokens  # most steps needed only one grammar check
    assert sampler.full_masks < sampler.refused  # most refusals were settled among the 64 best tokens


def test_grammar_complete_with_eos_banned_stops_cleanly(engine, monkeypatch) -> None:
    result, sampler, _ = _generate(engine, monkeypatch, "Pick one", False, 'root ::= "L0" | "L1"', ignore_eos=True)
    assert result.text in {"L0", "L1"} and result.finish_reason == "stop"
