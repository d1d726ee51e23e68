"""`mol bench runtime`: direct llama-cpp-python vs our MoL loop, one process, one script.

Three ways over the same scripted 20-turn conversation (fixed route script,
temperature 0, every answer exactly `answer_tokens` long so latencies compare):

- direct: `Llama.create_chat_completion` on the base with one growing history
  (what a user would otherwise run; llama-cpp-python reuses its prefix);
- mol: our turn loop (route hop + answer on the slot's own view + summary hop),
  a random LoRA per slot and for the router, per-slot KV reuse on; before the
  first turn the prewarm the app runs at model load (every slot's head), and
  after each turn the prewarm it runs while the user reads. Both count in
  total (the start-up one spread over the turns); `mol_turn_over_direct` is
  route + answer + summary only;
- mol_naive: the same loop with KV reuse off.

`--kv-layout unified` runs the engine on one KV buffer shared by all sequences
(16384 cells) instead of the default one stream of n_ctx cells per sequence.
The direct baseline runs with llama-cpp-python's defaults (flash attention off).
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from hcp.schema import SLOT_LABELS
from mol_local.adapters.synthetic import write_random_lora
from mol_local.engine.base import Engine, GenerationRequest, GenerationResult
from mol_local.engine.llamacpp import LlamaCppEngine
from mol_local.models import inspect_gguf, resolve_model
from mol_local.turn import TurnHooks

SCRIPT: list[tuple[str, str]] = [
    ("L0", "What causes the seasons on Earth?"),
    ("L2", "Write a Python function that checks whether a string is a palindrome."),
    ("L1", "Plan my Saturday: groceries, a 10 km run, and dinner with my sister at 7."),
    ("L0", "Translate 'see you tomorrow' into Spanish."),
    ("L3", "Make me a checklist for packing for a weekend hiking trip."),
    ("L2", "Now make the palindrome function ignore spaces and punctuation."),
    ("L2", "Add a unit test for it with pytest."),
    ("L1", "Move the run to Sunday morning and keep the rest."),
    ("L0", "Explain the difference between weather and climate."),
    ("L3", "Turn that checklist into a table with a column for who packs each item."),
    ("L2", "Write a shell one-liner that counts lines in all .py files."),
    ("L1", "Draft a short message to my landlord asking to fix the heating this week."),
    ("L0", "What is the capital of Australia?"),
    ("L0", "Why is the sky blue?"),
    ("L3", "Build a tracker for my daily water intake with a goal of 2 litres."),
    ("L2", "Write a SQL query for the ten most recent orders per customer."),
    ("L1", "Make a meal plan for three weekdays, vegetarian, under 30 minutes each."),
    ("L3", "Show me a timer card for a 25 minute focus session."),
    ("L0", "Rewrite this more politely: send me the report now."),
    ("L2", "Explain what git rebase does compared with merge."),
]


def _p50(xs: list[float]) -> float:
    return statistics.median(xs) if xs else 0.0


class _FixedLength(Engine):
    """Forwards to the real engine; answer hops ignore EOS so every answer has the same length."""

    def __init__(self, inner: LlamaCppEngine) -> None:
        self.inner = inner

    def generate(self, request: GenerationRequest) -> GenerationResult:
        if request.seq != "route" and request.keep_prefix_of is None:
            request = replace(request, ignore_eos=True)
        return self.inner.generate(request)

    def count_tokens(self, messages, *, add_generation_prompt: bool = True) -> int:
        return self.inner.count_tokens(messages, add_generation_prompt=add_generation_prompt)

    def context_limit(self) -> int:
        return self.inner.context_limit()

    def choose(self, seq, messages, choices, stack=(), cancel=None) -> str | None:
        return self.inner.choose(seq, messages, choices, stack, cancel)

    def prefill(self, seq, messages, stack=(), cancel=None, *, speculative: bool = False) -> int:
        return self.inner.prefill(seq, messages, stack, cancel, speculative=speculative)

    @property
    def reuses_prefixes(self) -> bool:
        return self.inner.reuses_prefixes

    def held_tokens(self, seq: str) -> int:
        return self.inner.held_tokens(seq)

    def reset(self, seq: str | None = None) -> None:
        self.inner.reset(seq)


def _run_direct(model: Path, intro: str, answer_tokens: int, threads: int, script: list[tuple[str, str]]) -> list[dict]:
    import llama_cpp
    from llama_cpp import Llama

    llm = Llama(str(model), n_ctx=8192, n_threads=threads, n_threads_batch=threads, verbose=False)
    bias = {t: float("-inf") for t in range(llm.n_vocab()) if llama_cpp.llama_vocab_is_eog(llm._model.vocab, t)}
    history = [{"role": "system", "content": intro}]
    rows = []
    for _, text in script:
        history.append({"role": "user", "content": text})
        t0 = time.perf_counter()
        first = last = None
        pieces = []
        n = 0
        for chunk in llm.create_chat_completion(
            history, max_tokens=answer_tokens, temperature=0.0, stream=True, logit_bias=bias, repeat_penalty=1.0
        ):
            delta = chunk["choices"][0]["delta"].get("content")
            if delta:
                now = time.perf_counter()
                first = first or now
                last = now
                pieces.append(delta)
                n += 1
        end = time.perf_counter()
        history.append({"role": "assistant", "content": "".join(pieces)})
        rows.append(
            {
                "ttft_ms": ((first or end) - t0) * 1000,
                "answer_ms": ((last or end) - t0) * 1000,
                "total_ms": (end - t0) * 1000,
                "decode_tok_s": (answer_tokens - 1) / max((last or end) - (first or end), 1e-9),
            }
        )
    llm.close()
    return rows


def _run_mol(engine: LlamaCppEngine, hcp, reuse: bool, script: list[tuple[str, str]]) -> tuple[list[dict], list[float], dict]:
    from mol_local.runtime import Runtime

    engine.reset()
    engine.kv_reuse = reuse
    engine.switch_ms.clear()
    rt = Runtime(hcp, engine=_FixedLength(engine))
    rt.warm_router()  # as the app does at startup
    router = rt.router
    session = rt.session()
    t0 = time.perf_counter()
    startup = session.prewarm() if reuse else {}  # as the app does at model load, while the user types
    startup_ms = (time.perf_counter() - t0) * 1000
    kept: dict[str, int] = {}
    rows = []
    for slot, text in script:
        real_route = router.route

        def scripted(t, cancel=None, _slot=slot, _real=real_route):
            decision = _real(t, cancel)
            decision.slot = _slot
            return decision

        router.route = scripted  # type: ignore[method-assign]
        marks: dict[str, float] = {}
        hooks = TurnHooks(
            on_token=lambda _p: marks.setdefault("first", time.perf_counter()),
            on_answer=lambda _a: marks.setdefault("answer", time.perf_counter()),
            on_draft=lambda d: marks.setdefault("first", time.perf_counter()) if d["components"] else None,  # L3: first component
        )
        t0 = time.perf_counter()
        result = session.run_turn(text, hooks=hooks)
        turn_end = time.perf_counter()
        warmed = session.prewarm() if reuse else {}  # what the app does while the user reads
        end = time.perf_counter()
        router.route = real_route  # type: ignore[method-assign]
        tm = result.timings_ms
        row = {
            "slot": slot,
            "ttft_ms": (marks.get("first", end) - t0) * 1000,
            "answer_ms": (marks.get("answer", end) - t0) * 1000,
            "total_ms": (end - t0) * 1000,
            "turn_ms": (turn_end - t0) * 1000,
            "prewarm_ms": (end - turn_end) * 1000,
            "route_ms": tm.get("route_ms", 0.0),
            "summary_ms": tm.get("summary_ms", 0.0),
            "summary_prefill_tokens": tm.get("summary_prefill_tokens", 0),
            "summary_fallback": tm.get("summary_fallback", 0),
            "prefill_tokens": tm["prefill_tokens"],
            "summary_chars": len(result.summary or ""),
            "summary": result.summary or "",
            "prewarm_tokens": sum(warmed.values()),
            "decode_tok_s": (tm["completion_tokens"] - 1) / max(tm["answer_decode_ms"] / 1000, 1e-9),
        }
        if slot in kept:
            row["reentry_tail_tokens"] = tm["prompt_tokens"] - kept[slot]
        kept[slot] = engine.held_tokens(slot)
        rows.append(row)
    switches = list(engine.switch_ms)
    rt.db.close()
    return rows, switches, {"ms": startup_ms, "tokens": sum(startup.values())}


def _bench_hcp(tmp: Path, stacks: dict, answer_tokens: int, summary_tokens: int):
    """local-default with a LoRA per slot and router, fixed budgets, greedy, no tools or memory hops.

    Tools and automatic memory extraction are left out so the three ways see the
    same system prompt and do the same work: route + answer + summary only.
    """
    import tomlkit

    from hcp import load_hcp, profile_path

    doc = tomlkit.parse(profile_path("local-default").read_text(encoding="utf-8"))
    doc["answer"]["max_tokens"] = answer_tokens
    doc["answer"]["temperature"] = 0.0
    doc["answer"]["repeat_penalty"] = 1.0
    doc["summary"]["max_tokens"] = summary_tokens
    doc["routing"]["adapters"] = [dict(stacks["route"][0])]
    for label in SLOT_LABELS:
        doc["slots"][label]["adapters"] = [dict(stacks[label][0])]
    if "tools" in doc:
        doc["tools"]["enabled"] = []
        doc["tools"].pop("limits", None)
    if "memory" in doc:
        doc["memory"]["auto_extract"] = False
    path = tmp / "bench-hcp.toml"
    path.write_text(tomlkit.dumps(doc), encoding="utf-8")
    return load_hcp(path)


def run_runtime_bench(*, turns: int = 20, answer_tokens: int = 96, summary_tokens: int = 48, kv_layout: str = "split") -> dict:
    """Run all three ways and return the summary JSON object (ratios are mol / direct)."""
    threads = int(os.environ.get("MOL_BENCH_THREADS", "2"))
    script = SCRIPT[:turns]
    model = resolve_model("builtin:smollm2-135m")
    base = inspect_gguf(model)
    with tempfile.TemporaryDirectory(prefix="mol-bench-") as tmp:
        os.environ.setdefault("MOL_HOME", str(Path(tmp) / "home"))
        stacks = {}
        for i, name in enumerate(("route", *SLOT_LABELS)):
            path = write_random_lora(base, Path(tmp) / f"{name}.gguf", seed=i + 1, std=0.01)
            stacks[name] = ({"path": str(path), "scale": 1.0},)
        hcp = _bench_hcp(Path(tmp), stacks, answer_tokens, summary_tokens)
        from personas import load_pack

        direct = _run_direct(model, load_pack(hcp.pack_location()).intro, answer_tokens, threads, script)
        engine = LlamaCppEngine(model, sequences=("route", *hcp.slots), n_ctx=4096, kv_cells=16384,
                                n_threads=threads, kv_unified=kv_layout == "unified")
        mol, switches, startup = _run_mol(engine, hcp, reuse=True, script=script)
        naive, _, _ = _run_mol(engine, hcp, reuse=False, script=script)
        engine.close()

    def mean(rows: list[dict], key: str) -> float:
        vals = [r[key] for r in rows if key in r]
        return statistics.fmean(vals) if vals else 0.0

    visited = [s for s in hcp.slots if any(slot == s for slot, _ in script)]  # a short --turns may skip a slot
    reentry = [r for r in mol if "reentry_tail_tokens" in r]
    naive_reentry = [n for n, m in zip(naive, mol) if "reentry_tail_tokens" in m]
    return {
        "bench": "runtime",
        "turns": len(script),
        "answer_tokens": answer_tokens,
        "summary_max_tokens": summary_tokens,
        "threads": threads,
        "kv_layout": kv_layout,
        "ttft_over_direct": round(mean(mol, "ttft_ms") / mean(direct, "ttft_ms"), 3),
        "answer_latency_over_direct": round(mean(mol, "answer_ms") / mean(direct, "answer_ms"), 3),
        "mol_total_over_direct": round((mean(mol, "total_ms") + startup["ms"] / len(mol)) / mean(direct, "total_ms"), 3),
        "mol_turn_over_direct": round(mean(mol, "turn_ms") / mean(direct, "total_ms"), 3),
        "naive_answer_latency_over_direct": round(mean(naive, "answer_ms") / mean(direct, "answer_ms"), 3),
        "route_ms_p50": round(_p50([r["route_ms"] for r in mol]), 2),
        "reentry_prefill_tokens_mean": round(mean(reentry, "prefill_tokens"), 1),
        "reentry_tail_tokens_mean": round(mean(reentry, "reentry_tail_tokens"), 1),
        "naive_reentry_prefill_tokens_mean": round(mean(naive_reentry, "prefill_tokens"), 1),
        "switch_ms_p50": round(_p50(switches), 3),
        "decode_tok_s": round(mean(mol, "decode_tok_s"), 1),
        "direct_decode_tok_s": round(mean(direct, "decode_tok_s"), 1),
        "direct_ttft_ms_mean": round(mean(direct, "ttft_ms"), 1),
        "mol_ttft_ms_mean": round(mean(mol, "ttft_ms"), 1),
        "direct_answer_ms_mean": round(mean(direct, "answer_ms"), 1),
        "mol_answer_ms_mean": round(mean(mol, "answer_ms"), 1),
        "mol_total_ms_mean": round(mean(mol, "total_ms"), 1),
        "prewarm_tokens_mean": round(mean(mol, "prewarm_tokens"), 1),
        "prewarm_ms_mean": round(mean(mol, "prewarm_ms"), 1),
        "summary_ms_mean": round(mean(mol, "summary_ms"), 1),
        "summary_fallbacks": sum(r.get("summary_fallback", 0) for r in mol),
        "startup_prewarm_ms": round(startup["ms"], 1),
        "startup_prewarm_tokens": startup["tokens"],
        "per_slot_answer_ms_mean": {s: round(mean([r for r in mol if r["slot"] == s], "answer_ms"), 1) for s in visited},
        "mol_turns": [{k: round(v, 1) if isinstance(v, float) else v for k, v in r.items()} for r in mol],
        "direct_turns": [{k: round(v, 1) for k, v in r.items()} for r in direct],
        "per_slot_ttft_over_direct": {  # L3's first output is its first complete component on screen
            s: round(mean([r for r in mol if r["slot"] == s], "ttft_ms")
                     / statistics.fmean([d["ttft_ms"] for d, (slot, _) in zip(direct, script) if slot == s]), 3) for s in visited
        },
        "direct_per_slot_answer_ms_mean": {
            s: round(statistics.fmean([d["answer_ms"] for d, (slot, _) in zip(direct, script) if slot == s]), 1) for s in visited
        },
    }
