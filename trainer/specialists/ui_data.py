"""L3 (Generative UI) cases and their verifier.

Requests come from our own templates (`ui_templates`, `ui_templates_more`)
with the content the user names; the gold answer is the one minimal document
that holds it (`ui_docs.build`), written as L3 writes it under the grammar and
as the turn loop stores it (`UIDocument.dumps`). A gold case is kept only if
its document validates before any repair, the real llama.cpp grammar sampler
accepts it token by token, it fits the answer budget and `score` accepts it.

`score` is also what the bench applies to the model's first attempt: ok iff
the text parses and validates before repair, has every requested component
type, every named string (case-insensitive, as an item / column / field label
/ option / text; one document string counts for one named string), the named
numbers, and no component twice. Its partial score is the share of those
checks met.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from typing import Any

from mol_local.genui.document import parse_document, validate
from mol_local.genui.errors import InvalidDocument
from trainer.specialists.cases import SPLITS, Case, Verdict, split_of
from trainer.specialists.ui_docs import Part, Spec, build, check_of
from trainer.specialists.ui_grammar import GrammarCheck

SLOT = "L3"
PER_TEMPLATE = 20
# whole templates held out, one or two of each kind (about a fifth of them)
HELDOUT = frozenset({"ck_moving", "ck_study_topics", "tb_rows_listed", "tb_source_memories", "fm_toggle",
                     "tm_countdown", "pb_so_far", "sl_default", "pk_vote", "cd_lines", "db_progress_list"})
SUMMARY_WORDS = 40
CONTAIN_SLACK = 20  # a named string may sit inside a longer document string, up to this many extra characters
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s*")


def templates() -> dict:
    from trainer.specialists import ui_templates_more  # noqa: F401  (registers the cards and dashboards)
    from trainer.specialists.ui_templates import TEMPLATES

    return TEMPLATES


def dumps(doc: dict[str, Any]) -> str:
    """The document text exactly as `UIDocument.dumps` stores the assistant message."""
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


def cases(split: str, *, seed: int = 0, per_template: int = PER_TEMPLATE) -> list[Case]:
    """Up to `per_template` distinct requests from every template of `split` ("train" or "heldout")."""
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r} — use one of {', '.join(SPLITS)}")
    out: list[Case] = []
    for tid, make in templates().items():
        if split_of(tid, HELDOUT) != split:
            continue
        rng = random.Random(f"{SLOT}:{seed}:{tid}")
        seen: set[str] = set()
        for _ in range(per_template * 8):
            if len(seen) >= per_template:
                break
            request, spec = make(rng)
            if request.casefold() in seen:
                continue
            seen.add(request.casefold())
            out.append(case_for(tid, request, spec, rng))
    return out


def case_for(template: str, request: str, spec: Spec, rng: random.Random) -> Case:
    """The case for one request: gold document, summary (drawn from `rng`) and check, all from `spec`."""
    gold = ({"role": "assistant", "content": dumps(build(spec))},)
    return Case(SLOT, template, request, gold, summary_of(spec, rng), check_of(spec))


# -- summaries ----------------------------------------------------------------------------------------------------
def _and(items: Sequence[str], word: str = "and", limit: int | None = None) -> str:
    items = list(items)
    if limit is not None and len(items) > limit:
        items = items[:limit] + [f"{len(items) - limit} more"]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {word} " + items[-1]


def _duration(seconds: int) -> str:
    m, s = divmod(seconds, 60)
    if s or not m:
        return f"{seconds} seconds"
    h, m = divmod(m, 60)
    return " ".join(([f"{h} hour{'s' * (h > 1)}"] if h else []) + ([f"{m} minute{'s' * (m > 1)}"] if m else []))


def _a(phrase: str) -> str:
    first = phrase.lstrip('"')[:1].lower()
    return f"{'an' if first in 'aeiou' else 'a'} {phrase}"


def _phrase(p: Part, limit: int | None) -> str:
    if p.source:
        return f"a {'checklist' if p.kind == 'checklist' else 'table'} of the user's {p.source}"
    if p.kind == "checklist":
        return f"{p.label} ({_and(p.items, limit=limit)})" if p.named_label else \
            f"a checklist of {_and(p.items, limit=limit)}"
    if p.kind == "table":
        rows = f", rows for {_and([r[0] for r in p.rows], limit=limit)}" if p.rows else ""
        return f"a table with columns {_and(p.columns)}{rows}"
    if p.kind == "form":
        names = [f"{f.label} ({_and(f.options, 'or')})" if f.options else
                 (f"{_a(f.label)} toggle" if f.kind == "Toggle" else f.label) for f in p.fields]
        return f"{_a(('private ' if p.private else '') + p.label.lower())} form with {_and(names, limit=limit)}"
    if p.kind == "timer":
        return f"{_a(p.label.lower())} timer for {_duration(p.seconds or 0)}"
    if p.kind == "progress":
        at = f"at {p.value} of" if p.value is not None else "out of"
        return f"{_a(p.label.lower())} progress bar {at} {p.high}"
    if p.kind == "slider":
        at = f", starting at {p.value}" if p.value is not None else ""
        return f"{_a(p.label.lower())} slider from {p.low} to {p.high}{at}"
    if p.kind == "select":
        return f"{_a(p.label.lower())} picker with {_and(p.items, 'or', limit)}"
    if p.kind == "card":
        return _a(f'"{p.label}" card') + (f" saying {_and(p.items, limit=limit)}" if p.items else "")
    if p.kind == "markdown":
        return f"a markdown card of {p.label} notes: {_and(p.items, limit=limit)}"
    if p.kind == "switches":
        return f"a settings card with toggles for {_and(p.items, limit=limit)}"
    return "a button that asks for more ideas"


NOUNS = {"checklist": "checklist", "table": "table", "form": "form", "timer": "timer", "progress": "progress tracker",
         "slider": "slider", "select": "picker", "card": "card", "markdown": "notes card", "switches": "settings card",
         "ask": "button"}
FRAMES = ('Built {what}, titled "{title}".', "Asked for {kind}; built {what}.", 'Made the view "{title}": {what}.',
          "Created {what} as asked.", 'Set up "{title}" with {what}.', "The user wanted {kind}: {what}.")


def summary_of(spec: Spec, rng: random.Random) -> str:
    """One sentence naming what was built and its named contents, at most SUMMARY_WORDS words."""
    frame = rng.choice(FRAMES)
    for limit in (None, 3, 2, 1):
        parts = [_phrase(p, limit) for p in spec.parts]
        if spec.container == "Tabs":
            what = f"tabs {_and(parts)}"
        elif spec.container:
            what = f"a dashboard with {_and(parts)}"
        else:
            what = _and(parts)
        kind = "a dashboard" if spec.container else f"a {NOUNS[spec.parts[0].kind]}"
        text = frame.format(what=what, title=spec.title, kind=kind)
        if len(text.split()) <= SUMMARY_WORDS:
            return text
    return text


# -- scoring --------------------------------------------------------------------------------------------------------
def _norm(text: str) -> str:
    return " ".join(text.casefold().split()).strip(" .,;:!?\"'-")


def _components(obj: dict) -> list[dict]:
    comps = obj.get("components")
    return [c for c in comps if isinstance(c, dict)] if isinstance(comps, list) else []


def _state(obj: dict) -> dict:
    return obj["state"] if isinstance(obj.get("state"), dict) else {}


def _texts(obj: dict) -> list[str]:
    """Every string a person sees in the view, except the title: labels, texts, options, columns, state values."""
    out: list[str] = []
    for c in _components(obj):
        out += [c["label"]] if isinstance(c.get("label"), str) else []
        text = c.get("text")
        if isinstance(text, str):
            out += [_BULLET.sub("", line) for line in text.splitlines() if line.strip()] if c.get("type") == "Markdown" else [text]
        for key in ("options", "columns"):
            out += [x for x in c.get(key) or [] if isinstance(x, str)] if isinstance(c.get(key), list) else []
    for value in _state(obj).values():
        if isinstance(value, str) and value:
            out.append(value)
        elif isinstance(value, list):
            for x in value:
                if isinstance(x, dict) and isinstance(x.get("label"), str):
                    out.append(x["label"])
                elif isinstance(x, list):
                    out += [y for y in x if isinstance(y, str)]
    return out


def missing_named(named: Sequence[str], texts: Sequence[str]) -> list[str]:
    """Named strings no document string holds; each document string answers for one named string."""
    pool = [_norm(t) for t in texts]
    used = [False] * len(pool)
    pending = []
    for n in named:
        i = next((j for j, t in enumerate(pool) if not used[j] and t == _norm(n)), None)
        if i is None:
            pending.append(n)
        else:
            used[i] = True
    missing = []
    for n in pending:
        key = _norm(n)
        pat = re.compile(rf"(?<!\w){re.escape(key)}(?!\w)")
        i = next((j for j, t in enumerate(pool) if not used[j] and len(key) >= 3
                  and len(t) <= len(key) + CONTAIN_SLACK and pat.search(t)), None)
        if i is None:
            missing.append(n)
        else:
            used[i] = True
    return missing


def _is_num(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def has_number(obj: dict, key: str, value: float) -> bool:
    state = _state(obj)
    for c in _components(obj):
        t = c.get("type")
        if key == "seconds" and t == "Timer" and _is_num(c.get("seconds")) and c["seconds"] == value:
            return True
        if key in ("min", "max") and (t == "Slider" or (key == "max" and t == "ProgressBar")) \
                and _is_num(c.get(key)) and c[key] == value:
            return True
        if key == "value" and t in ("ProgressBar", "Slider") and isinstance(c.get("bind"), str) \
                and _is_num(state.get(c["bind"])) and state[c["bind"]] == value:
            return True
    return False


def duplicates(obj: dict) -> list[str]:
    """Components that repeat another: the same type and the same content (bound items or rows, or label and props)."""
    state, seen, out = _state(obj), set(), []
    for c in _components(obj):
        bound = state.get(c["bind"]) if isinstance(c.get("bind"), str) else None
        kids = c.get("children")
        if isinstance(bound, list) and bound:
            sig = [c.get("type"), bound]
        else:
            sig = [c.get("type"), _norm(str(c.get("label", ""))), bound, len(kids) if isinstance(kids, list) else 0] + [
                c.get(k) for k in ("text", "options", "columns", "min", "max", "seconds", "source", "action")]
        key = json.dumps(sig, sort_keys=True, default=str)
        if key in seen:
            out.append(f"{c.get('type')} {str(c.get('label', ''))[:30]!r}")
        seen.add(key)
    return out


def _private(obj: dict) -> bool:
    actions = obj.get("actions") if isinstance(obj.get("actions"), dict) else {}
    for c in _components(obj):
        act = actions.get(c.get("action")) if isinstance(c.get("action"), str) else None
        if c.get("type") == "Form" and isinstance(act, dict) and act.get("kind") == "submit" and act.get("visibility") == "noai":
            return True
    return False


def score(case: Case, text: str) -> Verdict:
    """Is `text` (as generated, before any repair) the view the case asked for?"""
    try:
        obj = json.loads(text.strip())
    except (json.JSONDecodeError, RecursionError):
        return Verdict(False, "not JSON", 0.0)
    if not isinstance(obj, dict):
        return Verdict(False, "not a JSON object", 0.0)
    check = case.check
    try:
        problems = validate(obj)
    except (TypeError, ValueError, AttributeError, KeyError) as exc:  # a shape the validator does not expect
        problems = [f"the validator cannot read it ({type(exc).__name__})"]
    checks: list[tuple[bool, str]] = [(not problems, f"invalid before repair: {problems[0] if problems else ''}")]
    types = {c.get("type") for c in _components(obj)}
    checks += [(t in types, f"no {t}") for t in check.get("types", [])]
    missing = set(missing_named(check.get("named", []), _texts(obj)))
    checks += [(n not in missing, f"missing {n!r}") for n in check.get("named", [])]
    checks += [(has_number(obj, k, v), f"no {k} {v}") for k, v in check.get("numbers", {}).items()]
    checks += [(any(c.get("source") == s for c in _components(obj)), f"not bound to {s}") for s in check.get("sources", [])]
    if check.get("private"):
        checks.append((_private(obj), "the form's submit is not private (noai)"))
    dupes = duplicates(obj)
    checks.append((not dupes, f"repeated {', '.join(dupes[:2])}" + (f" and {len(dupes) - 2} more" if len(dupes) > 2 else "")))
    failed = [why for ok, why in checks if not ok]
    reason = "; ".join(failed[:4]) + (f"; and {len(failed) - 4} more" if len(failed) > 4 else "")
    return Verdict(not failed, reason, sum(ok for ok, _ in checks) / len(checks))


# -- verification of the gold ---------------------------------------------------------------------------------------
def answer_budget() -> int:
    from hcp import load_profile

    return load_profile("local-default").answer_max_tokens


def gold_problems(case: Case, grammar: GrammarCheck, budget: int) -> list[str]:
    """Why a gold case cannot be trained on ([] when it can)."""
    text = case.answer
    try:
        doc = parse_document(text)
    except InvalidDocument as exc:
        return [str(exc)]
    problems = [] if doc.dumps() == text else ["the text is not the form the turn loop stores"]
    ok, why = grammar.accepts(text)
    problems += [] if ok else [why]
    n = len(grammar.tokens(text))
    problems += [] if n < budget else [f"{n} tokens do not fit the {budget}-token answer budget"]
    verdict = score(case, text)
    problems += [] if verdict.ok else [verdict.reason]
    said = [n for n in case.check.get("named", []) if n.casefold() not in case.request.casefold()]
    problems += [f"the request does not name {said[0]!r}"] if said else []
    problems += [] if len(case.summary.split()) <= SUMMARY_WORDS else ["the summary is too long"]
    return problems


def verify_gold(cases: Sequence[Case], *, grammar: GrammarCheck | None = None) -> list[Case]:
    """The cases whose gold document passes every check in `gold_problems`."""
    check = grammar or GrammarCheck()
    try:
        budget = answer_budget()
        return [c for c in cases if not gold_problems(c, check, budget)]
    finally:
        if grammar is None:
            check.close()
