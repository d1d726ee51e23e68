"""In-process llama.cpp engine: one base, many LoRAs, one KV sequence per slot.

Design (chosen by measurement, see bench/results/kv_design.json): one
llama_context with `n_seq_max` = number of sequences, each in its own KV
stream of n_ctx cells by default (or one unified buffer: runtime.kv_layout).
Each slot (and the router) owns a sequence id; its KV survives while other
slots decode, so re-entering a slot evaluates only the tokens after the longest
common prefix with what the sequence already holds. LoRA changes K/V, so each
sequence remembers the adapter stack its KV was computed under and is cleared
when that stack changes (new revision, rollback).
"""

from __future__ import annotations

import codecs
import ctypes
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import llama_cpp
import numpy as np
from llama_cpp._internals import LlamaBatch, LlamaContext, LlamaModel

from hcp.schema import SLOT_LABELS
from mol_local.engine.base import AdapterSpec, Engine, GenerationRequest, GenerationResult, Message, Stack
from mol_local.engine.sequences import SPECULATIVE_CHUNK, Seq, common_prefix, quiet_llama_logs
from mol_local.engine.stops import Output
from mol_local.engine.template import template_of
from mol_local.errors import AdapterMismatch, ContextOverflow, CorruptModel, EngineError
from mol_local.engine.sampling import CallGrammar, NO_TOKEN, make_sampler, split_choices
from mol_local.models import check_adapter_fits, inspect_gguf

class LlamaCppEngine(Engine):
    name = "llama-cpp"

    def __init__(
        self,
        model_path: Path,
        *,
        sequences: Sequence[str] = ("route", *SLOT_LABELS),
        n_ctx: int = 4096,
        kv_cells: int | None = None,
        n_threads: int = 2,
        n_batch: int = 512,
        gpu_layers: int = 0,
        kv_reuse: bool = True,
        kv_unified: bool = False,
        hop_max_seconds: float | None = None,
    ) -> None:
        quiet_llama_logs()
        self.base_info = inspect_gguf(Path(model_path))
        if self.base_info.kind != "model":
            raise CorruptModel(f"{model_path} is a LoRA adapter, not a base model — set runtime.base_model to a base GGUF")
        mparams = llama_cpp.llama_model_default_params()
        mparams.n_gpu_layers = gpu_layers
        try:
            self.model = LlamaModel(path_model=str(model_path), params=mparams, verbose=True)
        except ValueError as exc:
            raise CorruptModel(f"llama.cpp could not load {model_path} ({exc}) — check the file or pick another base") from exc
        self.n_ctx = min(n_ctx, self.model.n_ctx_train())
        self.n_batch = n_batch
        self.kv_reuse = kv_reuse
        self.hop_max_seconds = hop_max_seconds  # HCP runtime.hop_max_seconds: no single generate runs longer
        cparams = llama_cpp.llama_context_default_params()
        # Split: a step attends over its own slot's stream only; unified also walks the others'
        # cells (bench/kv_design.py "deep": 31.7 vs 50.3 tok/s) but can evict the LRU slot.
        self.kv_unified = kv_unified
        cparams.n_ctx = (kv_cells or self.n_ctx * 2) if kv_unified else self.n_ctx * len(sequences)
        cparams.n_batch = n_batch
        cparams.n_ubatch = n_batch
        cparams.n_seq_max = len(sequences)
        cparams.n_threads = n_threads
        cparams.n_threads_batch = n_threads
        cparams.kv_unified = kv_unified
        try:
            self.ctx = LlamaContext(model=self.model, params=cparams, verbose=True)
        except ValueError as exc:
            raise EngineError(f"llama.cpp could not create a context ({exc}) — lower runtime.n_ctx") from exc
        self.batch = LlamaBatch(n_tokens=n_batch, embd=0, n_seq_max=1, verbose=True)
        self.vocab = self.model.vocab
        self.n_vocab = self.model.n_vocab()
        self.template = template_of(self.model)
        self._stop_ids = {ids[0] for stop in self.template.stops if len(ids := self._tok(stop, True)) == 1}
        self._seqs = {name: Seq(id=i) for i, name in enumerate(sequences)}
        self._adapters: dict[tuple, ctypes.c_void_p] = {}
        self._applied: tuple | None = None
        self._clock = 0
        self._lock = threading.RLock()
        self._closed = False  # a background prewarm may still call in while the app closes the engine
        self.prefill_total = 0  # tokens evaluated for prompts since load (tests count these)
        self.switch_ms: list[float] = []  # time spent changing the applied adapter stack
        self._eog: list[int] | None = None
        self._choice_cache: dict[tuple[str, ...], tuple[list[int], list[int]] | None] = {}

    # -- tokens -------------------------------------------------------------
    def _tok(self, text: str, special: bool) -> list[int]:
        return self.model.tokenize(text.encode("utf-8"), add_bos=False, special=special)

    def _check_open(self) -> None:
        if self._closed:
            raise EngineError("The model was closed — reopen the app or runtime to continue")

    def tokenize_messages(self, messages: Sequence[Message], *, add_generation_prompt: bool = True) -> list[int]:
        with self._lock:
            self._check_open()
            tokens = self.template.tokenize(messages, add_generation_prompt=add_generation_prompt, tokenize=self._tok)
            if self.model.add_bos_token() and self.model.token_bos() >= 0 and (not tokens or tokens[0] != self.model.token_bos()):
                tokens.insert(0, self.model.token_bos())
        return tokens

    def _piece(self, token: int) -> bytes:
        """The bytes of one token (llama-cpp-python's helper returns its whole zero-padded buffer)."""
        size = 64
        while True:
            buf = ctypes.create_string_buffer(size)
            n = llama_cpp.llama_token_to_piece(self.vocab, token, buf, size, 0, False)
            if n >= 0:
                return buf.raw[:n]
            size = -n

    def count_tokens(self, messages: Sequence[Message], *, add_generation_prompt: bool = True) -> int:
        return len(self.tokenize_messages(messages, add_generation_prompt=add_generation_prompt))

    def context_limit(self) -> int:
        return self.n_ctx

    # -- adapters -----------------------------------------------------------
    def _adapter_key(self, spec: AdapterSpec) -> tuple:
        path = Path(spec.path)
        try:
            st = path.stat()
        except OSError as exc:
            raise AdapterMismatch(f"Adapter file not found: {path} — fix the slot's adapters in your HCP") from exc
        return (str(path.resolve()), st.st_mtime_ns, st.st_size)

    def load_adapter(self, spec: AdapterSpec) -> ctypes.c_void_p:
        """Load (once) and return the llama.cpp handle for an adapter GGUF, after checking it fits."""
        key = self._adapter_key(spec)
        if key not in self._adapters:
            info = inspect_gguf(Path(spec.path), what="adapter")
            check_adapter_fits(info, self.base_info)
            handle = llama_cpp.llama_adapter_lora_init(self.model.model, key[0].encode("utf-8"))
            if not handle:
                raise AdapterMismatch(f"llama.cpp refused the LoRA {spec.path} — it does not fit this base model")
            self._adapters[key] = handle
        return self._adapters[key]

    def _stack_key(self, stack: Stack) -> tuple:
        return tuple((self._adapter_key(s), float(s.scale)) for s in stack)

    def _apply(self, stack: Stack) -> tuple:
        key = self._stack_key(stack)
        if key != self._applied:
            t0 = time.perf_counter()
            handles = [self.load_adapter(s) for s in stack]
            n = len(handles)
            if n:
                arr = (llama_cpp.llama_adapter_lora_p_ctypes * n)(*handles)
                scales = (ctypes.c_float * n)(*[float(s.scale) for s in stack])
                rc = llama_cpp.llama_set_adapters_lora(self.ctx.ctx, arr, n, scales)
            else:
                rc = llama_cpp.llama_set_adapters_lora(self.ctx.ctx, None, 0, None)
            if rc != 0:
                raise EngineError(f"llama.cpp could not apply the adapter stack (code {rc})")
            self._applied = key
            self.switch_ms.append((time.perf_counter() - t0) * 1000)
        return key

    # -- KV sequences -------------------------------------------------------
    def reset(self, seq: str | None = None) -> None:
        with self._lock:
            for name, state in self._seqs.items():
                if seq is None or name == seq:
                    llama_cpp.llama_memory_seq_rm(self.ctx.memory, state.id, -1, -1)
                    state.tokens.clear()

    @property
    def reuses_prefixes(self) -> bool:
        return self.kv_reuse

    def held_tokens(self, seq: str) -> int:
        return len(self._seqs[seq].tokens)

    def prefill(
        self, seq: str, messages: Sequence[Message], stack: Stack = (), cancel: threading.Event | None = None, *, speculative: bool = False
    ) -> int:
        tokens = self.tokenize_messages(messages, add_generation_prompt=False)
        if not tokens or len(tokens) + 1 > self.n_ctx:
            return 0
        with self._lock:
            _, evaluated = self._prepare(seq, tokens, stack, cancel, speculative=speculative)
        return evaluated

    def _truncate(self, state: Seq, n: int) -> None:
        if n < len(state.tokens):
            llama_cpp.llama_memory_seq_rm(self.ctx.memory, state.id, n, -1)
            del state.tokens[n:]

    def _evict_one(self, keep: Seq) -> bool:
        """Drop the least recently used other sequence to make room; False if none is left."""
        others = [s for s in self._seqs.values() if s is not keep and s.tokens]
        if not others:
            return False
        victim = min(others, key=lambda s: s.last_used)
        self._truncate(victim, 0)
        return True

    def _decode(self, state: Seq, tokens: Sequence[int], *, logits_all: bool = False, cancel=None, speculative: bool = False) -> None:
        """Append tokens to a sequence's KV, chunked by n_batch; logits for the last (or all).

        When a unified cache is full the least recently used other sequence is evicted. Speculative
        work (prewarm) never evicts a resident sequence, and runs in SPECULATIVE_CHUNK-token
        chunks so a real request that cancels it waits for one small chunk, not n_batch.
        """
        step = min(self.n_batch, SPECULATIVE_CHUNK) if speculative else self.n_batch
        for start in range(0, len(tokens), step):
            chunk = tokens[start : start + step]
            last_chunk = start + step >= len(tokens)
            b = self.batch.batch
            base = len(state.tokens)
            for i, tok in enumerate(chunk):
                b.token[i] = tok
                b.pos[i] = base + i
                b.seq_id[i][0] = state.id
                b.n_seq_id[i] = 1
                b.logits[i] = logits_all or (last_chunk and i == len(chunk) - 1)
            b.n_tokens = len(chunk)
            while True:
                rc = llama_cpp.llama_decode(self.ctx.ctx, b)
                if rc == 0:
                    break
                llama_cpp.llama_memory_seq_rm(self.ctx.memory, state.id, base, -1)
                if rc == 1 and self.kv_unified and not speculative and self._evict_one(state):
                    continue
                if rc == 1 and self.kv_unified:
                    raise ContextOverflow(f"The KV cache is full ({self.ctx.n_ctx()} cells) — raise runtime.kv_cells or start a new conversation")
                if rc == 1:
                    raise ContextOverflow(f"The slot's KV stream is full ({self.n_ctx} cells) — raise runtime.n_ctx or start a new conversation")
                raise EngineError(f"llama.cpp decode failed (code {rc}) — try again; if it repeats, run `mol doctor`")
            state.tokens.extend(chunk)
            if cancel is not None and cancel.is_set() and not last_chunk:
                return

    def _prepare(self, seq: str, tokens: list[int], stack: Stack, cancel=None, *, speculative: bool = False) -> tuple[Seq, int]:
        """Make `seq` hold `tokens` under `stack`, evaluating only what it lacks. Returns (state, evaluated)."""
        self._check_open()
        state = self._seqs[seq]
        self._clock += 1
        state.last_used = self._clock
        key = self._apply(stack)
        if state.stack_key != key:
            self._truncate(state, 0)
            state.stack_key = key
        keep = common_prefix(state.tokens, tokens) if self.kv_reuse else 0
        keep = min(keep, len(tokens) - 1)  # always evaluate the last prompt token: we need its logits
        self._truncate(state, keep)
        self._decode(state, tokens[keep:], cancel=cancel, speculative=speculative)
        evaluated = len(tokens) - keep
        self.prefill_total += evaluated
        return state, evaluated

    # -- sampling -----------------------------------------------------------
    def _eog_tokens(self) -> list[int]:
        if self._eog is None:
            self._eog = [t for t in range(self.n_vocab) if llama_cpp.llama_vocab_is_eog(self.vocab, t)]
        return self._eog

    def generate(self, request: GenerationRequest) -> GenerationResult:
        with self._lock:
            return self._generate(request)

    def _generate(self, request: GenerationRequest) -> GenerationResult:
        t0 = time.perf_counter()
        prompt = self.tokenize_messages(request.messages)
        self._check_fits(prompt)
        max_tokens = max(0, min(request.max_tokens, self.n_ctx - len(prompt)))
        state, evaluated = self._prepare(request.seq, prompt, request.stack, request.cancel)
        t_prefill = time.perf_counter()
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        finish = "length"
        t_first: float | None = None
        n_out = 0
        sampler = make_sampler(self.vocab, self.n_vocab, request, self._eog_tokens() if request.ignore_eos else ())
        calls = CallGrammar(self.vocab, self.n_vocab, request.call_grammar) if request.call_grammar and not request.grammar else None
        cap = request.max_seconds if request.max_seconds is not None else self.hop_max_seconds
        stops = () if request.ignore_eos or request.grammar else tuple(self.template.stops)
        out = Output(stops + tuple(request.stop), request.on_token, t0 + cap if cap else None)
        try:
            while n_out < max_tokens:
                if request.cancel is not None and request.cancel.is_set():
                    finish = "cancelled"
                    break
                tok = (calls.active if calls is not None and calls.active is not None else sampler).sample(self.ctx.ctx)
                if tok == NO_TOKEN or llama_cpp.llama_vocab_is_eog(self.vocab, tok) or (tok in self._stop_ids and not request.ignore_eos):
                    finish = "stop"
                    break
                n_out += 1
                t_first = t_first or time.perf_counter()
                if out.add(decoder.decode(self._piece(tok))):  # the end marker written as text, not an end token here
                    finish = "stop"
                    break
                self._decode(state, [tok])
                if calls is not None:
                    calls.after(out.tail)
                if out.late():
                    finish = "time"
                    break
        finally:
            sampler.free()
            if calls is not None:
                calls.free()
        text = out.close(decoder.decode(b"", final=True))
        t_end = time.perf_counter()
        if request.keep_prefix_of is not None:
            keep = self.tokenize_messages(request.keep_prefix_of, add_generation_prompt=False)
            self._truncate(state, common_prefix(state.tokens, keep))
        first = t_first or t_end
        return GenerationResult(
            text=text,
            finish_reason=finish,
            prompt_tokens=len(prompt),
            prefill_tokens=evaluated,
            completion_tokens=n_out,
            timings_ms={
                "prefill": (t_prefill - t0) * 1000,
                "ttft": (first - t0) * 1000,
                "decode": (t_end - first) * 1000,
                "total": (t_end - t0) * 1000,
            },
        )

    def choose(
        self,
        seq: str,
        messages: Sequence[Message],
        choices: Sequence[str],
        stack: Stack = (),
        cancel: threading.Event | None = None,
    ) -> str | None:
        split = self._choice_tokens(tuple(choices))
        if split is None:
            return None
        shared, finals = split
        prompt = self.tokenize_messages(messages) + shared
        self._check_fits(prompt)
        with self._lock:
            self._prepare(seq, prompt, stack, cancel)
            ptr = llama_cpp.llama_get_logits_ith(self.ctx.ctx, -1)
            logits = np.ctypeslib.as_array(ptr, shape=(self.n_vocab,))
            best = max(range(len(finals)), key=lambda i: float(logits[finals[i]]))
        return choices[best]

    def _check_fits(self, prompt: Sequence[int]) -> None:
        if len(prompt) + 1 > self.n_ctx:
            raise ContextOverflow(
                f"The prompt needs {len(prompt)} tokens but the context holds {self.n_ctx} — shorten the message"
            )

    def _choice_tokens(self, choices: tuple[str, ...]) -> tuple[list[int], list[int]] | None:
        if choices not in self._choice_cache:
            self._choice_cache[choices] = split_choices([self._tok(c, False) for c in choices])
        return self._choice_cache[choices]

    # -- logits, for tests and parity checks ---------------------------------
    def prompt_logits(self, seq: str, tokens: list[int], stack: Stack = ()) -> tuple[np.ndarray, int]:
        """Last-position logits after making `seq` hold `tokens` (reusing KV); also tokens evaluated."""
        with self._lock:
            _, evaluated = self._prepare(seq, list(tokens), stack)
            ptr = llama_cpp.llama_get_logits_ith(self.ctx.ctx, -1)
            return np.ctypeslib.as_array(ptr, shape=(self.n_vocab,)).copy(), evaluated

    def all_logits(self, seq: str, tokens: list[int], stack: Stack = ()) -> np.ndarray:
        """Logits at every position of `tokens`, from a fresh sequence (no reuse)."""
        if len(tokens) > self.n_batch:
            raise ValueError(f"all_logits takes at most {self.n_batch} tokens")
        with self._lock:
            state = self._seqs[seq]
            state.stack_key = self._apply(stack)
            self._truncate(state, 0)
            self._decode(state, list(tokens), logits_all=True)
            out = np.empty((len(tokens), self.n_vocab), dtype=np.float32)
            for i in range(len(tokens)):
                ptr = llama_cpp.llama_get_logits_ith(self.ctx.ctx, i)
                out[i] = np.ctypeslib.as_array(ptr, shape=(self.n_vocab,))
            return out

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self.batch.close()
            self.ctx.close()
            self.model.close()
