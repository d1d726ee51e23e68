"""response_format json_schema on the embedded base: do the answers parse and validate?

30 requests (10 schemas x 3 prompts) through the same path `mol serve` uses: the
request body goes through server/params.parse_options (schema checked, compiled by
llama.cpp's converter to GBNF), the answer is decoded greedily under the grammar on
the embedded SmolLM2-135M, then json.loads + jsonschema validation. Target: 100 %.
Run: .venv/bin/python bench/json_schema_bench.py [--max-tokens 256] [--out bench/results/json_schema.json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

S = {"type": "string"}
SCHEMAS: list[tuple[str, dict, list[str]]] = [
    ("person", {"type": "object", "properties": {"name": S, "age": {"type": "integer"}}, "required": ["name", "age"]},
     ["Make up a person.", "Who wrote Hamlet? Give name and age at death.", "Describe your best friend."]),
    ("colour", {"type": "object", "properties": {"colour": {"enum": ["red", "green", "blue"]}}, "required": ["colour"]},
     ["What colour is the sky?", "Pick a colour for a fire truck.", "Grass is which colour?"]),
    ("todo", {"type": "object", "properties": {"items": {"type": "array", "items": {"type": "string", "maxLength": 40}, "maxItems": 5}},
              "required": ["items"]}, ["Three things to pack for a beach day.", "A shopping list for pancakes.", "Chores for Sunday."]),
    ("yesno", {"type": "object", "properties": {"answer": {"type": "boolean"}, "why": {"type": "string", "maxLength": 80}},
               "required": ["answer", "why"]}, ["Is water wet?", "Can penguins fly?", "Is 7 a prime number?"]),
    ("point", {"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}}, "required": ["x", "y"],
               "additionalProperties": False}, ["A point on a line y = 2x.", "The origin.", "Somewhere in the first quadrant."]),
    ("event", {"type": "object", "properties": {"title": {"type": "string", "maxLength": 60}, "day": {"enum": ["mon", "tue", "wed", "thu", "fri"]},
               "hour": {"type": "integer", "minimum": 0, "maximum": 23}}, "required": ["title", "day", "hour"]},
     ["Dentist on Tuesday at 9.", "Team lunch Friday noon.", "Gym Monday evening."]),
    ("nested", {"type": "object", "properties": {"city": S, "weather": {"type": "object", "properties": {
        "temp_c": {"type": "number"}, "sky": {"enum": ["sunny", "cloudy", "rain"]}}, "required": ["temp_c", "sky"]}},
        "required": ["city", "weather"]}, ["Weather in Oslo today.", "Weather in Cairo.", "A rainy day in London."]),
    ("rating", {"type": "object", "properties": {"stars": {"type": "integer", "minimum": 1, "maximum": 5}, "review": {"type": "string", "maxLength": 100}},
                "required": ["stars", "review"]}, ["Review a pizza place.", "Rate a movie you liked.", "Rate this answer."]),
    ("tags", {"type": "object", "properties": {"tags": {"type": "array", "items": {"enum": ["work", "home", "urgent", "later"]}, "minItems": 1, "maxItems": 3}},
              "required": ["tags"]}, ["Tag: file the tax return by tomorrow.", "Tag: water the plants.", "Tag: reply to the boss."]),
    ("optional", {"type": "object", "properties": {"word": {"type": "string", "maxLength": 20}, "note": S}, "required": ["word"]},
     ["One word for happy.", "A synonym for big.", "The opposite of cold."]),
]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-tokens", type=int, default=256)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "json_schema.json"))
    opts = ap.parse_args()
    from mol_local.engine.base import GenerationRequest
    from mol_local.engine.llamacpp import LlamaCppEngine
    from mol_local.models import resolve_model
    from mol_local.server.params import parse_options
    from mol_local.structured import validation_problem

    engine = LlamaCppEngine(resolve_model("builtin:smollm2-135m"), n_ctx=2048, kv_cells=4096, n_threads=2)
    rows = []
    for name, schema, prompts in SCHEMAS:
        params = parse_options({"response_format": {"type": "json_schema", "json_schema": {"name": name, "schema": schema, "strict": True}}}, [])
        for prompt in prompts:
            t0 = time.perf_counter()
            out = engine.generate(GenerationRequest(seq="L0", messages=[{"role": "user", "content": prompt}], max_tokens=opts.max_tokens,
                                                    grammar=params.grammar))
            try:
                problem = validation_problem(schema, json.loads(out.text))
            except ValueError as exc:
                problem = f"not JSON: {exc}"
            rows.append({"schema": name, "prompt": prompt, "valid": problem is None, "problem": problem, "finish": out.finish_reason,
                         "tokens": out.completion_tokens, "ms": round((time.perf_counter() - t0) * 1000, 1), "text": out.text[:300]})
    engine.close()
    valid = sum(r["valid"] for r in rows)
    result = {"bench": "json_schema", "requests": len(rows), "valid": valid, "valid_pct": round(100 * valid / len(rows), 1),
              "max_tokens": opts.max_tokens, "load_avg_1m": round(os.getloadavg()[0], 2), "rows": rows}
    Path(opts.out).write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in result.items() if k != "rows"}))
    for r in rows:
        if not r["valid"]:
            print("INVALID", r["schema"], r["prompt"], r["finish"], r["problem"], repr(r["text"][:160]))


if __name__ == "__main__":
    main()
