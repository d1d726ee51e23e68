"""`mol bench tui`: cold start of the app to an interactive screen, next to `python -c "import textual"`.

Each sample is a fresh interpreter (nothing cached in-process). The child runs
the real MolApp headless on a fresh MOL_HOME and reports, from interpreter
start, when the first screen has been composed and painted with the prompt
focused ("interactive"), and when the model finished loading in the
background. Then, in separate samples, one real turn: from the last answer
token on screen to the moment the prompt takes the next message (before:
until the summary and memory extraction were saved) and to the save itself, and from Enter to the first
answer text on screen next to what `mol chat` waits for in the same turn (run_turn's call to its first token). The floor is the time a bare `import textual` takes in the same
run: no Textual app can start faster than that.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = r"""
import os, sys, time, json
t_start = float(sys.argv[1])
if sys.argv[2] == "mol":  # what plain `mol` runs before it opens the TUI (mol_local.cli.main)
    from mol_local.cli import cli, import_commands, wants_subcommand
    from mol_local.cli.tui import open_tui
    from mol_local.paths import offline_env
    offline_env()
    if wants_subcommand([]):
        import_commands()
from app.app import MolApp
marks = {}
heavy_at_interactive = []

class Probe(MolApp):
    def on_ready(self) -> None:
        self.call_after_refresh(self._interactive)

    def _interactive(self) -> None:
        marks["interactive_s"] = time.time() - t_start
        marks["prompt_focused"] = self.focused is not None and self.focused.id == "prompt"

    async def on_model_loaded(self, event) -> None:
        await super().on_model_loaded(event)
        marks["model_ready_s"] = time.time() - t_start
        if len(sys.argv) > 3 and sys.argv[3] == "turn":
            self._watch_turn()
        else:
            self.exit()

    def _watch_turn(self) -> None:
        # One real turn; every millisecond note when the answer text last grew, when the prompt takes the
        # next message (the chat is `saving`: hidden work only), and when the turn is saved (not `running`).
        # Enter -> first answer text on screen, next to what `mol chat` waits for in the same turn: from
        # run_turn's call to its first on_token (the CLI prints it then).
        from app.messages import PromptSubmitted
        from app.widgets.chat.bubbles import AssistantMessage
        from mol_local.turn.session import Session
        real_run = Session.run_turn
        def timed_run(session, text, **kw):
            hooks, called = kw.get("hooks"), time.perf_counter()
            if hooks is not None and hooks.on_token is not None:
                shown = hooks.on_token
                def first(piece, shown=shown):
                    marks.setdefault("engine_first_token_ms", round((time.perf_counter() - called) * 1000, 1))
                    shown(piece)
                hooks.on_token = first
            return real_run(session, text, **kw)
        Session.run_turn = timed_run
        seen = {"text": "", "last_token": None}
        def tick() -> None:
            chat = self.chat
            answers = list(chat.query(AssistantMessage))
            if answers and answers[-1].text != seen["text"]:
                seen["text"], seen["last_token"] = answers[-1].text, time.perf_counter()
                marks.setdefault("enter_to_first_token_ms", round((seen["last_token"] - submitted) * 1000, 1))
            if chat.saving and "accept" not in marks and seen["last_token"]:
                marks["accept"] = time.perf_counter()
            if chat.running:
                marks["started"] = True
            elif marks.get("started") and seen["last_token"]:
                done = time.perf_counter()
                accept = marks.pop("accept", done)
                marks["last_token_to_next_message_ms"] = round((accept - seen["last_token"]) * 1000, 1)
                marks["last_token_to_saved_ms"] = round((done - seen["last_token"]) * 1000, 1)
                marks.pop("started")
                self.exit()
        self.set_interval(0.001, tick)
        submitted = time.perf_counter()  # what Enter does: the prompt posts this message
        self.chat.post_message(PromptSubmitted("What is the capital of France?"))

    def on_runtime_failed(self, event) -> None:
        marks["error"] = event.error
        self.exit()

Probe().run(headless=True, size=(120, 40))
print("RESULT " + json.dumps(marks), flush=True)
os._exit(0)
"""


def _child_env(home: Path) -> dict[str, str]:
    env = dict(os.environ, MOL_HOME=str(home), HF_HUB_OFFLINE="1", ANONYMIZED_TELEMETRY="False")
    env.pop("MOL_HCP", None)
    return env


def _run_app(mode: str, timeout_s: float, *, turn: bool = False) -> dict:
    with tempfile.TemporaryDirectory(prefix="mol-bench-tui-") as home:
        out = subprocess.run(
            [sys.executable, "-c", CHILD, repr(time.time()), mode, "turn" if turn else "start"],
            capture_output=True,
            text=True,
            timeout=timeout_s,
            env=_child_env(Path(home)),
            cwd=str(Path(__file__).resolve().parents[2]),
        )
    for line in out.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT ") :])
    raise RuntimeError(f"app child failed (rc {out.returncode}): {out.stderr.strip()[-400:]}")


def _run_floor(timeout_s: float) -> float:
    t0 = time.time()
    subprocess.run([sys.executable, "-c", "import textual.app"], check=True, timeout=timeout_s, env=_child_env(Path(tempfile.gettempdir())))
    return time.time() - t0


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 3)


def run_tui_bench(*, samples: int = 5, timeout_s: float = 300.0) -> dict:
    """Interleaved samples (floor, app, mol entry) so machine load hits all three alike."""
    floor: list[float] = []
    app: list[dict] = []
    mol: list[dict] = []
    for _ in range(samples):
        floor.append(_run_floor(timeout_s))
        app.append(_run_app("app", timeout_s))
        mol.append(_run_app("mol", timeout_s))
    turns = [_run_app("app", timeout_s, turn=True) for _ in range(samples)]
    errors = [r["error"] for r in app + mol + turns if "error" in r]
    app_interactive = _median([r["interactive_s"] for r in app])
    mol_interactive = _median([r["interactive_s"] for r in mol])
    floor_s = _median(floor)
    next_ms = _median([r["last_token_to_next_message_ms"] for r in turns if "last_token_to_next_message_ms" in r])
    return {
        "bench": "tui_cold_start",
        "samples": samples,
        "cpu_count": os.cpu_count(),
        "load_avg_1m": round(os.getloadavg()[0], 2),
        "floor_import_textual_s": floor_s,
        "app_interactive_s": app_interactive,
        "mol_entry_interactive_s": mol_interactive,
        "model_ready_s": _median([r["model_ready_s"] for r in app + mol if "model_ready_s" in r]) if not errors else None,
        "prompt_focused_at_interactive": all(r.get("prompt_focused") for r in app + mol),
        "app_over_floor_ratio": round(app_interactive / floor_s, 2),
        "mol_entry_over_floor_ratio": round(mol_interactive / floor_s, 2),
        "last_token_to_next_message_ms": next_ms,
        "last_token_to_saved_ms": _median([r["last_token_to_saved_ms"] for r in turns if "last_token_to_saved_ms" in r]),
        "enter_to_first_token_ms": _median([r["enter_to_first_token_ms"] for r in turns if "enter_to_first_token_ms" in r]),
        "engine_first_token_ms": _median([r["engine_first_token_ms"] for r in turns if "engine_first_token_ms" in r]),
        "app_first_token_over_chat": round(statistics.median(
            [r["enter_to_first_token_ms"] / r["engine_first_token_ms"] for r in turns if r.get("engine_first_token_ms")]), 3)
        if any(r.get("engine_first_token_ms") for r in turns) else None,
        "target_next_message_ms": 50.0,
        "target_interactive_s": 1.0,
        "meets_target": mol_interactive <= 1.0 and (next_ms is None or next_ms <= 50.0),
        "errors": errors,
    }
