"""`mol chat`: one turn from the command line; `mol chat export|import` move conversations in and out."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from mol_local.cli import cli
from hcp.schema import SLOT_LABELS
from mol_local.cli.common import emit_json, open_runtime, rounded, warn_adapter_problems
from mol_local.genui.text import document_text
from mol_local.turn.tasks import CALL_CLOSE, CALL_OPEN
from mol_local.textclean import clean_message
from mol_local.turn import TurnHooks

FORMATS = ("json", "jsonl", "md")


MAX_RESULT_LINES = 8


def tool_result_text(result: str) -> str:
    """A tool's result as the terminal shows it: every line up to MAX_RESULT_LINES (a reminders.list showed
    only its first reminder, as if it were the only one)."""
    lines = result.strip().splitlines()
    more = [f"… {len(lines) - MAX_RESULT_LINES} more lines"] if len(lines) > MAX_RESULT_LINES else []
    return "\n  ".join(lines[:MAX_RESULT_LINES] + more)


class ChatGroup(click.Group):
    """`mol chat TEXT` sends a turn; `mol chat export ...` / `mol chat import ...` are subcommands."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or (args[0] not in self.commands and args[0] not in ("--help", "-h")):
            args = ["send", *args]
        return super().parse_args(ctx, args)


@cli.group(cls=ChatGroup)
def chat() -> None:
    """Send TEXT (or stdin) as one turn and print the answer; export or import conversations."""


@chat.command("send", hidden=True)
@click.argument("text", required=False)
@click.option("--conversation", "-c", "conversation_id", help="Continue this conversation.")
@click.option("--list", "list_", is_flag=True, help="List conversations and exit.")
@click.option("--all", "all_", is_flag=True, help="With --list: API clients' conversations too (hidden by default).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of streaming text.")
@click.option("--slot", type=click.Choice(SLOT_LABELS), help="Answer on this slot with its own view; no routing.")
@click.pass_context
def send(ctx: click.Context, text: str | None, conversation_id: str | None, list_: bool, all_: bool, as_json: bool, slot: str | None) -> None:
    """Send TEXT (or stdin) as one turn and print the answer."""
    runtime = open_runtime(ctx)
    if list_:
        rows = runtime.timeline.list_conversations(every_source=all_)
        if as_json:
            emit_json(rows)
        else:
            for row in rows:
                source = f"  [{row['source']}]" if all_ else ""
                click.echo(f"{row['id']}  {row['updated_at'][:19]}  {row['title']}{source}")
        return
    if text is None:
        text = sys.stdin.read()
    text = clean_message(text)  # terminal escapes and control characters are stripped; nothing left is refused
    session = runtime.session(conversation_id)
    out = _Out(as_json, remote=runtime.hcp.backend == "remote")
    hooks = TurnHooks(on_token=out.token, on_answer=out.answer, on_draft=out.drafting)
    if not as_json:
        hooks.on_tool = lambda c: click.echo(f"\n[{c['name'] or 'tool call'} → {tool_result_text(c['result'])}]", err=True)
    hooks.on_fallback = out.fallback
    if slot is not None and slot not in runtime.hcp.slots:
        raise click.UsageError(f"slot {slot} is not in this HCP — use one of {', '.join(runtime.hcp.slots)}")
    result = session.run_turn(text, hooks=hooks, slot=slot)
    warn_adapter_problems(runtime)
    if as_json:
        emit_json(
            {
                "conversation_id": result.conversation_id,
                "task_id": result.task_id,
                "slot": result.slot,
                "answer": result.answer,
                "route": None if result.route is None else {"raw": result.route.raw_output, "fallback": result.route.fallback},
                "timings": rounded(result.timings_ms),
                "engine": result.engine,
                "tool_calls": result.tool_calls,
                "document": result.document,
                "summary": result.summary,
                "notices": result.notices,
                "code_check": result.code_check,
                "memory_changes": [c.__dict__ for c in result.memory_changes],
            }
        )
    else:
        out.flush()
        if result.document is not None:  # a view: readable here, live in the app
            from mol_local.genui.binding import DataPort

            click.echo(document_text(result.document, DataPort(runtime.db).text_rows), nl=False)
        else:
            out.settle(result.answer, REDRAFTED if result.code_redrafted else CORRECTED)
        click.echo()
        if result.document is not None:
            click.echo("[a view: open this conversation in the app (`mol`) to tick and fill it; --json prints the document]", err=True)
        for notice in result.notices:
            click.echo(f"[{notice}]", err=True)
        for change in result.memory_changes:  # quiet, and says how to take a new one back
            undo = f" — not right? mol memory forget {change.memory_id}" if change.op == "add" else ""
            click.echo(f"[{change.line()}{undo}]", err=True)
        click.echo(f"[{result.slot} · {result.engine} · conversation {result.conversation_id}]", err=True)


class HideCalls:
    """Streamed text without its `<tool_call>…</tool_call>` spans: the `[tool → result]` line says what ran.
    A piece that may be the start of a tag is held until the next one tells."""

    OPEN, CLOSE = CALL_OPEN, CALL_CLOSE

    def __init__(self) -> None:
        self.buf, self.inside = "", False

    def feed(self, piece: str) -> str:
        self.buf += piece
        out = []
        while True:
            if self.inside:
                end = self.buf.find(self.CLOSE)
                if end < 0:
                    self.buf = self.buf[-(len(self.CLOSE) - 1):]  # a close tag may span two pieces
                    return "".join(out)
                self.buf, self.inside = self.buf[end + len(self.CLOSE):], False
                continue
            start = self.buf.find(self.OPEN)
            if start >= 0:
                out.append(self.buf[:start])
                self.buf, self.inside = self.buf[start + len(self.OPEN):], True
                continue
            keep = next((n for n in range(min(len(self.buf), len(self.OPEN) - 1), 0, -1) if self.OPEN.startswith(self.buf[-n:])), 0)
            out.append(self.buf[: len(self.buf) - keep])
            self.buf = self.buf[len(self.buf) - keep:]
            return "".join(out)

    def rest(self) -> str:
        """What is still held at the end (a lone "<", say); nothing of an unfinished call."""
        rest, self.buf = ("" if self.inside else self.buf), ""
        return rest


CORRECTED = "[the answer, as the tools left it:]\n"
REDRAFTED = "[the code was run and failed; the answer as checked:]\n"


class _Out:
    """Streams the answer to stdout, tool-call markup left out. A remote answer is held until it is complete:
    a remote that breaks mid-answer falls back to the local profile, and none of its partial text may reach stdout."""

    def __init__(self, quiet: bool, *, remote: bool) -> None:
        self.quiet, self.hold, self.held = quiet, remote, []
        self.shown: list[str] = []  # every piece that reached stdout
        self.calls = HideCalls()
        self.ui = False  # an L3 document is being written: its JSON is not printed, its text is at the end

    def _show(self, text: str) -> None:
        if text:
            self.shown.append(text)
            click.echo(text, nl=False)

    def drafting(self, _draft: dict) -> None:
        self.ui = True

    def token(self, piece: str) -> None:
        if self.quiet or self.ui:
            return
        if self.hold:
            self.held.append(piece)
        else:
            self._show(self.calls.feed(piece))

    def settle(self, answer: str, label: str = CORRECTED) -> None:
        """The stored answer, when it is not what streamed (a tool loop ended in words the turn wrote). Words that
        streamed stay on the screen, so a line says which is the answer: a plan listing the dentist at the
        meeting's time, then its corrected copy, read as two answers."""
        shown, answer = "".join(self.shown).strip(), answer.strip()
        if self.quiet or not answer or shown.endswith(answer):
            return
        if shown and answer.startswith(shown):  # only added to: "I ran this and it does not work yet: …"
            click.echo(answer[len(shown):], nl=False)
        else:
            click.echo(f"\n{label if shown else ''}{answer}", nl=False)

    def answer(self, _text: str) -> None:
        self.flush()

    def flush(self) -> None:
        if self.held and not self.quiet:
            self._show(self.calls.feed("".join(self.held)))
        self.held = []
        if not self.quiet:
            self._show(self.calls.rest())

    def fallback(self, reason: str) -> None:
        self.held, self.hold = [], False  # the broken remote text is dropped; the local answer streams
        click.echo(f"[the remote failed ({reason}); the local fallback answers]", err=True)


@chat.command("export")
@click.argument("conversation_id", required=False)
@click.option("--all", "all_", is_flag=True, help="Every conversation (API clients' too).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="json", show_default=True, help="json/jsonl: everything; md: for people.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False, path_type=Path), help="Write here instead of stdout.")
@click.pass_context
def export(ctx: click.Context, conversation_id: str | None, all_: bool, fmt: str, out_path: Path | None) -> None:
    """Export conversation ID (or --all) with slots, route decisions, summaries, timings and tool calls."""
    from mol_local.chat_io import export_data, render

    if bool(conversation_id) == all_:
        raise click.UsageError("give a conversation ID or --all (ids: `mol chat --list --all`)")
    runtime = open_runtime(ctx)
    ids = [r["id"] for r in runtime.timeline.list_conversations(every_source=True)] if all_ else [conversation_id]
    text = render(export_data(runtime.db, ids), fmt)
    if out_path is None:
        click.echo(text, nl=False)
    else:
        out_path.write_text(text, encoding="utf-8")
        click.echo(f"exported {len(ids)} conversation(s) to {out_path}", err=True)


@chat.command("import")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--slot", type=click.Choice(SLOT_LABELS), default="L0", show_default=True, help="Slot for OpenAI-shaped messages.")
@click.pass_context
def import_(ctx: click.Context, path: Path, slot: str) -> None:
    """Import a `mol chat export` file or OpenAI messages; stored whole under new ids, training consent off."""
    from mol_local.chat_io import import_file

    runtime = open_runtime(ctx)
    ids = import_file(runtime.db, path, slot=slot)
    for cid in ids:
        click.echo(cid)
    click.echo(f"imported {len(ids)} conversation(s); training consent is off (turn it on with `mol consent`)", err=True)
