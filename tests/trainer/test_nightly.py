"""The real pipeline on the embedded base: examples, train, export + parity, gate, registry, failures.

Sizes are tiny (a few optimizer steps) because the CI machine has 2 shared
cores; the benchmark (`mol bench learning`) measures learning at real sizes.
"""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memory.consent import set_consent, training_id
from mol_local.adapters.registry import Registry
from tests.trainer.conftest import FACTS, PROMOTE_OPTS, STYLED, commit
from trainer.nightly import Options, run_nightly
from trainer.train import TrainConfig

TINY = TrainConfig(rank=4, alpha=8.0, epochs=1, batch_size=3, max_len=160, lr=3e-3, checkpoint_every=1)
OPTS = Options(slots=("L1",), config=TINY, regression_limit=2, specialist_suite_limit=0)


def _ids(rt, conv: str) -> set[str]:
    return {training_id(r["id"]) for r in rt.db.query("select id from tasks where conversation_id = ?", [conv])}


def test_examples_are_the_runtimes_own_view_tokens(runtime) -> None:
    """Tokens from the transformers tokenizer + runtime template equal llama.cpp's for the same view."""
    from mol_local.turn.view import ViewSpec
    from trainer.examples import IGNORE, Tokenizer, build_examples
    from trainer.hf import load_base
    from trainer.select import select

    commit(runtime, [("hello there", "Hi! How can I help?")], slot="L0")
    conv = commit(runtime, FACTS[:2], slot="L1")
    sel = select(runtime.db, "L1", default_on=False, since=None, holdout_fraction=0.0)
    _, hf_tok = load_base(runtime.model_path())
    tok = Tokenizer(hf_tok)
    spec = ViewSpec("L1", runtime.head("L1"), runtime.slot_names())
    examples = build_examples(sel.train + sel.holdout, runtime.timeline, lambda s: spec, tok, budget=4000, max_len=4096)
    assert len(examples) == 2
    second = next(t for t in sel.train + sel.holdout if t.messages[0]["content"] == FACTS[1][0])
    ex = next(e for e in examples if e.training_id == second.training_id)
    session = runtime.session(conv)
    view = session.view_for("L1", second.messages, history=session.tasks[:1])
    assert ex.input_ids == runtime.engine.tokenize_messages(view, add_generation_prompt=False)
    target = hf_tok.decode([t for t in ex.labels if t != IGNORE])
    assert target.startswith(FACTS[1][1]) and FACTS[0][1] not in target  # only this task's answer carries loss


@pytest.mark.slow
@pytest.mark.timeout(1200)  # under a load of ~10 on 2 cores it has run past the 600 s default
def test_promotes_with_manifest_and_never_trains_on_revoked_data(hcp_file, open_rt, seeded_ids) -> None:
    rt = open_rt(hcp_file(memory_mb=6144))  # run alone, loading the base counts against the box: ~4.1 GB added
    flip = commit(rt, STYLED[6:])
    keep = commit(rt, STYLED[:6])
    never = commit(rt, [("Private: my salary?", "You earn 4200 a month.")], consent=False)
    events: list[dict] = []

    def on_event(e: dict) -> None:
        events.append(e)
        if e["stage"] == "train":  # consent turned off between selection and training
            set_consent(rt.db, flip, False)

    report = run_nightly(rt, PROMOTE_OPTS, on_event=on_event)
    row = report["slots"][0]
    assert row["status"] == "promoted", f"{row['status']}: {row.get('reason')} metrics={row.get('metrics')} selected={row['selected']}"
    assert row["metrics"]["new_gain_rel"] > 0 and row["metrics"]["parity_corr"] >= 0.95, row["metrics"]
    assert row["metrics"]["anchors"] > 0  # trained alongside; never listed as training data (below)
    registry = Registry(rt.adapters_root())
    active = registry.active("L1", "personal")
    assert active is not None and active.revision == row["revision"] == "r0001"
    trained = set(active.manifest["training_data_ids"])
    assert trained and trained <= _ids(rt, keep)
    assert not trained & (_ids(rt, flip) | _ids(rt, never))
    assert active.manifest["train_config"]["rank"] == 4 and active.manifest["parent_revision"] is None
    assert active.manifest["eval"]["parity_corr"] >= 0.95 and "holdout_nll_before" in active.manifest["eval"]
    assert any(e["stage"] == "step" for e in events)
    runs = list(rt.db.query("select * from trainer_runs"))
    assert len(runs) == 1 and runs[0]["status"] == "promoted" and set(json.loads(runs[0]["data_ids"])) == trained
    assert registry.rollback("L1", "personal") is None  # back to no personal layer; the revision stays
    assert registry.revision("L1", "personal", "r0001").path.is_dir()


@pytest.mark.slow
def test_disk_full_during_export_registers_nothing(hcp_file, open_rt, monkeypatch: pytest.MonkeyPatch) -> None:
    import gguf

    rt = open_rt(hcp_file())
    commit(rt, FACTS[:5])

    def full(self, *a, **k):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(gguf.GGUFWriter, "write_tensors_to_file", full)
    row = run_nightly(rt, OPTS)["slots"][0]
    assert row["status"] == "failed" and "disk full" in row["reason"]
    layer = rt.adapters_root() / "L1" / "personal"
    assert not layer.exists() or not [p for p in layer.iterdir() if p.name != "active"]
    assert Registry(rt.adapters_root()).active("L1", "personal") is None
    (run,) = rt.db.query("select status, reason from trainer_runs")
    assert run["status"] == "failed" and "nothing was registered" in run["reason"]


@pytest.mark.slow
@pytest.mark.timeout(1200)
def test_kill_9_mid_train_keeps_active_and_resume_continues(hcp_file, open_rt, mol_home: Path) -> None:
    path = hcp_file()
    rt = open_rt(path)
    commit(rt, FACTS)
    cfg = TrainConfig(rank=4, alpha=8.0, epochs=2, batch_size=2, max_len=96, lr=3e-3, checkpoint_every=1)
    script = (
        "import sys; from hcp import load_hcp; from mol_local.runtime import Runtime; from trainer.nightly import Options, run_nightly; "
        "from trainer.train import TrainConfig; "
        f"run_nightly(Runtime(load_hcp({str(path)!r})), Options(slots=('L1',), regression_limit=1, specialist_suite_limit=0, config=TrainConfig(**{cfg.__dict__!r})))"
    )
    child = subprocess.Popen([sys.executable, "-c", script], env={**os.environ, "MOL_HOME": str(mol_home)}, cwd=Path(__file__).parents[2])
    runs = mol_home / "trainer" / "runs"
    deadline = time.monotonic() + 600
    try:
        while time.monotonic() < deadline and not list(runs.glob("*/checkpoint.pt")):
            assert child.poll() is None, "the training child exited before its first checkpoint"
            time.sleep(0.5)
        assert list(runs.glob("*/checkpoint.pt")), "no checkpoint within the deadline"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    registry = Registry(rt.adapters_root())
    assert registry.active("L1", "personal") is None and not registry.revisions("L1", "personal")
    assert (mol_home / "trainer" / "lock").exists()  # left behind by the killed run: stale
    events: list[dict] = []
    report = run_nightly(rt, Options(slots=("L1",), regression_limit=1, config=cfg, specialist_suite_limit=0), on_event=events.append)
    row = report["slots"][0]
    assert any(e["stage"] == "lock" for e in events)  # the stale lock was recovered
    assert row["metrics"]["resumed_from_step"] >= 1
    # The resumed run reaches the gate; whether it promotes depends on how many steps the kill left
    # (a kill late in the run can leave too little new training to clear the 2 % gain bar).
    assert row["status"] in ("promoted", "rejected") and "holdout_nll_after" in row["metrics"], row
    if row["status"] == "promoted":
        assert registry.active("L1", "personal") is not None
