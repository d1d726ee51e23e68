"""Shell commands for everyday file jobs (mol_local/turn/shell.py): each shipped command is run with bash on a sample
folder and must print what the job asks, and a request picks the command only when it asks for a shell one."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from mol_local.turn.shell import asks_shell, command_for, jobs, shell_answer


def _made(folder: Path, check: dict) -> None:
    for name, body in check.get("files", {}).items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x" * int(body[1:-1]) if body.startswith("{") and body.endswith("}") else body)
    for name in check.get("empties", ()):
        (folder / name).mkdir(parents=True)
    for stale in folder.rglob(".made"):
        stale.unlink()
    now = time.time()
    for name, age in check.get("touch", {}).items():
        os.utime(folder / name, (now - age, now - age))


@pytest.mark.parametrize("job", jobs(), ids=lambda j: j.check["request"])
def test_each_shipped_command_does_its_job_on_a_sample_folder(job, tmp_path: Path) -> None:
    check = job.check
    found = command_for(check["request"])
    assert found is not None, "the sample request does not pick a command"
    command, says = found
    assert job.asks.search(check["request"]) and "{" not in says
    _made(tmp_path, check)
    done = subprocess.run(["bash", "-c", command + (f"\n{check['then']}" if "then" in check else "")], cwd=tmp_path,
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    if "expect" in check:
        got = [line.strip() if len(check["expect"]) == 1 else line for line in lines]
        assert (got if check.get("ordered") else sorted(got)) == (check["expect"] if check.get("ordered") else sorted(check["expect"]))
    for want in check.get("expect_starts", ()):
        assert any(line.split("\t")[-1].startswith(want) or line.startswith(want) for line in lines), (want, lines)
    for want in check.get("expect_ends", ()):
        assert any(line.endswith(want) for line in lines), (want, lines)


@pytest.mark.parametrize(("request_", "command"), [
    ("Write a shell command to count the lines in all .py files", "find . -type f -name '*.py' -exec cat {} + | wc -l"),
    ("bash: count the lines in all python files", "find . -type f -name '*.py' -exec cat {} + | wc -l"),
    ("shell one-liner to count lines in notes.txt", "wc -l < notes.txt"),
    ("terminal command to find files larger than 100MB", "find . -type f -size +100M"),
    ("terminal command to find files larger than 1.5 GB", "find . -type f -size +1572864k"),
    ("bash command to search for \"don't panic\" in all files", "grep -rn -- 'don'\\''t panic' ."),
    ("shell command to find the files modified in the last week", "find . -type f -mtime -7"),
    ("What's a command to show the ten largest files?", "find . -type f -printf '%s\\t%p\\n' | sort -nr | head -n 10"),
])
def test_the_request_fills_the_command(request_: str, command: str) -> None:
    found = command_for(request_)
    assert found is not None and found[0] == command


@pytest.mark.parametrize("request_", [
    "Write a Python script that prints the 10 largest files in a folder",  # Python asked: the coder writes it
    "Write a function that counts the lines in a file",  # no shell asked
    "a PowerShell command to count files",
    "shell command to search for it",  # nothing to search for
    "bash command to make coffee",  # no job known
])
def test_a_request_that_is_not_a_known_shell_job_gets_none(request_: str) -> None:
    assert command_for(request_) is None


def test_the_answer_is_a_bash_block_that_parses_and_says_what_it_does() -> None:
    from mol_local.turn.code_check import check

    answer = shell_answer("Write a shell command to count the lines in all .py files")
    assert answer is not None and answer.startswith("```bash\nfind . -type f -name '*.py'")
    assert "every .py file below it" in answer
    assert check(answer, "count lines").why == ""  # bash -n reads it
    assert asks_shell("Give me a one-liner to list pdf files") and not asks_shell("Write a Python one-liner to sum a list")
