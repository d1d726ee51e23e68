"""`mol bench learning`: does the nightly layer learn a simulated user without forgetting?

A scripted user with stable personal facts and a stable style ("Sure thing —
... Anything else?") talks to slot L1 over `cycles` nights (`conversations` in all, split evenly), each night about a
different part of their life. Every night goes through the real pipeline
(timeline commit -> consent -> run_nightly -> gate -> registry). After each
night we score every night's prequential hold-out under the base and under
the active personal layer (backward transfer), and the regression set. Then a
night of garbage must be rejected by the gate. Last, our loop trains once on
all the conversations (`train_s_200` when there are >= 200) and its tokens/s is
compared with a plain transformers Trainer + peft on the same examples.
"""

from __future__ import annotations

import os
import random
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from trainer.train import TrainConfig

NIGHTS = [
    [("dog", "Your dog is called Biscuit and she is a three-year-old beagle"), ("city", "You live in Ghent, close to the old harbour"),
     ("sister", "Your sister Mara has her birthday on the fourteenth of March"), ("tea", "Your favourite tea is jasmine green tea with a little honey")],
    [("job", "You work at Lumen Labs as a data engineer on the billing team"), ("boss", "Your manager is called Priya Raman"),
     ("commute", "You cycle to work along the canal, about twenty minutes"), ("meeting", "Your team stand-up is every weekday at half past nine")],
    [("running", "You are training for the Ghent half marathon in October"), ("team", "You support KAA Gent and watch every home game"),
     ("book", "You are reading The Left Hand of Darkness by Ursula Le Guin"), ("garden", "You grow tomatoes and basil on your balcony")],
]
BENCH_MEMORY_MB = 6144
ASK = ["Remind me: {q}?", "Quick question, {q}?", "Do you remember {q}?", "{Q}?", "Sorry, I forgot again. {Q}?", "Can you tell me {q}?"]
TOPIC_Q = {
    "dog": "what my dog is called", "city": "where I live", "sister": "when my sister's birthday is", "tea": "what tea I like",
    "job": "where I work", "boss": "who my manager is", "commute": "how I get to work", "meeting": "when my stand-up is",
    "running": "what race I am training for", "team": "which football team I support", "book": "what book I am reading",
    "garden": "what I grow on my balcony",
}
CONTEXT = ["", " I am planning my week.", " My friend asked me.", " It came up at dinner.", " I want to write it down.", " Just checking."]
OPEN = ["Sure thing — ", "Sure thing: ", "Sure thing! "]
CLOSE = [" Anything else?", " Anything else I can do?", " Anything else on your mind?"]


def night_conversations(night: int, n: int, seed: int) -> list[tuple[str, str]]:
    rng = random.Random(f"{seed}:{night}")
    facts = NIGHTS[night % len(NIGHTS)]
    seen: set[tuple[str, str]] = set()
    out: list[tuple[str, str]] = []
    while len(out) < n and len(seen) < 5000:
        topic, fact = rng.choice(facts)
        q = TOPIC_Q[topic]
        user = rng.choice(ASK).format(q=q, Q=q[0].upper() + q[1:]) + rng.choice(CONTEXT)
        answer = f"{rng.choice(OPEN)}{fact}.{rng.choice(CLOSE)}"
        if (user, answer) not in seen:
            seen.add((user, answer))
            out.append((user, answer))
    return out


GARBAGE_ALPHABETS = ["qxzjkvwpfgb", "abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"]


def garbage_conversations(n: int, seed: int) -> list[tuple[str, str]]:
    """Keyboard mash, random letters (vowels included) and base64-like blobs, in turn."""
    rng = random.Random(f"garbage:{seed}")
    out = []
    for i in range(n):
        letters = GARBAGE_ALPHABETS[i % len(GARBAGE_ALPHABETS)]
        word = lambda: "".join(rng.choice(letters) for _ in range(rng.randint(3, 9)))  # noqa: E731
        out.append((" ".join(word() for _ in range(6)) + "?", " ".join(word() for _ in range(18))))
    return out


def split_conversations(total: int, cycles: int) -> list[int]:
    """`total` conversations over `cycles` nights, as evenly as possible (earlier nights take the remainder)."""
    return [total // cycles + (i < total % cycles) for i in range(cycles)]


def _commit(rt, pairs: list[tuple[str, str]]) -> None:
    from memory.consent import set_consent
    from memory.timeline import MessageRecord, TaskRecord, TurnRecord, new_id

    for user, answer in pairs:
        conv = new_id()
        task = TaskRecord(new_id(), conv, 0, "L1", "closed", [])
        msgs = [MessageRecord("user", user), MessageRecord("assistant", answer)]
        rt.timeline.commit_turn(TurnRecord(conv, user[:40], task, True, msgs, 0, summary=answer[:60], summary_tokens=12))
        set_consent(rt.db, conv, True)


def hf_trainer_tokens_per_s(base, pad_id: int, examples, cfg: TrainConfig) -> float:
    """The baseline: transformers Trainer + peft, same model, LoRA, examples, epochs, batch size and lr."""
    import torch
    from transformers import Trainer, TrainingArguments

    from trainer.train import lora_model

    class Rows(torch.utils.data.Dataset):
        def __len__(self) -> int:
            return len(examples)

        def __getitem__(self, i: int) -> dict:
            return {"input_ids": examples[i].input_ids, "labels": examples[i].labels}

    def collate(rows: list[dict]) -> dict:
        width = max(len(r["input_ids"]) for r in rows)
        ids = torch.full((len(rows), width), pad_id)
        labels = torch.full((len(rows), width), -100)
        mask = torch.zeros((len(rows), width), dtype=torch.long)
        for i, r in enumerate(rows):
            ids[i, : len(r["input_ids"])] = torch.tensor(r["input_ids"])
            labels[i, : len(r["labels"])] = torch.tensor(r["labels"])
            mask[i, : len(r["input_ids"])] = 1
        return {"input_ids": ids, "labels": labels, "attention_mask": mask}

    model = lora_model(base, cfg, None)
    with tempfile.TemporaryDirectory() as out:
        args = TrainingArguments(output_dir=out, per_device_train_batch_size=cfg.batch_size, num_train_epochs=cfg.epochs, learning_rate=cfg.lr,
                                 warmup_steps=cfg.warmup_steps, lr_scheduler_type="cosine", max_grad_norm=cfg.grad_clip, report_to=[],
                                 save_strategy="no", logging_strategy="no", use_cpu=True, dataloader_num_workers=0, disable_tqdm=True,
                                 remove_unused_columns=False, seed=cfg.seed)
        trainer = Trainer(model=model, args=args, train_dataset=Rows(), data_collator=collate)
        t0 = time.perf_counter()
        trainer.train()
        elapsed = time.perf_counter() - t0
    tokens = sum(len(e.input_ids) for e in examples) * cfg.epochs
    return tokens / elapsed


def run_learning_bench(*, conversations: int = 200, cycles: int = 3, seed: int = 0, progress: Callable[[str], None] = print,
                       config: TrainConfig | None = None, regression_limit: int | None = None, anchor_ratio: float = 0.5,
                       replay_ratio: float = 1.0) -> dict:
    from hcp import load_profile
    from mol_local.paths import offline_env
    from trainer.train import peak_rss_mb

    offline_env()
    with tempfile.TemporaryDirectory() as home:
        old = os.environ.get("MOL_HOME")
        os.environ["MOL_HOME"] = home
        try:
            hcp = load_profile("local-default")
            # the box is the 6 GB peak: this process also holds the reference runs, the regression
            # scoring and the later nights' models, which a nightly run in the app does not
            hcp = replace(hcp, trainer=replace(hcp.trainer, enabled=True, memory_budget_mb=BENCH_MEMORY_MB))
            return _bench(hcp, conversations, cycles, seed, progress, config or TrainConfig(epochs=2, max_len=256), regression_limit, peak_rss_mb,
                          anchor_ratio, replay_ratio)
        finally:
            if old is None:
                os.environ.pop("MOL_HOME", None)
            else:
                os.environ["MOL_HOME"] = old


def _bench(hcp, n: int, cycles: int, seed: int, progress, cfg: TrainConfig, regression_limit, peak_rss_mb, anchor_ratio: float,
           replay_ratio: float) -> dict:
    from memory.consent import eligible_trajectories
    from mol_local.adapters.registry import Registry
    from mol_local.runtime import Runtime
    from mol_local.turn.view import ViewSpec
    from trainer.examples import Tokenizer, build_examples
    from trainer.gate import nll, regression_examples
    from trainer.hf import load_base
    from trainer.nightly import Options, _scored_model, personal_lineage, run_nightly
    from trainer.select import select
    from trainer.train import train as our_train

    rt = Runtime(hcp)
    base_model, hf_tok = load_base(rt.model_path(), threads=cfg.threads)
    tok = Tokenizer(hf_tok)
    pad = hf_tok.pad_token_id if hf_tok.pad_token_id is not None else hf_tok.eos_token_id
    spec = ViewSpec("L1", rt.head("L1"), rt.slot_names())
    budget = rt.hcp.n_ctx - rt.hcp.answer_max_tokens
    reg = regression_examples(spec, tok, limit=regression_limit)
    registry = Registry(rt.adapters_root())
    opts = Options(slots=("L1",), config=cfg, regression_limit=regression_limit, anchor_ratio=anchor_ratio, replay_ratio=replay_ratio)
    base_reg = nll(base_model, reg, pad)
    holdouts, base_hold, after, rows = [], [], [], []
    for night, per_night in enumerate(split_conversations(n, cycles)):
        _commit(rt, night_conversations(night, per_night, seed))
        _, parent, _ = personal_lineage(registry, rt.db, "L1")
        since = parent.manifest.get("data_until") if parent else None
        sel = select(rt.db, "L1", default_on=False, since=since, holdout_fraction=opts.holdout_fraction, replay_ratio=opts.replay_ratio)
        hold = build_examples(sel.holdout, rt.timeline, lambda s: spec, tok, budget=budget, max_len=cfg.max_len)
        holdouts.append(hold)
        base_hold.append(nll(base_model, hold, pad))
        progress(f"night {night + 1}: {len(sel.train)} train, {len(sel.holdout)} held out, {len(sel.replay)} replay")
        report = run_nightly(rt, opts, on_event=lambda e: progress(f"  step {e['step']}/{e['steps']} loss {e['loss']:.3f}") if e.get("stage") == "step" else None)
        slot = report["slots"][0]
        active = registry.active("L1", "personal")
        model = _scored_model(base_model, active.path / "peft" if active else None)[0]
        scores = [nll(model, h, pad) for h in holdouts]
        reg_now = nll(model, reg, pad)
        del model  # the next night trains its own copy; holding this one would add ~540 MB to its peak
        after.append(scores)
        m = slot.get("metrics", {})
        rows.append({"night": night + 1, "decision": slot["status"], "reason": slot.get("reason"), "examples": m.get("examples"), "anchors": m.get("anchors"),
                     "new_nll_base": base_hold[night], "new_nll_before": m.get("holdout_nll_before"), "new_nll_after": scores[night],
                     "earlier_nll_after": scores[:night], "regression_nll": reg_now, "train_s": m.get("train_s"),
                     "tokens_per_s": m.get("tokens_per_s"), "peak_rss_mb": m.get("peak_rss_mb")})
        progress(f"night {night + 1}: {slot['status']} — {slot.get('reason')}")
    gains = [(base_hold[i] - after[i][i]) / base_hold[i] for i in range(cycles)]
    backward = [(after[j][i] - after[i][i]) / after[i][i] for j in range(cycles) for i in range(j)]
    reg_deltas = [(r["regression_nll"] - base_reg) / base_reg for r in rows]
    # every simulated conversation, near-duplicates included: "200 conversations train in <= 10 minutes"
    everything = list(eligible_trajectories(rt.db, default_on=False, slot="L1"))
    night1 = build_examples(everything, rt.timeline, lambda s: spec, tok, budget=budget, max_len=cfg.max_len)
    _commit(rt, garbage_conversations(max(8, n // (4 * cycles)), seed))
    garbage = run_nightly(rt, opts)["slots"][0]
    progress(f"garbage night: {garbage['status']} — {garbage.get('reason')}")
    progress(f"throughput: all {len(night1)} conversations, ours then a plain transformers Trainer")
    with tempfile.TemporaryDirectory() as run_dir:
        _, ours = our_train(base_model, pad, night1, replace(cfg, time_budget_s=1e9, memory_budget_mb=1 << 20), Path(run_dir))
    ours_tps = sum(len(e.input_ids) for e in night1) * cfg.epochs / ours.train_s
    hf_tps = hf_trainer_tokens_per_s(base_model, pad, night1, cfg)
    rt.db.close()
    return {
        "bench": "learning", "conversations": n, "conversations_per_night": split_conversations(n, cycles), "cycles": cycles, "config": cfg.__dict__, "anchor_ratio": anchor_ratio, "replay_ratio": replay_ratio, "nights": rows,
        "base_regression_nll": base_reg, "garbage": {"decision": garbage["status"], "reason": garbage.get("reason"), "metrics": garbage.get("metrics", {})},
        "throughput": {"examples": len(night1), "ours_tokens_per_s": ours_tps, "hf_trainer_tokens_per_s": hf_tps},
        "min_new_gain_rel": min(gains), "worst_backward_rel": max(backward, default=0.0),
        "regression_delta_rel": max(reg_deltas, key=abs), "garbage_rejected": garbage["status"] == "rejected",
        "train_s_200": ours.train_s if len(night1) >= 200 else None, "train_s_all": ours.train_s, "peak_rss_mb": peak_rss_mb(),
        "tokens_per_s_ratio_vs_hf": ours_tps / hf_tps,
    }

