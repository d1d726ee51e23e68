"""Does L3's generation grammar accept a text? Asked of llama.cpp's own grammar sampler.

The text is tokenized with the base's vocabulary and fed token by token to
the sampler built from `document_grammar()`, exactly as decoding would: each
token must be allowed before it is accepted, and at the end an end-of-text
token must be allowed (the document is complete, not a prefix). Only the
vocabulary is loaded (`vocab_only`), so this costs no model weights.
"""

from __future__ import annotations

import ctypes
import math
from pathlib import Path

import llama_cpp
from llama_cpp._internals import LlamaModel

from mol_local.engine.sequences import quiet_llama_logs
from mol_local.genui.generate import document_grammar


def default_model_path() -> Path:
    """The base of the shipped local-default profile (the base the specialist is trained for)."""
    from hcp import load_profile
    from mol_local.models import resolve_model

    hcp = load_profile("local-default")
    return resolve_model(hcp.base_model, relative_to=hcp.base_dir)


class GrammarCheck:
    """One grammar sampler on the base's vocabulary, reset per text; `close` frees both."""

    def __init__(self, model_path: Path | None = None, grammar: str | None = None) -> None:
        quiet_llama_logs()
        params = llama_cpp.llama_model_default_params()
        params.vocab_only = True
        self.model = LlamaModel(path_model=str(model_path or default_model_path()), params=params, verbose=False)
        self.vocab = self.model.vocab
        self.sampler = llama_cpp.llama_sampler_init_grammar(self.vocab, (grammar or document_grammar()).encode(), b"root")
        if not self.sampler:
            raise RuntimeError("llama.cpp refused the L3 document grammar — this is a bug in mol-local")
        self.end = llama_cpp.llama_vocab_eos(self.vocab)
        self._one = (llama_cpp.llama_token_data * 1)()

    def tokens(self, text: str) -> list[int]:
        return self.model.tokenize(text.encode("utf-8"), add_bos=False, special=False)

    def _allows(self, token: int) -> bool:
        self._one[0].id, self._one[0].logit, self._one[0].p = token, 0.0, 0.0
        arr = llama_cpp.llama_token_data_array(self._one, 1, -1, False)
        llama_cpp.llama_sampler_apply(self.sampler, ctypes.byref(arr))
        return not math.isinf(self._one[0].logit)

    def accepts(self, text: str) -> tuple[bool, str]:
        """(accepted, why not): the grammar allows every token of `text` and then the end of text."""
        llama_cpp.llama_sampler_reset(self.sampler)
        toks = self.tokens(text)
        for i, tok in enumerate(toks):
            if not self._allows(tok):
                near = self.model.detokenize(toks[:i]).decode("utf-8", "replace")[-40:]
                return False, f"the grammar refuses the text after …{near!r}"
            llama_cpp.llama_sampler_accept(self.sampler, tok)
        if not self._allows(self.end):
            return False, "the grammar does not allow the text to end here (an incomplete document)"
        return True, ""

    def close(self) -> None:
        if self.sampler:
            llama_cpp.llama_sampler_free(self.sampler)
            self.sampler = None
        self.model.close()

    def __enter__(self) -> GrammarCheck:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
