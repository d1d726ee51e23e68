"""The built-in tools: python, notes, reminders, files, memory, and saving/promoting helpers."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mol_local.harness.errors import BadArguments, OutsideWorkspace
from mol_local.harness.repeat import said
from mol_local.harness.sandbox import SandboxResult
from mol_local.harness.skills import SkillInfo
from mol_local.harness.spec import Param, ToolOutcome, ToolSpec
from mol_local.harness.store import local_due

if TYPE_CHECKING:
    from mol_local.harness.runner import ToolContext

MAX_LIST = 200


def format_sandbox(result: SandboxResult, output_kb: int) -> ToolOutcome:
    """What the model reads after a sandbox call: output, value, error, and every limit that fired."""
    parts: list[str] = []
    cap = output_kb * 1024
    output, value = result.output, result.value
    if len(output) + len(value or "") > cap:  # output and value share one budget; the notes below always fit
        value = value[: cap // 2] + " ...[cut]" if value is not None and len(value) > cap // 2 else value
        output = output[: cap - len(value or "")]
        result.truncated = True
    if result.state_lost and result.status not in ("timeout", "crashed"):
        parts.append(f"[note] {result.state_lost}")
    if output:
        parts.append(output.rstrip("\n"))
    if result.truncated:
        parts.append(f"[output cut at {output_kb} KB: the call produced {result.output_bytes} bytes — print less, e.g. a summary or a slice]")
    if result.invalid_utf8:
        parts.append("[the output was not valid UTF-8; undecodable bytes are shown as \ufffd]")
    if value is not None:
        parts.append(f"result: {value}")
    if result.error:
        parts.append(f"Error: {result.error.rstrip()}")
    return ToolOutcome("\n".join(parts) or "(no output)", result.status)


# -- handlers ----------------------------------------------------------------------------------
def _python(ctx: ToolContext, a: dict[str, Any]) -> ToolOutcome:
    return format_sandbox(ctx.sandbox().execute(a["code"]), ctx.limits("python").output_kb)


def _notes_create(ctx: ToolContext, a: dict[str, Any]) -> ToolOutcome:
    row = ctx.notes.create(a["title"], a.get("body", ""), conversation_id=ctx.conversation_id)
    return ToolOutcome(f"Saved note {row['id']}: {row['title']}")


def _notes_find(ctx: ToolContext, a: dict[str, Any]) -> ToolOutcome:
    rows = ctx.notes.find(a["query"], limit=a.get("limit", 10))
    if not rows:
        return ToolOutcome(f"No notes match {a['query']!r}.")
    return ToolOutcome("\n".join(f"{r['id']} · {r['title']} · {r['body'][:80]}" for r in rows))


def _notes_read(ctx: ToolContext, a: dict[str, Any]) -> ToolOutcome:
    row = ctx.notes.read(a["id"])
    return ToolOutcome(f"{row['title']}\n\n{row['body']}")


def _notes_delete(ctx: ToolContext, a: dict[str, Any]) -> ToolOutcome:
    """What went and what is left, on two lines. Unlisted, as reminders.cancel is (the shipped specialists never saw
    it): the turn settles it from "Delete the note about the MOT" (turn/notes_gone.py)."""
    row = ctx.notes.delete(a["id"])
    left = [r["title"] for r in ctx.notes.list()]
    body = f" — {row['body'][:80]}" if row["body"] else ""
    return ToolOutcome(f"Deleted the note \"{row['title']}\"{body}.\n" + (f"Notes left: {', '.join(left)}." if left else "No notes left."))


def _reminders_create(ctx: ToolContext, a: dict[str, Any]) -> ToolOutcome:
    row = ctx.reminders.create(a["text"], a.get("due"), before=a.get("before"), conversation_id=ctx.conversation_id)
    when = f" for {local_due(row['due_at'])}" if row["due_at"] else " (no due time)"
    return ToolOutcome(f"Reminder {row['id']} set{when}: {row['text']}{_repeats(row)}")


def _repeats(row: dict) -> str:
    """ " (repeats every Monday)" for a reminder that repeats; "" for one that does not."""
    if not row.get("repeat") or not row.get("due_at"):
        return ""
    return f" (repeats {said(row['repeat'], datetime.fromisoformat(row['due_at']).astimezone())})"


def _reminders_list(ctx: ToolContext, a: dict[str, Any]) -> ToolOutcome:
    rows = ctx.reminders.list(include_done=a.get("include_done", False))
    if not rows:
        return ToolOutcome("No reminders.")
    return ToolOutcome("\n".join(
        f"{r['id']} · {local_due(r['due_at'])} · {r['text']}{_repeats(r)}{' (done)' if r['completed_at'] else ''}" for r in rows
    ))


def listed_reminders(output: str) -> list[tuple[str, str, str]]:
    """reminders.list's lines "id · when · text" back as (id, when, text): the one reader of that format."""
    return [tuple(line.split(" · ", 2)) for line in output.splitlines() if line.count(" · ") >= 2]  # type: ignore[misc]


def _reminders_complete(ctx: ToolContext, a: dict[str, Any]) -> ToolOutcome:
    """Says what is still open too, so the answer can copy it: the L1 specialist wrote "Still open: …" from
    the list it had read before and gave a reminder another one's time."""
    row = ctx.reminders.complete(a["id"])
    following = row["next"]
    left = [f"{r['text']} ({local_due(r['due_at'])})" for r in ctx.reminders.list() if not following or r["id"] != following["id"]]
    rest = f"Still open: {'; '.join(left)}." if left else "Nothing else is open."
    again = f" Next time: {local_due(following['due_at'])}{_repeats(following)}." if following else ""
    return ToolOutcome(f"Done: {row['text']}.{again} {rest}")


def _reminders_cancel(ctx: ToolContext, a: dict[str, Any]) -> ToolOutcome:
    """Two lines, what went and what is left: a turn that cancels several answers with every first line and the
    last second line. Unlisted: the shipped specialists were trained on a system head without it, and listing it
    changed two of thirty held-out L0 answers for the worse (`mol bench specialists`); the turn settles a cancel
    from the request (turn/rescheduled.py) or turns the model's reminders.complete into one (turn/ground.py)."""
    row = ctx.reminders.cancel(a["id"])
    repeats = _repeats(row).removeprefix(" (repeats ").removesuffix(")")
    when = f" ({local_due(row['due_at'])}{f', repeated {repeats}; no more times' if repeats else ''})" if row["due_at"] else ""
    left = [f"{r['text']} ({local_due(r['due_at'])})" for r in ctx.reminders.list()]
    return ToolOutcome(f"Cancelled: {row['text']}{when}.\n" + (f"Still open: {'; '.join(left)}." if left else "No reminders are open now."))


def _resolve(ctx: ToolContext, rel: str) -> Path:
    root = ctx.workspace.resolve()
    path = (root / rel).resolve()
    if path != root and not path.is_relative_to(root):
        raise OutsideWorkspace(f"{rel!r} is outside this conversation's workspace — use a path inside it, e.g. '.' or 'data/file.txt'")
    return path


def _files_list(ctx: ToolContext, a: dict[str, Any]) -> ToolOutcome:
    ctx.workspace.mkdir(parents=True, exist_ok=True)
    folder = _resolve(ctx, a.get("path", "."))
    if not folder.is_dir():
        raise BadArguments(f"{a.get('path', '.')!r} is not a folder in the workspace — list '.' to see what exists")
    entries = sorted(p for p in folder.iterdir() if p.name != ".tmp")
    lines = [f"{p.name}/" if p.is_dir() else f"{p.name} ({p.stat().st_size} bytes)" for p in entries[:MAX_LIST]]
    if len(entries) > MAX_LIST:
        lines.append(f"... and {len(entries) - MAX_LIST} more")
    return ToolOutcome("\n".join(lines) or "(empty folder)")


def _files_read(ctx: ToolContext, a: dict[str, Any]) -> ToolOutcome:
    path = _resolve(ctx, a["path"])
    if not path.is_file():
        raise BadArguments(f"{a['path']!r} is not a file in the workspace — list '.' to see what exists")
    cap = ctx.limits("files").output_kb * 1024
    with path.open("rb") as fh:
        raw = fh.read(cap + 1)
    text = raw[:cap].decode("utf-8", "replace")
    notes = []
    if len(raw) > cap:
        notes.append(f"[file cut at {cap // 1024} KB of {path.stat().st_size} bytes]")
    if "\ufffd" in text and b"\xef\xbf\xbd" not in raw[:cap]:
        notes.append("[the file is not valid UTF-8; undecodable bytes are shown as \ufffd]")
    return ToolOutcome("\n".join([text, *notes]))


def _memory_search(ctx: ToolContext, a: dict[str, Any]) -> ToolOutcome:
    assert ctx.memory is not None
    found = ctx.memory.search(a["query"], a.get("k", 5), conversation_id=ctx.conversation_id)
    return ToolOutcome("\n".join(f"- {t}" for t in found) if found else f"No memories match {a['query']!r}.")


def _memory_remember(ctx: ToolContext, a: dict[str, Any]) -> ToolOutcome:
    assert ctx.memory is not None
    memory_id = ctx.memory.remember(a["text"], conversation_id=ctx.conversation_id)
    return ToolOutcome(f"Remembered ({memory_id}).")


def _save_tool(ctx: ToolContext, a: dict[str, Any]) -> ToolOutcome:
    info = ctx.skills.save(a["name"], a["source"], a["tests"])
    return ToolOutcome(f"Staged tool {info.name} (sha256 {info.sha256[:12]}). Call promote_tool with name {info.name!r} to test and enable it.")


def _promote_tool(ctx: ToolContext, a: dict[str, Any]) -> ToolOutcome:
    report = ctx.promote(a["name"])
    return ToolOutcome(f"Promoted {report.name}: {report.passed} held-out tests passed; it is callable in every conversation now.")


BUILTIN_SPECS: tuple[ToolSpec, ...] = (
    ToolSpec("python", "run Python 3 in this conversation's persistent sandbox (no network; files only in the workspace). Variables persist; the value of a final expression is shown.",
             (Param("code", str, "Python source"),), _python),
    ToolSpec("notes.create", "save a note", (Param("title", str, "short title", max_chars=120), Param("body", str, "note text", False)), _notes_create),
    ToolSpec("notes.find", "find notes containing words", (Param("query", str, "words to look for", max_chars=200), Param("limit", int, "most results", False)), _notes_find),
    ToolSpec("notes.read", "read one note", (Param("id", str, "note id from notes.find", max_chars=12),), _notes_read),
    ToolSpec("notes.delete", "delete a note", (Param("id", str, "note id from notes.find", max_chars=12),), _notes_delete,
             listed=False),  # see _notes_delete
    ToolSpec("reminders.create", "set a reminder; due is the user's words for when (e.g. 'tomorrow 9am'); before is how long before it (e.g. '30 minutes')",
             (Param("text", str, "what to remind about", max_chars=200), Param("due", str, "when, in the user's words or ISO", False, max_chars=80),
              Param("before", str, "remind this long before due", False, max_chars=40)), _reminders_create),
    ToolSpec("reminders.list", "list open reminders", (Param("include_done", bool, "also completed ones", False),), _reminders_list),
    ToolSpec("reminders.complete", "mark a reminder done", (Param("id", str, "reminder id from reminders.list", max_chars=12),), _reminders_complete),
    ToolSpec("reminders.cancel", "delete a reminder (a repeating one stops)", (Param("id", str, "reminder id from reminders.list", max_chars=12),),
             _reminders_cancel, listed=False),  # see _reminders_cancel
    ToolSpec("files.list", "list a folder of the workspace", (Param("path", str, "folder relative to the workspace", False, max_chars=200),), _files_list),
    ToolSpec("files.read", "read a text file of the workspace", (Param("path", str, "file relative to the workspace", max_chars=200),), _files_read),
    ToolSpec("memory.search", "search what you remember about the user", (Param("query", str, "what to look for", max_chars=200), Param("k", int, "most results", False)), _memory_search),
    ToolSpec("memory.remember", "remember a fact about the user", (Param("text", str, "the fact, one sentence", max_chars=300),), _memory_remember),
    ToolSpec("save_tool", "stage a reusable Python function NAME(...) with held-out tests [{\"args\": {...}, \"expect\": ...}]",
             (Param("name", str, "function and tool name", max_chars=64), Param("source", str, "Python source defining the function"),
              Param("tests", object, "list of test cases")), _save_tool),
    ToolSpec("promote_tool", "run a staged tool's tests in a fresh sandbox and, if all pass, enable it everywhere",
             (Param("name", str, "the staged tool", max_chars=64),), _promote_tool),
)
BUILTINS = {spec.name: spec for spec in BUILTIN_SPECS}
FAMILY_DOCS = {
    "python": "run Python; variables persist between calls; no network; files only in your workspace",
    "notes": "the user's notes",
    "reminders": "the user's reminders; due in the user's words (e.g. 'tomorrow 9am'), before e.g. '30 minutes'",
    "files": "files in your workspace",
    "memory": "facts you know about the user",
    "save_tool": "stage a helper function with tests [{\"args\": {...}, \"expect\": ...}]",
    "promote_tool": "test a staged helper in a fresh sandbox; if all pass it becomes a tool everywhere",
}


def skill_spec(info: SkillInfo) -> ToolSpec:
    """A promoted helper as a tool; its arguments are checked by the function's own signature in the sandbox."""

    def handler(ctx: ToolContext, a: dict[str, Any]) -> ToolOutcome:
        result = ctx.skills.run(ctx.sandbox(), info.name, a)
        outcome = format_sandbox(result, ctx.limits(info.name).output_kb)
        if result.extra.get("demoted"):
            outcome.text += f"\n[{info.name} failed and was demoted; it is no longer available — do this step with python]"
        return outcome

    return ToolSpec(info.name, info.doc, tuple(Param(n, object, "", req) for n, req in info.params), handler)
