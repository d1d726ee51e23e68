"""Training requests for the route adapter: our own, written for this recipe.

Each slot has request templates and filler pools; expanding them with a seeded
RNG gives several hundred varied requests per slot. The split is by template:
every 6th template of a slot never reaches training, so the held-out score
measures requests phrased in ways the adapter never saw, not just new fillers.
Inside the training templates, `fit` and `val` split once more by template
(every 6th, offset 2) for recipes that tune a setting before the final fit.
The shared dev set (../shared/eval/route_dev.jsonl) is never read here.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from trainer.route_templates import POOLS, TEMPLATES

__all__ = ["POOLS", "TEMPLATES", "requests"]


def _expand(template: str, rng: random.Random) -> str:
    return _style(re.sub(r"\{([a-z_]+)\}", lambda m: rng.choice(POOLS[m.group(1)]), template), rng)


def _style(text: str, rng: random.Random) -> str:
    """How people type: sometimes all lowercase without the final stop, sometimes one swapped-letter typo."""
    roll = rng.random()
    if roll < 0.15:
        return text.lower().rstrip(".?!。？")
    if roll < 0.23:
        words = text.split(" ")
        long_ones = [i for i, w in enumerate(words) if len(w) >= 5 and w.isascii() and w.isalpha()]
        if long_ones:
            i = rng.choice(long_ones)
            j = rng.randrange(1, len(words[i]) - 2)
            w = words[i]
            words[i] = w[:j] + w[j + 1] + w[j] + w[j + 2 :]
            return " ".join(words)
    return text


def _held_out(index: int) -> bool:
    return index % 6 == 5


SPLITS = {
    "train": lambda i: not _held_out(i),
    "heldout": _held_out,
    "fit": lambda i: not _held_out(i) and i % 6 != 2,
    "val": lambda i: i % 6 == 2,
}


def requests(split: str, *, per_slot: int = 320, seed: int = 7) -> Iterator[dict]:
    """Yield {"text", "slot"} rows for a split; `train`/`heldout` (and `fit`/`val`) never share a template."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {', '.join(SPLITS)}, not {split!r}")
    rng = random.Random(f"{seed}:{split}")
    for slot, templates in TEMPLATES.items():
        chosen = [t for i, t in enumerate(templates) if SPLITS[split](i)]
        want = per_slot if split in ("train", "fit") else max(20, per_slot // 6)
        seen: set[str] = set()
        attempts = 0
        while len(seen) < want and attempts < want * 50:
            attempts += 1
            text = _expand(rng.choice(chosen), rng)
            if text not in seen:
                seen.add(text)
                yield {"text": text, "slot": slot}
