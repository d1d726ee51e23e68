"""Trainer fixtures: an HCP with training on, conversations committed through the real timeline."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

PROFILE = Path(__file__).parents[2] / "hcp" / "profiles" / "local-default.toml"


@pytest.fixture
def hcp_file(tmp_path: Path) -> Callable[..., Path]:
    """Write the local-default profile with trainer settings changed; returns its path."""

    def make(*, enabled: bool = True, memory_mb: int = 4096, time_min: int = 60, gain: float = 0.0, regression: float = 1.0) -> Path:
        text = PROFILE.read_text(encoding="utf-8")
        text = re.sub(r"(\[trainer\]\s*\n)enabled = \w+", rf"\1enabled = {str(enabled).lower()}", text)
        text = re.sub(r"memory_budget_mb = \d+", f"memory_budget_mb = {memory_mb}", text)
        text = re.sub(r"time_budget_min = \d+", f"time_budget_min = {time_min}", text)
        text = re.sub(r"new_data_gain_min_rel = [\d.]+", f"new_data_gain_min_rel = {gain}", text)
        text = re.sub(r"regression_worse_max_rel = [\d.]+", f"regression_worse_max_rel = {regression}", text)
        path = tmp_path / f"hcp-{enabled}-{memory_mb}-{time_min}-{gain}.toml"
        path.write_text(text, encoding="utf-8")
        return path

    return make


@pytest.fixture
def open_rt(engine):
    """A Runtime on an HCP file (shared real engine); closed at the end."""
    from hcp import load_hcp
    from mol_local.runtime import Runtime

    made = []

    def make(path: Path):
        rt = Runtime(load_hcp(path), engine=engine)
        made.append(rt)
        return rt

    yield make
    for rt in made:
        rt.db.close()


@pytest.fixture
def seeded_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    """Task ids from a fixed seed: which turns a night holds out (hashed ids) is then the same on every run."""
    import random
    import uuid

    rng = random.Random(0)
    monkeypatch.setattr("memory.timeline.new_id", lambda: uuid.UUID(int=rng.getrandbits(128), version=4).hex)


def commit(rt, pairs: list[tuple[str, str]], *, slot: str = "L1", consent: bool | None = True, tool: str | None = None) -> str:
    """One conversation with one closed task per (user, assistant) pair, committed like a real turn."""
    from memory.consent import set_consent
    from memory.timeline import MessageRecord, TaskRecord, TurnRecord, new_id

    conv = new_id()
    for i, (user, answer) in enumerate(pairs):
        msgs = [MessageRecord("user", user)]
        if tool is not None:
            msgs += [MessageRecord("assistant", '{"function": {"name": "x", "arguments": {}}}'), MessageRecord("tool", tool)]
        msgs.append(MessageRecord("assistant", answer))
        task = TaskRecord(new_id(), conv, i, slot, "closed", [])
        rt.timeline.commit_turn(TurnRecord(conv, user[:40], task, True, msgs, 0, summary=f"answered: {user[:30]}", summary_tokens=5))
    if consent is not None:
        set_consent(rt.db, conv, consent)
    return conv


FACTS = [
    ("What's my dog's name?", "Your dog is called Biscuit, a beagle."),
    ("Where do I work?", "You work at Lumen Labs as a data engineer."),
    ("What is my favourite tea?", "Your favourite tea is jasmine green tea."),
    ("When is my sister's birthday?", "Your sister Mara's birthday is on 14 March."),
    ("What city do I live in?", "You live in Ghent, near the old harbour."),
    ("What do I drink in the morning?", "You drink jasmine green tea every morning."),
    ("Which team do I support?", "You support KAA Gent in football."),
    ("What is my running goal?", "Your running goal is a half marathon in October."),
]

# The facts cannot be predicted from each other, so on a held-out fact a few optimizer steps move NLL by a few
# percent either way. A house style the answers share, which the base does not predict, is what a personal layer
# should learn from a few turns. With a prefix alone, 4 of 8 random hold-out draws still lost (-3..-0.01 %) once
# the loss covered only answer tokens; prefix + suffix over three epochs gained +6..+14 % in 3 of 3 draws (one
# earlier draw of the same split sizes: -0.2 %), so the promotion tests also fix the ids (`seeded_ids`).
STYLED = [(q, f"From your notes: {a} Saved in your notebook.") for q, a in FACTS]


def _promote_options():
    from trainer.nightly import Options
    from trainer.train import TrainConfig

    return Options(slots=("L1",), config=TrainConfig(rank=4, alpha=8.0, epochs=3, batch_size=3, max_len=160, lr=3e-3, checkpoint_every=1), regression_limit=2,
                   specialist_suite_limit=0)


PROMOTE_OPTS = _promote_options()
