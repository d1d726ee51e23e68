"""The embeddings route head: a softmax over all-MiniLM-L6-v2 sentence vectors.

Routing under the L0 grammar costs one prefill of the request on the base
(~125 ms on 2 cores). The memory bank already keeps all-MiniLM-L6-v2 loaded,
and one short query embeds in ~12 ms, so a linear head over that vector picks
a slot for ~1% of the cost. It is less accurate than the route adapter on its
own, so HCP `routing.mode = "hybrid"` trusts it only when its probability is
at least `routing.min_confidence` and asks the grammar router otherwise.

The head is a small JSON file (weights as numbers, never a pickle) written by
`python -m trainer.route_embed`; the shipped one lives next to the shipped
route adapter.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mol_local.errors import RouteHeadError

HEAD_FORMAT = 1
SHIPPED_HEAD = Path(__file__).resolve().parent / "adapters" / "shipped" / "route-embed" / "head.json"


@dataclass(frozen=True)
class EmbedHead:
    labels: tuple[str, ...]
    weights: np.ndarray  # (dim, labels)
    bias: np.ndarray  # (labels,)
    embedder: str
    report: dict

    @classmethod
    def load(cls, path: Path = SHIPPED_HEAD, *, embedder: str, dim: int) -> EmbedHead:
        fix = "retrain it with `python -m trainer.route_embed`, or set routing.mode = \"grammar\" in your HCP"
        try:
            doc = json.loads(Path(path).read_text(encoding="utf-8"))
            labels = tuple(str(x) for x in doc["labels"])
            weights = np.asarray(doc["weights"], dtype=np.float32)
            bias = np.asarray(doc["bias"], dtype=np.float32)
            fmt, name = doc["format"], str(doc["embedder"])
        except FileNotFoundError as exc:
            raise RouteHeadError(f"the embeddings route head {path} is missing — {fix}") from exc
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise RouteHeadError(f"the embeddings route head {path} is unreadable ({exc.__class__.__name__}) — {fix}") from exc
        if fmt != HEAD_FORMAT:
            raise RouteHeadError(f"the embeddings route head {path} has format {fmt}, this build reads {HEAD_FORMAT} — {fix}")
        if name != embedder:
            raise RouteHeadError(f"the embeddings route head {path} was trained on {name} vectors, the memory embedder is {embedder} — {fix}")
        if weights.shape != (dim, len(labels)) or bias.shape != (len(labels),) or not labels:
            raise RouteHeadError(f"the embeddings route head {path} has weights {weights.shape} for {len(labels)} labels, expected ({dim}, {len(labels)}) — {fix}")
        if not (np.isfinite(weights).all() and np.isfinite(bias).all()):
            raise RouteHeadError(f"the embeddings route head {path} holds non-finite weights — {fix}")
        return cls(labels, weights, bias, name, dict(doc.get("report", {})))

    def probabilities(self, vector: np.ndarray, allowed: Sequence[str]) -> dict[str, float]:
        """P(slot | request) over the labels both the head and the profile know (renormalised)."""
        keep = [i for i, label in enumerate(self.labels) if label in allowed]
        if not keep:
            return {}
        z = np.asarray(vector, dtype=np.float32) @ self.weights[:, keep] + self.bias[keep]
        z = np.exp(z - z.max())
        z /= z.sum()
        return {self.labels[i]: float(p) for i, p in zip(keep, z)}


class EmbedClassifier:
    """(label, probability) for a request: embed it, apply the head. Loads both lazily, once."""

    def __init__(self, encode: Callable[[Sequence[str]], np.ndarray], head_loader: Callable[[], EmbedHead]) -> None:
        self._encode = encode
        self._head_loader = head_loader
        self._head: EmbedHead | None = None

    @property
    def head(self) -> EmbedHead:
        if self._head is None:
            self._head = self._head_loader()
        return self._head

    def warm(self) -> None:
        """Load the head and the embedder now (the first load of MiniLM takes seconds)."""
        _ = self.head
        self._encode(["warm up"])

    def classify(self, text: str, labels: Sequence[str]) -> tuple[str, float] | None:
        probs = self.head.probabilities(self._encode([text])[0], labels)
        if not probs:
            return None
        label = max(probs, key=probs.__getitem__)
        return label, probs[label]


def memory_classifier(path: Path = SHIPPED_HEAD) -> EmbedClassifier:
    """The classifier on the memory bank's embedder (shared per process, so no second model load)."""
    from memory.index import Embedder

    embedder = Embedder(threads=1)
    return EmbedClassifier(embedder.encode, lambda: EmbedHead.load(path, embedder=embedder.name, dim=embedder.dim))
