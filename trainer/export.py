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
from mol_local.engine.base import AdapterSpec, Stack
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


def _lora_scale(model, factor: float) -> None:
    """Multiply every LoRA layer's scaling (peft keeps alpha/r per adapter in `scaling`)."""
    from peft.tuners.lora import LoraLayer

    for module in model.modules():
        if isinstance(module, LoraLayer):
            for name in module.scaling:
                module.scaling[name] *= factor


def parity(model, gguf: Path, base: Path, tokens: list[int], under: Stack = ()) -> float:
    """Correlation of the LoRA's logit deltas in llama.cpp vs transformers on `tokens`.

    llama.cpp's delta has a noise floor (mean |delta| ~0.2 on the Q4 embedded
    base, even for a near-zero LoRA), while one night's LoRA may move logits
    far less. Both sides are therefore evaluated at the same adapter scale s,
    chosen so the expected delta is ~10x that floor: a wrong export (e.g.
    unpermuted q/k rows) still decorrelates, a right one stays >= PARITY_MIN.
    """
    import torch

    from mol_local.engine.llamacpp import LlamaCppEngine

    tokens = tokens[: max(PARITY_POSITIONS, min(len(tokens), 256))]
    if len(tokens) < PARITY_POSITIONS:
        raise ParityFailed(f"parity needs >= {PARITY_POSITIONS} tokens, got {len(tokens)} — use a longer example")
    ids = torch.tensor([tokens])
    with torch.no_grad():
        with model.disable_adapter():
            without = model(input_ids=ids).logits[0].float().numpy()
        unit = model(input_ids=ids).logits[0].float().numpy()
    scale = float(min(max(1.0, 2.5 / max(float(np.abs(unit - without).mean()), 1e-6)), 1e4))
    _lora_scale(model, scale)
    try:
        with torch.no_grad():
            with_lora = model(input_ids=ids).logits[0].float().numpy()
    finally:
        _lora_scale(model, 1.0 / scale)
    engine = LlamaCppEngine(base, sequences=("p",), n_ctx=512, kv_cells=512)
    try:
        plain = engine.all_logits("p", tokens, tuple(under))
        adapted = engine.all_logits("p", tokens, (*under, AdapterSpec(str(gguf), scale)))
    finally:
        engine.close()
    a = (adapted - plain).ravel()
    b = (with_lora - without).ravel()
    return float(np.corrcoef(a, b)[0, 1])


def check_parity(model, gguf: Path, base: Path, tokens: list[int], *, under: Stack = ()) -> float:
    """`under`: the specialist the transformers model has merged in, applied under the export in llama.cpp too."""
    corr = parity(model, gguf, base, tokens, under)
    if corr < PARITY_MIN:
        Path(gguf).unlink(missing_ok=True)
        raise ParityFailed(f"exported adapter disagrees with the trained one (correlation {corr:.3f} < {PARITY_MIN}) — report this bug; nothing was registered")
    return corr
