"""`mol serve --show-token` prints the token the running server accepts (checked by asking it), or says where it is.

Before: it made a new token (no keyring here: a random one each call) that the running server rejected.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
from click.testing import CliRunner

from tests.mol_local.server.conftest import TOKEN, spawn_serve, start_live


def _show(home: Path, token: str | None) -> subprocess.CompletedProcess:
    env = {**os.environ, "MOL_HOME": str(home), "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring", "HF_HUB_OFFLINE": "1"}
    env.pop("MOL_SERVE_TOKEN", None)
    if token is not None:
        env["MOL_SERVE_TOKEN"] = token
    return subprocess.run([sys.executable, "-m", "mol_local.cli", "serve", "--show-token"], env=env, capture_output=True, text=True, timeout=120)


def test_show_token_against_a_running_server_started_with_the_env_token(tmp_path: Path) -> None:
    proc = spawn_serve(tmp_path, answer_tokens=8)
    home = tmp_path / "proc-home"
    try:
        assert httpx.get(f"http://127.0.0.1:{proc.port}/v1/models", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200
        elsewhere = _show(home, None)  # a shell without MOL_SERVE_TOKEN and no keyring
        assert elsewhere.returncode == 1 and elsewhere.stdout == ""
        assert f"pid {proc.proc.pid}, port {proc.port}" in elsewhere.stderr and "MOL_SERVE_TOKEN in its own environment" in elsewhere.stderr
        wrong = _show(home, "not-the-token")
        assert wrong.returncode == 1 and "not-the-token" not in wrong.stdout
        right = _show(home, TOKEN)
        assert right.returncode == 0 and right.stdout.strip() == TOKEN
    finally:
        proc.stop()  # SIGKILL: its record stays behind, stale
    after = _show(home, "for-the-next-server")
    assert after.returncode == 0 and after.stdout.strip() == "for-the-next-server"  # no live server: what a new one would use
    assert not list((home / "serve").glob("*.json"))  # the stale record was dropped
    nothing = _show(home, None)
    assert nothing.returncode == 1 and "MOL_SERVE_TOKEN is unset" in nothing.stderr


def test_show_token_prints_the_keyring_token_a_running_server_uses(engine, tmp_path, monkeypatch, memory_keyring) -> None:
    from mol_local.cli import cli, import_commands
    from mol_local.keys import SERVE_TOKEN_NAME, SERVICE
    from mol_local.server.state import publish, withdraw

    import_commands()
    memory_keyring.set_password(SERVICE, SERVE_TOKEN_NAME, TOKEN)
    lv = start_live(engine, tmp_path, monkeypatch)
    record = publish("127.0.0.1", lv.port, "keyring")
    try:
        out = CliRunner().invoke(cli, ["serve", "--show-token"])
        assert out.exit_code == 0 and out.output.strip() == TOKEN
        memory_keyring.set_password(SERVICE, SERVE_TOKEN_NAME, "rotated-but-server-not-restarted")
        stale = CliRunner().invoke(cli, ["serve", "--show-token"])
        assert stale.exit_code == 1 and "rotated" not in stale.output and f"port {lv.port}" in stale.output
    finally:
        withdraw(record)
        lv.server.drain(grace_s=5)
        lv.runtime.db.close()
