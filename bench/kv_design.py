"""Choose the per-slot KV design by measurement (DESIGN.md section 2).

A: one llama_context, n_seq_max=5, unified KV buffer (what LlamaCppEngine does).
A2: one llama_context, n_seq_max=5, split KV (one stream per sequence).
B: five llama_contexts sharing one loaded model, one per slot.
Both hold the same five 512-token prefixes; we report the memory each adds
and the time to decode 64 tokens round-robin across the five slots.
"deep": late in a conversation (one slot at 2,500 tokens, the other four at
1,000 each, local-default's sizes: unified 8,192 cells, split 4,096 per
sequence), 64 tokens decoded on the long slot, 3 rounds each, interleaved.
Run: .venv/bin/python bench/kv_design.py [--out bench/results/kv_design.json]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import llama_cpp
import psutil
from llama_cpp._internals import LlamaBatch, LlamaContext, LlamaModel

from mol_local.models import resolve_model

N_SLOTS, PREFIX, STEPS = 5, 512, 64


def rss_mb() -> float:
    return psutil.Process().memory_info().rss / 2**20


def decode(ctx: LlamaContext, batch: LlamaBatch, seq: int, start: int, tokens: list[int]) -> None:
    b = batch.batch
    for i, tok in enumerate(tokens):
        b.token[i], b.pos[i], b.n_seq_id[i], b.logits[i] = tok, start + i, 1, i == len(tokens) - 1
        b.seq_id[i][0] = seq
    b.n_tokens = len(tokens)
    assert llama_cpp.llama_decode(ctx.ctx, b) == 0


def params(n_ctx: int, n_seq: int, unified: bool = True):
    p = llama_cpp.llama_context_default_params()
    p.n_ctx, p.n_batch, p.n_ubatch, p.n_seq_max = n_ctx, 512, 512, n_seq
    p.n_threads = p.n_threads_batch = 2
    p.kv_unified = unified
    return p


def run(design: str, model: LlamaModel, prompt: list[int]) -> dict:
    before = rss_mb()
    if design.startswith("one_context"):
        unified = design == "one_context"
        ctxs = [LlamaContext(model=model, params=params(PREFIX * N_SLOTS * 2, N_SLOTS, unified), verbose=True)] * N_SLOTS
        seqs = list(range(N_SLOTS))
    else:
        ctxs = [LlamaContext(model=model, params=params(PREFIX * 2, 1), verbose=True) for _ in range(N_SLOTS)]
        seqs = [0] * N_SLOTS
    batch = LlamaBatch(n_tokens=512, embd=0, n_seq_max=1, verbose=True)
    t0 = time.perf_counter()
    for ctx, seq in zip(ctxs, seqs):
        decode(ctx, batch, seq, 0, prompt)
    prefill_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    for step in range(STEPS):
        i = step % N_SLOTS
        decode(ctxs[i], batch, seqs[i], PREFIX + step // N_SLOTS, [prompt[step]])
    decode_s = time.perf_counter() - t0
    out = {
        "added_rss_mb": round(rss_mb() - before, 1),
        "prefill_tok_s": round(N_SLOTS * PREFIX / prefill_s, 1),
        "roundrobin_decode_tok_s": round(STEPS / decode_s, 1),
    }
    return out


def deep(model: LlamaModel, text: list[int], own: int = 2500, others: int = 1000, rounds: int = 3) -> dict:
    """Decode speed on one slot while the other four hold their views: what the layout costs per step."""
    batch = LlamaBatch(n_tokens=512, embd=0, n_seq_max=1, verbose=True)
    ctxs = {"unified": LlamaContext(model=model, params=params(8192, N_SLOTS, True), verbose=True),
            "split": LlamaContext(model=model, params=params(4096 * N_SLOTS, N_SLOTS, False), verbose=True)}
    for ctx in ctxs.values():
        for seq, n in enumerate([own] + [others] * (N_SLOTS - 1)):
            for start in range(0, n, 512):
                decode(ctx, batch, seq, start, text[start : min(n, start + 512)])
    speeds: dict[str, list[float]] = {name: [] for name in ctxs}
    for _ in range(rounds):
        for name, ctx in ctxs.items():
            llama_cpp.llama_memory_seq_rm(ctx.memory, 0, own, -1)
            t0 = time.perf_counter()
            for i in range(STEPS):
                decode(ctx, batch, 0, own + i, [text[own + i]])
            speeds[name].append(round(STEPS / (time.perf_counter() - t0), 1))
    out = {f"{name}_decode_tok_s": max(v) for name, v in speeds.items()} | {"rounds": speeds}
    out["split_over_unified"] = round(out["split_decode_tok_s"] / out["unified_decode_tok_s"], 3)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    args = ap.parse_args()
    from llama_cpp import _logger

    _logger.logger.setLevel(50)
    path = resolve_model("builtin:smollm2-135m")
    model = LlamaModel(path_model=str(path), params=llama_cpp.llama_model_default_params(), verbose=True)
    prompt = model.tokenize(("The quick brown fox jumps over the lazy dog. " * 80).encode(), add_bos=False, special=False)[:PREFIX]
    result = {"bench": "kv_design", "slots": N_SLOTS, "prefix_tokens": PREFIX}
    result["one_context"] = run("one_context", model, prompt)
    result["one_context_split"] = run("one_context_split", model, prompt)
    result["context_per_slot"] = run("context_per_slot", model, prompt)
    text = model.tokenize(("The quick brown fox jumps over the lazy dog near the river bank. " * 400).encode(), add_bos=False, special=False)
    result["deep"] = deep(model, text)
    a, b = result["one_context_split"], result["context_per_slot"]
    result["memory_ratio_per_slot_over_split"] = round(b["added_rss_mb"] / max(a["added_rss_mb"], 1e-9), 2)
    result["decode_ratio_split_over_per_slot"] = round(a["roundrobin_decode_tok_s"] / b["roundrobin_decode_tok_s"], 3)
    line = json.dumps(result)
    print(line)
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
