"""Forget, for the CLI and the app: the store (memory.forget) plus every file a runtime keeps beside it.

`memory.forget` deletes the rows (secure_delete, WAL truncated), rebuilds the
vector index without the vectors, and marks adapter revisions through the
registry. This adds what lives outside the store: the trainer's staged runs
(`$MOL_HOME/trainer/runs/`: checkpoints and scores of examples built from
turns; the next run selects again from what is left), saved KV state
(`$MOL_HOME/kv/`: a cache, rebuilt by prefill), and a forgotten
conversation's tool workspace.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from memory import forget as store_forget
from memory.forget import ForgetReport
from mol_local.adapters.registry import Registry

if TYPE_CHECKING:
    from mol_local.runtime import Runtime

RUNS = Path("trainer") / "runs"
TRAINER_LOCK = Path("trainer") / "lock"
KV = Path("kv")
WORKSPACES = Path("workspace")


def forget_memories(rt: Runtime, ids: Iterable[str]) -> ForgetReport:
    report = store_forget.forget_memories(rt.memory, ids, Registry(rt.adapters_root()))
    if report.memories:
        _files(rt, report, ())
    return report


def forget_conversation(rt: Runtime, conversation_id: str) -> ForgetReport:
    report = store_forget.forget_conversation(rt.memory, conversation_id, Registry(rt.adapters_root()))
    _files(rt, report, (conversation_id,))
    return report


def home_of(rt: Runtime) -> Path:
    """The runtime's data folder: where its store lives (MOL_HOME unless the runtime was given another)."""
    return Path(rt.db.path).parent


def forget_everything(rt: Runtime) -> ForgetReport:
    workspaces = home_of(rt) / WORKSPACES
    conversations = [p.name for p in workspaces.iterdir() if p.is_dir()] if workspaces.is_dir() else []
    report = store_forget.forget_everything(rt.memory, Registry(rt.adapters_root()))
    _files(rt, report, conversations)
    return report


def _files(rt: Runtime, report: ForgetReport, conversations: Iterable[str]) -> None:
    home = home_of(rt)
    shutil.rmtree(home / KV, ignore_errors=True)
    for conversation_id in conversations:
        folder = (home / WORKSPACES / conversation_id).resolve()
        if folder.parent == (home / WORKSPACES).resolve() and folder.is_dir():
            shutil.rmtree(folder, ignore_errors=True)
    runs = home / RUNS
    if not runs.is_dir():
        return
    if _trainer_running(home / TRAINER_LOCK):
        report.notices.append(
            "A training run is in progress: it re-checks consent before training, and its staged files under "
            f"{runs} are removed when you forget again after it ends"
        )
        return
    for run in runs.iterdir():
        shutil.rmtree(run, ignore_errors=True) if run.is_dir() else run.unlink(missing_ok=True)


def _trainer_running(lock: Path) -> bool:
    """Whether the trainer's lock names a live process (trainer.lock's rule, read-only: a live pid counts)."""
    try:
        owner = json.loads(lock.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return False
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return True  # unreadable: being written right now, or damaged; leave the staging alone either way
    import psutil

    pid = owner.get("pid") if isinstance(owner, dict) else None
    return isinstance(pid, int) and psutil.pid_exists(pid)
