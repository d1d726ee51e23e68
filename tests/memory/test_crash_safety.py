"""SIGKILL `mol chat` and `mol memory reindex` at random points: the store always opens whole.

After every kill: the DB opens (migrations, WAL recovery), integrity_check
passes, every turn a process reported as committed is intact, and no half
turn exists anywhere. Answers and summaries are kept tiny (8 tokens, fixed
routing, no retrieval or extraction) so 32 real model turns fit in ~2 minutes.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memory.bank import MemoryBank
from memory.db import open_db
from memory.store import new_memory
from tests.memory.conftest import tiny_pack, write_hcp

pytestmark = pytest.mark.slow
TURNS = int(os.environ.get("MOL_CRASH_TURNS", "32"))  # 30+ by contract; lower only to try it on a busy machine


def _env(home: Path, hcp: Path | None = None) -> dict[str, str]:
    env = {**os.environ, "MOL_HOME": str(home), "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}
    if hcp:
        env["MOL_HCP"] = str(hcp)
    return env


def _run_killed(args: list[str], env: dict, kill_after: float | None) -> tuple[bool, str]:
    """Run `mol ARGS`; SIGKILL it after `kill_after` s (None: let it finish). Returns (finished, stdout)."""
    proc = subprocess.Popen([sys.executable, "-m", "mol_local.cli", *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, err = proc.communicate(timeout=kill_after if kill_after is not None else 300)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGKILL)
        proc.communicate()
        return False, ""
    assert proc.returncode == 0, err.decode(errors="replace")
    return True, out.decode()


def _check_store(home: Path, committed: dict[str, dict]) -> None:
    db = open_db(home / "mol.db")
    try:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        for task_id, reported in committed.items():
            rows = list(db.query("select role, content from messages where task_id = ? order by seq", [task_id]))
            assert [r["role"] for r in rows] == ["user", "assistant"], task_id
            assert rows[1]["content"] == reported["answer"]
        for task in db.query("select id, status from tasks"):
            roles = [r["role"] for r in db.query("select role from messages where task_id = ? order by seq", [task["id"]])]
            assert roles[:1] == ["user"] and "assistant" in roles, f"half turn {task['id']}: {roles}"
            assert list(db.query("select 1 from route_decisions where task_id = ?", [task["id"]])), "turn without its route"
            if task["status"] == "closed":
                assert list(db.query("select 1 from summaries where task_id = ?", [task["id"]])), "closed turn without summary"
        orphans = db.execute(
            "select count(*) from memories where source_message_id is not null and source_message_id not in (select id from messages)"
        ).fetchone()[0]
        assert orphans == 0
    finally:
        db.close()


def test_sigkill_during_chat_turns(mol_home: Path, tmp_path: Path) -> None:
    tiny_pack(tmp_path / "pack")
    hcp = write_hcp(
        tmp_path / "tiny.toml",
        persona_pack="./pack",
        answer={"max_tokens": 8},
        summary={"max_tokens": 8},
        routing={"mode": "fixed"},
        runtime={"threads": 1},  # one thread: on a shared 2-core box, two spinning threads decode ~20x slower
        memory={"auto_extract": False, "top_k": 0},
    )
    env = _env(mol_home, hcp)
    rng = random.Random(int(os.environ.get("MOL_CRASH_SEED", "4")))
    committed: dict[str, dict] = {}
    t0 = time.perf_counter()
    finished, out = _run_killed(["chat", "--json", "Say hello in two words."], env, None)
    typical = time.perf_counter() - t0
    first = json.loads(out)
    committed[first["task_id"]] = first
    conv = first["conversation_id"]
    kills = 0
    for i in range(1, TURNS):
        text = f"/remember fact number {i} is {rng.randint(0, 999)}" if i % 5 == 0 else f"Turn {i}: reply with one word."
        kill_after = None if i % 4 == 3 else rng.uniform(0.2, 1.3) * typical  # every 4th turn runs to the end
        finished, out = _run_killed(["chat", "--json", "-c", conv, text], env, kill_after)
        if finished:
            result = json.loads(out)
            committed[result["task_id"]] = result
        else:
            kills += 1
        _check_store(mol_home, committed)
    assert kills >= min(5, TURNS // 4), f"only {kills} kills landed; the timing window is off"
    assert len(committed) >= 1 + (TURNS - 1) // 4  # the uninterrupted turns, each continuing the same conversation


def test_sigkill_during_reindex(bank: MemoryBank, mol_home: Path) -> None:
    bank.add([new_memory(f"Note {i}: the meeting about topic {i % 17} moved to room {i}") for i in range(300)])
    env = _env(mol_home)
    rng = random.Random(7)
    t0 = time.perf_counter()
    assert _run_killed(["memory", "reindex", "--json"], env, None)[0]
    typical = time.perf_counter() - t0
    for _ in range(3):
        _run_killed(["memory", "reindex", "--json"], env, rng.uniform(0.3, 1.0) * typical)
        _check_store(mol_home, {})
        again = MemoryBank(open_db(mol_home / "mol.db"), mol_home / "chroma")
        assert again.store.count() == 300
        found = again.search("room 42", 3)
        assert again.index.count() == 300 and found


def test_an_open_bank_survives_a_reindex_by_another_process(bank: MemoryBank, mol_home: Path) -> None:
    """The app keeps its index open while `mol memory reindex` replaces it from a shell."""
    bank.add([new_memory(f"Note {i}: the parcel for flat {i} is at the desk") for i in range(40)])
    assert bank.search("parcel for flat 7", 3)
    assert _run_killed(["memory", "reindex", "--json"], _env(mol_home), None)[0]
    bank.add([new_memory("The spare bike key is in the blue jar")])
    assert bank.index.count() == 41
    assert bank.search("where is the bike key", 1)[0].memory.text == "The spare bike key is in the blue jar"


def test_a_bank_opened_after_another_process_wiped_the_index_sees_the_wipe(bank: MemoryBank, mol_home: Path) -> None:
    """A reindex killed right after its wipe: a bank opened later in a process that had the old index open
    must read the directory as it is now (and refill it), not a copy Chroma cached for that path."""
    bank.add([new_memory(f"Note {i}: the locker code for gym {i} is {1000 + i}") for i in range(30)])
    assert bank.index.count() == 30
    wipe = "import sys; from memory.index import VectorIndex; VectorIndex(__import__('pathlib').Path(sys.argv[1])).wipe()"
    subprocess.run([sys.executable, "-c", wipe, str(mol_home / "chroma")], env=_env(mol_home), check=True, timeout=120)
    again = MemoryBank(open_db(mol_home / "mol.db"), mol_home / "chroma")
    report = again.ensure_ready()
    assert report is not None and report.added == 30
    assert again.notices == ["Note: the vector index had drifted; re-indexed 30 and dropped 0 vectors"]
    assert again.index.count() == 30
