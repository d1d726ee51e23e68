"""Token samplers for LlamaCppEngine: llama.cpp's sampler chain, and greedy grammar decoding.

llama.cpp's grammar sampler checks every one of the ~49k vocabulary pieces
against the grammar on every step, which costs tens of milliseconds per token
on 2 cores: more than the forward pass of the embedded 135M base. For greedy
decoding that is wasted work: if the grammar accepts the unconstrained argmax,
that token is also the argmax among the allowed ones. `GreedyGrammar` checks
that one token first (the idea of llama.cpp's common sampler), then the 64
best-scoring tokens, and masks the whole vocabulary only when all of those are
refused, so its output is identical to the chain's and most steps cost one
grammar check (on L3 documents the top-64 step removed ~70 % of whole masks).
"""

from __future__ import annotations

import ctypes
import math
from collections.abc import Sequence

import llama_cpp
import numpy as np

from mol_local.engine.base import GenerationRequest
from mol_local.errors import EngineError
from mol_local.turn.tasks import CALL_CLOSE, CALL_OPEN

NO_TOKEN = -1  # the grammar allows nothing more (it is complete and end-of-generation is banned)

TOP_K = 64  # candidates checked against the grammar before masking the whole vocabulary
_TOKEN_DATA = np.dtype([("id", "<i4"), ("logit", "<f4"), ("p", "<f4")])


class ChainSampler:
    """llama.cpp's own sampler chain (grammar, penalties, EOS ban, greedy or top-k/top-p/temperature)."""

    def __init__(self, vocab, n_vocab: int, request: GenerationRequest, eog: Sequence[int]) -> None:
        self.chain = llama_cpp.llama_sampler_chain_init(llama_cpp.llama_sampler_chain_default_params())
        add = lambda s: llama_cpp.llama_sampler_chain_add(self.chain, s)  # noqa: E731
        if request.grammar:
            add(_grammar(vocab, request.grammar, self.chain))
        elif request.repeat_penalty != 1.0:
            add(llama_cpp.llama_sampler_init_penalties(n_vocab, 64, request.repeat_penalty, 0.0, 0.0))
        if request.ignore_eos and eog:
            bias = (llama_cpp.llama_logit_bias * len(eog))(*[llama_cpp.llama_logit_bias(t, float("-inf")) for t in eog])
            add(llama_cpp.llama_sampler_init_logit_bias(n_vocab, len(eog), bias))
        if request.temperature <= 0:
            add(llama_cpp.llama_sampler_init_greedy())
        else:
            add(llama_cpp.llama_sampler_init_top_k(40))
            add(llama_cpp.llama_sampler_init_top_p(request.top_p, 1))
            add(llama_cpp.llama_sampler_init_temp(request.temperature))
            add(llama_cpp.llama_sampler_init_dist(request.seed))

    def sample(self, ctx) -> int:
        return int(llama_cpp.llama_sampler_sample(self.chain, ctx, -1))

    def free(self) -> None:
        llama_cpp.llama_sampler_free(self.chain)


class GreedyGrammar:
    """Greedy decoding under a GBNF grammar; the whole vocabulary is masked only when the argmax is refused."""

    def __init__(self, vocab, n_vocab: int, grammar: str, banned: Sequence[int] = ()) -> None:
        self.grammar = _grammar(vocab, grammar)
        self.n_vocab = n_vocab
        self.banned = np.asarray(list(banned), dtype=np.int64)
        self.one = (llama_cpp.llama_token_data * 1)()
        self.full = np.zeros(n_vocab, dtype=_TOKEN_DATA)
        self.full["id"] = np.arange(n_vocab, dtype=np.int32)
        self.top = np.zeros(TOP_K, dtype=_TOKEN_DATA)
        self.refused = 0  # steps whose unconstrained argmax the grammar refused
        self.full_masks = 0  # of those, steps that needed the whole-vocabulary mask (tests and benchmarks read both)

    def _allows(self, tok: int, logit: float) -> bool:
        self.one[0].id, self.one[0].logit, self.one[0].p = tok, logit, 0.0
        arr = llama_cpp.llama_token_data_array(self.one, 1, -1, False)
        llama_cpp.llama_sampler_apply(self.grammar, ctypes.byref(arr))
        return not math.isinf(self.one[0].logit)

    def _best_of_top(self, logits: np.ndarray) -> int:
        """The highest-scoring allowed token among the TOP_K best, or -1 if the grammar allows none of them.

        If one of them is allowed it is the argmax over all allowed tokens (the rest score lower),
        so this is exact; the whole-vocabulary mask runs only when all TOP_K are refused."""
        top = np.argpartition(-logits, TOP_K)[:TOP_K]
        top = top[np.lexsort((top, -logits[top]))]  # best first; equal scores by id, as argmax breaks ties
        self.top["id"] = top
        self.top["logit"] = logits[top]
        self.top["p"] = 0.0
        data = self.top.ctypes.data_as(ctypes.POINTER(llama_cpp.llama_token_data))
        arr = llama_cpp.llama_token_data_array(data, TOP_K, -1, False)
        llama_cpp.llama_sampler_apply(self.grammar, ctypes.byref(arr))
        allowed = np.flatnonzero(~np.isinf(self.top["logit"]))
        return int(top[allowed[0]]) if allowed.size else -1

    def sample(self, ctx) -> int:
        ptr = llama_cpp.llama_get_logits_ith(ctx, -1)
        logits = np.ctypeslib.as_array(ptr, shape=(self.n_vocab,)).copy()
        if self.banned.size:
            logits[self.banned] = -np.inf
        tok = int(np.argmax(logits))
        if not self._allows(tok, float(logits[tok])):
            self.refused += 1
            tok = self._best_of_top(logits)
        if tok < 0:
            self.full_masks += 1
            self.full["logit"] = logits
            self.full["p"] = 0.0
            data = self.full.ctypes.data_as(ctypes.POINTER(llama_cpp.llama_token_data))
            arr = llama_cpp.llama_token_data_array(data, self.n_vocab, -1, False)
            llama_cpp.llama_sampler_apply(self.grammar, ctypes.byref(arr))
            masked = self.full["logit"]
            tok = int(np.argmax(masked))
            if math.isinf(float(masked[tok])):
                return NO_TOKEN
        llama_cpp.llama_sampler_accept(self.grammar, tok)
        return tok

    def free(self) -> None:
        llama_cpp.llama_sampler_free(self.grammar)


def _grammar(vocab, grammar: str, chain=None):
    g = llama_cpp.llama_sampler_init_grammar(vocab, grammar.encode("utf-8"), b"root")
    if not g:
        if chain is not None:
            llama_cpp.llama_sampler_free(chain)
        raise EngineError("The grammar does not parse — this is a bug in mol-local, please report it")
    return g


def make_sampler(vocab, n_vocab: int, request: GenerationRequest, eog: Sequence[int]) -> ChainSampler | GreedyGrammar:
    if request.grammar and request.temperature <= 0:
        return GreedyGrammar(vocab, n_vocab, request.grammar, eog if request.ignore_eos else ())
    return ChainSampler(vocab, n_vocab, request, eog if request.ignore_eos else ())


def split_choices(toks: Sequence[list[int]]) -> tuple[list[int], list[int]] | None:
    """(shared leading tokens, one distinct final token per choice), or None if the choices do not split so.

    One forward pass can score such choices: feed the shared tokens, compare the finals' logits.
    """
    n = len(toks[0]) - 1 if toks else -1
    if len(toks) < 2 or n < 0 or not all(len(t) == n + 1 and t[:n] == toks[0][:n] for t in toks):
        return None
    finals = [t[-1] for t in toks]
    return (list(toks[0][:n]), finals) if len(set(finals)) == len(finals) else None


class CallGrammar:
    """Tool calls held to a grammar inside an otherwise free answer (`GenerationRequest.call_grammar`).

    The answer is sampled as usual; when its text reaches `<tool_call>` the call grammar takes over
    (greedy: the call's names and argument names are the tools' own), and when it reaches the close
    tag the answer's own sampler is back. If the open tag ends inside a token (text already after
    it), that call is left unconstrained rather than guessed at. An answer that stops at `<tool_call`
    must go on with `>` and a call (seen: `<tool_call.create>` shown to the person as the answer).
    """

    def __init__(self, vocab, n_vocab: int, grammar: str) -> None:
        self.vocab, self.n_vocab, self.grammar = vocab, n_vocab, grammar
        self.active: GreedyGrammar | None = None
        self.calls = 0  # calls decoded under the grammar (tests read it)

    def after(self, tail: str) -> None:
        """Called with the output's tail after every token: enter or leave a call."""
        if self.active is None:
            if tail.endswith(CALL_OPEN):
                self.active = GreedyGrammar(self.vocab, self.n_vocab, self.grammar)
                self.calls += 1
            elif tail.endswith(CALL_OPEN[:-1]):  # "<tool_call": the tag's ">" and then a call
                finish = self.grammar.replace("root ::=", "open-tag-rest ::=", 1)
                self.active = GreedyGrammar(self.vocab, self.n_vocab, f'root ::= ">" open-tag-rest\n{finish}')
                self.calls += 1
        elif tail.rfind(CALL_CLOSE) > tail.rfind(CALL_OPEN):  # "</tool_call>" does not contain "<tool_call>"
            self.free()

    def free(self) -> None:
        if self.active is not None:
            self.active.free()
            self.active = None
