"""`mol tools mcp list|test` and `mol doctor` as a user runs them (real `mol` subprocesses, a real MCP server),
and the HCP keys of [tools.mcp.<name>] with each bad value as one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hcp import load_hcp
from hcp.errors import HCPError

SERVER = Path(__file__).with_name("mcp_server.py")
MOL = [sys.executable, "-m", "mol_local.cli"]


def hcp_file(tmp_path: Path, servers: str) -> Path:
    path = tmp_path / "hcp.toml"
    path.write_text(f'schema = 1\nname = "mcp-test"\n[tools]\nenabled = ["notes"]\n[slots.L0]\n{servers}', encoding="utf-8")
    return path


TINY = f'[tools.mcp.tiny]\ncommand = "{sys.executable}"\nargs = ["{SERVER}"]\nallow = ["*"]\n'
GONE = '[tools.mcp.gone]\ncommand = "/no/such/server"\n'


def mol(args: list[str], home: Path, hcp: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "MOL_HOME": str(home), "HF_HUB_OFFLINE": "1", "MOL_HCP": str(hcp)}
    return subprocess.run(MOL + args, capture_output=True, text=True, env=env, timeout=180)


@pytest.mark.slow
def test_list_test_and_doctor(tmp_path: Path, mol_home: Path) -> None:
    hcp = hcp_file(tmp_path, TINY + GONE)
    rows = {r["name"]: r for r in json.loads(mol(["tools", "mcp", "list", "--json"], mol_home, hcp).stdout)}
    assert {t["name"]: t["asks"] for t in rows["tiny"]["tools"]}["tiny.wipe"] is True  # destructive: asks despite "*"
    assert {t["name"]: t["asks"] for t in rows["tiny"]["tools"]}["tiny.add"] is False
    assert rows["gone"]["tools"] == [] and "was not found" in rows["gone"]["problem"]
    ok = mol(["tools", "mcp", "test", "tiny", "--call", "add", "--args", '{"a": 20, "b": 22}'], mol_home, hcp)
    assert ok.returncode == 0 and "tiny: started in" in ok.stdout and "tiny.add: ok in" in ok.stdout and "\n42" in ok.stdout
    bad = mol(["tools", "mcp", "test", "gone"], mol_home, hcp)
    assert bad.returncode == 1 and "gone: command '/no/such/server' was not found" in bad.stderr and "Traceback" not in bad.stderr
    typo = mol(["tools", "mcp", "test", "tiyn"], mol_home, hcp)
    assert typo.returncode == 1 and "did you mean 'tiny'" in typo.stderr
    doctor = mol(["doctor", "--json"], mol_home, hcp)
    report = json.loads(doctor.stdout)
    assert report["mcp tiny"] == "6 tools (1 ask first)" and "was not found" in report["mcp gone"]


@pytest.mark.parametrize("servers, words", [
    ('[tools.mcp.x]\n', "needs exactly one of `command`"),
    ('[tools.mcp.x]\ncommand = "a"\nurl = "http://127.0.0.1:1/mcp"\n', "needs exactly one of `command`"),
    ('[tools.mcp.x]\nurl = "http://example.com/mcp"\n', "must be an http URL on this machine"),
    ('[tools.mcp.notes]\ncommand = "a"\n', "has the name of a built-in tool family"),
    ('[tools.mcp.Bad-Name]\ncommand = "a"\n', "not a valid tool name"),
    ('[tools.mcp.x]\ncommand = "a"\nenv = { API_KEY = "s3cret" }\n', "must not hold secrets"),
    ('[tools.mcp.x]\ncommand = "a"\nenv = { N = 1 }\n', "must be a table of strings"),
    ('[tools.mcp.x]\ncommand = "a"\ntimeout_s = 0\n', "must be between"),
    ('[tools.mcp.x]\ncommand = "a"\nalow = ["*"]\n', "did you mean 'allow'"),
])
def test_bad_mcp_tables_are_one_line(tmp_path: Path, servers: str, words: str) -> None:
    with pytest.raises(HCPError, match=words) as info:
        load_hcp(hcp_file(tmp_path, servers))
    assert "\n" not in str(info.value)


def test_a_good_table_loads(tmp_path: Path) -> None:
    hcp = load_hcp(hcp_file(tmp_path, TINY + '[tools.mcp.web]\nurl = "http://127.0.0.1:8000/mcp"\nenv = { LANG = "C" }\n'))
    assert hcp.tools.mcp["tiny"].allow == ("*",) and hcp.tools.mcp["web"].url.endswith("/mcp") and hcp.tools.mcp["tiny"].timeout_s == 30.0
