"""Select and filter tonight's training data for one slot.

Trajectories come ONLY from `memory.consent.eligible_trajectories` (consented,
not revoked, not forgotten, committed and closed). This module then drops
failed turns, scrubs PII, deduplicates (exact + MinHash near-duplicates),
splits tonight's data into train and a prequential hold-out, and samples a
replay set of older eligible data.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from sqlite_utils import Database

from memory.consent import Trajectory, eligible_trajectories
from mol_local.turn.code_tidy import DOES_NOT_WORK, without_check_notes
from trainer.pii import scrub

NEAR_DUP_JACCARD = 0.8
_N_HASH = 64
_PRIME = (1 << 61) - 1
_rng = random.Random(1234)
_HASH_PARAMS = [(_rng.randrange(1, _PRIME), _rng.randrange(0, _PRIME)) for _ in range(_N_HASH)]


@dataclass(frozen=True)
class Selection:
    """What one slot trains on tonight, and why the rest was dropped."""

    slot: str
    train: list[Trajectory]
    holdout: list[Trajectory]  # tonight's data, scored before training (prequential)
    replay: list[Trajectory]  # older eligible data mixed in to limit forgetting
    dropped: Counter = field(default_factory=Counter)
    scrubbed: Counter = field(default_factory=Counter)

    @property
    def ids(self) -> list[str]:
        return [t.training_id for t in self.train + self.replay]


def eligible(db: Database, *, slot: str, default_on: bool, since: str | None = None) -> list[Trajectory]:
    """The one seam to the memory package: swap this if its API moves."""
    return list(eligible_trajectories(db, default_on=default_on, slot=slot, since=since))


def still_eligible(db: Database, trajectories: Iterable[Trajectory], *, slot: str, default_on: bool) -> list[Trajectory]:
    """Re-check consent right before training: keep only trajectories the memory package still yields."""
    allowed = {t.task_id for t in eligible(db, slot=slot, default_on=default_on)}
    return [t for t in trajectories if t.task_id in allowed]


def failure_reason(t: Trajectory) -> str | None:
    """Why a committed turn is not a good example (cancelled/errored turns never commit)."""
    answers = [m for m in t.messages if m["role"] == "assistant"]
    if not answers or not answers[-1]["content"].strip():
        return "empty_answer"
    if any(m["role"] == "tool" and m["content"].lstrip().lower().startswith(("error", "timeout", "denied")) for m in t.messages):
        return "tool_failed"
    if DOES_NOT_WORK in answers[-1]["content"]:
        return "code_failed"  # its code was run and failed every draft: an example of code that does not work
    return None


def scrub_trajectory(t: Trajectory, counts: Counter) -> Trajectory:
    msgs = []
    for m in t.messages:
        text, found = scrub(without_check_notes(m["content"]) if m["role"] == "assistant" else m["content"])
        counts.update(found)
        msgs.append({"role": m["role"], "content": text})
    summary = scrub(t.summary)[0] if t.summary else t.summary
    return replace(t, messages=msgs, summary=summary)


def _shingles(text: str, k: int = 3) -> set[str]:
    words = re.findall(r"\w+", text.lower())
    if len(words) < k:
        return {" ".join(words)}
    return {" ".join(words[i : i + k]) for i in range(len(words) - k + 1)}


def minhash(text: str) -> tuple[int, ...]:
    xs = [int.from_bytes(hashlib.blake2b(s.encode(), digest_size=8).digest(), "little") for s in _shingles(text)]
    return tuple(min((a * x + b) % _PRIME for x in xs) for a, b in _HASH_PARAMS)


def similarity(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    return sum(x == y for x, y in zip(a, b)) / len(a)


def _text(t: Trajectory) -> str:
    return "\n".join(m["content"] for m in t.messages if m["role"] in ("user", "assistant"))


def dedupe(items: list[Trajectory], counts: Counter, seen: list[tuple[int, ...]] | None = None) -> list[Trajectory]:
    """Drop exact duplicates, then near-duplicates (MinHash Jaccard >= NEAR_DUP_JACCARD); first one wins."""
    exact: set[str] = set()
    signatures = list(seen or [])
    out = []
    for t in items:
        text = _text(t)
        key = hashlib.sha256(" ".join(text.lower().split()).encode()).hexdigest()
        if key in exact:
            counts["duplicate"] += 1
            continue
        sig = minhash(text)
        if any(similarity(sig, s) >= NEAR_DUP_JACCARD for s in signatures):
            counts["near_duplicate"] += 1
            continue
        exact.add(key)
        signatures.append(sig)
        out.append(t)
    return out


def pick_holdout(new: list[Trajectory], fraction: float) -> list[Trajectory]:
    """round(fraction x n) of tonight's trajectories (at least one if fraction > 0 and n >= 2, never all).

    Which ones is decided by the hashed training id, so it is stable for the same data and
    unrelated to content. An exact count, not a per-item coin flip: with 8 new turns a coin
    at 0.2 held out anywhere from 0 to 5 of them, and a night that trains on 3 turns tells
    the gate little.
    """
    if fraction <= 0 or len(new) < 2:
        return []
    k = min(len(new) - 1, max(1, round(fraction * len(new))))
    chosen = {t.training_id for t in sorted(new, key=lambda t: t.training_id)[:k]}
    return [t for t in new if t.training_id in chosen]


def select(
    db: Database,
    slot: str,
    *,
    default_on: bool,
    since: str | None,
    holdout_fraction: float = 0.2,
    replay_ratio: float = 1.0,
    seed: int = 0,
) -> Selection:
    dropped: Counter = Counter()
    scrubbed: Counter = Counter()
    new, old = [], []
    for t in eligible(db, slot=slot, default_on=default_on):
        if (reason := failure_reason(t)) is not None:
            dropped[reason] += 1
            continue
        (new if since is None or t.created_at > since else old).append(scrub_trajectory(t, scrubbed))
    new = dedupe(new, dropped)
    holdout = pick_holdout(new, holdout_fraction)
    train = [t for t in new if t not in holdout]
    old = dedupe(old, Counter(), [minhash(_text(t)) for t in new])
    k = min(len(old), int(round(len(train) * replay_ratio)))
    replay = random.Random(seed).sample(old, k) if k else []
    return Selection(slot, train, holdout, replay, dropped, scrubbed)
