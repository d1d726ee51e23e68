"""The embeddings route head and the `embed` / `hybrid` router modes, on the real MiniLM embedder."""

from __future__ import annotations

import json
import threading
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from mol_local.engine.base import Engine, GenerationRequest, GenerationResult
from mol_local.errors import RouteHeadError
from mol_local.route_embed import SHIPPED_HEAD, EmbedClassifier, EmbedHead, memory_classifier
from mol_local.router import Router

LABELS = ["L0", "L1", "L2", "L3"]
CLEAR = {
    "L2": "Fix this segfault in my C code: the pointer is freed twice",
    "L3": "Build me an interactive habit tracker with checkboxes for each day",
    "L1": "Plan a three-day trip to Lisbon for my family of four with a 900 euro budget",
    "L0": "What causes the seasons on Earth?",
}


class Untouchable(Engine):
    """An engine that must not be asked: the embed path decides without the base model."""

    def generate(self, request: GenerationRequest) -> GenerationResult:
        raise AssertionError("the grammar router ran")

    def count_tokens(self, messages, *, add_generation_prompt: bool = True) -> int:
        return 0


def _head_doc(**changes) -> dict:
    doc = json.loads(SHIPPED_HEAD.read_text(encoding="utf-8"))
    doc.update(changes)
    return doc


def _write(tmp_path: Path, doc: dict | str) -> Path:
    path = tmp_path / "head.json"
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return path


def test_the_hcp_default_never_trusts_the_shipped_head_below_its_own_threshold() -> None:
    from hcp import load_profile

    report = json.loads(SHIPPED_HEAD.read_text(encoding="utf-8"))["report"]
    assert report["min_confidence"] <= load_profile("local-default").routing.min_confidence
    assert report["heldout"]["accuracy_when_sure"] >= 0.99 and report["heldout"]["coverage"] >= 0.5


@pytest.mark.parametrize(
    ("doc", "says"),
    [
        ("{not json", "unreadable"),
        (_head_doc(embedder="bge-small-en"), "trained on bge-small-en vectors"),
        (_head_doc(weights=[[0.0] * 4] * 10), "expected (384, 4)"),
        (_head_doc(format=9), "has format 9"),
        (_head_doc(bias=[float("nan"), 0.0, 0.0, 0.0]), "non-finite"),
        ({"format": 1}, "unreadable"),
    ],
)
def test_a_bad_head_is_refused_with_the_fix(tmp_path: Path, doc, says: str) -> None:
    path = _write(tmp_path, doc)
    with pytest.raises(RouteHeadError) as err:
        EmbedHead.load(path, embedder="all-MiniLM-L6-v2", dim=384)
    assert says in str(err.value) and "python -m trainer.route_embed" in str(err.value)


def test_a_missing_head_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RouteHeadError, match="is missing"):
        EmbedHead.load(tmp_path / "nope.json", embedder="all-MiniLM-L6-v2", dim=384)


def test_probabilities_renormalise_over_the_profile_labels() -> None:
    head = EmbedHead.load(embedder="all-MiniLM-L6-v2", dim=384)
    vec = np.ones(384, dtype=np.float32) / np.sqrt(384)
    both = head.probabilities(vec, ["L0", "L2"])
    assert set(both) == {"L0", "L2"} and abs(sum(both.values()) - 1.0) < 1e-5
    assert head.probabilities(vec, ["L7"]) == {}


def test_embed_mode_routes_clear_requests_without_the_engine() -> None:
    router = Router(Untouchable(), instruction="pick", labels=LABELS, mode="embed", classifier=memory_classifier())
    for slot, text in CLEAR.items():
        decision = router.route(text)
        assert (decision.slot, decision.mode, decision.fallback) == (slot, "embed", False), text
        assert decision.raw_output.startswith(f"{slot} p=")


def test_embed_mode_with_no_shared_label_falls_back_and_says_so() -> None:
    router = Router(Untouchable(), instruction="pick", labels=["L5", "L6"], mode="embed", fallback="L5", classifier=memory_classifier())
    decision = router.route("Fix my code")
    assert decision.slot == "L5" and decision.fallback


def test_hybrid_asks_the_grammar_router_when_the_head_is_unsure(runtime) -> None:
    from mol_local.runtime import Runtime

    sure = Runtime(replace(runtime.hcp, routing=replace(runtime.hcp.routing, mode="hybrid", min_confidence=0.0)), engine=runtime.engine)
    assert sure.router.route(CLEAR["L2"]).mode == "embed"
    never = Runtime(replace(runtime.hcp, routing=replace(runtime.hcp.routing, mode="hybrid", min_confidence=1.0)), engine=runtime.engine)
    decision = never.router.route(CLEAR["L2"])
    assert decision.mode == "grammar" and decision.raw_output == decision.slot and decision.slot in LABELS


def _slow_classifier(gate: threading.Event) -> EmbedClassifier:
    """The real head and MiniLM, whose first encode waits for `gate` (a slow first load)."""
    real = memory_classifier()

    def encode(texts):
        assert gate.wait(60), "the test never opened the gate"
        return real._encode(texts)

    return EmbedClassifier(encode, real._head_loader)


def test_hybrid_routes_by_grammar_while_the_head_warms_in_the_background(runtime) -> None:
    """The app is ready before MiniLM is: a request meanwhile takes the grammar route, not a wait."""
    gate = threading.Event()
    router = Router(runtime.engine, instruction=runtime.pack.route, labels=LABELS, mode="hybrid",
                    classifier=_slow_classifier(gate), min_confidence=0.0)
    warming = router.warm_in_background()
    try:
        decision = router.route(CLEAR["L2"])
        assert decision.mode == "grammar" and decision.slot in LABELS and warming.is_alive()
    finally:
        gate.set()
    warming.join(60)
    assert router.route(CLEAR["L2"]).mode == "embed"


def test_embed_mode_waits_for_a_warming_head() -> None:
    gate = threading.Event()
    router = Router(Untouchable(), instruction="pick", labels=LABELS, mode="embed", classifier=_slow_classifier(gate))
    warming = router.warm_in_background()
    threading.Timer(0.2, gate.set).start()
    assert router.route(CLEAR["L2"]).mode == "embed" and not warming.is_alive()


def test_a_head_that_fails_to_warm_fails_the_next_route_that_needs_it(tmp_path: Path) -> None:
    bad = _write(tmp_path, "{")
    router = Router(Untouchable(), instruction="pick", labels=LABELS, mode="embed", classifier=memory_classifier(bad))
    router.warm_in_background().join(60)
    with pytest.raises(RouteHeadError, match="unreadable"):
        router.route("hello")


def test_hybrid_needs_a_classifier() -> None:
    with pytest.raises(ValueError, match="needs an embeddings classifier"):
        Router(Untouchable(), instruction="pick", labels=LABELS, mode="hybrid")


def test_a_runtime_with_a_broken_head_reports_it_at_the_first_route(runtime, tmp_path: Path, monkeypatch) -> None:
    import mol_local.runtime as runtime_mod
    from mol_local.runtime import Runtime

    bad = _write(tmp_path, "{")
    monkeypatch.setattr(runtime_mod, "memory_classifier", lambda: memory_classifier(bad))
    rt = Runtime(replace(runtime.hcp, routing=replace(runtime.hcp.routing, mode="hybrid")), engine=runtime.engine)
    with pytest.raises(RouteHeadError, match="unreadable"):
        rt.router.route("hello")
