"""Many writers, one store: `mol serve`, `mol chat -c` and app-like worker threads on one MOL_HOME.

Real processes on the embedded model, real SQLite, real HTTP. What must hold:
no request fails, no turn is lost, each conversation's tasks are numbered
0..n-1 in commit order, and every committed turn reads back exactly as it was
answered.
"""

from __future__ import annotations

import concurrent.futures as cf
import json
import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import pytest

from tests.mol_local.server.conftest import TOKEN, Proc, local_hcp_text, spawn_serve, write_hcp

pytestmark = pytest.mark.slow

AUTH = {"Authorization": f"Bearer {TOKEN}"}


def _homes(tmp_path: Path) -> tuple[Path, Path]:
    return tmp_path / "proc-home", tmp_path / "proc-hcp" / "hcp.toml"  # where spawn_serve puts them


def _say(proc: Proc, conversation: str, text: str, client: httpx.Client | None = None) -> httpx.Response:
    body = {"model": "mol", "messages": [{"role": "user", "content": text}]}
    post = (client or httpx).post
    return post(f"http://127.0.0.1:{proc.port}/v1/chat/completions", json=body, headers={**AUTH, "X-Mol-Conversation": conversation}, timeout=300)


def _cli_chat(tmp_path: Path, conversation: str, text: str) -> subprocess.Popen:
    home, hcp = _homes(tmp_path)
    env = {**os.environ, "MOL_HOME": str(home), "MOL_HCP": str(hcp), "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    return subprocess.Popen([sys.executable, "-m", "mol_local.cli", "chat", "-c", conversation, "--json", text],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _finish(proc: subprocess.Popen) -> dict:
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err[-2000:]
    return json.loads(out)


def _turns(home: Path, conversation: str) -> list[tuple[int, str, str]]:
    """(seq, user text, last answer) of each task, in seq order, read with a plain sqlite3 connection."""
    db = sqlite3.connect(home / "mol.db")
    try:
        rows = db.execute(
            "select t.seq, (select content from messages where task_id = t.id and role = 'user' order by seq limit 1), "
            "(select content from messages where task_id = t.id and role = 'assistant' order by seq desc limit 1) "
            "from tasks t where t.conversation_id = ? order by t.seq", [conversation]).fetchall()
    finally:
        db.close()
    return rows


def _store_ok(home: Path) -> None:
    db = sqlite3.connect(home / "mol.db")
    try:
        assert db.execute("pragma integrity_check").fetchone()[0] == "ok"
        assert db.execute("pragma foreign_key_check").fetchall() == []
    finally:
        db.close()


def test_remember_burst_24_threads_6_conversations(tmp_path: Path) -> None:
    """The red team's burst: 1,596 `/remember` over 6 conversations from 24 threads (before: 1,171 answered 500)."""
    proc = spawn_serve(tmp_path)
    total, jobs, lock = 1596, iter(range(1596)), threading.Lock()
    failures: list[str] = []

    def worker(_w: int) -> None:
        with httpx.Client(timeout=300) as client:
            while True:
                with lock:
                    i = next(jobs, None)
                if i is None:
                    return
                resp = _say(proc, f"burst-{i % 6}", f"/remember fact number {i}", client)
                if resp.status_code != 200 or f"fact number {i}" not in resp.json()["choices"][0]["message"]["content"]:
                    failures.append(f"{resp.status_code} {resp.text[:160]}")

    try:
        with cf.ThreadPoolExecutor(24) as pool:
            list(pool.map(worker, range(24)))
    finally:
        proc.stop()
    assert failures == [], f"{len(failures)} of {total} failed, e.g. {failures[:3]}"
    home, _ = _homes(tmp_path)
    said = []
    for c in range(6):
        turns = _turns(home, f"burst-{c}")
        assert [t[0] for t in turns] == list(range(len(turns)))
        said += [t[1] for t in turns]
    assert sorted(said) == sorted(f"/remember fact number {i}" for i in range(total))
    db = sqlite3.connect(home / "mol.db")
    assert db.execute("select count(*) from memories").fetchone()[0] == total
    db.close()
    _store_ok(home)


def test_serve_and_cli_chat_interleaved_on_one_conversation(tmp_path: Path) -> None:
    """`mol serve` and `mol chat -c` take turns on one conversation, then write at the same time; every turn is kept
    in commit order and the server never answers 500 (before: the CLI turn died on UNIQUE(conversation_id, seq),
    or the server answered 500 on that conversation until restart)."""
    proc = spawn_serve(tmp_path, answer_tokens=8)
    conv, sent, answers = "shared-1", [], {}
    try:
        for i in range(3):
            text = f"server turn {i}: hello"
            resp = _say(proc, conv, text)
            assert resp.status_code == 200, resp.text
            sent.append(text)
            answers[text] = resp.json()["choices"][0]["message"]["content"]
            text = f"cli turn {i}: hello"
            out = _finish(_cli_chat(tmp_path, conv, text))
            sent.append(text)
            answers[text] = out["answer"]
        assert [t[1] for t in _turns(tmp_path / "proc-home", conv)] == sent  # taking turns: kept in the order they were said
        cli = _cli_chat(tmp_path, conv, "cli turn while the server writes")
        during = []
        while cli.poll() is None or not during:  # server turns until the CLI turn has committed
            text = f"server turn {len(during) + 3} during the cli turn"
            resp = _say(proc, conv, text)
            assert resp.status_code == 200, resp.text
            during.append(text)
            answers[text] = resp.json()["choices"][0]["message"]["content"]
        answers["cli turn while the server writes"] = _finish(cli)["answer"]
        after = _say(proc, conv, "server turn after")
        assert after.status_code == 200, after.text
        answers["server turn after"] = after.json()["choices"][0]["message"]["content"]
    finally:
        proc.stop()
    turns = _turns(tmp_path / "proc-home", conv)
    assert [t[0] for t in turns] == list(range(len(turns)))
    assert sorted(t[1] for t in turns) == sorted(answers)
    assert all(t[2] == answers[t[1]].strip() for t in turns)
    assert [t[1] for t in turns if t[1] in during] == during and turns[-1][1] == "server turn after"
    _store_ok(tmp_path / "proc-home")


def test_a_stale_session_reloads_and_numbers_from_the_store(engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two runtimes (two connections, as two processes have) on one conversation: each sees the other's turns."""
    from mol_local.runtime import Runtime

    home = tmp_path / "two-home"
    monkeypatch.setenv("MOL_HOME", str(home))
    hcp = write_hcp(tmp_path / "two-hcp" / "hcp.toml", local_hcp_text(6))
    one, two = Runtime(hcp, engine=engine), Runtime(hcp, engine=engine)
    try:
        first = one.session()
        first.run_turn("first from one")
        second = two.session(first.conversation_id)
        second.run_turn("then from two")
        first.run_turn("one again")  # its history is stale: it reloads, numbers from the store
        assert [m.content for t in first.tasks for m in t.messages if m.role == "user"] == ["first from one", "then from two", "one again"]
        second.run_turn("two again")
        assert [t.seq for t in second.tasks] == [0, 1, 2, 3]
        assert [t[1] for t in _turns(home, first.conversation_id)] == ["first from one", "then from two", "one again", "two again"]
        from mol_local.forget import forget_conversation

        forget_conversation(two, first.conversation_id)
        first.run_turn("after the forget")  # the forgotten history does not live on in the other session
        assert len(first.tasks) == 1 and first.tasks[0].messages[0].content == "after the forget"
    finally:
        one.db.close()
        two.db.close()


def test_app_threads_serve_and_cli_write_one_home_at_once(engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """App-like worker threads (one Runtime, sessions on threads, memory and consent writes), `mol serve` requests
    and `mol chat -c` processes, all on one MOL_HOME at once: every committed turn is there and intact."""
    from hcp import load_hcp
    from memory.consent import set_consent
    from memory.store import new_memory
    from mol_local.runtime import Runtime

    proc = spawn_serve(tmp_path, answer_tokens=8)
    home, hcp_path = _homes(tmp_path)
    shared = "everyone"
    assert _say(proc, shared, "the server opens it").status_code == 200
    monkeypatch.setenv("MOL_HOME", str(home))
    app = Runtime(load_hcp(hcp_path), engine=engine)
    done: list[tuple[str, str, str, str]] = []  # (conversation, task id, user text, answer)
    errors: list[BaseException] = []
    guard = threading.Lock()

    def record(conversation: str, task_id: str, text: str, answer: str) -> None:
        with guard:
            done.append((conversation, task_id, text, answer))

    def app_worker(name: str, conversation: str | None, texts: list[str]) -> None:
        try:
            session = app.session(conversation)
            for text in texts:
                r = session.run_turn(text)
                record(r.conversation_id, r.task_id, text, r.answer)
        except BaseException as exc:  # noqa: BLE001 - reported below with the thread's name
            import traceback

            errors.append(RuntimeError(f"{name}: {exc!r} {traceback.format_exc()[-3000:]}"))

    def app_writes() -> None:
        try:
            for i in range(20):
                app.memory.add([new_memory(f"A note from the settings screen number {i}")], index_now=False)
                set_consent(app.db, shared, i % 2 == 0)
        except BaseException as exc:  # noqa: BLE001
            errors.append(RuntimeError(f"app writes: {exc!r}"))

    def server_client(conversation: str, texts: list[str]) -> None:
        with httpx.Client(timeout=300) as client:
            for text in texts:
                resp = _say(proc, conversation, text, client)
                if resp.status_code != 200:
                    errors.append(RuntimeError(f"serve {resp.status_code}: {resp.text[:200]}"))
                    continue
                meta = resp.json()["mol"]
                record(meta["conversation_id"], meta["task_id"], text, resp.json()["choices"][0]["message"]["content"])

    def cli_writer() -> None:
        try:
            for i in range(2):
                out = _finish(_cli_chat(tmp_path, shared, f"cli {i} joins in"))
                record(out["conversation_id"], out["task_id"], f"cli {i} joins in", out["answer"])
        except BaseException as exc:  # noqa: BLE001
            errors.append(RuntimeError(f"cli: {exc!r}"))

    threads = [
        threading.Thread(target=app_worker, args=("app-shared", shared, [f"app {i} on the shared one" for i in range(3)])),
        threading.Thread(target=app_worker, args=("app-own", None, [f"/remember app fact {i}" for i in range(8)] + ["app asks once"])),
        threading.Thread(target=app_writes),
        threading.Thread(target=server_client, args=(shared, [f"serve {i} on the shared one" for i in range(3)])),
        threading.Thread(target=server_client, args=("serve-own", [f"/remember serve fact {i}" for i in range(8)])),
        threading.Thread(target=cli_writer),
    ]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=900)
    finally:
        proc.stop()
        app.db.close()
    assert errors == []
    assert len(done) == 3 + 9 + 3 + 8 + 2
    db = sqlite3.connect(home / "mol.db")
    try:
        for conversation, task_id, text, answer in done:
            row = db.execute("select conversation_id from tasks where id = ?", [task_id]).fetchone()
            assert row == (conversation,), (task_id, text)
            msgs = db.execute("select role, content from messages where task_id = ? order by seq", [task_id]).fetchall()
            assert msgs[0] == ("user", text) and msgs[-1] == ("assistant", answer.strip()), (text, msgs)
        for conversation in {d[0] for d in done}:
            seqs = [r[0] for r in db.execute("select seq from tasks where conversation_id = ? order by seq", [conversation])]
            assert seqs == list(range(len(seqs))), conversation
        assert len(_turns(home, shared)) == 1 + 3 + 3 + 2
        assert db.execute("select count(*) from memories").fetchone()[0] == 20 + 8 + 8
    finally:
        db.close()
    _store_ok(home)
