"""Reopening a long conversation in a fresh process: saved KV loaded vs every slot's view prefilled again.

A conversation of about 2,000 tokens on L0 is built with real turns, prewarmed
and saved (`Session.save_kv`, what the app does when it closes). Then fresh
interpreters open it, alternately with the saved files and without them, and
time from opening the conversation (session + prewarm, as the app does) to the
first token of the next answer. Target: restored / re-prefilled <= 0.3.
Run: .venv/bin/python bench/kv_reopen.py [--samples 3] [--out bench/results/kv_reopen.json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PARAGRAPH = ("Here is some background on my garden project, which I want you to keep in mind: the beds face south, "
             "the soil is heavy clay that stays wet until May, the tomatoes went in late last year and split in August, "
             "and the neighbour's hedge shades the far corner after three in the afternoon. ") * 3
CHILD = r"""
import json, sys, time
from hcp import load_profile
from mol_local.runtime import Runtime
t0 = time.perf_counter()
rt = Runtime(load_profile("local-default"))
rt.engine
rt.memory.warm_up().join()  # the app loads the embedder at start, in the background; here before the clock starts
loaded = time.perf_counter()
session = rt.session(sys.argv[1])
warmed = session.prewarm()
first = {}
from mol_local.turn import TurnHooks
hooks = TurnHooks(on_token=lambda _p: first.setdefault("t", time.perf_counter()))
session.run_turn("So what should I plant in the shady corner?", slot="L0", hooks=hooks)
print("RESULT " + json.dumps({"open_to_first_token_s": first["t"] - loaded, "prewarm": warmed, "model_load_s": loaded - t0}))
"""


def child(home: Path, conversation: str) -> dict:
    env = dict(os.environ, MOL_HOME=str(home), HF_HUB_OFFLINE="1", ANONYMIZED_TELEMETRY="False")
    out = subprocess.run([sys.executable, "-c", CHILD, conversation], capture_output=True, text=True, env=env, cwd=ROOT, timeout=600)
    for line in out.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    raise RuntimeError(out.stderr[-600:])


def main() -> None:
    sys.path.insert(0, str(ROOT))
    from dataclasses import replace

    from hcp import load_profile
    from mol_local.paths import offline_env
    from mol_local.runtime import Runtime

    offline_env()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=3)
    parser.add_argument("--out", default="bench/results/kv_reopen.json")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mol-bench-kv-") as tmp:
        home = Path(tmp) / "home"
        os.environ["MOL_HOME"] = str(home)
        base = load_profile("local-default")
        rt = Runtime(replace(base, answer=replace(base.answer, max_tokens=24)), home=home)
        session = rt.session()
        for i in range(4):
            session.run_turn(f"Part {i + 1} of my notes. {PARAGRAPH}", slot="L0")
        session.prewarm()
        view_tokens = rt.engine.held_tokens("L0")
        saved = session.save_kv()
        rt.close()
        aside = Path(tmp) / "home-aside"  # each child commits its turn: every sample starts from this same home
        shutil.copytree(home, aside)
        restored, prefilled = [], []
        for _ in range(args.samples):
            for arm, keep_kv in ((restored, True), (prefilled, False)):
                shutil.rmtree(home, ignore_errors=True)
                shutil.copytree(aside, home)
                if not keep_kv:
                    shutil.rmtree(home / "kv")
                arm.append(child(home, session.conversation_id))
    r = statistics.median(x["open_to_first_token_s"] for x in restored)
    p = statistics.median(x["open_to_first_token_s"] for x in prefilled)
    result = {"bench": "kv_reopen", "l0_view_tokens": view_tokens, "saved_bytes": saved, "samples": args.samples,
              "restored_open_to_first_token_s": round(r, 3), "prefilled_open_to_first_token_s": round(p, 3),
              "ratio": round(r / p, 3), "target_ratio": 0.3, "restored_prewarm": restored[0]["prewarm"],
              "prefilled_prewarm": prefilled[0]["prewarm"], "load_avg_1m": round(os.getloadavg()[0], 2)}
    text = json.dumps(result, indent=2, sort_keys=True)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
