"""Export a trained PEFT LoRA to GGUF with the adapters package's converter, then prove it.

Parity: on the same tokens, (llama.cpp base+LoRA - base) logits must
correlate >= PARITY_MIN with (transformers+peft - base) logits. A file that
fails is deleted; an OSError while writing (disk full) becomes ExportFailed and
nothing is registered.
"""

from __future__ import annotations

import errno
from pathlib import Path

import numpy as np

from mol_local.adapters.convert import convert_peft_to_gguf
from mol_local.engine.base import AdapterSpec
from trainer.errors import ExportFailed, ParityFailed

PARITY_MIN = 0.95
PARITY_POSITIONS = 32


def save_peft(model, folder: Path) -> Path:
    try:
        model.save_pretrained(str(folder), safe_serialization=True)
    except OSError as exc:
        raise ExportFailed(_disk_message(exc, folder)) from exc
    return folder


def _disk_message(exc: OSError, where: Path) -> str:
    if exc.errno == errno.ENOSPC:
        return f"disk full while writing {where} — free some space and rerun `mol train --now`; nothing was registered"
    return f"could not write {where} ({exc.strerror or exc}) — check the folder and rerun `mol train --now`; nothing was registered"


def export_gguf(peft_dir: Path, base: Path, out: Path) -> Path:
    try:
        convert_peft_to_gguf(peft_dir, base, out)
    except OSError as exc:
        raise ExportFailed(_disk_message(exc, out)) from exc
    return out


def parity(model, gguf: Path, base: Path, tokens: list[int]) -> float:
    """Correlation of the LoRA's logit deltas in llama.cpp vs transformers on `tokens`."""
    import torch

    from mol_local.engine.llamacpp import LlamaCppEngine

    tokens = tokens[: max(PARITY_POSITIONS, min(len(tokens), 256))]
    if len(tokens) < PARITY_POSITIONS:
        raise ParityFailed(f"parity needs >= {PARITY_POSITIONS} tokens, got {len(tokens)} — use a longer example")
    engine = LlamaCppEngine(base, sequences=("p",), n_ctx=512, kv_cells=512)
    try:
        plain = engine.all_logits("p", tokens)
        adapted = engine.all_logits("p", tokens, (AdapterSpec(str(gguf), 1.0),))
    finally:
        engine.close()
    ids = torch.tensor([tokens])
    with torch.no_grad():
        with_lora = model(input_ids=ids).logits[0].float().numpy()
        with model.disable_adapter():
            without = model(input_ids=ids).logits[0].float().numpy()
    a = (adapted - plain).ravel()
    b = (with_lora - without).ravel()
    if float(np.std(a)) == 0.0 or float(np.std(b)) == 0.0:
        return 1.0 if np.allclose(a, b, atol=1e-3) else 0.0
    return float(np.corrcoef(a, b)[0, 1])


def check_parity(model, gguf: Path, base: Path, tokens: list[int]) -> float:
    corr = parity(model, gguf, base, tokens)
    if corr < PARITY_MIN:
        Path(gguf).unlink(missing_ok=True)
        raise ParityFailed(f"exported adapter disagrees with the trained one (correlation {corr:.3f} < {PARITY_MIN}) — report this bug; nothing was registered")
    return corr
