"""Start-up stays light: building the app imports no model, vector store or torch on the UI thread."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("llama_cpp", "torch", "chromadb", "sentence_transformers", "sqlite_utils", "numpy")

PROBE = f"""
import json, sys
from app.app import MolApp
app = MolApp()
print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))
"""


def test_constructing_the_app_imports_nothing_heavy(mol_home) -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], check=True, capture_output=True, text=True, timeout=120)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


def test_mol_with_a_bad_hcp_file_fails_in_the_app_not_with_a_traceback(tmp_path, mol_home) -> None:
    """An HCP that does not load is reported in the app (status + notification); the app itself starts."""
    import asyncio

    from app.app import MolApp

    bad = tmp_path / "bad.toml"
    bad.write_text("schema = 1\n[runtime\n", encoding="utf-8")

    async def run() -> str | None:
        app = MolApp(hcp_path=bad)
        async with app.run_test(size=(100, 30)) as pilot:
            for _ in range(400):
                if app.runtime_error:
                    break
                await pilot.pause(0.05)
            assert "failed" in app.screen.query_one("#status").classes
            await pilot.press(*"kept", "enter")
            await pilot.pause()
            assert app.screen.query_one("#prompt").text == "kept"
            return app.runtime_error

    error = asyncio.run(run())
    assert error is not None and "not valid TOML" in error
