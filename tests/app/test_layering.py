"""The app has one way in: it imports `mol_local` (and itself), never `hcp`, `memory` or `trainer` directly;
its workers talk to the UI through Messages only."""

from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "app"
BEHIND = {"hcp", "memory", "trainer"}


def imported(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module.split(".")[0])
    return out


def test_no_app_module_imports_hcp_memory_or_trainer() -> None:
    files = sorted(APP.rglob("*.py"))
    assert len(files) > 20
    offenders = {str(p.relative_to(APP)): sorted(imported(p) & BEHIND) for p in files if imported(p) & BEHIND}
    assert offenders == {}, f"import these through mol_local (mol_local/services.py): {offenders}"


def test_workers_reach_the_ui_only_through_messages() -> None:
    """No `call_from_thread`: it blocks the worker until the UI runs the call, and one issued while the app
    closes never returns. Workers post Messages (app/messages.py), which is thread-safe and never waits."""
    calls = {str(p.relative_to(APP)): n for p in sorted(APP.rglob("*.py"))
             if (n := sum(isinstance(node, ast.Attribute) and node.attr == "call_from_thread"
                          for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))))) }
    assert calls == {}, f"post a Message instead: {calls}"


def test_every_screen_with_workers_is_a_mol_screen() -> None:
    from app.screens.base import MolScreen
    from app.screens.chat import ChatScreen
    from app.screens.memory import MemoryScreen
    from app.screens.settings import SettingsScreen
    from app.screens.trainer import TrainerScreen

    for screen in (ChatScreen, MemoryScreen, SettingsScreen, TrainerScreen):
        assert issubclass(screen, MolScreen), screen
