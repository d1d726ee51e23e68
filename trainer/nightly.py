"""One consolidation run: opt-in -> lock -> per slot: select -> examples -> score before ->
re-check consent -> train -> export + parity -> score after -> gate -> promote or reject.

Every slot attempt leaves one `trainer_runs` row. A run stopped by the time box
keeps its checkpoint under `$MOL_HOME/trainer/runs/<slot>-<key>/` and the next
run with the same parent and data resumes it.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import statistics
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from hcp import HCP
from memory.consent import consent_overview
from memory.forget import retrain_marks
from memory.timeline import new_id, now_iso
from mol_local.adapters.registry import Registry, Revision
from mol_local.engine.base import AdapterSpec
from mol_local.adapters.manifest import base_fingerprint
from mol_local.models import inspect_gguf
from mol_local.paths import mol_home
from mol_local.turn.view import ViewSpec
from trainer.errors import BudgetError, ExportFailed
from trainer.lock import RunLock
from trainer.select import Selection, select, still_eligible
from trainer.stacking import SUITE_LIMIT, active_specialist, suite_score, under_stack, with_specialist
from trainer.train import TrainConfig

Event = Callable[[dict], None]


@dataclass(frozen=True)
class Options:
    slots: tuple[str, ...] = ()
    dry_run: bool = False
    config: TrainConfig = field(default_factory=TrainConfig)
    regression_limit: int | None = None
    route_limit: int | None = None
    holdout_fraction: float = 0.2
    replay_ratio: float = 1.0  # older examples replayed per new one; 0.5 let an earlier night slip by up to +21 % (3 runs), 1.0 did not
    anchor_ratio: float = 0.5  # anchors (the base's own answers to general prompts) per new example; see trainer.anchors
    specialist_suite_limit: int = SUITE_LIMIT  # held-out specialist cases the gate runs twice (0: skip that check)


def min_memory_mb(base: Path) -> int:
    """Two fp32 copies of the base (shared + trainable view) plus activations and the runtime."""
    info = inspect_gguf(base)
    params = sum(_prod(shape) for shape in info.tensors.values())
    return int(params * 4 * 2 / 2**20) + 768


def _prod(shape: tuple[int, ...]) -> int:
    out = 1
    for n in shape:
        out *= int(n)
    return out


def check_budgets(hcp: HCP, base: Path) -> None:
    need = min_memory_mb(base)
    have = hcp.trainer.memory_budget_mb
    if have < need:
        raise BudgetError(
            f"HCP trainer.memory_budget_mb = {have} is below the ~{need} MiB this base needs to train — "
            f"raise it to at least {need} (`mol hcp set trainer.memory_budget_mb {need}`)"
        )


def opted_in(rt) -> tuple[bool, str]:
    if not rt.hcp.trainer.enabled:
        return False, "training is off (HCP trainer.enabled = false) — nothing to do; enable it with `mol hcp set trainer.enabled true`"
    if not any(s.on for s in consent_overview(rt.db, default_on=rt.hcp.consent.default)):
        return False, "no conversation has training consent — nothing to do; turn it on with `mol consent on CONVERSATION`"
    return True, "ok"


def personal_lineage(registry: Registry, db, slot: str) -> tuple[Revision | None, Revision | None, list[str]]:
    """(active personal revision, the parent to train from, dirty revisions skipped).

    The parent is the active revision unless it or an ancestor was marked by a
    forget; then it is the newest clean ancestor (or none: start fresh).
    """
    active = registry.active(slot, "personal")
    marked = {Path(r["revision_path"]).resolve() for r in retrain_marks(db)}
    chain: list[Revision] = []
    rev = active
    while rev is not None:
        chain.append(rev)
        parent = rev.manifest.get("parent_revision")
        rev = registry.revision(slot, "personal", parent) if parent else None
    dirty_idx = [i for i, r in enumerate(chain) if r.path.resolve() in marked]
    if not dirty_idx:
        return active, active, []
    deepest = max(dirty_idx)
    clean = chain[deepest + 1] if deepest + 1 < len(chain) else None
    return active, clean, [r.revision for r in chain[: deepest + 1]]


def _record(db, row: dict) -> None:
    from memory.db import transaction

    with transaction(db) as tx:
        tx["trainer_runs"].insert({k: (json.dumps(v) if isinstance(v, (dict, list)) else v) for k, v in row.items()})


def run_nightly(rt, opts: Options = Options(), *, on_event: Event | None = None) -> dict:
    """The whole job; returns a JSON-able report. Raises only user errors (budgets, lock)."""
    emit = on_event or (lambda _e: None)
    ok, message = opted_in(rt)
    if not ok:
        return {"status": "skipped", "message": message, "slots": []}
    base = rt.model_path()
    check_budgets(rt.hcp, base)
    cfg = replace(opts.config, time_budget_s=rt.hcp.trainer.time_budget_min * 60.0, memory_budget_mb=rt.hcp.trainer.memory_budget_mb)
    lock = RunLock(mol_home() / "trainer" / "lock")
    with lock:
        if lock.stale_recovered:
            emit({"stage": "lock", "stale_recovered": lock.stale_recovered})
        slots = opts.slots or tuple(rt.hcp.slots)
        reports = [_run_slot(rt, slot, base, replace(opts, config=cfg), emit) for slot in slots]
    return {"status": "done", "message": f"{sum(r['status'] == 'promoted' for r in reports)} slot(s) promoted", "slots": reports}


def _run_slot(rt, slot: str, base: Path, opts: Options, emit: Event) -> dict:
    registry = Registry(rt.adapters_root())
    active, parent, dirty = personal_lineage(registry, rt.db, slot)
    since = parent.manifest.get("data_until") if parent else None
    sel = select(rt.db, slot, default_on=rt.hcp.consent.default, since=since, holdout_fraction=opts.holdout_fraction, replay_ratio=opts.replay_ratio)
    report = {
        "slot": slot,
        "parent": parent.revision if parent else None,
        "active_before": active.revision if active else None,
        "retrain_from_clean_parent": dirty,
        "selected": {"train": len(sel.train), "holdout": len(sel.holdout), "replay": len(sel.replay)},
        "dropped": dict(sel.dropped),
        "scrubbed": dict(sel.scrubbed),
    }
    emit({"stage": "selected", **report})
    if not sel.train:
        return {**report, "status": "skipped", "reason": "no new eligible conversations for this slot"}
    if not sel.holdout:
        return {**report, "status": "skipped", "reason": "too little new data for a held-out score — needs at least 2 new turns"}
    if opts.dry_run:
        return {**report, "status": "dry_run", "reason": "dry run: nothing trained"}
    started = now_iso()
    run_id = new_id()
    row = {"id": run_id, "slot": slot, "started_at": started, "parent_revision": report["parent"], "config": asdict(opts.config)}
    try:
        result = _train_and_gate(rt, slot, base, sel, parent, active, registry, opts, emit, run_id)
    except ExportFailed as exc:
        result = {"status": "failed", "reason": str(exc), "metrics": {}, "data_ids": [], "revision": None}
    row.update(
        finished_at=now_iso(),
        status=result["status"],
        reason=result["reason"],
        revision=result.get("revision"),
        metrics=result["metrics"],
        data_ids=result["data_ids"],
    )
    _record(rt.db, row)
    emit({"stage": "finished", "slot": slot, "status": result["status"], "reason": result["reason"]})
    return {**report, "run_id": run_id, **{k: v for k, v in result.items() if k != "data_ids"}}


def _run_dir(slot: str, parent: Revision | None, sel: Selection, cfg: TrainConfig) -> Path:
    key_src = json.dumps([parent.revision if parent else None, sorted(sel.ids), asdict(replace(cfg, time_budget_s=0))], sort_keys=True)
    return mol_home() / "trainer" / "runs" / f"{slot}-{hashlib.sha256(key_src.encode()).hexdigest()[:12]}"


def _scored_model(base_model, peft_dir: Path | None):
    from trainer.train import lora_model

    if peft_dir is None or not peft_dir.is_dir():
        return base_model, None
    model = lora_model(base_model, TrainConfig(), peft_dir)
    model.eval()
    return model, model


def _train_and_gate(rt, slot, base, sel, parent, active, registry, opts: Options, emit: Event, run_id: str) -> dict:
    from trainer.anchors import anchor_examples
    from trainer.examples import Tokenizer, build_examples
    from trainer.export import check_parity, export_gguf, save_peft
    from trainer.gate import decide, nll, nll_per_char, quality_split, regression_examples, route_accuracy, route_set
    from trainer.hf import load_base
    from trainer.train import peak_rss_mb, rss_mb, train

    cfg = opts.config
    start_mb = rss_mb()  # the memory box charges this run only what it adds (see trainer.train)
    bare_model, hf_tok = load_base(base, threads=cfg.threads)
    # the personal layer learns on top of the slot's specialist, as it will run (see trainer.stacking)
    specialist = active_specialist(registry, slot, base_fingerprint(base))
    base_model = with_specialist(bare_model, specialist)
    under = under_stack(specialist)
    route_hop = slot == rt.hcp.entry_slot and specialist is None  # with an answer specialist, personal layers stay off the route hop
    tok = Tokenizer(hf_tok)
    pad = hf_tok.pad_token_id if hf_tok.pad_token_id is not None else hf_tok.eos_token_id
    spec = ViewSpec(slot, rt.head(slot), rt.slot_names())
    budget = rt.hcp.n_ctx - rt.hcp.answer_max_tokens
    specs = lambda s: ViewSpec(s, rt.head(s), rt.slot_names())  # noqa: E731
    new_ex = build_examples(sel.train, rt.timeline, specs, tok, budget=budget, max_len=cfg.max_len)
    hold_ex = build_examples(sel.holdout, rt.timeline, lambda s: spec, tok, budget=budget, max_len=cfg.max_len)
    replay_ex = build_examples(sel.replay, rt.timeline, specs, tok, budget=budget, max_len=cfg.max_len)
    reg_ex = regression_examples(spec, tok, limit=opts.regression_limit)
    run_dir = _run_dir(slot, parent, sel, cfg)
    run_dir.mkdir(parents=True, exist_ok=True)
    current_peft = active.path / "peft" if active else None

    # data quality: tonight's answers, scored by the bare base, must read like language (see gate.quality_split)
    quality_path = run_dir / "quality.json"
    if quality_path.is_file():
        scores = json.loads(quality_path.read_text(encoding="utf-8"))
    else:
        emit({"stage": "quality", "slot": slot})
        scores = nll_per_char(bare_model, new_ex + hold_ex, pad, lambda ids: hf_tok.decode(ids, skip_special_tokens=True))
        quality_path.write_text(json.dumps(scores), encoding="utf-8")
    kept, dropped = quality_split(scores, rt.hcp.trainer.gate)
    quality = {"data_nll_per_char_max_seen": max(scores, default=0.0), "data_nll_per_char_median": statistics.median(scores) if scores else 0.0,
               "garbage_dropped": len(dropped), "new_examples": len(scores)}
    keep, n_new = set(kept), len(new_ex)
    new_ex = [e for i, e in enumerate(new_ex) if i in keep]
    hold_ex = [e for i, e in enumerate(hold_ex) if n_new + i in keep]
    if not hold_ex and len(new_ex) >= 2:  # as in select(): at least one clean example is held out
        hold_ex = [new_ex.pop()]
    if not new_ex or not hold_ex:
        limit = rt.hcp.trainer.gate.data_nll_per_char_max
        reason = (f"data quality: {len(dropped)} of {len(scores)} new examples read as garbage (base-model NLL above "
                  f"trainer.gate.data_nll_per_char_max = {limit} nats/char, median {quality['data_nll_per_char_median']:.2f}) — too little left to train and score")
        shutil.rmtree(run_dir, ignore_errors=True)
        return {"status": "rejected", "reason": reason, "metrics": quality, "data_ids": [], "revision": None}
    train_ex = new_ex + replay_ex
    # anchors keep the user's style out of general answers (the regression set); they hold no user data
    anchor_ex = anchor_examples(tok, spec, round(opts.anchor_ratio * len(new_ex)))

    # prequential: tonight's held-out is scored by the current stack BEFORE anything learns from it
    before_path = run_dir / "before.json"
    if before_path.is_file():
        before = json.loads(before_path.read_text(encoding="utf-8"))
    else:
        emit({"stage": "score_before", "slot": slot})
        current, _ = _scored_model(base_model, current_peft)
        before = {"holdout_nll_before": nll(current, hold_ex, pad), "regression_nll_before": nll(current, reg_ex, pad)}
        before["regression_nll_base"] = nll(base_model, reg_ex, pad) if current is not base_model else before["regression_nll_before"]
        del current
        if route_hop and rt.hcp.routing_mode in ("grammar", "hybrid"):
            before["route_acc_before"] = route_accuracy(rt, rt.route_stack(), route_set(opts.route_limit))
        if specialist is not None and opts.specialist_suite_limit:
            emit({"stage": "specialist_suite", "slot": slot})
            current = under + ((active.spec(),) if active else ())
            before["specialist_suite_before"] = suite_score(rt, slot, current, limit=opts.specialist_suite_limit)
        before_path.write_text(json.dumps(before), encoding="utf-8")

    # consent is re-checked at train time: a conversation turned off since selection is out
    emit({"stage": "train", "slot": slot, "examples": len(train_ex)})
    allowed = {t.training_id for t in still_eligible(rt.db, sel.train + sel.replay, slot=slot, default_on=rt.hcp.consent.default)}
    train_ex = [e for e in train_ex if e.training_id in allowed]
    data_ids = sorted({e.training_id for e in train_ex})
    if not train_ex:
        return {"status": "rejected", "reason": "no example left after re-checking consent", "metrics": before, "data_ids": [], "revision": None}
    train_ex += anchor_ex
    init_from = parent.path / "peft" if parent and (parent.path / "peft").is_dir() else None
    model, res = train(base_model, pad, train_ex, cfg, run_dir, init_from=init_from, on_progress=lambda p: emit({"stage": "step", "slot": slot, **asdict(p)}),
                       baseline_mb=start_mb)
    metrics = {**before, **quality, "train_s": res.train_s, "tokens": res.tokens, "tokens_per_s": res.tokens_per_s, "steps": res.steps,
               "resumed_from_step": res.resumed_from, "peak_rss_mb": max(res.peak_rss_mb, peak_rss_mb()), "examples": len(train_ex),
               "anchors": len(anchor_ex)}
    if res.status == "time_budget":
        return {"status": "paused", "reason": f"time budget reached at step {res.steps} — the next run resumes", "metrics": metrics, "data_ids": data_ids, "revision": None}
    if res.status == "memory_budget":
        shutil.rmtree(run_dir, ignore_errors=True)
        return {"status": "rejected", "reason": f"the run added {res.peak_rss_mb - start_mb:.0f} MiB, over trainer.memory_budget_mb", "metrics": metrics, "data_ids": data_ids, "revision": None}

    emit({"stage": "export", "slot": slot})
    peft_dir = save_peft(model, run_dir / "peft")
    gguf = export_gguf(peft_dir, base, run_dir / "adapter.gguf")
    metrics["parity_corr"] = check_parity(model, gguf, base, max(train_ex, key=lambda e: len(e.input_ids)).input_ids, under=under)
    emit({"stage": "score_after", "slot": slot})
    metrics["holdout_nll_after"] = nll(model, hold_ex, pad)
    metrics["regression_nll_after"] = nll(model, reg_ex, pad)
    if "route_acc_before" in before:
        current_personal = active.spec() if active else None
        stack = tuple(s for s in rt.route_stack() if s != current_personal) + (AdapterSpec(str(gguf), 1.0),)
        metrics["route_acc_after"] = route_accuracy(rt, stack, route_set(opts.route_limit))
    if before.get("specialist_suite_before") is not None:
        emit({"stage": "specialist_suite", "slot": slot})
        candidate = under + (AdapterSpec(str(gguf), 1.0),)
        metrics["specialist_suite_after"] = suite_score(rt, slot, candidate, limit=opts.specialist_suite_limit)
    verdict = decide(metrics, rt.hcp.trainer.gate)
    if not verdict.promote:
        shutil.rmtree(run_dir, ignore_errors=True)
        return {"status": "rejected", "reason": verdict.reason, "metrics": verdict.metrics, "data_ids": data_ids, "revision": None}
    data_until = max(t.created_at for t in sel.train + sel.holdout)
    extra = {"data_until": data_until, "train_config": asdict(cfg), "trainer_run": run_id, "hops": ["route", "answer"] if route_hop else ["answer"],
             "stacked_on": specialist.revision if specialist else None}
    try:
        rev = registry.register(slot, "personal", gguf, base=base, peft_dir=peft_dir, parent=parent.revision if parent else None,
                                training_ids=data_ids, evidence=verdict.metrics, extra=extra, activate=True)
    except OSError as exc:
        from trainer.export import _disk_message

        raise ExportFailed(_disk_message(exc, registry.layer_dir(slot, "personal"))) from exc
    shutil.rmtree(run_dir, ignore_errors=True)
    return {"status": "promoted", "reason": verdict.reason, "metrics": verdict.metrics, "data_ids": data_ids, "revision": rev.revision}
