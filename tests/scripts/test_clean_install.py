"""A clean first run: installing prints no ERROR or deprecation line of ours, and no test reads outside the repository."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_license_is_an_spdx_string_and_setuptools_knows_it() -> None:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert meta["project"]["license"] == "Apache-2.0"
    assert "setuptools>=77" in meta["build-system"]["requires"]  # the first release that reads SPDX strings


def test_preparing_the_package_prints_no_deprecation_or_error() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--no-deps", "--no-build-isolation", "-e", str(ROOT)],
        capture_output=True, text=True, timeout=300,
    )
    assert out.returncode == 0, out.stderr
    text = out.stdout + out.stderr
    assert not re.search(r"deprecat|^ERROR", text, re.I | re.M), text


def test_setup_installs_the_llama_wheels_requirements_before_the_wheel() -> None:
    lines = (ROOT / "scripts" / "setup.sh").read_text(encoding="utf-8").splitlines()
    deps = next(i for i, line in enumerate(lines) if "diskcache" in line and "pip install" in line)
    wheel = next(i for i, line in enumerate(lines) if "--no-deps --force-reinstall" in line)
    torch = next(i for i, line in enumerate(lines) if 'pip install -q "torch' in line)
    assert deps < wheel < torch  # pip's resolver never sees llama-cpp-python without numpy/diskcache


def test_no_test_reads_the_shared_folder_outside_the_repository() -> None:
    outside = re.compile(r"""["']\.\./shared|parents\[\d\]\s*/\s*["']shared["']|/work/shared""")
    hits = [str(p.relative_to(ROOT)) for p in (ROOT / "tests").rglob("*.py") if p != Path(__file__) and outside.search(p.read_text(encoding="utf-8"))]
    assert hits == []
    assert (ROOT / "tests" / "data" / "route_dev.jsonl").is_file()
