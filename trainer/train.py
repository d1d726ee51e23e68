"""The training loop: readable on purpose, in the spirit of karpathy/nanoGPT.

One function, `train`, does everything a nightly run needs: LoRA on the
frozen base, started from the previous personal revision, batches of
own-view examples with loss only on assistant tokens, a time box and a memory
box from HCP, and a checkpoint after every few steps so a `kill -9` loses at
most that many steps. The numbered comments say why each step is there.
"""

from __future__ import annotations

import copy
import ctypes
import gc
import json
import math
import os
import random
import resource
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from trainer.examples import IGNORE, Example

CKPT = "checkpoint.pt"


@dataclass(frozen=True)
class TrainConfig:
    rank: int = 8
    alpha: float = 16.0
    target_modules: tuple[str, ...] = ("q_proj", "k_proj", "v_proj", "o_proj")
    lr: float = 2e-3
    weight_decay: float = 0.0
    epochs: int = 3
    batch_size: int = 4
    max_len: int = 384
    warmup_steps: int = 2
    grad_clip: float = 1.0
    seed: int = 0
    checkpoint_every: int = 2
    threads: int = 2
    time_budget_s: float = 3600.0
    memory_budget_mb: int = 4096

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1, sort_keys=True)

    def save(self, path: Path) -> None:
        Path(path).write_text(self.to_json(), encoding="utf-8")


@dataclass
class Progress:
    step: int
    steps: int
    loss: float
    tokens_per_s: float
    elapsed_s: float
    rss_mb: float


@dataclass
class TrainResult:
    status: str  # done | time_budget | memory_budget
    steps: int
    tokens: int
    train_s: float
    tokens_per_s: float
    peak_rss_mb: float
    last_loss: float
    resumed_from: int = 0


def rss_mb() -> float:
    """Current resident set size (Linux /proc; peak RSS elsewhere)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return peak_rss_mb()


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def release_memory() -> None:
    """Hand freed heap back to the OS (glibc `malloc_trim`; a no-op elsewhere).

    A training step frees ~3 GB of activations, but glibc keeps the pages, so
    without this the process kept the high-water mark of every night and the
    next night's peak stacked on top of it (measured: 1.2 GB before night 1,
    4.2 GB after it, 5.6 GB after night 2; with it, back to ~1 GB each time).
    """
    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def batches(examples: list[Example], cfg: TrainConfig, epoch: int) -> list[list[Example]]:
    """Shuffle per epoch, then group neighbours of similar length so padding stays small."""
    rng = random.Random(cfg.seed * 1000 + epoch)
    order = examples[:]
    rng.shuffle(order)
    window = cfg.batch_size * 8
    out = []
    for i in range(0, len(order), window):
        chunk = sorted(order[i : i + window], key=lambda e: len(e.input_ids))
        out += [chunk[j : j + cfg.batch_size] for j in range(0, len(chunk), cfg.batch_size)]
    rng.shuffle(out)
    return out


def collate(batch: list[Example], pad_id: int):
    import torch

    width = max(len(e.input_ids) for e in batch)
    ids = torch.full((len(batch), width), pad_id, dtype=torch.long)
    labels = torch.full((len(batch), width), IGNORE, dtype=torch.long)
    mask = torch.zeros((len(batch), width), dtype=torch.long)
    for row, e in enumerate(batch):
        n = len(e.input_ids)
        ids[row, :n] = torch.tensor(e.input_ids)
        labels[row, :n] = torch.tensor(e.labels)
        mask[row, :n] = 1
    return ids, labels, mask


def target_losses(model, ids, labels, mask):
    """(per-target NLL, row of each target): cross-entropy on the assistant tokens only.

    Only the positions that predict a loss token are projected to the
    vocabulary. The full logits tensor (batch x length x 49k vocab, ~200 MB in
    fp32 for 4 x 256, times the copies that log-softmax and its gradient make)
    was the largest allocation of a training step, and the head's matmul over
    prompt positions nobody scores was ~15 % of the forward pass.
    """
    import torch

    inner = model.get_base_model() if hasattr(model, "get_base_model") else model
    hidden = inner.get_decoder()(input_ids=ids, attention_mask=mask).last_hidden_state[:, :-1]
    target = labels[:, 1:]
    keep = target != IGNORE
    logits = inner.get_output_embeddings()(hidden[keep])
    rows = keep.nonzero()[:, 0]
    return torch.nn.functional.cross_entropy(logits.float(), target[keep], reduction="none"), rows


def lora_model(base, cfg: TrainConfig, init_from: Path | None):
    """A private copy of the base with a LoRA on it: the shared base stays untouched."""
    from peft import LoraConfig, PeftModel, get_peft_model

    model = copy.deepcopy(base)
    if init_from is not None:
        return PeftModel.from_pretrained(model, str(init_from), is_trainable=True)
    conf = LoraConfig(r=cfg.rank, lora_alpha=cfg.alpha, target_modules=list(cfg.target_modules), lora_dropout=0.0, bias="none")
    return get_peft_model(model, conf)


def _save_checkpoint(run_dir: Path, model, opt, step: int, tokens: int, train_s: float) -> None:
    import torch
    from peft import get_peft_model_state_dict

    tmp = run_dir / f".{CKPT}.{os.getpid()}.tmp"
    state = {"lora": get_peft_model_state_dict(model), "opt": opt.state_dict(), "step": step, "tokens": tokens, "train_s": train_s}
    torch.save(state, tmp)
    os.replace(tmp, run_dir / CKPT)  # atomic: a kill leaves the old checkpoint or the new, never half of one


def train(
    base,
    pad_id: int,
    examples: list[Example],
    cfg: TrainConfig,
    run_dir: Path,
    *,
    init_from: Path | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    baseline_mb: float = 0.0,
) -> tuple[object, TrainResult]:
    """Train (or resume) a LoRA in `run_dir`; returns (peft model, result). `examples` must be non-empty.

    `baseline_mb` is the process's RSS before the job loaded anything: the memory box charges the
    run only what it adds, so a run inside the app (engine loaded) or a benchmark is boxed the same.
    """
    import torch
    from peft import set_peft_model_state_dict

    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    release_memory()  # models scored and dropped before this run give their pages back before its peak
    run_dir.mkdir(parents=True, exist_ok=True)
    cfg.save(run_dir / "config.json")

    # 1. The model: frozen base + trainable LoRA, initialised from last night's revision so learning accumulates.
    model = lora_model(base, cfg, init_from)
    model.train()
    params = [p for p in model.parameters() if p.requires_grad]

    # 2. AdamW on the LoRA weights only; the base never receives gradients (it is shared and frozen).
    opt = torch.optim.AdamW(params, lr=cfg.lr, weight_decay=cfg.weight_decay)

    # 3. The whole schedule is fixed up front (epochs x batches) so a resumed run replays the same order.
    plan = [b for epoch in range(cfg.epochs) for b in batches(examples, cfg, epoch)]
    steps = len(plan)

    # 4. Resume: a checkpoint from a killed run restores LoRA weights, optimizer moments and the step.
    step, tokens, done_s = 0, 0, 0.0
    ckpt = run_dir / CKPT
    if ckpt.is_file():
        state = torch.load(ckpt, weights_only=False)
        set_peft_model_state_dict(model, state["lora"])
        opt.load_state_dict(state["opt"])
        step, tokens, done_s = state["step"], state["tokens"], state["train_s"]
    resumed_from = step

    # 5. Cosine decay after a short warmup: big early updates on a small dataset overshoot.
    def lr_at(i: int) -> float:
        if i < cfg.warmup_steps:
            return cfg.lr * (i + 1) / cfg.warmup_steps
        progress = (i - cfg.warmup_steps) / max(1, steps - cfg.warmup_steps)
        return cfg.lr * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * progress)))

    t0 = time.perf_counter()
    status, loss_value, peak = "done", float("nan"), rss_mb()
    while step < steps:
        # 6. The time box: stop cleanly with a checkpoint; the next run resumes here.
        if done_s + time.perf_counter() - t0 > cfg.time_budget_s:
            status = "time_budget"
            if step > resumed_from:
                _save_checkpoint(run_dir, model, opt, step, tokens, done_s + time.perf_counter() - t0)
            break
        for group in opt.param_groups:
            group["lr"] = lr_at(step)
        ids, labels, mask = collate(plan[step], pad_id)
        # 7. Labels are IGNORE except assistant tokens, so the loss is only on what the slot said
        #    (and only those positions are projected to the vocabulary: see target_losses).
        losses, _ = target_losses(model, ids, labels, mask)
        loss = losses.mean()
        loss.backward()
        # 8. Clip: one odd example must not blow up a personal layer built over many nights.
        torch.nn.utils.clip_grad_norm_(params, cfg.grad_clip)
        opt.step()
        opt.zero_grad(set_to_none=True)
        step += 1
        tokens += int(mask.sum())
        loss_value = float(loss.detach())
        elapsed = done_s + time.perf_counter() - t0
        peak = max(peak, rss_mb())
        if step % cfg.checkpoint_every == 0 or step == steps:
            _save_checkpoint(run_dir, model, opt, step, tokens, elapsed)
        if on_progress is not None:
            on_progress(Progress(step, steps, loss_value, tokens / max(elapsed, 1e-9), elapsed, peak))
        # 9. The memory box: over budget means the run cannot finish safely; keep the checkpoint, stop.
        if peak - baseline_mb > cfg.memory_budget_mb:
            status = "memory_budget"
            break
    train_s = done_s + time.perf_counter() - t0
    model.eval()
    del opt, params
    release_memory()
    return model, TrainResult(status, step, tokens, train_s, tokens / max(train_s, 1e-9), peak, loss_value, resumed_from)
