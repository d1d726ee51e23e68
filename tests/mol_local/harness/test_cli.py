"""`mol tools` as a user runs it: a real `mol` subprocess, one-line errors, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

MOL = [sys.executable, "-m", "mol_local.cli"]


def mol(args: list[str], home: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "MOL_HOME": str(home), "HF_HUB_OFFLINE": "1"}
    env.pop("MOL_HCP", None)
    return subprocess.run(MOL + ["tools", *args], capture_output=True, text=True, env=env, timeout=120)


@pytest.mark.slow
def test_run_list_and_audit(mol_home: Path) -> None:
    out = mol(["run", "python", "--json", '{"code": "print(6 * 7)"}'], mol_home)
    assert (out.returncode, out.stdout.strip()) == (0, "42"), out.stderr
    failed = mol(["run", "python", "--json", '{"code": "1/0"}'], mol_home)
    assert failed.returncode == 1 and "ZeroDivisionError" in failed.stdout
    listed = json.loads(mol(["list", "--json"], mol_home).stdout)
    assert "python" in {t["name"] for t in listed["tools"]} and listed["saved"] == []
    calls = json.loads(mol(["calls", "--json"], mol_home).stdout)
    assert [(c["tool"], c["status"], c["slot"]) for c in calls] == [("python", "error", "cli"), ("python", "ok", "cli")]


@pytest.mark.slow
def test_user_errors_are_one_line(mol_home: Path) -> None:
    for args, expected in (
        (["run", "pyhton"], "did you mean 'python'"),
        (["run", "python", "--json", "{bad"], "--json is not valid JSON"),
        (["run", "python", "--json", "[1]"], "must be a JSON object"),
        (["promote", "ghost"], "no saved tool named 'ghost'"),
        (["demote", "ghost"], "no saved tool named 'ghost'"),
    ):
        out = mol(args, mol_home)
        assert out.returncode == 1, args
        assert out.stderr.startswith("Error: ") and expected in out.stderr and out.stderr.count("\n") == 1, out.stderr
        assert "Traceback" not in out.stderr


@pytest.mark.slow
def test_save_promote_run_demote(mol_home: Path, tmp_path: Path) -> None:
    src, tests = tmp_path / "inc.py", tmp_path / "inc.json"
    src.write_text('def inc(x):\n    """x plus one."""\n    return x + 1\n')
    tests.write_text('[{"args": {"x": 1}, "expect": 2}, {"args": {"x": -1}, "expect": 0}]')
    assert mol(["save", "inc", "--source", str(src), "--tests", str(tests)], mol_home).returncode == 0
    promoted = mol(["promote", "inc"], mol_home)
    assert promoted.returncode == 0 and "2 tests passed" in promoted.stdout, promoted.stderr
    assert mol(["run", "inc", "--json", '{"x": 41}'], mol_home).stdout.strip() == "result: 42"
    assert mol(["demote", "inc"], mol_home).returncode == 0
    gone = mol(["run", "inc", "--json", '{"x": 1}'], mol_home)
    assert gone.returncode == 1 and "no tool named 'inc'" in gone.stderr
    events = json.loads(mol(["calls", "--events", "--json"], mol_home).stdout)
    assert [e["event"] for e in events] == ["staged", "promoted", "demoted"]


def test_sandbox_reports_protections(mol_home: Path) -> None:
    out = mol(["sandbox", "--json"], mol_home)
    assert out.returncode == 0
    layers = {"network", "proc", "mounts", "files", "privileges", "syscalls", "processes", "unix_sockets", "disk", "threads", "python"}
    assert set(json.loads(out.stdout)) == layers


def test_doctor_names_every_sandbox_layer_and_each_one_missing(mol_home: Path) -> None:
    from mol_local.cli.doctor import SANDBOX_LAYERS, sandbox_lines

    env = {**os.environ, "MOL_HOME": str(mol_home), "HF_HUB_OFFLINE": "1"}
    env.pop("MOL_HCP", None)
    out = subprocess.run(MOL + ["doctor", "--json"], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    found = json.loads(mol(["sandbox", "--json"], mol_home).stdout)
    for layer in SANDBOX_LAYERS:
        line = report[f"sandbox {layer.replace('_', ' ')}"]
        assert line == found[layer] if found[layer] else line.startswith("UNAVAILABLE here — ")
    missing = dict(sandbox_lines({**found, "proc": "", "unix_sockets": ""}))  # what a kernel without them prints
    assert missing["sandbox proc"].startswith("UNAVAILABLE here — no PID namespace") and "environment" in missing["sandbox proc"]
    assert "tmux, docker, dbus" in missing["sandbox unix sockets"]
