"""L2 (Coding) specialist data: requests from our own templates, gold verified by running it.

Two families. *Function* templates (code_bank_*.py) ask for one Python
function or small class by exact name and parameters; the gold answer is one
fenced ```python block and one or two sentences, checked by hand-written
asserts. *Compute* templates (code_compute.py) ask for a number the slot
should not guess; the gold calls the `python` tool once, the tool message is
what the real sandbox printed for that code, and the final sentence states
the value. Every problem was written for this recipe; none is taken from a
public benchmark.

Hold-outs are whole templates, fixed by name in `HELDOUT` (about a fifth of
each family), so held-out requests share neither phrasing nor task with
training. Names and values inside a template vary with the seed.
"""

from __future__ import annotations

import json
import random

from mol_local.harness.limits import ToolLimits
from mol_local.harness.sandbox import Sandbox
from trainer.specialists.cases import SPLITS, Case, split_of
from trainer.specialists.code_bank_classes import BANK as CLASSES
from trainer.specialists.code_bank_lists import BANK as LISTS
from trainer.specialists.code_bank_numbers import BANK as NUMBERS
from trainer.specialists.code_bank_parse import BANK as PARSE
from trainer.specialists.code_bank_text import BANK as TEXT
from trainer.specialists.code_compute import COMPUTE_TEMPLATES, CompTemplate
from trainer.specialists.code_template import SLOT, FnTemplate, expand
from trainer.specialists.code_verify import (
    SCORE_LIMITS, code_sandbox, first_code_block, python_tool_text, score, states_value, verify_gold, verify_report,
)

__all__ = [
    "COMPUTE_TEMPLATES", "FUNCTION_TEMPLATES", "HELDOUT", "PER_TEMPLATE", "SCORE_LIMITS", "cases", "code_sandbox", "first_code_block",
    "score", "states_value", "template_names", "verify_gold", "verify_report",
]

FUNCTION_TEMPLATES: tuple[FnTemplate, ...] = (*TEXT, *PARSE, *LISTS, *NUMBERS, *CLASSES)

HELDOUT = frozenset({
    # functions: 20 of 97
    "anagram", "palindrome_letters", "slugify", "mask_card", "first_unique_char",
    "parse_duration", "add_days", "roman_to_int", "valid_ipv4",
    "chunk", "two_sum", "merge_counts", "deep_get", "transpose",
    "gcd", "collatz_steps", "median", "pascal_row",
    "stack_class", "shopping_cart",
    # compute: 3 of 16
    "c_lcm", "c_weekday_count", "c_divisors",
})

PER_TEMPLATE = 12  # cases per template at scale 1: 77 train function templates x 12 + 13 compute x 12 = 1080
PYTHON_TOOL_LIMITS = ToolLimits(timeout_s=30.0, cpu_s=30.0)  # local-default's [tools.limits.python]
COMPUTE_INTROS = ("", "", "", "Quick question: ", "Can you work this out? ", "I need an exact number. ")
COMPUTE_SUMMARIES = (
    "Asked {asked}; ran it with the python tool and answered {v}.",
    "The user wanted to know {asked}; computed it in the python sandbox: {v}.",
    "Computed {asked} with one python tool call; the result was {v}.",
    "Question: {asked}. Ran the code in the python tool and replied {v}.",
)


def template_names() -> list[str]:
    return [t.name for t in FUNCTION_TEMPLATES] + [t.name for t in COMPUTE_TEMPLATES]


def cases(split: str, *, seed: int = 0, per_template: int = PER_TEMPLATE) -> list[Case]:
    """Slot L2 cases of one split: `per_template` per template (fewer only if a template runs out of distinct requests).

    Compute cases run their code in one real sandbox to record the tool's output.
    """
    if split not in SPLITS:
        raise ValueError(f"split must be one of {', '.join(SPLITS)}, not {split!r}")
    out: list[Case] = []
    for t in FUNCTION_TEMPLATES:
        if split_of(t.name, HELDOUT) == split:
            out += expand(t, per_template, random.Random(f"{seed}:{t.name}"))
    chosen = [t for t in COMPUTE_TEMPLATES if split_of(t.name, HELDOUT) == split]
    if chosen:
        with code_sandbox(PYTHON_TOOL_LIMITS) as box:
            for t in chosen:
                out += _compute_cases(t, per_template, random.Random(f"{seed}:{t.name}"), box)
    return out


def _compute_cases(t: CompTemplate, count: int, rng: random.Random, box: Sandbox) -> list[Case]:
    out: list[Case] = []
    seen: set[str] = set()
    for attempt in range(count * 8):
        if len(out) == count:
            break
        comp = t.make(rng)
        request = rng.choice(COMPUTE_INTROS) + t.asks[attempt % len(t.asks)].format(**comp.fill)
        if request in seen:
            continue
        seen.add(request)
        call = json.dumps({"name": "python", "arguments": {"code": comp.code}})
        gold = (
            {"role": "assistant", "content": f"<tool_call>{call}</tool_call>"},
            {"role": "tool", "content": python_tool_text(box, comp.code)},
            {"role": "assistant", "content": t.answer.format(v=comp.expect, **comp.fill)},
        )
        summary = rng.choice(COMPUTE_SUMMARIES).format(asked=t.asked.format(**comp.fill), v=comp.expect)
        out.append(Case(slot=SLOT, template=t.name, request=request, gold=gold, summary=summary,
                        check={"kind": "compute", "expect": comp.expect, "code": comp.code}))
    return out
