"""Random LoRA GGUFs for a given base: test fixtures and benchmark stand-ins.

Not a training path. A random low-rank delta of controlled magnitude is the
cheapest honest way to prove that hot-swapping changes logits, that KV is
invalidated across stacks, and what an adapter costs per token.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from mol_local.models import GGUFInfo


def write_random_lora(
    base: GGUFInfo,
    out: Path,
    *,
    rank: int = 8,
    alpha: float = 16.0,
    targets: Sequence[str] = ("attn_q", "attn_v"),
    std: float = 0.05,
    seed: int = 0,
    architecture: str | None = None,
) -> Path:
    """Write a LoRA GGUF touching `targets` in every block of `base`."""
    import gguf

    rng = np.random.default_rng(seed)
    arch = architecture or base.architecture
    writer = gguf.GGUFWriter(str(out), arch)
    writer.add_string("general.type", "adapter")
    writer.add_string("adapter.type", "lora")
    writer.add_float32("adapter.lora.alpha", float(alpha))
    n = 0
    for name in sorted(base.tensors):
        parts = name.split(".")
        if len(parts) == 4 and parts[0] == "blk" and parts[2] in targets and parts[3] == "weight":
            n_in, n_out = base.tensors[name][:2]
            a = rng.normal(0.0, std, size=(rank, n_in)).astype(np.float32)
            b = rng.normal(0.0, std, size=(n_out, rank)).astype(np.float32)
            writer.add_tensor(f"{name}.lora_a", a)
            writer.add_tensor(f"{name}.lora_b", b)
            n += 1
    if n == 0:
        raise ValueError(f"base has no tensors named like blk.N.{{{','.join(targets)}}}.weight")
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return out
