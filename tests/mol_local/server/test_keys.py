"""Keys: keyring only, env overrides, no keyring -> say so; no key ever lands in a file under MOL_HOME."""

from __future__ import annotations

import json
from pathlib import Path

import keyring
import pytest
from click.testing import CliRunner
from keyring.backends import fail

from mol_local.cli import cli, import_commands
from mol_local.keys import SERVICE, remote_api_key, remote_key_name, serve_token

import_commands()


def test_serve_token_is_generated_once_and_kept_in_the_keyring(memory_keyring, monkeypatch) -> None:
    first = serve_token()
    assert first.source == "new" and len(first.value) >= 40
    assert memory_keyring.store[(SERVICE, "serve-token")] == first.value
    again = serve_token()
    assert again.source == "keyring" and again.value == first.value
    monkeypatch.setenv("MOL_SERVE_TOKEN", "from-env")
    assert serve_token().value == "from-env" and first.value not in repr(serve_token())


def test_no_keyring_backend_means_an_ephemeral_token_and_a_refused_public_bind() -> None:
    keyring.set_keyring(fail.Keyring())
    assert serve_token().source == "ephemeral"
    result = CliRunner().invoke(cli, ["serve", "--host", "0.0.0.0", "--port", "0"])
    assert result.exit_code == 1 and "Refusing to bind 0.0.0.0" in result.output and "MOL_SERVE_TOKEN" in result.output


def test_show_token_prints_the_stored_token(memory_keyring) -> None:
    token = serve_token().value
    assert CliRunner().invoke(cli, ["serve", "--show-token"]).output.strip() == token


def test_remote_login_stores_the_key_in_the_keyring(memory_keyring, monkeypatch) -> None:
    result = CliRunner().invoke(cli, ["remote", "login", "--profile", "venti-remote", "--stdin"], input="sk-live-123\n")
    assert result.exit_code == 0, result.output
    assert "sk-live-123" not in result.output
    assert memory_keyring.store[(SERVICE, remote_key_name("venti-remote"))] == "sk-live-123"
    assert remote_api_key("venti-remote") == "sk-live-123"
    monkeypatch.setenv("MOL_REMOTE_API_KEY", "sk-env")
    assert remote_api_key("venti-remote") == "sk-env"


def test_remote_login_without_a_keyring_says_so_and_stores_nothing() -> None:
    keyring.set_keyring(fail.Keyring())
    result = CliRunner().invoke(cli, ["remote", "login", "--profile", "p", "--stdin"], input="sk-x\n")
    assert result.exit_code == 1
    assert "No OS keyring backend" in result.output and "MOL_REMOTE_API_KEY" in result.output


def test_remote_login_refuses_an_empty_key(memory_keyring) -> None:
    result = CliRunner().invoke(cli, ["remote", "login", "--profile", "p", "--stdin"], input="\n")
    assert result.exit_code != 0 and "empty" in result.output and not memory_keyring.store


def _files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file()]


def test_no_key_in_any_file_under_mol_home_after_a_session(live, client_runtime, mol_home, memory_keyring, tmp_path) -> None:
    key = "sk-never-on-disk-" + "7" * 24
    live.server.token = key.encode()  # the remote accepts exactly this key
    login = CliRunner().invoke(cli, ["remote", "login", "--profile", "remote-test", "--stdin"], input=key + "\n")
    assert login.exit_code == 0
    rt = client_runtime(live.port, mode="mol", routing="fixed", key="")
    import os

    os.environ.pop("MOL_REMOTE_API_KEY", None)  # the key must come from the keyring
    result = rt.session().run_turn("Hello.")
    assert "remote" in result.engine and key not in repr(rt.engine)
    rt.db.execute("PRAGMA wal_checkpoint(FULL)")
    live.runtime.db.execute("PRAGMA wal_checkpoint(FULL)")
    files = _files(mol_home) + _files(live.home) + _files(tmp_path / "client-hcp")
    assert any(f.name == "mol.db" for f in files)
    leaked = [str(f) for f in files if key.encode() in f.read_bytes()]
    assert leaked == []


def test_doctor_reports_model_build_and_privacy(tmp_path, monkeypatch) -> None:
    local = CliRunner().invoke(cli, ["doctor", "--json"])
    assert local.exit_code == 0, local.output
    report = json.loads(local.output)
    assert report["model"].endswith(".gguf") and len(report["fingerprint"]) == 64
    assert report["llama.cpp"].startswith("llama-cpp-python 0.3.36")
    assert report["remote"].startswith("none")
    from tests.mol_local.server.conftest import remote_hcp_text, write_hcp

    path = tmp_path / "r" / "hcp.toml"
    write_hcp(path, remote_hcp_text(9999, mode="mol"))
    remote = json.loads(CliRunner().invoke(cli, ["--hcp", str(path), "doctor", "--json"]).output)
    assert remote["remote"].startswith("sends conversation text to 127.0.0.1:9999 (memories stay here)")
    assert remote["remote key"].startswith("missing")
    assert remote["fallback model"].endswith(".gguf")


@pytest.mark.parametrize("args", [["bench", "serve", "--clients", "0"], ["bench", "serve", "--clients", "x"]])
def test_bench_serve_rejects_bad_client_counts(args) -> None:
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2 and "--clients" in result.output


def test_memories_leave_only_when_the_hcp_allows_it(tmp_path) -> None:
    from types import SimpleNamespace

    from mol_local.turn.remote import memories_may_leave
    from tests.mol_local.server.conftest import local_hcp_text, remote_hcp_text, write_hcp

    remote = write_hcp(tmp_path / "r" / "hcp.toml", remote_hcp_text(9999))
    allowed = write_hcp(tmp_path / "a" / "hcp.toml", remote_hcp_text(9999).replace('mode = "engine"', 'mode = "engine"\nsend_memories = true'))
    local = write_hcp(tmp_path / "l" / "hcp.toml", local_hcp_text())
    assert [memories_may_leave(SimpleNamespace(hcp=h)) for h in (remote, allowed, local)] == [False, True, True]
