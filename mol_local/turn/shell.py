"""A shell command for the everyday file and folder jobs, when the request asks for one on the embedded model.

Tried with `mol chat` on the embedded default: "Write a shell command to count the lines in all .py files" got a
Python function that reads an undefined `files` ("I ran this and it does not work yet: NameError"); "a Python
script that prints the 10 largest files in a folder" used a made-up `os.path.getaccess`. The 135M coder writes
Python for everything and knows few commands. A request that asks for a shell command (shell, bash, terminal,
command line, one-liner) for one of the jobs in `data/shell.toml` gets that job's command, filled from the request
(the kind of file, how many, a size, a number of days, the text to look for, a file name), with one sentence on
what it does. Every command there is run on a sample folder by the tests. A larger model answers itself.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from mol_local.number_words import NUMBER_WORDS, said_number

_ASKS_SHELL = re.compile(r"\b(?:shell|bash|zsh|terminal|command[- ]line|one[- ]liner|linux command|unix command|cli command)\b"
                         r"|\b(?:a|the)\s+command\s+(?:to|that|for)\b", re.IGNORECASE)
_NOT_SHELL = re.compile(r"\bpython\b(?!\s+files)|\bpowershell\b|\bwindows\b|\bcmd\b|\bjavascript\b(?!\s+files)|\bsql\b", re.IGNORECASE)
_EXT_NAMES = {"python": "py", "text": "txt", "markdown": "md", "javascript": "js", "typescript": "ts", "image": "jpg",
              "log": "log", "csv": "csv", "json": "json", "pdf": "pdf", "jpg": "jpg", "jpeg": "jpeg", "png": "png", "mp3": "mp3",
              "mp4": "mp4", "html": "html", "yaml": "yaml", "txt": "txt", "md": "md", "py": "py", "word": "docx", "excel": "xlsx"}
_EXT = re.compile(r"(?:\*?\.(?P<dot>[A-Za-z0-9]{1,5})|\b(?P<name>" + "|".join(_EXT_NAMES) + r"))\s+files?\b", re.IGNORECASE)
_NUMBER = r"(?P<n>\d{1,4}|" + "|".join(NUMBER_WORDS) + r")"
_N = re.compile(rf"\b(?:top\s+)?{_NUMBER}\s+(?:largest|biggest|most recent\w*|newest|latest|last|first|lines|files|entries)\b"
                rf"|\b(?:top|last|first)\s+{_NUMBER.replace('?P<n>', '?P<m>')}\b", re.IGNORECASE)
_SIZE = re.compile(r"\b(?P<n>\d+(?:\.\d+)?)\s*(?P<unit>kb|k|kib|kilobytes?|mb|m|mib|megabytes?|megs?|gb|g|gib|gigabytes?|gigs?)\b",
                   re.IGNORECASE)
_DAYS = re.compile(rf"\b(?:last|past)\s+{_NUMBER}\s+days?\b|\b(?P<span>last week|past week|this week|last month|past month|"
                   r"today|yesterday|last 24 hours|past 24 hours|last day|past day)\b", re.IGNORECASE)
_SPANS = {"week": 7, "month": 30}
_QUOTED = re.compile(r'"(?P<a>[^"]{1,60})"|“(?P<b>[^”]{1,60})”|(?:^|(?<=\s))[\'‘](?P<c>[^\'‘’]{1,60})[\'’](?=[\s.,?!]|$)')
_TEXT = (re.compile(r"\bthe (?:word|text|string|phrase)\s+(?P<t>[\w@.:/-]+)", re.IGNORECASE),
         re.compile(r"\b(?:containing|that contain|which contain|contains|mention(?:s|ing)?|for)\s+(?P<t>[\w@.:/-]+)", re.IGNORECASE))
_NOT_TEXT = frozenset({"the", "a", "an", "all", "every", "files", "file", "text", "lines", "word", "words", "string", "me", "it", "this",
                       "that", "in", "any", "some", "each"})
_FILE = re.compile(r"(?<![\w.*])(?P<f>[\w-]+\.[A-Za-z][A-Za-z0-9]{0,4})\b(?!\s+files?\b)")


@dataclass(frozen=True)
class Job:
    """One entry of `data/shell.toml`."""

    asks: re.Pattern[str]
    says: str
    command: str = ""
    command_ext: str = ""
    needs: tuple[str, ...] = ()
    default_n: int = 10
    default_days: int = 1
    check: dict = field(default_factory=dict)


@cache
def jobs() -> tuple[Job, ...]:
    data = tomllib.loads(resources.files("mol_local.turn").joinpath("data/shell.toml").read_text(encoding="utf-8"))
    return tuple(Job(re.compile(c["asks"], re.IGNORECASE), c["says"], c.get("command", ""), c.get("command_ext", ""),
                     tuple(c.get("needs", ())), c.get("default_n", 10), c.get("default_days", 1), c.get("check", {}))
                 for c in data["command"])


def asks_shell(request: str) -> bool:
    """The request asks for a command to type in a Unix shell (not Python, PowerShell or SQL)."""
    return bool(_ASKS_SHELL.search(request)) and not _NOT_SHELL.search(request)


def _quoted(text: str) -> str:
    return text.replace("'", "'\\''")


def _values(request: str, job: Job, asked: re.Match[str]) -> dict[str, str] | None:
    """What the request fills the job's command with; None when it lacks a value the job needs."""
    values = {k: v for k, v in asked.groupdict().items() if v}
    if (ext := _EXT.search(request)) is not None:
        values["ext"] = (ext["dot"] or _EXT_NAMES[ext["name"].lower()]).lower()
    n = next((m["n"] or m["m"] for m in _N.finditer(request)), None)
    values["n"] = str(said_number(n) if n else job.default_n)
    if (size := _SIZE.search(request)) is not None:
        amount, unit = float(size["n"]), size["unit"][0].lower()
        scale = {"k": ("k", 1), "m": ("M", 1024), "g": ("G", 1024 * 1024)}[unit]
        values["size"] = f"{int(amount)}{scale[0]}" if amount.is_integer() else f"{int(amount * scale[1])}k"
        values["size_said"] = f"{size['n']} {scale[0].upper()}B"
    days = _DAYS.search(request)
    if days is not None and days["span"]:
        span = days["span"].lower()
        count = next((d for word, d in _SPANS.items() if word in span), 1)
    else:
        count = said_number(days["n"]) if days is not None else job.default_days
    values["days"], values["days_said"] = str(count), "day" if count == 1 else f"{count} days"
    quoted = _QUOTED.search(request)
    text = next(g for g in quoted.groups() if g) if quoted else \
        next((m["t"] for words in _TEXT for m in words.finditer(request) if m["t"].lower() not in _NOT_TEXT), None)
    if text:
        values["text"] = text.rstrip(".?!,")
    if (file := next((m["f"] for m in _FILE.finditer(request) if not re.fullmatch(r"\d+\.\d+", m["f"])), None)) is not None:
        values["file"] = file
    return values if all(values.get(need) for need in job.needs) else None


def command_for(request: str) -> tuple[str, str] | None:
    """(the command, the sentence on what it does) for a shell request that names one of the jobs, else None."""
    if not asks_shell(request):
        return None
    for job in jobs():
        asked = job.asks.search(request)
        if asked is None or (values := _values(request, job, asked)) is None:
            continue
        template = job.command_ext if values.get("ext") and job.command_ext else job.command
        if not template:
            continue
        kind = f".{values['ext']} " if values.get("ext") and template is job.command_ext else ""
        shown = {k: _quoted(v) if k in ("text", "old", "new") else v for k, v in values.items()}
        command = re.sub(r"\{(\w+)\}", lambda m: shown.get(m[1], m[0]), template)
        says = re.sub(r"\{(\w+)\}", lambda m: kind if m[1] == "kind" else values.get(m[1], m[0]), job.says)
        return command, says
    return None


def shell_answer(request: str) -> str | None:
    """The answer for a shell request `command_for` knows: the command in a bash block and what it does."""
    found = command_for(request)
    if found is None:
        return None
    command, says = found
    return f"```bash\n{command}\n```\n{says}"
