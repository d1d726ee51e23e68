"""Train the embeddings route head: `python -m trainer.route_embed [--out FILE]` (~20 s on 2 cores).

The head is a softmax regression over all-MiniLM-L6-v2 vectors of the route
recipe's requests (trainer.route_data; the shared dev set is never read). It
is trained twice, top to bottom:

1. on the `fit` templates, to choose the confidence threshold on the `val`
   templates (phrasings the head never saw): the smallest threshold at which
   the head makes no mistake there, so `hybrid` only skips the grammar router
   when the head is as sure as it has ever been right;
2. on all `train` templates, for the weights that ship.

The held-out templates score the result (accuracy, and coverage/accuracy at
the chosen threshold). Plain full-batch gradient descent on 384 x 4 weights:
deterministic, no new dependency, a few seconds.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from hcp.schema import SLOT_LABELS
from mol_local.route_embed import HEAD_FORMAT, SHIPPED_HEAD

LABELS = SLOT_LABELS
THRESHOLDS = tuple(round(0.5 + 0.05 * i, 2) for i in range(10))


def fit_head(x: np.ndarray, y: np.ndarray, *, l2: float = 1e-3, scale: float = 3.0, steps: int = 2000, lr: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Multinomial logistic regression; `scale` sharpens the unit-length inputs (a fixed temperature)."""
    xs = x * scale
    w = np.zeros((x.shape[1], len(LABELS)))
    b = np.zeros(len(LABELS))
    onehot = np.eye(len(LABELS))[y]
    for _ in range(steps):
        p = _softmax(xs @ w + b)
        g = (p - onehot) / len(xs)
        w -= lr * (xs.T @ g + l2 * w)
        b -= lr * g.sum(0)
    return (w * scale).astype(np.float32), b.astype(np.float32)


def _softmax(z: np.ndarray) -> np.ndarray:
    z = np.exp(z - z.max(axis=1, keepdims=True))
    return z / z.sum(axis=1, keepdims=True)


def predict(w: np.ndarray, b: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    p = _softmax(x @ w + b)
    return p.argmax(1), p.max(1)


def coverage(w, b, x, y, threshold: float) -> dict:
    """Share of requests the head decides alone at `threshold`, and its accuracy on those."""
    pred, conf = predict(w, b, x)
    sure = conf >= threshold
    return {"threshold": threshold, "coverage": round(float(sure.mean()), 4),
            "accuracy_when_sure": round(float((pred[sure] == y[sure]).mean()), 4) if sure.any() else None,
            "accuracy_alone": round(float((pred == y).mean()), 4)}


def choose_threshold(w, b, x, y) -> float:
    """The smallest threshold with no mistake among the requests the head would decide alone."""
    pred, conf = predict(w, b, x)
    for t in THRESHOLDS:
        sure = conf >= t
        if not sure.any() or (pred[sure] == y[sure]).all():
            return t
    return 1.0


def train_head(per_slot: int = 320) -> dict:
    """Embed the recipe's requests, choose the threshold, fit the shipped weights; returns the head document."""
    from memory.index import Embedder
    from trainer.route_data import requests

    embedder = Embedder(threads=1)
    sets = {}
    for split in ("fit", "val", "train", "heldout"):
        rows = list(requests(split, per_slot=per_slot))
        sets[split] = (embedder.encode([r["text"] for r in rows]), np.array([LABELS.index(r["slot"]) for r in rows]))
    w_fit, b_fit = fit_head(*sets["fit"])
    threshold = choose_threshold(w_fit, b_fit, *sets["val"])
    w, b = fit_head(*sets["train"])
    report = {"per_slot": per_slot, "train_requests": len(sets["train"][1]), "min_confidence": threshold,
              "validation": coverage(w_fit, b_fit, *sets["val"], threshold),
              "heldout": coverage(w, b, *sets["heldout"], threshold)}
    return {"format": HEAD_FORMAT, "embedder": embedder.name, "labels": list(LABELS), "weights": w.round(6).tolist(), "bias": b.round(6).tolist(),
            "report": report}


def main() -> None:
    from mol_local.paths import offline_env

    offline_env()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=SHIPPED_HEAD)
    parser.add_argument("--per-slot", type=int, default=320)
    args = parser.parse_args()
    t0 = time.perf_counter()
    doc = train_head(args.per_slot)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.out.with_suffix(".tmp")
    tmp.write_text(json.dumps(doc), encoding="utf-8")
    tmp.replace(args.out)
    print(json.dumps({**doc["report"], "seconds": round(time.perf_counter() - t0, 1), "out": str(args.out)}))


if __name__ == "__main__":
    main()
