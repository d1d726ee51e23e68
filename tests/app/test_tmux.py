"""The real `mol` in a real terminal (tmux): open, wait for the model, send a message, see the answer, quit."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.app.conftest import fast_hcp_text

MOL = Path(sys.executable).with_name("mol")
SLOT_BADGES = ("L0 · ", "L1 · ", "L2 · ", "L3 · ")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (scripts/setup.sh installs it)"),
]


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], check=True, capture_output=True, text=True).stdout


def capture(session: str) -> str:
    return tmux("capture-pane", "-p", "-t", session)


def wait_screen(session: str, check, *, timeout: float, what: str) -> str:
    deadline = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < deadline:
        screen = capture(session)
        if check(screen):
            return screen
        time.sleep(0.5)
    raise AssertionError(f"timed out waiting for {what}; the screen was:\n{screen}")


def test_conversation_in_a_real_terminal(tmp_path: Path, mol_home: Path) -> None:
    hcp = tmp_path / "fast.toml"
    hcp.write_text(fast_hcp_text(), encoding="utf-8")
    session = f"mol-test-{uuid.uuid4().hex[:8]}"
    command = f"env MOL_HOME={mol_home} HF_HUB_OFFLINE=1 TEXTUAL_ANIMATIONS=none {MOL} --hcp {hcp}"
    tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "40", command)
    try:
        wait_screen(session, lambda s: "Conversations" in s, timeout=60, what="the first screen")
        tmux("send-keys", "-t", session, "-l", "What is the capital of France?")
        screen = wait_screen(session, lambda s: "What is the capital of France?" in s, timeout=30, what="the typed text")
        wait_screen(session, lambda s: "ready —" in s, timeout=300, what="the model to load")
        tmux("send-keys", "-t", session, "Enter")
        # a short answer can finish between two polls: the badge counts as "started" too
        wait_screen(session, lambda s: "answering…" in s or any(b in s for b in SLOT_BADGES), timeout=30, what="the turn to start")
        screen = wait_screen(
            session,
            lambda s: any(b in s for b in SLOT_BADGES) and "ready —" in s,
            timeout=400,
            what="the answer with its slot badge",
        )
        assert "○ What is the capital of" in screen, screen  # the sidebar row (consent off), wrapped to its width
        lines = screen.splitlines()
        badge = next(i for i, line in enumerate(lines) if any(b in line for b in SLOT_BADGES))
        assert lines[badge + 1].split("█", 1)[-1].strip(), f"an answer is drawn under the badge:\n{screen}"
        rows = json.loads(
            subprocess.run(
                [str(MOL), "--hcp", str(hcp), "chat", "--list", "--json"],
                check=True,
                capture_output=True,
                text=True,
                env={**os.environ, "MOL_HOME": str(mol_home)},
            ).stdout
        )
        assert [r["title"] for r in rows] == ["What is the capital of France?"]
        tmux("send-keys", "-t", session, "C-q")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and subprocess.run(["tmux", "has-session", "-t", session], capture_output=True).returncode == 0:
            time.sleep(0.5)
        assert subprocess.run(["tmux", "has-session", "-t", session], capture_output=True).returncode != 0, "Ctrl+Q quits"
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
