"""The embeddings route head recipe: it learns the recipe's requests and picks a threshold it never erred above."""

from __future__ import annotations

import numpy as np
import pytest

from mol_local.route_embed import EmbedHead
from trainer.route_embed import THRESHOLDS, choose_threshold, fit_head, predict


def test_choose_threshold_skips_every_level_with_a_confident_mistake() -> None:
    x = np.eye(4, dtype=np.float32)
    w = np.eye(4, dtype=np.float32) * 10.0
    b = np.zeros(4, dtype=np.float32)
    y_right = np.array([0, 1, 2, 3])
    assert choose_threshold(w, b, x, y_right) == THRESHOLDS[0]
    y_one_wrong = np.array([0, 1, 2, 0])  # the head is ~100% sure of a wrong label: no threshold is safe
    assert choose_threshold(w, b, x, y_one_wrong) == 1.0


def test_fit_head_separates_separable_data() -> None:
    rng = np.random.default_rng(0)
    centres = np.eye(4, 16)
    x = np.concatenate([c + 0.05 * rng.standard_normal((30, 16)) for c in centres])
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    y = np.repeat(np.arange(4), 30)
    w, b = fit_head(x, y, steps=300)
    pred, _ = predict(w, b, x)
    assert (pred == y).mean() == 1.0


@pytest.mark.slow
def test_the_recipe_routes_unseen_templates(tmp_path) -> None:
    import json

    from trainer.route_embed import train_head

    doc = train_head(per_slot=60)
    path = tmp_path / "head.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    head = EmbedHead.load(path, embedder="all-MiniLM-L6-v2", dim=384)
    assert head.labels == ("L0", "L1", "L2", "L3")
    report = doc["report"]
    assert report["heldout"]["accuracy_alone"] >= 0.85, report
    assert report["min_confidence"] in THRESHOLDS + (1.0,)
