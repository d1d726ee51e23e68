"""One turn, in one package: route -> answer -> summary -> commit.

Read it top to bottom in this order:
- `session.py`  Session.run_turn: dispatch (local, remote, fallback, `/remember`) and the local turn itself;
- `view.py`     the slot's own view (its past work verbatim, the others' as summaries, the tail);
- `recall.py`   memories for the tail before the answer, and what the person said, kept at commit;
- `tasks.py`    the task state machine and the tool-call loop's parsing;
- `ui.py`       L3's answer hop (a UI document, drawn as it is written);
- `remote.py`   only the remote answer (a vLLM/SGLang or MoL endpoint);
- `summary.py`  the summary hop and its extractive fallback;
- `options.py`  per-request answer options (API clients);
- `result.py`   TurnResult and TurnHooks, at the bottom: everything above may import it.

`Session`, `TurnHooks` and `TurnResult` are importable from here; they load on first use, so a module
that needs only, say, `mol_local.turn.tasks` (the engine's sampler does) does not pull in the session.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mol_local.turn.result import TurnHooks, TurnResult
    from mol_local.turn.session import Session

__all__ = ["Session", "TurnHooks", "TurnResult"]


def __getattr__(name: str) -> Any:
    if name == "Session":
        from mol_local.turn.session import Session

        return Session
    if name in ("TurnHooks", "TurnResult"):
        from mol_local.turn import result

        return getattr(result, name)
    raise AttributeError(f"module 'mol_local.turn' has no attribute {name!r}")
