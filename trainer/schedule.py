"""`mol train schedule install|remove|status`: the OS scheduler runs `mol train --now` nightly.

Linux: a systemd *user* timer (needs a user session bus); macOS: a launchd
agent; Windows: a scheduled task. Units are rendered from the templates in
packaging/ ($-placeholders). Whether the scheduler is usable is checked
BEFORE anything is written, so a failed install leaves nothing behind.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from string import Template

from trainer.errors import ScheduleUnsupported

PACKAGING = Path(__file__).resolve().parent.parent / "packaging"
_TIME = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)$")


@dataclass(frozen=True)
class Unit:
    path: Path
    text: str


def mol_executable() -> str:
    found = shutil.which("mol")
    return found or str(Path(sys.executable).with_name("mol"))


def _hm(schedule: str) -> tuple[str, str]:
    m = _TIME.match(schedule)
    if not m:
        raise ScheduleUnsupported(f"HCP trainer.schedule = {schedule!r} is not HH:MM — set it like \"03:00\"")
    return m.group(1), m.group(2)


def render(kind: str, schedule: str, *, home: Path, mol: str) -> list[Unit]:
    """The files `kind` (systemd | launchd | windows) needs, with their text."""
    hour, minute = _hm(schedule)
    values = {"mol": mol, "hour": hour, "minute": minute, "hour_int": str(int(hour)), "minute_int": str(int(minute)),
              "log": str(home / "Library" / "Logs" / "mol-train.log")}

    def tpl(name: str) -> str:
        return Template((PACKAGING / name).read_text(encoding="utf-8")).substitute(values)

    if kind == "systemd":
        cfg = Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config") / "systemd" / "user"
        return [Unit(cfg / "mol-train.service", tpl("mol-train.service")), Unit(cfg / "mol-train.timer", tpl("mol-train.timer"))]
    if kind == "launchd":
        return [Unit(home / "Library" / "LaunchAgents" / "com.mol-local.train.plist", tpl("com.mol-local.train.plist"))]
    if kind == "windows":
        return [Unit(home / "AppData" / "Local" / "mol-local" / "mol-train-task.xml", tpl("mol-train-task.xml"))]
    raise ScheduleUnsupported(f"unknown scheduler {kind!r} — use systemd, launchd or windows")


def _run(cmd: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=30, check=False)


def detect() -> str:
    """The usable scheduler here, or ScheduleUnsupported saying why and what to do instead."""
    fallback = "run `mol train --now` from cron or your own scheduler instead"
    if sys.platform == "darwin":
        if shutil.which("launchctl"):
            return "launchd"
        raise ScheduleUnsupported(f"launchctl is not available — {fallback}")
    if sys.platform == "win32":
        if shutil.which("schtasks"):
            return "windows"
        raise ScheduleUnsupported(f"schtasks is not available — {fallback}")
    if not shutil.which("systemctl"):
        raise ScheduleUnsupported(f"this system has no systemd (systemctl not found) — {fallback}")
    probe = _run(["systemctl", "--user", "show-environment"])
    if probe.returncode != 0:
        why = (probe.stderr or probe.stdout).strip().splitlines()
        raise ScheduleUnsupported(
            f"no systemd user session here ({why[0] if why else 'systemctl --user failed'}) — log in to a desktop/ssh session "
            f"with a user manager (`loginctl enable-linger $USER`), or {fallback}"
        )
    return "systemd"


def install(schedule: str, *, home: Path | None = None) -> dict:
    kind = detect()
    units = render(kind, schedule, home=home or Path.home(), mol=mol_executable())
    for unit in units:
        unit.path.parent.mkdir(parents=True, exist_ok=True)
        unit.path.write_text(unit.text, encoding="utf-8")
    if kind == "systemd":
        for cmd in (["systemctl", "--user", "daemon-reload"], ["systemctl", "--user", "enable", "--now", "mol-train.timer"]):
            _check(_run(cmd), cmd)
    elif kind == "launchd":
        _check(_run(["launchctl", "load", "-w", str(units[0].path)]), ["launchctl", "load"])
    else:
        _check(_run(["schtasks", "/Create", "/TN", "mol-local-train", "/XML", str(units[0].path), "/F"]), ["schtasks", "/Create"])
    return {"scheduler": kind, "installed": [str(u.path) for u in units], "at": schedule}


def remove(*, home: Path | None = None) -> dict:
    kind = detect()
    units = render(kind, "00:00", home=home or Path.home(), mol=mol_executable())
    if kind == "systemd":
        _run(["systemctl", "--user", "disable", "--now", "mol-train.timer"])
    elif kind == "launchd":
        _run(["launchctl", "unload", "-w", str(units[0].path)])
    else:
        _run(["schtasks", "/Delete", "/TN", "mol-local-train", "/F"])
    removed = [str(u.path) for u in units if u.path.exists()]
    for unit in units:
        unit.path.unlink(missing_ok=True)
    return {"scheduler": kind, "removed": removed}


def status(*, home: Path | None = None) -> dict:
    kind = detect()
    units = render(kind, "00:00", home=home or Path.home(), mol=mol_executable())
    installed = all(u.path.exists() for u in units)
    active = None
    if kind == "systemd" and installed:
        active = _run(["systemctl", "--user", "is-active", "mol-train.timer"]).stdout.strip()
    return {"scheduler": kind, "installed": installed, "files": [str(u.path) for u in units], "active": active}


def _check(proc: subprocess.CompletedProcess, cmd: list[str]) -> None:
    if proc.returncode != 0:
        msg = (proc.stderr or proc.stdout).strip().splitlines()
        raise ScheduleUnsupported(f"`{' '.join(cmd)}` failed ({msg[0] if msg else proc.returncode}) — fix the scheduler or run `mol train --now` by hand")
