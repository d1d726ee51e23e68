"""Opt-in, budgets, the run lock and the scheduler: each bad input gives one clear line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.trainer.conftest import FACTS, commit
from trainer.errors import BudgetError, LockHeld, ScheduleUnsupported
from trainer.lock import RunLock
from trainer.nightly import Options, run_nightly


def _mol(*args: str):
    from mol_local.cli import cli, import_commands

    import_commands()
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_disabled_training_does_nothing_and_exits_0(hcp_file) -> None:
    path = hcp_file(enabled=False)
    result = _mol("--hcp", str(path), "train", "--now", "--json")
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert report["status"] == "skipped" and "trainer.enabled" in report["message"]


def test_enabled_without_consent_does_nothing(hcp_file, open_rt) -> None:
    rt = open_rt(hcp_file())
    commit(rt, FACTS[:3], consent=False)
    report = run_nightly(rt, Options())
    assert report["status"] == "skipped" and "consent" in report["message"]
    assert not list(rt.db.query("select * from trainer_runs"))


def test_impossible_memory_budget_is_one_clear_error(hcp_file, open_rt) -> None:
    path = hcp_file(memory_mb=256)
    rt = open_rt(path)
    commit(rt, FACTS[:3])  # consented data, so the job gets past the opt-in check
    with pytest.raises(BudgetError, match=r"trainer.memory_budget_mb = 256 .* raise it to at least \d+"):
        run_nightly(rt, Options())
    result = _run_cli_err("--hcp", str(path), "train", "--now")
    assert result.exit_code == 1 and result.stderr.startswith("Error: HCP trainer.memory_budget_mb = 256")
    assert "Traceback" not in result.output
    assert not list(rt.db.query("select * from trainer_runs"))


def test_dry_run_selects_without_training(hcp_file, open_rt) -> None:
    rt = open_rt(hcp_file())
    commit(rt, FACTS)
    report = run_nightly(rt, Options(slots=("L1",), dry_run=True))
    row = report["slots"][0]
    assert row["status"] == "dry_run" and row["selected"]["train"] + row["selected"]["holdout"] == len(FACTS)
    assert not (rt.adapters_root() / "L1" / "personal").exists()


def test_lock_held_by_live_process_refuses(tmp_path: Path) -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        import psutil

        path = tmp_path / "lock"
        path.write_text(json.dumps({"pid": child.pid, "started": psutil.Process(child.pid).create_time()}))
        with pytest.raises(LockHeld, match=f"pid {child.pid}"):
            RunLock(path).acquire()
    finally:
        child.kill()
        child.wait()


def test_stale_lock_is_recovered(tmp_path: Path) -> None:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    path = tmp_path / "lock"
    path.write_text(json.dumps({"pid": child.pid, "started": 1.0}))
    lock = RunLock(path).acquire()
    assert lock.stale_recovered["pid"] == child.pid
    assert json.loads(path.read_text())["pid"] == os.getpid()
    lock.release()
    assert not path.exists()
    # a live pid whose start time differs (pid reused) is stale too
    path.write_text(json.dumps({"pid": os.getpid(), "started": 12345.0}))
    assert RunLock(path).acquire().stale_recovered["started"] == 12345.0


def test_schedule_install_without_a_user_session_is_clear(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hcp_file) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))  # no systemctl at all
    result = _run_cli_err("--hcp", str(hcp_file()), "train", "schedule", "install")
    assert result.exit_code == 1
    assert "no systemd" in result.stderr and "mol train --now" in result.stderr
    assert not (tmp_path / "cfg").exists()


def test_schedule_install_here_names_the_missing_session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """This machine has systemctl but no user bus: the real probe must say so, and write nothing."""
    import shutil

    if sys.platform != "linux" or not shutil.which("systemctl"):
        pytest.skip("needs Linux with systemctl")
    if subprocess.run(["systemctl", "--user", "show-environment"], capture_output=True).returncode == 0:
        pytest.skip("this machine has a systemd user session")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    from trainer import schedule

    with pytest.raises(ScheduleUnsupported, match="no systemd user session"):
        schedule.install("03:00")
    assert not (tmp_path / "cfg").exists()


def test_unit_files_render_from_templates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from trainer.schedule import render

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    service, timer = render("systemd", "03:07", home=tmp_path, mol="/opt/mol/bin/mol")
    assert service.path == tmp_path / "cfg" / "systemd" / "user" / "mol-train.service"
    assert "ExecStart=/opt/mol/bin/mol train --now --json" in service.text and "ConditionACPower=true" in service.text
    assert "OnCalendar=*-*-* 03:07:00" in timer.text and "Persistent=true" in timer.text
    (plist,) = render("launchd", "23:05", home=tmp_path, mol="/m")
    assert "<integer>23</integer>" in plist.text and "<integer>5</integer>" in plist.text and "$" not in plist.text
    import plistlib

    assert plistlib.loads(plist.text.encode())["ProgramArguments"] == ["/m", "train", "--now", "--json"]
    (task,) = render("windows", "03:00", home=tmp_path, mol="C:\\mol.exe")
    assert "<RunOnlyIfIdle>true</RunOnlyIfIdle>" in task.text and "T03:00:00" in task.text
    with pytest.raises(ScheduleUnsupported, match="HH:MM"):
        render("systemd", "3am", home=tmp_path, mol="m")


def _run_cli_err(*args: str):
    from mol_local.cli import cli, import_commands

    import_commands()
    return CliRunner().invoke(cli, list(args))
