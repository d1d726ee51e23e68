"""Train one answer slot's specialist LoRA for the embedded base: `python -m trainer.specialists.recipe --slot L0`.

CPU-only and rerunnable. Top to bottom:
1. Data: the slot's verified cases (tool runs checked against the real stores,
   documents validated, code run against its tests) and a pool of every slot's
   train cases for the conversation history each sequence starts with.
2. Sequences: the slot's own view as a real turn builds it, answer + summary
   hop in one sequence, loss only on what the slot wrote (sequences.py).
3. Cost: every sequence starts with the same system head, and the LoRA sits on
   the upper layers only. So the lower layers run once, without gradients, for
   the whole data set; each step packs several sequences behind one copy of the
   head (each sees the head and itself) and runs only the upper layers.
4. AdamW with warmup and cosine decay, gradient clipping; then the PEFT folder,
   its GGUF (our converter, parity-tested) and `recipe.json` (this config) go to --out.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from hcp.schema import SLOT_LABELS
from mol_local.paths import offline_env
from trainer.examples import IGNORE

SHIPPED = Path(__file__).resolve().parents[2] / "mol_local" / "adapters" / "shipped"


@dataclass(frozen=True)
class SpecialistConfig:
    slot: str
    rank: int = 16
    alpha: float = 32.0
    first_layer: int = 20  # LoRA on layers first_layer..last (the lower ones run once, frozen)
    targets: tuple[str, ...] = ("q_proj", "k_proj", "v_proj", "o_proj")
    lr: float = 2e-3
    epochs: int = 1
    pack_tokens: int = 600  # tail tokens per step, behind one shared head
    max_len: int = 1536
    scale: float = 1.0  # data size multiplier for the generators
    seed: int = 7
    threads: int = 2
    warmup_frac: float = 0.06
    grad_clip: float = 1.0

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1, sort_keys=True)


def common_prefix_len(seqs: list[list[int]]) -> int:
    first = seqs[0]
    n = min(len(s) for s in seqs) - 1
    for s in seqs[1:]:
        i = 0
        while i < n and s[i] == first[i]:
            i += 1
        n = i
    return n


def packs(lengths: list[int], budget: int, rng: random.Random) -> list[list[int]]:
    """Indices grouped so each pack's tails sum to at most `budget` tokens (a long one alone); shuffled."""
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    out: list[list[int]] = []
    current: list[int] = []
    used = 0
    for i in order:
        if current and used + lengths[i] > budget:
            out.append(current)
            current, used = [], 0
        current.append(i)
        used += lengths[i]
    if current:
        out.append(current)
    rng.shuffle(out)
    return out


def targets_of(labels: list[int], plen: int) -> tuple[list[int], list[int]]:
    """(positions within the tail whose next token is a target, those target ids)."""
    pos, tgt = [], []
    for j in range(plen - 1, len(labels) - 1):
        if labels[j + 1] != IGNORE:
            pos.append(j - plen)
            tgt.append(labels[j + 1])
    return pos, tgt


def train_specialist(cfg: SpecialistConfig, sequences, out: Path, *, log=print) -> dict:
    """Train on `sequences` (sequences.Sequence_) and write peft/, adapter.gguf, recipe.json to `out`."""
    import torch
    from peft import LoraConfig, get_peft_model

    from mol_local.adapters.convert import convert_peft_to_gguf
    from mol_local.models import resolve_model
    from trainer.route_recipe import load_base_in_transformers, lower_states, packed_inputs, run_layers

    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.threads)
    base = resolve_model("builtin:smollm2-135m")
    seqs = [s.ids for s in sequences]
    plen = common_prefix_len(seqs)
    log(f"{len(seqs)} sequences, shared head {plen} tokens, {sum(len(s) - plen for s in seqs)} tail tokens")
    model = load_base_in_transformers(base)
    n_layers = model.config.num_hidden_layers
    first = min(max(0, cfg.first_layer), n_layers - 1)
    lora = LoraConfig(r=cfg.rank, lora_alpha=cfg.alpha, lora_dropout=0.0, target_modules=list(cfg.targets),
                      layers_to_transform=list(range(first, n_layers)), bias="none")
    model = get_peft_model(model, lora)
    inner = model.get_base_model().model
    head = model.get_output_embeddings()
    t0 = time.time()

    # 1. The frozen lower layers, once: the head's states and every tail's, as the upper layers will see them.
    prefix_ids = torch.tensor(seqs[0][:plen])
    prefix_state, tail_states = lower_states(inner, prefix_ids, [torch.tensor(s[plen:]) for s in seqs], first, 4)
    targets = [targets_of(s.labels, plen) for s in sequences]
    log(f"lower layers precomputed in {time.time() - t0:.0f}s")

    # 2. The schedule is fixed up front: epochs x packs, warmup then cosine to 10 %.
    rng = random.Random(cfg.seed)
    lengths = [len(s) - plen for s in seqs]
    plan = [p for _ in range(cfg.epochs) for p in packs(lengths, cfg.pack_tokens, rng)]
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=cfg.lr, weight_decay=0.0)
    warm = max(1, int(len(plan) * cfg.warmup_frac))

    def lr_at(i: int) -> float:
        if i < warm:
            return cfg.lr * (i + 1) / warm
        progress = (i - warm) / max(1, len(plan) - warm)
        return cfg.lr * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * progress)))

    model.train()
    losses: list[float] = []
    for step, pack in enumerate(plan):
        for group in opt.param_groups:
            group["lr"] = lr_at(step)
        # 3. One copy of the head, then each tail attending to the head and to itself only.
        packed, pos, mask, _ = packed_inputs(prefix_state, [tail_states[i] for i in pack])
        hidden = run_layers(inner, packed, pos, mask, inner.layers[first:])[0]
        rows, ids = [], []
        at = plen
        for i in pack:
            rows += [at + p for p in targets[i][0]]
            ids += targets[i][1]
            at += lengths[i]
        logits = head(inner.norm(hidden[torch.tensor(rows)]))
        loss = torch.nn.functional.cross_entropy(logits.float(), torch.tensor(ids))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, cfg.grad_clip)
        opt.step()
        losses.append(float(loss.detach()))
        if (step + 1) % 10 == 0 or step + 1 == len(plan):
            recent = sum(losses[-10:]) / len(losses[-10:])
            log(f"step {step + 1}/{len(plan)} loss {recent:.4f} {time.time() - t0:.0f}s")
    model.eval()

    # 4. What ships: the PEFT folder, its GGUF, and the config that made it.
    out.mkdir(parents=True, exist_ok=True)
    peft_dir = out / "peft"
    model.save_pretrained(str(peft_dir), safe_serialization=True)
    for extra in peft_dir.glob("README.md"):
        extra.unlink()
    convert_peft_to_gguf(peft_dir, base, out / "adapter.gguf", dtype="f16")
    (out / "recipe.json").write_text(cfg.to_json(), encoding="utf-8")
    return {
        "sequences": len(seqs),
        "head_tokens": plen,
        "tail_tokens": sum(lengths),
        "steps": len(plan),
        "train_seconds": round(time.time() - t0, 1),
        "first_loss": round(sum(losses[:10]) / max(1, len(losses[:10])), 4),
        "last_loss": round(sum(losses[-10:]) / max(1, len(losses[-10:])), 4),
        "adapter_bytes": (out / "adapter.gguf").stat().st_size,
    }


def main(argv: list[str] | None = None) -> None:
    offline_env()
    from trainer.specialists.build import build_and_train

    parser = argparse.ArgumentParser(prog="python -m trainer.specialists.recipe", description=__doc__.splitlines()[0])
    parser.add_argument("--slot", required=True, choices=[*SLOT_LABELS, "union"])
    parser.add_argument("--out", help="folder for peft/, adapter.gguf, recipe.json (default: the shipped folder)")
    defaults = SpecialistConfig("L0")
    for name in ("rank", "first_layer", "epochs", "pack_tokens", "seed"):
        parser.add_argument(f"--{name.replace('_', '-')}", type=int, default=getattr(defaults, name))
    for name in ("alpha", "lr", "scale"):
        parser.add_argument(f"--{name}", type=float, default=getattr(defaults, name))
    args = parser.parse_args(argv)
    cfg = SpecialistConfig(args.slot, rank=args.rank, alpha=args.alpha, first_layer=args.first_layer, lr=args.lr,
                           epochs=args.epochs, pack_tokens=args.pack_tokens, scale=args.scale, seed=args.seed)
    out = Path(args.out) if args.out else SHIPPED / f"smollm2-{args.slot.lower()}"
    report = build_and_train(cfg, out)
    print(json.dumps({k: v for k, v in report.items() if k != "training_data_ids"}, indent=1))


if __name__ == "__main__":
    main()
