"""Keyword search over memories: SQLite FTS5 in the same database, kept in step by triggers.

The vector index finds paraphrases; keywords find names, numbers and rare
words a small embedding model blurs (on a long multi-session benchmark plain
BM25 beat MiniLM alone, 0.46 vs 0.42 recall@5). `memories_fts` holds each
memory's text plus the words of the date it was said ("2023 May"), so "in May"
matches by keyword too. Triggers on `memories` write it in the same
transaction as the row, so it can only drift if someone edits the file by hand
or drops the table; `check` finds that and `rebuild` repairs it from SQLite.
Forgetting calls `purge`, which merges the segments so a deleted row's tokens
do not linger in the index (SQLite 3.40 has no FTS5 secure-delete), and
`PRAGMA secure_delete` zeroes the freed pages.
"""

from __future__ import annotations

import re
import sqlite3

from sqlite_utils import Database

TABLE = "memories_fts"
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
          "December")
# The indexed text: the memory and the month/year it was said. Frozen: the migration that created the
# triggers (m011) uses these very strings; a change needs a new migration.
INDEXED = "new.text || ' ' || coalesce(strftime('%Y', new.said_at), '') || ' ' || " \
          "coalesce(case cast(strftime('%m', new.said_at) as integer) " + \
          " ".join(f"when {i} then '{m}'" for i, m in enumerate(MONTHS, 1)) + " end, '')"
DDL = (
    f"create virtual table {TABLE} using fts5(id unindexed, text, tokenize = 'porter unicode61')",
    f"create trigger memories_fts_ai after insert on memories begin insert into {TABLE} (id, text) values (new.id, {INDEXED}); end",
    f"create trigger memories_fts_ad after delete on memories begin delete from {TABLE} where id = old.id; end",
    f"create trigger memories_fts_au after update of text, said_at on memories begin "
    f"delete from {TABLE} where id = old.id; insert into {TABLE} (id, text) values (new.id, {INDEXED}); end",
)
_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?", re.UNICODE)
STOPWORDS = frozenset("""
a an the and or but if of to in on at by for with about from as into over after before than then so is are was were be been
being am do does did have has had i me my mine we our us you your he she it its they them their this that these those what
which who whom whose when where why how not no yes can could would should will shall may might must just very too also
tell say said know remember please there here any some all each every one
""".split())
MAX_TERMS = 32  # a query is cut to this many distinct words: a 100 KB paste must not become a 20k-term OR


def terms(query: str) -> list[str]:
    """The query's distinct content words, lower-cased, at most MAX_TERMS."""
    out: list[str] = []
    for word in _WORD.findall(query.lower()):
        if word in STOPWORDS or word in out or len(word) < 2 and not word.isdigit():
            continue
        out.append(word)
        if len(out) == MAX_TERMS:
            break
    return out


def match_expression(query: str) -> str | None:
    """FTS5 MATCH text for a free-form query: its content words, each quoted, OR-ed; None if none are left.

    Quoting makes every word a plain string, so FTS5 syntax in a query (`"`, `*`, `NEAR(`, `-`, `AND`)
    is searched for as words, never parsed as operators.
    """
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms(query)) or None


def says_any(text: str, words: list[str]) -> bool:
    """Does `text` hold one of `words` as it is written (a whole word, any case)?

    The index stems ("call" matches "called"), which is right for ranking but too loose to vouch
    for a memory that means nothing like the message: "Remind me on Friday at 6pm to call mum"
    brought "The user's dog is called Biscuit" into the tail at cosine 0.14.
    """
    lowered = text.lower()
    return any(re.search(r"(?<![^\W_])" + re.escape(w) + r"(?![^\W_])", lowered) for w in words)


def date_words(said_at: str | None) -> str:
    """ "2023-05-07…" -> "2023 May": the words of when it was said that the index holds beside a memory."""
    if not said_at or len(said_at) < 7 or not said_at[:4].isdigit() or not said_at[5:7].isdigit():
        return ""
    month = int(said_at[5:7])
    return f"{said_at[:4]} {MONTHS[month - 1]}" if 1 <= month <= 12 else said_at[:4]


def keyword_search(db: Database, query: str, k: int) -> list[tuple[str, float]]:
    """(memory id, bm25 score: higher is better) for the k best keyword matches."""
    expr = match_expression(query)
    if expr is None or k <= 0:
        return []
    rows = db.execute(f"select id, -bm25({TABLE}) from {TABLE} where {TABLE} match ? order by bm25({TABLE}) limit ?", [expr, k]).fetchall()
    return [(r[0], float(r[1])) for r in rows]


def check(db: Database) -> str | None:
    """Why the keyword index cannot be trusted (missing, damaged, out of step with `memories`), or None."""
    try:
        db.execute(f"insert into {TABLE} ({TABLE}, rank) values ('integrity-check', 0)")
        indexed = db.execute(f"select count(*) from {TABLE}").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        return f"the keyword index is missing or damaged ({exc})"
    stored = db.execute("select count(*) from memories").fetchone()[0]
    if indexed != stored:
        return f"the keyword index was out of step ({indexed} entries for {stored} memories)"
    return None


def rebuild(db: Database) -> None:
    """Drop and recreate the table and its triggers, then index every memory again (inside the caller's transaction)."""
    for trigger in ("memories_fts_ai", "memories_fts_ad", "memories_fts_au"):
        db.execute(f"drop trigger if exists {trigger}")
    db.execute(f"drop table if exists {TABLE}")
    for statement in DDL:
        db.execute(statement)
    db.execute(f"insert into {TABLE} (id, text) select id, {INDEXED.replace('new.', '')} from memories")


def purge(db: Database) -> None:
    """Merge every segment so deleted rows leave no tokens behind (after a forget)."""
    db.execute(f"insert into {TABLE} ({TABLE}) values ('optimize')")
