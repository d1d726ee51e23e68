"""A short personal training night on the second real architecture (gemma3 270M, no chat template): the
runtime's own views are the examples, a LoRA is trained with attention + MLP targets, exported to GGUF, checked
for parity against transformers+peft, gated and registered for the gemma3 base only."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.trainer.conftest import STYLED, commit

pytestmark = pytest.mark.slow


@pytest.fixture
def gemma_night_rt(gemma3: Path, tmp_path: Path):
    from click.testing import CliRunner

    from hcp import load_hcp
    from hcp.store import VersionStore
    from mol_local.cli import cli, models  # noqa: F401  (importing `models` registers `mol models`)
    from mol_local.runtime import Runtime

    home = Path(os.environ["MOL_HOME"])
    out = CliRunner().invoke(cli, ["models", "use", str(gemma3), "--n-ctx", "1024", "--json"], catch_exceptions=False)
    assert out.exit_code == 0, out.output
    VersionStore(home).update({"trainer.enabled": True, "trainer.memory_budget_mb": 8192, "trainer.gate.new_data_gain_min_rel": 0.0,
                               "trainer.gate.regression_worse_max_rel": 1.0}, reason="a short night on gemma3")
    rt = Runtime(load_hcp(home / "hcp.toml"), home=home)
    yield rt
    rt.close()


@pytest.mark.timeout(1200)
def test_a_short_night_on_gemma3_trains_exports_with_parity_and_registers_for_that_base(gemma_night_rt) -> None:
    from mol_local.adapters.manifest import base_fingerprint
    from mol_local.adapters.registry import Registry
    from trainer.nightly import Options, run_nightly
    from trainer.train import TrainConfig

    rt = gemma_night_rt
    commit(rt, STYLED)
    mlp_too = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")
    opts = Options(slots=("L1",), config=TrainConfig(rank=4, alpha=8.0, epochs=1, batch_size=4, max_len=128, lr=3e-3, checkpoint_every=1,
                                                     target_modules=mlp_too), regression_limit=2, specialist_suite_limit=0)
    row = run_nightly(rt, opts)["slots"][0]
    assert row["status"] in ("promoted", "rejected"), f"{row['status']}: {row.get('reason')}"
    assert row["metrics"]["parity_corr"] >= 0.95, row["metrics"]  # the exported GGUF is the trained LoRA, on gemma3
    if row["status"] == "promoted":
        active = Registry(rt.adapters_root()).active("L1", "personal")
        assert active is not None and active.manifest["architecture"] == "gemma3"
        assert active.manifest["base_fingerprint"] == base_fingerprint(rt.model_path())
        assert {"gate_proj", "up_proj", "down_proj"} & set(active.manifest["target_modules"])  # MLP targets too
    else:
        assert row["reason"]  # a rejection says why
