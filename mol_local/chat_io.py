"""`mol chat export/import`: conversations as JSON (ours, everything the timeline holds), JSONL and Markdown.

Export: `json` is one document (`{"format": "mol-conversations", "version": 1,
"conversations": [...]}`) with each task's slot, route decision, summary,
timings, messages and the conversation's tool calls; `jsonl` is one
conversation per line (the same objects); `md` is for people. Import takes our
`json`/`jsonl`, or the OpenAI chat shape (`{"messages": [...]}`, a bare list of
messages, or a JSONL of such objects). Everything is read and checked before
anything is stored (a file that is not ours, duplicate ids, a message over
MAX_MESSAGE_CHARS, a file over MAX_FILE_BYTES: one line naming it), and each
conversation is stored whole, consent "off", under fresh ids.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from memory.timeline import now_iso
from memory.transfer import ImportedTask, read_conversation, write_conversation
from mol_local.errors import MolError
from mol_local.inputfile import read_input_file
from mol_local.textclean import clean_text, loads_limited

FORMAT = "mol-conversations"
VERSION = 1
MAX_FILE_BYTES = 64 << 20
MAX_MESSAGE_CHARS = 1 << 20  # one message; the largest a turn's view could ever hold is far below
ROLES = ("user", "assistant", "tool")
OPENAI_ROLES = ("system", "developer", "user", "assistant", "tool")


class TransferError(MolError):
    """An export or import that cannot be done as asked (the message names the problem and the fix)."""


def export_data(db: Any, ids: Iterable[str]) -> list[dict[str, Any]]:
    return [read_conversation(db, cid) for cid in ids]


def export_to(runtime: Any, ids: list[str], path: Path) -> Path:
    """Write conversations to `path` in the format its suffix names (.md, .json, .jsonl); the path written."""
    fmt = {".md": "md", ".markdown": "md", ".json": "json", ".jsonl": "jsonl"}.get(path.suffix.lower())
    if fmt is None:
        raise TransferError(f"{path.name}: end the name in .md, .json or .jsonl so the format is clear")
    if path.is_dir():
        raise TransferError(f"{path} is a folder — give a file name, e.g. {path / 'conversation.md'}")
    if not path.parent.is_dir():
        raise TransferError(f"{path.parent} does not exist — pick a folder that does")
    text = render(export_data(runtime.db, ids), fmt)
    tmp = path.with_name(path.name + ".part")
    try:
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    except OSError as exc:
        raise TransferError(f"cannot write {path} ({exc.strerror}) — pick a folder you can write to") from None
    return path


def render(conversations: list[dict[str, Any]], fmt: str) -> str:
    if fmt == "json":
        return json.dumps({"format": FORMAT, "version": VERSION, "conversations": conversations}, ensure_ascii=False, indent=1) + "\n"
    if fmt == "jsonl":
        return "".join(json.dumps({"format": FORMAT, "version": VERSION, **c}, ensure_ascii=False) + "\n" for c in conversations)
    return "\n".join(_markdown(c) for c in conversations)


def _markdown(c: dict[str, Any]) -> str:
    out = [f"# {c['title'] or '(untitled)'}", "", f"`{c['id']}` · {c['created_at'][:16]} · consent {c['consent']}", ""]
    for task in c["tasks"]:
        route = task["route"]
        how = f" · routed by {route['mode']}" if route else ""
        out += [f"## Task {task['seq'] + 1} — {task['slot']}{how}", ""]
        for m in task["messages"]:
            who = {"user": "**You**", "assistant": f"**{task['slot']}**", "tool": "**Tool result**"}.get(m["role"], m["role"])
            body = m["content"] if m["role"] != "tool" else "```\n" + m["content"] + "\n```"
            out += [f"{who}:", "", body, ""]
        if task["summary"]:
            out += [f"> Summary: {task['summary']['text']}", ""]
    return "\n".join(out)


# -- import ----------------------------------------------------------------------------------------
def _text(value: Any, where: str) -> str:
    if isinstance(value, list):  # OpenAI content parts
        value = "".join(p.get("text", "") for p in value if isinstance(p, dict) and p.get("type") == "text")
    if value is None:
        return ""
    if not isinstance(value, str):
        raise TransferError(f"{where}: content must be text — fix or remove that message")
    if len(value) > MAX_MESSAGE_CHARS:
        raise TransferError(f"{where}: a message of {len(value):,} characters; the limit is {MAX_MESSAGE_CHARS:,} — split or cut it")
    return clean_text(value)


def _ours(conv: Any, where: str, seen: set[str]) -> tuple[str, list[ImportedTask]]:
    if not isinstance(conv, dict) or not isinstance(conv.get("tasks"), list):
        raise TransferError(f"{where}: a conversation needs `tasks` (a list) — is this a `mol chat export` file?")
    for key, value in (("conversation", conv.get("id")),):
        if value is not None:
            if value in seen:
                raise TransferError(f"{where}: the {key} id {value!r} appears twice in the file — keep one copy")
            seen.add(value)
    tasks = []
    for i, task in enumerate(conv["tasks"]):
        at = f"{where}.tasks[{i}]"
        if not isinstance(task, dict) or not isinstance(task.get("messages"), list) or not isinstance(task.get("slot"), str):
            raise TransferError(f"{at}: a task needs `slot` and `messages` — is this a `mol chat export` file?")
        messages = []
        for j, m in enumerate(task["messages"]):
            if not isinstance(m, dict) or m.get("role") not in ROLES:
                raise TransferError(f"{at}.messages[{j}]: role must be one of {', '.join(ROLES)}")
            for key in ("id",):
                if m.get(key) is not None:
                    if m[key] in seen:
                        raise TransferError(f"{at}.messages[{j}]: the message id {m[key]!r} appears twice in the file — keep one copy")
                    seen.add(m[key])
            messages.append((m["role"], _text(m.get("content"), f"{at}.messages[{j}]")))
        if task.get("id") is not None:
            if task["id"] in seen:
                raise TransferError(f"{at}: the task id {task['id']!r} appears twice in the file — keep one copy")
            seen.add(task["id"])
        summary = task.get("summary")
        summary_text = summary.get("text") if isinstance(summary, dict) else summary if isinstance(summary, str) else None
        route = task.get("route") if isinstance(task.get("route"), dict) else None
        timings = task.get("timings") if isinstance(task.get("timings"), dict) else {}
        status = "open" if task.get("status") == "open" else "closed"
        tasks.append(ImportedTask(task["slot"][:8], messages, summary_text, route, timings, status))
    return str(conv.get("title") or "Imported conversation")[:200], tasks


def _openai(messages: Any, where: str, slot: str) -> tuple[str, list[ImportedTask]]:
    """OpenAI `messages`: each user message opens a task; assistant/tool messages belong to it; system is dropped."""
    if not isinstance(messages, list) or not messages:
        raise TransferError(f"{where}: `messages` must be a non-empty list of {{role, content}}")
    tasks: list[ImportedTask] = []
    for j, m in enumerate(messages):
        if not isinstance(m, dict) or m.get("role") not in OPENAI_ROLES:
            raise TransferError(f"{where}.messages[{j}]: role must be one of {', '.join(OPENAI_ROLES)}")
        text = _text(m.get("content"), f"{where}.messages[{j}]")
        if m["role"] in ("system", "developer"):
            continue
        if m["role"] == "user" or not tasks:
            tasks.append(ImportedTask(slot, []))
        tasks[-1].messages.append((m["role"] if m["role"] != "developer" else "user", text))
    if not tasks:
        raise TransferError(f"{where}: no user or assistant messages to import")
    title = next((c for r, c in tasks[0].messages if r == "user"), "Imported conversation")
    return title[:80] or "Imported conversation", tasks


def parse_import(raw: str, *, slot: str) -> list[tuple[str, list[ImportedTask]]]:
    """Every conversation in the file, checked; TransferError (one line) for the first problem."""
    stripped = raw.strip()
    if not stripped:
        raise TransferError("the file is empty — export one with `mol chat export ID --format json`")
    try:
        docs = [loads_limited(stripped)]
    except ValueError:
        try:
            docs = [loads_limited(line) for line in stripped.splitlines() if line.strip()]
        except ValueError as exc:
            raise TransferError(f"the file is neither JSON nor JSON lines ({exc}) — import a `mol chat export` file or OpenAI messages") from None
    out: list[tuple[str, list[ImportedTask]]] = []
    seen: set[str] = set()
    for n, doc in enumerate(docs):
        where = f"line {n + 1}" if len(docs) > 1 else "the file"
        if isinstance(doc, dict) and doc.get("format") == FORMAT:
            if doc.get("version") != VERSION:
                raise TransferError(f"{where}: format version {doc.get('version')!r}; this mol reads version {VERSION}")
            convs = doc["conversations"] if "conversations" in doc else [doc]
            if not isinstance(convs, list):
                raise TransferError(f"{where}: `conversations` must be a list")
            out += [_ours(c, f"{where}: conversations[{i}]" if "conversations" in doc else where, seen) for i, c in enumerate(convs)]
        elif isinstance(doc, dict) and "messages" in doc:
            out.append(_openai(doc["messages"], where, slot))
        elif isinstance(doc, list) and all(isinstance(m, dict) and "role" in m for m in doc):
            out.append(_openai(doc, where, slot))
        else:
            raise TransferError(f"{where} is not a mol export (format \"{FORMAT}\") or OpenAI messages — nothing was imported")
    return out


def import_file(db: Any, path: Path, *, slot: str) -> list[str]:
    """Import every conversation in `path` (all checked first); their new ids."""
    data = read_input_file(path, TransferError, limit=MAX_FILE_BYTES, fix="import a regular file from `mol chat export`")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise TransferError(f"{path} is not UTF-8 text — import a `mol chat export` file or OpenAI messages") from None
    parsed = parse_import(text, slot=slot)
    stamp = now_iso()
    return [write_conversation(db, title, tasks, stamp=stamp) for title, tasks in parsed]
