"""Input from outside, at the CLI edge: control characters stripped (refused when nothing is left),
`--file` only a regular file, deeply nested JSONL lines one-line errors. Real `mol` subprocesses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mol_local.textclean import clean_message, clean_text, loads_limited
from mol_local.errors import EmptyMessage

MOL = [sys.executable, "-m", "mol_local.cli"]


def _mol(args: list[str], home: Path, *, stdin: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    env = {**os.environ, "MOL_HOME": str(home), "HF_HUB_OFFLINE": "1"}
    return subprocess.run(MOL + args, capture_output=True, text=True, env=env, input=stdin, timeout=timeout)


def _one_line_error(out: subprocess.CompletedProcess, words: str) -> None:
    assert out.returncode == 1, out.stdout + out.stderr
    assert "Traceback" not in out.stderr and words in out.stderr, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr


def test_clean_text_strips_escapes_and_controls_and_keeps_text() -> None:
    assert clean_text("tea\x07 \x1b[1;31mplease\x1b[0m\x00!\r\nnext\x1b]0;title\x07\tend\x9b2J") == "tea please!\nnext\tend"
    assert clean_text("naïve café — 東京 🍵") == "naïve café — 東京 🍵"
    with pytest.raises(EmptyMessage, match="only control characters"):
        clean_message("\x07\x1b[31m\x00\x1f")
    with pytest.raises(EmptyMessage, match="Empty message"):
        clean_message("  \n ")


def test_loads_limited_refuses_depth_and_nan() -> None:
    assert loads_limited('{"a": [[1]]}') == {"a": [[1]]}
    for bad, words in (("[" * 100_000 + "]" * 100_000, "nested more than 32"), ("[" * 33 + "]" * 33, "nested more than 32"), ("[NaN]", "NaN")):
        with pytest.raises(ValueError, match=words):
            loads_limited(bad)


def test_memory_add_strips_controls_and_refuses_a_text_of_only_controls(mol_home: Path, tmp_path: Path) -> None:
    _one_line_error(_mol(["memory", "add", "\x07\x1b[31m\x1b[0m"], mol_home), "only control characters")
    rows = tmp_path / "m.jsonl"
    rows.write_text(json.dumps({"text": "I like \x1b[1mgreen\x1b[0m tea\x00\x07"}) + "\n", encoding="utf-8")
    assert _mol(["memory", "add", "--file", str(rows)], mol_home).returncode == 0
    listed = json.loads(_mol(["memory", "list", "--json"], mol_home).stdout)
    assert [m["text"] for m in listed] == ["I like green tea"]
    only = tmp_path / "only.jsonl"
    only.write_text(json.dumps({"text": "ok"}) + "\n" + json.dumps({"text": "\u0000\u0007"}) + "\n", encoding="utf-8")
    _one_line_error(_mol(["memory", "add", "--file", str(only)], mol_home), "line 2: The text holds only control characters")
    assert len(json.loads(_mol(["memory", "list", "--json"], mol_home).stdout)) == 1  # all or nothing: "ok" was not added


def test_chat_refuses_a_message_of_only_control_characters_and_stores_nothing(mol_home: Path) -> None:
    _one_line_error(_mol(["chat"], mol_home, stdin="\x1b[2J\x07\x00\r\n"), "only control characters")
    assert json.loads(_mol(["chat", "--list", "--json"], mol_home).stdout) == []


@pytest.mark.parametrize("command", ["memory", "route"])
def test_file_options_refuse_a_fifo_a_device_and_a_deep_line(command: str, mol_home: Path, tmp_path: Path) -> None:
    base = ["memory", "add", "--file"] if command == "memory" else ["route", "--file"]
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    _one_line_error(_mol([*base, str(fifo)], mol_home, timeout=30), "is a FIFO")
    _one_line_error(_mol([*base, "/dev/zero"], mol_home, timeout=30), "is a device")
    deep = tmp_path / "deep.jsonl"
    deep.write_text('{"text": "x", "y": ' + "[" * 50_000 + "]" * 50_000 + "}\n", encoding="utf-8")
    _one_line_error(_mol([*base, str(deep)], mol_home), "nested more than 32 levels deep")
