"""The app has one way in: it imports `mol_local` (and itself), never `hcp`, `memory` or `trainer` directly."""

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
