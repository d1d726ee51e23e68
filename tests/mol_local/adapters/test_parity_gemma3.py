"""Parity on a second real architecture: a PEFT LoRA on gemma3 270M and its GGUF export move the logits alike.

gemma3's converter does not permute q/k, so the export passes them through; the
LoRA covers attention and MLP (q/k/v/o, gate/up/down), as the trainer's targets can.
Same measure as test_parity.py: per-position correlation of (LoRA - base) logits.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mol_local.adapters.convert import convert_peft_to_gguf
from mol_local.engine.base import AdapterSpec

THRESHOLD = 0.95
TARGETS = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]
TEXT = (
    "The quick brown fox jumps over the lazy dog while the farmer counts sheep in the valley, "
    "and the river carries autumn leaves towards the old stone bridge near the village market."
)


@pytest.mark.slow
def test_a_gemma3_lora_export_matches_transformers(gemma3: Path, tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    peft = pytest.importorskip("peft")
    from transformers import AutoModelForCausalLM
    from transformers.utils import logging as hf_logging

    from mol_local.engine.llamacpp import LlamaCppEngine

    hf_logging.disable_progress_bar()
    hf_logging.set_verbosity_error()
    torch.set_num_threads(2)
    model = AutoModelForCausalLM.from_pretrained(str(gemma3.parent), gguf_file=gemma3.name, dtype=torch.float32)
    model = peft.get_peft_model(model, peft.LoraConfig(r=8, lora_alpha=16, target_modules=TARGETS, lora_dropout=0.0)).eval()
    gen = torch.Generator().manual_seed(0)
    with torch.no_grad():
        for name, param in model.named_parameters():
            if "lora_" in name:
                param.copy_(torch.randn(param.shape, generator=gen) * 0.04)
    model.save_pretrained(str(tmp_path / "peft"), safe_serialization=True)
    engine = LlamaCppEngine(gemma3, n_ctx=256, sequences=("x",), n_threads=2)
    try:
        tokens = [engine.model.token_bos()] + engine._tok(TEXT, False)[:40]  # gemma reads garbage without its BOS
        ids = torch.tensor([tokens])
        with torch.no_grad():
            hf_delta = model(ids).logits[0].numpy()
            with model.disable_adapter():
                hf_delta = hf_delta - model(ids).logits[0].numpy()
        out = convert_peft_to_gguf(tmp_path / "peft", gemma3, tmp_path / "lora.gguf").out
        lcpp_delta = engine.all_logits("x", tokens, (AdapterSpec(str(out), 1.0),)) - engine.all_logits("x", tokens, ())
    finally:
        engine.close()
    assert np.abs(hf_delta).mean() > 0.5
    corr = np.array([np.corrcoef(hf_delta[i], lcpp_delta[i])[0, 1] for i in range(1, len(tokens))])
    print(f"gemma3 parity min {corr.min():.4f}, mean {corr.mean():.4f}")
    assert len(corr) >= 32 and corr.min() >= THRESHOLD, f"worst position {int(corr.argmin())}: {corr.min():.3f}"
