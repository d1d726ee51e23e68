"""`mol bench memory --sessions`: long multi-session chats of our own, questions by kind, recall@5 per kind.

A generated set shaped like public long-conversation benchmarks (which we keep
out of this repo): for each persona, 12 dated sessions of ~20 chat turns
between the persona and a friend, stored one turn per memory ("Maya: …", with
"at" = the session's time, as `mol memory add --file` would). Most turns are
small talk that shares words and topics with the facts; a few carry a fact.
Questions are written in other words than the evidence and labelled by kind:
- single-hop: one turn holds the answer ("What did Maya name her greyhound?");
- multi-hop: two turns in different sessions together answer it;
- temporal: asks when something happened, or what happened in a named month;
- update: a fact that changed; the evidence is the later turn.
Recall@5 of a question is the share of its evidence turns in the top 5. Our
hybrid recall, BM25 (FTS5) alone and dense (MiniLM) alone run on the same store.
"""

from __future__ import annotations

import random
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from memory.bank import MemoryBank
from memory.db import open_db
from memory.store import new_memory

PERSONAS = ("Maya", "Jonah", "Priya", "Tomas")
FRIENDS = {"Maya": "Leo", "Jonah": "Ines", "Priya": "Sam", "Tomas": "Aiko"}
SESSIONS = 12
TURNS = 20
SMALL_TALK = (
    "{a}: Hey {b}, how was your week?", "{b}: Busy but good. Work has been a lot lately.", "{a}: I finally got some sleep this weekend.",
    "{b}: Did you watch the match on Saturday?", "{a}: Not really, I was cleaning the flat all afternoon.", "{b}: The weather has been awful here.",
    "{a}: I tried a new recipe yesterday, a lentil soup.", "{b}: My neighbour's dog kept barking all night.", "{a}: I need a holiday soon.",
    "{b}: Have you read anything good recently?", "{a}: I started a podcast about old films.", "{b}: The trains were late again this morning.",
    "{a}: My plants are finally growing back.", "{b}: We should meet for coffee sometime.", "{a}: I spent too much money at the market.",
    "{b}: My sister visited us last weekend.", "{a}: The city feels so quiet in the evenings now.", "{b}: I'm thinking of learning to cook Thai food.",
    "{a}: Work sent me to a conference, it was boring.", "{b}: Did you see the new museum exhibition?", "{a}: My phone screen cracked, again.",
    "{b}: I went hiking near the lake, beautiful views.", "{a}: I've been drinking way too much coffee.", "{b}: My cousin is getting married in the summer.",
    "{a}: The gym was packed today.", "{b}: I'm so tired of emails.", "{a}: I painted the kitchen last month.",
    "{b}: We adopted a kitten at my parents' house.", "{a}: I keep forgetting to call my mum.", "{b}: The bakery on our street closed down.",
)


@dataclass(frozen=True)
class Fact:
    """One fact of a persona: the turn(s) that say it, in which session, and the questions it answers."""

    kind: str
    turns: tuple[tuple[int, str], ...]  # (session index, text with {a} = the persona)
    questions: tuple[str, ...]
    evidence: tuple[int, ...] = ()  # which of `turns` a question needs (default: all)


FACTS = (
    Fact("single-hop", ((2, "{a}: We finally adopted a greyhound from the shelter, we named him Pickle."),),
         ("What is the name of {a}'s new dog?", "What did {a} call the greyhound?")),
    Fact("single-hop", ((5, "{a}: I've signed up for a pottery class on Thursday nights."),),
         ("What hobby did {a} take up in the evenings?",)),
    Fact("single-hop", ((7, "{a}: My grandmother turned ninety and we had a huge party in her garden."),),
         ("How old is {a}'s grandmother?",)),
    Fact("single-hop", ((9, "{a}: I bought a secondhand cello, I want to play in an orchestra one day."),),
         ("Which instrument did {a} buy?",)),
    Fact("single-hop", ((4, "{a}: The doctor said my ankle is sprained, so no running for six weeks."),),
         ("What injury did {a} have?", "Why can't {a} go running?")),
    Fact("multi-hop", ((1, "{a}: My brother Felix lives in Valencia now, he teaches English there."),
                       (8, "{a}: I'm flying out to see my brother next month!")),
         ("Which city is {a} flying to next month?",)),
    Fact("multi-hop", ((3, "{a}: My best friend from school is called Rosa."),
                       (10, "{a}: Rosa just opened her own bookshop downtown.")),
         ("What did {a}'s school friend open?",)),
    Fact("temporal", ((6, "{a}: I ran my first half marathon this morning, two hours flat!"),),
         ("When did {a} run a half marathon?",)),
    Fact("temporal", ((11, "{a}: We got the keys to our new flat today, finally homeowners."),),
         ("When did {a} get the keys to the new flat?",)),
    Fact("temporal", ((3, "{a}: I presented my research at the conference in Berlin."),),
         ("What did {a} do in {month3}?",)),
    Fact("update", ((1, "{a}: I work at the city library, mostly in the children's section."),
                    (9, "{a}: I left the library and started at the science museum this week.")),
         ("Where does {a} work now?",), evidence=(1,)),
    Fact("update", ((2, "{a}: I'm vegetarian, have been for years."),
                    (10, "{a}: I've gone fully vegan since January.")),
         ("What is {a}'s diet these days?",), evidence=(1,)),
)


@dataclass
class Built:
    turns: list[tuple[str, str]] = field(default_factory=list)  # (text, at)
    questions: list[dict] = field(default_factory=list)  # kind, text, evidence (indexes into turns)


def session_time(persona_index: int, session: int) -> datetime:
    return datetime(2023, 1, 9, 18, 0) + timedelta(days=23 * session + 3 * persona_index, hours=persona_index)


def build(seed: int = 0) -> Built:
    rng = random.Random(seed)
    out = Built()
    for p, a in enumerate(PERSONAS):
        b = FRIENDS[a]
        where: dict[tuple[int, int], int] = {}
        for s in range(SESSIONS):
            at = session_time(p, s)
            lines = [t.format(a=a, b=b) for t in rng.sample(SMALL_TALK, TURNS)]
            facts = [(fi, ti, text) for fi, fact in enumerate(FACTS) for ti, (sess, text) in enumerate(fact.turns) if sess == s]
            for fi, ti, text in facts:
                pos = rng.randrange(len(lines) + 1)
                lines.insert(pos, text.format(a=a, b=b))
                where[(fi, ti)] = -1  # placed; the index is fixed below
            for n, line in enumerate(lines):
                out.turns.append((line, (at + timedelta(minutes=n)).isoformat(timespec="seconds")))
                for fi, ti, text in facts:
                    if line == text.format(a=a, b=b):
                        where[(fi, ti)] = len(out.turns) - 1
        for fi, fact in enumerate(FACTS):
            needed = fact.evidence or tuple(range(len(fact.turns)))
            month3 = session_time(p, fact.turns[0][0]).strftime("%B %Y")
            for q in fact.questions:
                out.questions.append({"kind": fact.kind, "text": q.format(a=a, month3=month3),
                                      "evidence": [where[(fi, ti)] for ti in needed]})
    return out


def run_sessions_bench(seed: int = 0) -> dict:
    built = build(seed)
    with tempfile.TemporaryDirectory(prefix="mol-bench-sessions-") as tmp:
        db = open_db(Path(tmp) / "bench.db")
        bank = MemoryBank(db, Path(tmp) / "chroma")
        rows = [new_memory(text, origin="import", said_at=at) for text, at in built.turns]
        t0 = time.perf_counter()
        bank.add(rows)
        add_s = time.perf_counter() - t0
        now = datetime.fromisoformat(built.turns[-1][1]) + timedelta(days=1)
        arms = {}
        for mode in ("hybrid", "keyword", "dense"):
            per: dict[str, list[float]] = {}
            times = []
            for q in built.questions:
                t1 = time.perf_counter()
                found = {r.memory.id for r in bank.search(q["text"], 5, mode=mode, now=now)}
                times.append((time.perf_counter() - t1) * 1000)
                got = sum(rows[i].id in found for i in q["evidence"]) / len(q["evidence"])
                per.setdefault(q["kind"], []).append(got)
                per.setdefault("all", []).append(got)
            arms[mode] = {k: round(sum(v) / len(v), 3) for k, v in per.items()} | {"search_p50_ms": round(sorted(times)[len(times) // 2], 2)}
        db.close()
    ratio = {k: round(arms["hybrid"][k] / arms["keyword"][k], 2) if arms["keyword"][k] else None
             for k in arms["hybrid"] if k != "search_p50_ms"}
    return {
        "bench": "memory_sessions", "personas": len(PERSONAS), "sessions_per_persona": SESSIONS, "turns": len(built.turns),
        "questions": {k: sum(q["kind"] == k for q in built.questions) for k in sorted({q["kind"] for q in built.questions})},
        "add_s": round(add_s, 1), "recall_at_5": arms, "hybrid_over_bm25": ratio,
    }
