"""The base model in transformers, loaded from the very GGUF the runtime serves.

`from_pretrained(dir, gguf_file=...)` dequantises every tensor, which takes
minutes on a busy 2-core machine, so the result is cached once per base
fingerprint as a plain safetensors directory (the user cache dir's `hf-base/<fp>/`,
or MOL_TRAINER_CACHE); the key is the base's sha256 fingerprint, so it is never stale. Loads within one process are shared too.
"""

from __future__ import annotations

import os
import shutil
import uuid
from pathlib import Path

import platformdirs

from mol_local.models import base_fingerprint
from mol_local.paths import offline_env

_LOADED: dict[str, tuple[object, object]] = {}


def cache_root() -> Path:
    env = os.environ.get("MOL_TRAINER_CACHE")
    return Path(env) if env else Path(platformdirs.user_cache_dir("mol-local")) / "hf-base"


def _quiet() -> None:
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    hf_logging.set_verbosity_error()


def _materialise(base: Path, target: Path) -> None:
    """Dequantise the GGUF once and save it; the folder appears atomically."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    staging = target.with_name(f".{target.name}.{uuid.uuid4().hex[:8]}")
    try:
        tok = AutoTokenizer.from_pretrained(str(base.parent), gguf_file=base.name)
        model = AutoModelForCausalLM.from_pretrained(str(base.parent), gguf_file=base.name, dtype=torch.float32)
        # transformers refuses save_pretrained on a GGUF-loaded model; the dequantised weights are plain fp32
        from safetensors.torch import save_model

        staging.mkdir(parents=True)
        config = model.config
        if hasattr(config, "quantization_config"):
            del config.quantization_config
        config.save_pretrained(str(staging))
        save_model(model, str(staging / "model.safetensors"))
        tok.save_pretrained(str(staging))
        os.replace(staging, target)
    finally:
        if staging.exists():
            shutil.rmtree(staging)


def load_base(base: Path, *, threads: int = 2):
    """(model, tokenizer) in float32 for `base` (a GGUF file); shared within the process."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    offline_env()
    _quiet()
    torch.set_num_threads(threads)
    fp = base_fingerprint(base)
    if fp not in _LOADED:
        folder = cache_root() / fp[:16]
        if not (folder / "config.json").is_file():
            folder.parent.mkdir(parents=True, exist_ok=True)
            _materialise(base, folder)
        tok = AutoTokenizer.from_pretrained(str(folder), local_files_only=True)
        model = AutoModelForCausalLM.from_pretrained(str(folder), dtype=torch.float32, local_files_only=True)
        model.requires_grad_(False)
        _LOADED[fp] = (model, tok)
    return _LOADED[fp]
