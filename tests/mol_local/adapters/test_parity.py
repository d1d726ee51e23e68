"""Parity: a PEFT LoRA in transformers and its GGUF export in llama.cpp move the logits the same way.

transformers runs the dequantised base, llama.cpp the Q4_1 one, so each side's
LoRA effect is measured against its own base (delta = LoRA - base) and the
deltas are compared per position. The export with the q/k row permutation
skipped must fail the same threshold: that proves the test can fail and that
the permutation is what makes it pass.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mol_local.adapters.convert import convert_peft_to_gguf
from mol_local.engine.base import AdapterSpec

THRESHOLD = 0.95
TEXT = (
    "The quick brown fox jumps over the lazy dog while the farmer counts sheep in the valley, "
    "and the river carries autumn leaves towards the old stone bridge near the village market."
)


@pytest.fixture(scope="module")
def hf_lora(base_model_path: Path, tmp_path_factory: pytest.TempPathFactory):
    """The embedded base in transformers (dequantised) with a seeded LoRA of meaningful magnitude on q/k/v/o."""
    torch = pytest.importorskip("torch")
    peft = pytest.importorskip("peft")
    from transformers import AutoModelForCausalLM
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    hf_logging.set_verbosity_error()
    torch.set_num_threads(2)
    model = AutoModelForCausalLM.from_pretrained(str(base_model_path.parent), gguf_file=base_model_path.name, dtype=torch.float32)
    config = peft.LoraConfig(r=8, lora_alpha=16, target_modules=["q_proj", "k_proj", "v_proj", "o_proj"], lora_dropout=0.0)
    model = peft.get_peft_model(model, config).eval()
    gen = torch.Generator().manual_seed(0)
    with torch.no_grad():
        for name, param in model.named_parameters():
            if "lora_" in name:
                param.copy_(torch.randn(param.shape, generator=gen) * 0.06)
    folder = tmp_path_factory.mktemp("parity") / "peft"
    model.save_pretrained(str(folder), safe_serialization=True)
    return model, folder


def _correlations(hf_lora, engine, tmp_path: Path, *, permute: bool) -> np.ndarray:
    import torch

    model, folder = hf_lora
    tokens = engine.tokenize_messages([{"role": "user", "content": TEXT}])[:41]
    assert len(tokens) >= 33
    ids = torch.tensor([tokens])
    with torch.no_grad():
        hf_delta = model(ids).logits[0].numpy()
        with model.disable_adapter():
            hf_delta = hf_delta - model(ids).logits[0].numpy()
    out = convert_peft_to_gguf(folder, engine.base_info.path, tmp_path / f"lora-{permute}.gguf", permute_qk=permute).out
    base = engine.all_logits("L3", tokens, ())
    lcpp_delta = engine.all_logits("L3", tokens, (AdapterSpec(str(out), 1.0),)) - base
    assert np.abs(hf_delta).mean() > 1.0  # large enough to stand above llama.cpp's activation-quantisation noise
    # Position 0 (BOS) is skipped: a one-token context, where q/k adapters cannot act and the
    # delta is smallest, so llama.cpp's activation-quantisation noise dominates it (measured 0.83).
    return np.array([np.corrcoef(hf_delta[i], lcpp_delta[i])[0, 1] for i in range(1, len(tokens))])


@pytest.mark.slow
def test_exported_lora_matches_transformers_at_every_position(hf_lora, engine, tmp_path: Path) -> None:
    corr = _correlations(hf_lora, engine, tmp_path, permute=True)
    assert len(corr) >= 32
    print(f"parity min {corr.min():.4f} at {int(corr.argmin())}, mean {corr.mean():.4f}")
    assert corr.min() >= THRESHOLD, f"worst position {int(corr.argmin())}: {corr.min():.3f}"


@pytest.mark.slow
def test_export_without_qk_permutation_fails_parity(hf_lora, engine, tmp_path: Path) -> None:
    corr = _correlations(hf_lora, engine, tmp_path, permute=False)
    print(f"unpermuted min {corr.min():.4f} at {int(corr.argmin())}, mean {corr.mean():.4f}")
    assert corr.min() < THRESHOLD, f"unpermuted export still correlates {corr.min():.3f} everywhere"
