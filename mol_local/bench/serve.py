"""`mol bench serve`: `mol serve` over loopback HTTP vs a bare llama-cpp-python completion loop, same run.

Both sides answer the same chat requests (slot model L0 for the server, the
plain base for the baseline) with the same fixed completion length (EOS
ignored), greedy sampling, no repetition penalty, one shared model per side.
N clients run concurrently, each sending its share of a fixed number of
requests; generation serialises at the engine on both sides (the baseline's
Llama sits behind one lock, as a naive server would put it). Reported per
client count: requests/s, p50/p95 latency and time to first token, and the
overhead ratio server/bare (p50 latency at 1 client is the headline, target
<= 1.15). The sides run interleaved in rounds (ABBA), so drift in machine load
hits both alike.
"""

from __future__ import annotations

import json
import os
import secrets
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import httpx

from hcp import load_profile
from mol_local.models import resolve_model

PROMPTS = [
    "What causes the seasons on Earth?",
    "Write a Python function that reverses a string.",
    "Plan a quiet Saturday with a run and dinner at 7.",
    "Make a packing checklist for a weekend hike.",
    "Translate 'see you tomorrow' into Spanish.",
    "Explain what git rebase does.",
    "Why is the sky blue?",
    "Draft a short note asking to fix the heating.",
]


def _pct(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


def _summary(latencies: list[float], ttfts: list[float], wall: float) -> dict[str, float]:
    return {
        "requests_per_s": round(len(latencies) / wall, 3),
        "latency_p50_ms": round(_pct(latencies, 0.5) * 1000, 1),
        "latency_p95_ms": round(_pct(latencies, 0.95) * 1000, 1),
        "latency_mean_ms": round(statistics.fmean(latencies) * 1000, 1),
        "ttft_p50_ms": round(_pct(ttfts, 0.5) * 1000, 1),
        "ttft_p95_ms": round(_pct(ttfts, 0.95) * 1000, 1),
    }


def _batch(clients: int, start: int, count: int, one: Callable[[int], tuple[float, float]]) -> tuple[list[tuple[float, float]], float]:
    """`count` calls of `one(i)` -> (latency_s, ttft_s) from `clients` threads; returns results and wall time."""
    t0 = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        results = list(pool.map(one, range(start, start + count)))
    return results, time.perf_counter() - t0


def _compare(clients: int, requests: int, sides: dict[str, Callable], rounds: int = 4) -> dict[str, dict]:
    """Interleave the sides in rounds (order reversed every other round) so load drift hits all alike."""
    out: dict[str, tuple[list, float]] = {name: ([], 0.0) for name in sides}
    per = max(clients, requests // rounds)
    done = 0
    for r in range(rounds):
        count = min(per, requests - done)
        if count <= 0:
            break
        order = list(sides.items()) if r % 2 == 0 else list(reversed(sides.items()))
        for name, fn in order:
            results, wall = _batch(clients, done, count, fn)
            out[name] = (out[name][0] + results, out[name][1] + wall)
        done += count
    return {name: _summary([x[0] for x in res], [x[1] for x in res], wall) for name, (res, wall) in out.items()}


def _engine_call(engine, max_tokens: int) -> Callable[[int], tuple[float, float]]:
    """Our engine in-process, no HTTP: separates serving overhead from engine overhead."""
    from mol_local.engine.base import GenerationRequest

    def one(i: int) -> tuple[float, float]:
        t0 = time.perf_counter()
        first: list[float] = []
        engine.generate(GenerationRequest(
            seq="L0", messages=[{"role": "user", "content": PROMPTS[i % len(PROMPTS)]}], max_tokens=max_tokens,
            ignore_eos=True, on_token=lambda _p: first or first.append(time.perf_counter() - t0),
        ))
        return time.perf_counter() - t0, first[0] if first else 0.0

    return one


def _server_call(url: str, token: str, max_tokens: int) -> Callable[[int], tuple[float, float]]:
    client = httpx.Client(headers={"Authorization": f"Bearer {token}"}, timeout=600)

    def one(i: int) -> tuple[float, float]:
        body = {"model": "L0", "messages": [{"role": "user", "content": PROMPTS[i % len(PROMPTS)]}], "max_tokens": max_tokens,
                "temperature": 0, "repetition_penalty": 1.0, "ignore_eos": True, "stream": True}
        t0 = time.perf_counter()
        first = 0.0
        with client.stream("POST", url, json=body) as resp:
            resp.raise_for_status()
            for line in resp.iter_lines():
                if not first and line.startswith("data: {") and json.loads(line[6:])["choices"][0]["delta"].get("content"):
                    first = time.perf_counter() - t0
        return time.perf_counter() - t0, first

    return one


def _bare_call(llm, eog_bias: dict[int, float], max_tokens: int) -> Callable[[int], tuple[float, float]]:
    lock = threading.Lock()

    def one(i: int) -> tuple[float, float]:
        t0 = time.perf_counter()
        first = 0.0
        with lock:
            stream = llm.create_chat_completion(
                messages=[{"role": "user", "content": PROMPTS[i % len(PROMPTS)]}], max_tokens=max_tokens, temperature=0.0,
                repeat_penalty=1.0, logit_bias=eog_bias, stream=True,
            )
            for part in stream:
                if not first and part["choices"][0]["delta"].get("content"):
                    first = time.perf_counter() - t0
        return time.perf_counter() - t0, first

    return one


def run_serve_bench(*, clients: list[int], requests: int, max_tokens: int) -> dict:
    import llama_cpp
    from llama_cpp import Llama

    from mol_local.engine.llamacpp import LlamaCppEngine
    from mol_local.runtime import Runtime
    from mol_local.server import make_server, serve_in_thread

    hcp = load_profile("local-default")
    model = resolve_model(hcp.base_model)
    threads = hcp.threads
    home = tempfile.mkdtemp(prefix="mol-bench-serve-")
    previous = os.environ.get("MOL_HOME")
    os.environ["MOL_HOME"] = home  # the benchmark's conversations never touch the user's store
    try:
        engine = LlamaCppEngine(model, sequences=("route", *hcp.slots), n_ctx=4096, kv_cells=8192, n_threads=threads)
        runtime = Runtime(hcp, engine=engine)
        token = secrets.token_urlsafe(24)
        server = make_server(runtime, token, host="127.0.0.1", port=0)
        serve_in_thread(server)
        llm = Llama(str(model), n_ctx=4096, n_threads=threads, n_threads_batch=threads, verbose=False)
        eog = {t: float("-inf") for t in range(llm.n_vocab()) if llama_cpp.llama_vocab_is_eog(llm._model.vocab, t)}
        url = f"http://127.0.0.1:{server.port}/v1/chat/completions"
        served, bare, direct = _server_call(url, token, max_tokens), _bare_call(llm, eog, max_tokens), _engine_call(engine, max_tokens)
        served(0), bare(0), direct(0)  # warm-up: load, first prefill of the template scaffold
        rows = []
        for n in clients:
            m = _compare(n, requests, {"bare": bare, "engine": direct, "server": served})
            s, b, e = m["server"], m["bare"], m["engine"]
            rows.append({
                "clients": n,
                "server": s,
                "engine_in_process": e,
                "bare": b,
                "overhead_latency_ratio": round(s["latency_p50_ms"] / b["latency_p50_ms"], 3),
                "http_only_latency_ratio": round(s["latency_p50_ms"] / e["latency_p50_ms"], 3),
                "engine_vs_bare_latency_ratio": round(e["latency_p50_ms"] / b["latency_p50_ms"], 3),
                "overhead_rps_ratio": round(b["requests_per_s"] / s["requests_per_s"], 3),
                "overhead_ttft_ratio": round(s["ttft_p50_ms"] / b["ttft_p50_ms"], 3) if b["ttft_p50_ms"] else None,
            })
        server.drain(grace_s=5)
        runtime.close()
        llm.close()
    finally:
        if previous is None:
            os.environ.pop("MOL_HOME", None)
        else:
            os.environ["MOL_HOME"] = previous
    one = next((r for r in rows if r["clients"] == 1), rows[0])
    return {
        "bench": "serve",
        "requests_per_client_count": requests,
        "max_tokens": max_tokens,
        "threads": threads,
        "model": hcp.base_model,
        "transport": "HTTP/1.1 SSE over 127.0.0.1, model L0 (no adapters)",
        "baseline": "llama-cpp-python Llama.create_chat_completion(stream=True) in-process, same prompts and lengths",
        "results": rows,
        "headline_overhead_ratio_1_client": one["overhead_latency_ratio"],
        "target": 1.15,
        "meets_target": one["overhead_latency_ratio"] <= 1.15,
    }
