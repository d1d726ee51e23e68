"""`mol memory add|search|list|pin|unpin|forget|reindex`."""

from __future__ import annotations

import time
from pathlib import Path

import click

from memory.errors import InvalidMemory
from mol_local.forget import forget_conversation, forget_everything, forget_memories
from memory.store import KINDS, MemoryRow, new_memory
from mol_local.cli import cli
from mol_local.cli.common import emit_json, open_runtime
from mol_local.inputfile import read_input_file
from mol_local.textclean import clean_message, loads_limited

FORGET_QUERY_SIMILARITY = 0.75  # --query also forgets memories this close in meaning, not only substring matches


def _notices(bank) -> None:
    for line in bank.notices:
        click.echo(line, err=True)
    bank.notices.clear()


def read_jsonl(path: Path, kind: str = "fact") -> list[MemoryRow]:
    """Every line `{"text": ..., "kind"?: ..., "at"?: "2023-05-18T13:56"}` validated before anything is stored
    (all or nothing); "at" is when it was said (default: now), a line's "kind" wins over `kind` (`--kind`)."""
    rows: list[MemoryRow] = []
    data = read_input_file(path, InvalidMemory, fix="pass an existing JSONL file")
    for n, raw in enumerate(data.splitlines(), 1):
        where = f"{path} line {n}"
        if not raw.strip():
            continue
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InvalidMemory(f"{where} is not valid UTF-8 (byte {exc.start}) — save the file as UTF-8; nothing was added") from exc
        try:
            obj = loads_limited(line)
        except ValueError as exc:
            raise InvalidMemory(f"{where} is not JSON ({exc}) — write one {{\"text\": ...}} object per line; nothing was added") from exc
        if not isinstance(obj, dict) or not isinstance(obj.get("text"), str):
            raise InvalidMemory(f'{where} has no "text" string — write {{"text": "..."}}; nothing was added')
        try:
            text = clean_message(obj["text"], what="text", error=InvalidMemory)
            rows.append(new_memory(text, kind=obj.get("kind", kind), origin="import", said_at=obj.get("at")))
        except InvalidMemory as exc:
            raise InvalidMemory(f"{where}: {exc}; nothing was added") from exc
    if not rows:
        raise InvalidMemory(f"{path} holds no memories — write one {{\"text\": ...}} object per line")
    return rows


@cli.group()
def memory() -> None:
    """Your memories: add, search, list, pin, unpin, forget, reindex."""


@memory.command("add")
@click.argument("text", required=False)
@click.option("--file", "file_", type=click.Path(dir_okay=False, path_type=Path), help="JSONL: one {\"text\": ...} per line.")
@click.option("--kind", type=click.Choice(KINDS), default="fact", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print {id, text} per memory.")
@click.pass_context
def memory_add(ctx: click.Context, text: str | None, file_: Path | None, kind: str, as_json: bool) -> None:
    """Remember TEXT (or every line of --file)."""
    if (text is None) == (file_ is None):
        raise InvalidMemory("Give either TEXT or --file F.jsonl — e.g. mol memory add \"I like tea\"")
    rows = read_jsonl(file_, kind) if file_ else [new_memory(clean_message(text or "", what="memory", error=InvalidMemory), kind=kind, origin="cli")]
    bank = open_runtime(ctx).memory
    bank.add(rows)
    _notices(bank)
    for row in rows:
        if as_json:
            emit_json({"id": row.id, "text": row.text})
        else:
            click.echo(f"Remembered {row.id}: {row.text}")


@memory.command("search")
@click.argument("query", required=False)
@click.option("--file", "file_", type=click.Path(dir_okay=False, path_type=Path),
              help="JSONL: one {\"text\": ...} (or {\"query\": ...}) per line; prints one JSON list per line.")
@click.option("--k", "k", default=5, show_default=True, type=click.IntRange(1, 100), help="How many results.")
@click.option("--mode", type=click.Choice(["hybrid", "dense", "keyword"]), default="hybrid", show_default=True,
              help="hybrid: meaning + keywords (+ time words), fused; dense or keyword alone.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of {id, text, score, said_at}, best first.")
@click.pass_context
def memory_search(ctx: click.Context, query: str | None, file_: Path | None, k: int, mode: str, as_json: bool) -> None:
    """The K memories that best answer QUERY (or each line of --file, with the model and index loaded once)."""
    if (query is None) == (file_ is None):
        raise InvalidMemory("Give either QUERY or --file Q.jsonl — e.g. mol memory search \"where do I live\"")
    queries = read_queries(file_) if file_ else [query or ""]
    rt = open_runtime(ctx)
    bank = rt.memory
    for text in queries:
        found = bank.search(text, k, mode=mode, now=rt.clock())
        if as_json or file_:
            emit_json([{"id": r.memory.id, "text": r.memory.text, "score": round(r.score, 4), "said_at": r.memory.said_at} for r in found])
        else:
            for r in found:
                click.echo(f"{r.score:.3f}  {r.memory.id}  {r.memory.text}")
    _notices(bank)


def read_queries(path: Path) -> list[str]:
    """Every line's query, validated before any search runs."""
    out: list[str] = []
    data = read_input_file(path, InvalidMemory, fix="pass an existing JSONL file")
    for n, raw in enumerate(data.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            obj = loads_limited(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise InvalidMemory(f"{path} line {n} is not a JSON object ({exc}) — write one {{\"text\": ...}} per line") from exc
        text = obj.get("text", obj.get("query")) if isinstance(obj, dict) else None
        if not isinstance(text, str) or not text.strip():
            raise InvalidMemory(f'{path} line {n} has no "text" string — write {{"text": "..."}} per line')
        out.append(text)
    if not out:
        raise InvalidMemory(f"{path} holds no queries — write one {{\"text\": ...}} per line")
    return out


@memory.command("list")
@click.option("--limit", type=click.IntRange(1), help="At most this many.")
@click.option("--conversation", "conversation_id", help="Only memories from this conversation.")
@click.option("--said", is_flag=True, help="Also what you said (kept so it can be found later; kind 'said').")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list.")
@click.pass_context
def memory_list(ctx: click.Context, limit: int | None, conversation_id: str | None, said: bool, as_json: bool) -> None:
    """Every memory: pinned ones first (in pin order, marked 📌), then oldest first."""
    rows = open_runtime(ctx).memory.store.list(limit=limit, conversation_id=conversation_id, said=said)
    if as_json:
        emit_json([r.as_dict() for r in rows])
        return
    for r in rows:
        click.echo(f"{r.id}  {'📌' if r.pinned else '  '} {r.kind:<10}  {r.text}")


@memory.command("pin")
@click.argument("memory_id")
@click.option("--json", "as_json", is_flag=True, help="Print the memory as JSON.")
@click.pass_context
def memory_pin(ctx: click.Context, memory_id: str, as_json: bool) -> None:
    """Pin MEMORY_ID: listed first and put into every answer's view, whatever the message."""
    row = open_runtime(ctx).memory.store.pin(memory_id)
    if as_json:
        emit_json(row.as_dict())
    else:
        click.echo(f"Pinned {row.id}: {row.text}")


@memory.command("unpin")
@click.argument("memory_id")
@click.option("--json", "as_json", is_flag=True, help="Print the memory as JSON.")
@click.pass_context
def memory_unpin(ctx: click.Context, memory_id: str, as_json: bool) -> None:
    """Unpin MEMORY_ID: it stays, and is recalled by similarity like any other memory."""
    row = open_runtime(ctx).memory.store.unpin(memory_id)
    if as_json:
        emit_json(row.as_dict())
    else:
        click.echo(f"Unpinned {row.id}: {row.text}")


@memory.command("forget")
@click.argument("ids", nargs=-1)
@click.option("--query", help="Forget memories containing (or meaning) this text.")
@click.option("--conversation", "conversation_id", help="Forget a whole conversation and everything from it.")
@click.option("--all", "all_", is_flag=True, help="Forget every conversation and memory.")
@click.option("--yes", is_flag=True, help="Confirm --all.")
@click.option("--json", "as_json", is_flag=True, help="Print what was forgotten as JSON.")
@click.pass_context
def memory_forget(
    ctx: click.Context, ids: tuple[str, ...], query: str | None, conversation_id: str | None, all_: bool, yes: bool, as_json: bool
) -> None:
    """Delete from SQLite and the vector index, and mark adapters trained on it for retraining."""
    chosen = sum(bool(x) for x in (ids, query, conversation_id, all_))
    if chosen != 1:
        raise InvalidMemory("Say what to forget: memory IDs, --query TEXT, --conversation ID, or --all --yes (exactly one)")
    if all_ and not yes:
        raise InvalidMemory("--all deletes every conversation and memory — add --yes to confirm")
    rt = open_runtime(ctx)
    bank = rt.memory
    if ids:
        report = forget_memories(rt, ids)
    elif query is not None:
        if not query.strip():
            raise InvalidMemory("Empty --query — give the text to forget")
        matches = {r.id for r in bank.store.containing(query.strip())}
        matches |= {r.memory.id for r in bank.search(query, 20, min_score=FORGET_QUERY_SIMILARITY)}
        report = forget_memories(rt, sorted(matches))
    elif conversation_id:
        report = forget_conversation(rt, conversation_id)
    else:
        report = forget_everything(rt)
    _notices(bank)
    for line in report.notices:
        click.echo(line, err=True)
    if as_json:
        emit_json(report.as_dict())
        return
    click.echo(
        f"Forgot {len(report.memories)} memories, {report.tasks} turns, {report.conversations} conversations; "
        f"{len(report.marked_revisions)} adapter revisions marked for retraining"
    )


@memory.command("reindex")
@click.option("--json", "as_json", is_flag=True, help="Print {count, seconds}.")
@click.pass_context
def memory_reindex(ctx: click.Context, as_json: bool) -> None:
    """Rebuild the vector index from SQLite (the source of truth)."""
    bank = open_runtime(ctx).memory
    t0 = time.perf_counter()
    report = bank.reindex()
    seconds = round(time.perf_counter() - t0, 2)
    _notices(bank)
    if as_json:
        emit_json({"count": report.total, "seconds": seconds})
    else:
        click.echo(f"Re-indexed {report.total} memories in {seconds} s")
