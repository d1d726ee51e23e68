"""Train the L0 route adapter for the embedded base: `python -m trainer.route_recipe`.

Rerunnable, CPU-only: ~3 min for 1,280 requests on 2 idle cores (only layers 26-29 are adapted).
The prompt is exactly what the router sends (route_messages + the model's chat template, tokenized by
llama.cpp itself), then the forced "L" of the label; the loss is a 4-way
cross-entropy over the label digits at that position, which is the only
choice the grammar `root ::= "L0" | "L1" | "L2" | "L3"` leaves the model.

Every prompt shares the routing instruction as a token prefix. Each step runs
that prefix once (with gradients: the LoRA changes it too), shares its KV
across the batch, and runs only the short per-request suffixes on top. The
result is a PEFT directory and its GGUF (our converter), written to --out.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from hcp.schema import SLOT_LABELS
from mol_local.paths import offline_env

SHIPPED = Path(__file__).resolve().parent.parent / "mol_local" / "adapters" / "shipped" / "smollm2-route"
LABELS = SLOT_LABELS


def tokenized_examples(rows: list[dict], base: Path) -> tuple[list[list[int]], list[int], list[int]]:
    """(prompt+"L" token ids, label index, digit token ids) with the router's exact tokenization."""
    from mol_local.engine.llamacpp import LlamaCppEngine
    from mol_local.router import route_messages
    from personas import load_pack

    engine = LlamaCppEngine(base, n_ctx=512, kv_cells=512, sequences=("route",))
    try:
        instruction = load_pack("local-default").route
        digits = []
        for label in LABELS:
            ids = engine._tok(label, False)
            if len(ids) != 2:
                raise SystemExit(f"label {label} tokenizes to {ids}; this recipe expects 'L' + one digit token")
            digits.append(ids[1])
        lead = engine._tok("L0", False)[0]
        seqs = [engine.tokenize_messages(route_messages(instruction, r["text"])) + [lead] for r in rows]
    finally:
        engine.close()
    return seqs, [LABELS.index(r["slot"]) for r in rows], digits


def common_prefix_len(seqs: list[list[int]]) -> int:
    first = seqs[0]
    n = min(len(s) for s in seqs) - 1
    for s in seqs[1:]:
        i = 0
        while i < n and s[i] == first[i]:
            i += 1
        n = i
    return n


def load_base_in_transformers(base: Path):
    import torch
    from transformers import AutoModelForCausalLM
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    hf_logging.set_verbosity_error()
    model = AutoModelForCausalLM.from_pretrained(str(base.parent), gguf_file=base.name, dtype=torch.float32)
    return model


def packed_inputs(prefix, tails):
    """One sequence: the shared prefix, then every request tail, each seeing only the prefix and itself.

    `prefix` is (P, d) and `tails` a list of (R_i, d) hidden states (or ids as
    1-D tensors). Returns the packed tensor, position ids, an additive mask and
    the index of each tail's last token.
    """
    import torch

    plen = prefix.shape[0]
    total = plen + sum(t.shape[0] for t in tails)
    mask = torch.full((total, total), float("-inf"))
    mask[:plen, :plen] = torch.triu(torch.full((plen, plen), float("-inf")), diagonal=1)
    positions = list(range(plen))
    lasts = []
    at = plen
    for tail in tails:
        n = tail.shape[0]
        mask[at : at + n, :plen] = 0.0
        mask[at : at + n, at : at + n] = torch.triu(torch.full((n, n), float("-inf")), diagonal=1)
        positions.extend(range(plen, plen + n))
        at += n
        lasts.append(at - 1)
    packed = torch.cat([prefix, *tails], dim=0).unsqueeze(0)
    return packed, torch.tensor([positions]), mask[None, None], torch.tensor(lasts)


def run_layers(inner, hidden, positions, mask, layers):
    cos_sin = inner.rotary_emb(hidden, positions)
    for layer in layers:
        hidden = layer(hidden, attention_mask=mask, position_ids=positions, position_embeddings=cos_sin)
    return hidden


def lower_states(inner, prefix_ids, tails_ids, first_layer, batch):
    """Hidden states entering layer `first_layer` (LoRA-free below it): prefix (P, d), each tail (R_i, d)."""
    import torch

    below = inner.layers[:first_layer]
    out = []
    with torch.no_grad():
        prefix_state = None
        for start in range(0, len(tails_ids), batch):
            chunk = tails_ids[start : start + batch]
            embeds = inner.embed_tokens(torch.cat([prefix_ids, *chunk]))
            sizes = [prefix_ids.shape[0]] + [c.shape[0] for c in chunk]
            pieces = list(torch.split(embeds, sizes))
            packed, pos, mask, _ = packed_inputs(pieces[0], pieces[1:])
            hidden = run_layers(inner, packed, pos, mask, below)[0]
            parts = list(torch.split(hidden, sizes))
            prefix_state = parts[0]
            out.extend(p.clone() for p in parts[1:])
    return prefix_state, out


def label_logits(inner, head_rows, prefix_state, tail_states, first_layer):
    """The 4 label-digit logits at each tail's last token, LoRA layers from `first_layer` up."""
    packed, pos, mask, lasts = packed_inputs(prefix_state, tail_states)
    hidden = run_layers(inner, packed, pos, mask, inner.layers[first_layer:])
    picked = inner.norm(hidden[0, lasts])
    return picked @ head_rows.T


def train(args: argparse.Namespace) -> dict:
    import torch
    from peft import LoraConfig, get_peft_model

    from mol_local.models import resolve_model
    from trainer.route_data import requests

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    base = resolve_model("builtin:smollm2-135m")
    train_rows = list(requests("train", per_slot=args.per_slot, seed=args.seed))
    held_rows = list(requests("heldout", per_slot=args.per_slot, seed=args.seed))
    seqs, labels, digits = tokenized_examples(train_rows + held_rows, base)
    n_train = len(train_rows)
    plen = common_prefix_len(seqs)
    prefix_ids = torch.tensor(seqs[0][:plen])
    model = load_base_in_transformers(base)
    n_layers = model.config.num_hidden_layers
    first = min(max(0, args.first_layer), n_layers - 1)
    config = LoraConfig(
        r=args.rank, lora_alpha=args.alpha, lora_dropout=0.0, target_modules=list(args.targets),
        layers_to_transform=list(range(first, n_layers)), bias="none",
    )
    model = get_peft_model(model, config)
    inner = model.get_base_model().model
    head_rows = model.get_output_embeddings().weight[torch.tensor(digits)].detach()
    t0 = time.time()
    prefix_state, tail_states = lower_states(inner, prefix_ids, [torch.tensor(s[plen:]) for s in seqs], first, 16)
    print(f"lower layers precomputed for {len(seqs)} requests in {time.time() - t0:.0f}s", flush=True)
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=args.lr, weight_decay=0.0)
    order = list(range(n_train))
    rng = random.Random(args.seed)
    steps = 0
    total_steps = args.epochs * ((n_train + args.batch - 1) // args.batch)
    warm = max(1, total_steps // 10)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min((s + 1) / warm, max(0.05, (total_steps - s) / max(1, total_steps - warm)))
    )
    model.train()
    for epoch in range(args.epochs):
        rng.shuffle(order)
        for start in range(0, n_train, args.batch):
            chunk = order[start : start + args.batch]
            logits = label_logits(inner, head_rows, prefix_state, [tail_states[i] for i in chunk], first)
            loss = torch.nn.functional.cross_entropy(logits, torch.tensor([labels[i] for i in chunk]))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            steps += 1
            if steps % 5 == 0:
                print(f"epoch {epoch} step {steps}/{total_steps} loss {loss.item():.4f} {time.time() - t0:.0f}s", flush=True)
    model.eval()
    correct = 0
    held = list(range(n_train, len(seqs)))
    with torch.no_grad():
        for start in range(0, len(held), 16):
            chunk = held[start : start + 16]
            pred = label_logits(inner, head_rows, prefix_state, [tail_states[i] for i in chunk], first).argmax(-1)
            correct += int((pred == torch.tensor([labels[i] for i in chunk])).sum())
    held_acc = correct / max(1, len(held))
    out = Path(args.out)
    peft_dir = out / "peft"
    model.save_pretrained(str(peft_dir), safe_serialization=True)
    for extra in peft_dir.glob("README.md"):
        extra.unlink()
    from mol_local.adapters.convert import convert_peft_to_gguf
    from mol_local.adapters.manifest import hashed_id

    convert_peft_to_gguf(peft_dir, base, out / "adapter.gguf", dtype="f16")
    report = {
        "train_examples": n_train,
        "heldout_examples": len(seqs) - n_train,
        "heldout_accuracy_transformers": round(held_acc, 4),
        "train_seconds": round(time.time() - t0, 1),
        "steps": steps,
        "recipe": {k: v for k, v in vars(args).items() if k != "out"},
        "training_data_ids": sorted(hashed_id(f"route:{r['slot']}:{r['text']}") for r in train_rows),
    }
    (out / "train_report.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    return report


def main(argv: list[str] | None = None) -> None:
    offline_env()
    parser = argparse.ArgumentParser(prog="python -m trainer.route_recipe", description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(SHIPPED), help="folder for peft/, adapter.gguf, train_report.json")
    parser.add_argument("--per-slot", type=int, default=320)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch", type=int, default=24)
    parser.add_argument("--rank", type=int, default=8)
    parser.add_argument("--alpha", type=float, default=16.0)
    parser.add_argument("--lr", type=float, default=4e-3)
    parser.add_argument("--first-layer", type=int, default=26, help="adapt layers from this one to the last")
    parser.add_argument("--targets", nargs="+", default=["q_proj", "v_proj", "o_proj"])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    report = train(parser.parse_args(argv))
    print(json.dumps({k: v for k, v in report.items() if k != "training_data_ids"}, indent=1))


if __name__ == "__main__":
    main()
