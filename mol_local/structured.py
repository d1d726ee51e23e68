"""Structured outputs: one path from a JSON Schema (or a fixed set of choices) to a GBNF grammar.

Every hop that must answer in a shape goes through here: `mol serve`'s
`response_format` (json_object / json_schema) and `tool_choice`, memory
extraction (mol_local/turn/recall.py), the route label (mol_local/router.py). The
JSON-schema compiler is llama.cpp's own converter as shipped in
llama-cpp-python (`llama_cpp.llama_grammar.json_schema_to_gbnf`); we only check
what goes in (is it a schema, is it small enough) and what comes out (does the
grammar fit the sampler), so a bad schema is one clear line, never a crash in
the middle of a decode.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import jsonschema
from llama_cpp.llama_grammar import json_schema_to_gbnf

from mol_local.errors import SchemaProblem
from mol_local.turn.tasks import CALL_CLOSE

MAX_SCHEMA_CHARS = 16_384  # a schema as JSON text; larger ones are refused before they are compiled
MAX_GRAMMAR_CHARS = 131_072  # the compiled GBNF; llama.cpp's grammar parser slows down badly past this
MAX_DEPTH = 16
ANY_OBJECT: dict[str, Any] = {"type": "object"}
# json_object mode decodes under a bounded object: a small model greedily repeating inside one string or list
# ("Black, Black, Black, ...") must still close it, so the answer ends as JSON instead of running out of tokens.
_SCALARS: list[dict[str, Any]] = [{"type": "string", "maxLength": 64}, {"type": "number"}, {"type": "boolean"}, {"type": "null"}]
_LIST: dict[str, Any] = {"type": "array", "items": {"anyOf": _SCALARS}, "maxItems": 6}
BOUNDED_OBJECT: dict[str, Any] = {"type": "object", "additionalProperties": {"anyOf": [
    *_SCALARS, _LIST, {"type": "object", "additionalProperties": {"anyOf": [*_SCALARS, _LIST]}}]}}
_ROOT = re.compile(r"^root ::= ", re.M)


def _depth(value: Any, level: int = 0) -> int:
    if level > MAX_DEPTH:
        return level
    if isinstance(value, dict):
        return max((_depth(v, level + 1) for v in value.values()), default=level)
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level)
    return level


def check_schema(schema: Any, *, what: str = "the schema") -> dict[str, Any]:
    """The schema itself, if it is a JSON Schema object we can compile; else SchemaProblem naming why."""
    if not isinstance(schema, dict):
        raise SchemaProblem(f"{what} must be a JSON Schema object, got {type(schema).__name__} — e.g. {{\"type\": \"object\", \"properties\": {{...}}}}")
    text = json.dumps(schema, ensure_ascii=False, sort_keys=True)
    if len(text) > MAX_SCHEMA_CHARS:
        raise SchemaProblem(f"{what} is {len(text)} characters; the limit is {MAX_SCHEMA_CHARS} — send a smaller schema")
    if _depth(schema) > MAX_DEPTH:
        raise SchemaProblem(f"{what} nests deeper than {MAX_DEPTH} levels — flatten it")
    try:
        jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator).check_schema(schema)
    except jsonschema.SchemaError as exc:
        where = "/".join(str(p) for p in exc.absolute_path) or "top level"
        raise SchemaProblem(f"{what} is not a valid JSON Schema ({where}: {exc.message[:160]}) — fix that keyword") from None
    return schema


# llama-cpp-python's converter lets a JSON string hold raw control characters (llama.cpp's own excludes them):
# the embedded base wrote a newline inside "review", and json.loads refused the answer (1 of 30 in the bench).
_STRING_CHAR = re.compile(r'^char ::= \[\^"\\\\\]', re.M)
STRING_CHAR = r'char ::= [^"\\\x7F\x00-\x1F]'


@lru_cache(maxsize=64)
def _compiled(text: str) -> str:
    try:
        return _STRING_CHAR.sub(lambda _m: STRING_CHAR, json_schema_to_gbnf(text))
    except (AssertionError, KeyError, ValueError, TypeError, RecursionError) as exc:
        raise SchemaProblem(f"the schema cannot be turned into a grammar ({str(exc)[:160] or type(exc).__name__}) — "
                            "use plain types, properties, items, enum, const, anyOf/oneOf and local $refs") from None


ENUM_SPAN = 512  # a bounded integer with at most this many values is compiled as their list


def bounded_ints(schema: Any) -> Any:
    """The schema with every small bounded integer ({"type": "integer", "minimum": 0, "maximum": 23}) as an
    enum of its values: llama.cpp's converter ignores minimum/maximum, and the embedded base then wrote
    "hour": 1234567890 (3 of 30 answers invalid in bench/json_schema_bench.py)."""
    if isinstance(schema, list):
        return [bounded_ints(v) for v in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: bounded_ints(v) for k, v in schema.items()}
    if out.get("type") == "integer" and "enum" not in out and "const" not in out:
        lo = out.get("minimum", out["exclusiveMinimum"] + 1 if isinstance(out.get("exclusiveMinimum"), int) else None)
        hi = out.get("maximum", out["exclusiveMaximum"] - 1 if isinstance(out.get("exclusiveMaximum"), int) else None)
        if isinstance(lo, int) and isinstance(hi, int) and 0 <= hi - lo < ENUM_SPAN:
            return {k: v for k, v in out.items() if k not in ("type", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")} | {
                "enum": list(range(lo, hi + 1))}
    return out


def json_grammar(schema: Any, *, what: str = "the schema") -> str:
    """GBNF whose every complete sentence is JSON valid against `schema` (a checked JSON Schema)."""
    check_schema(schema, what=what)
    gbnf = _compiled(json.dumps(bounded_ints(schema), ensure_ascii=False, sort_keys=False))
    if len(gbnf) > MAX_GRAMMAR_CHARS:
        raise SchemaProblem(f"{what} compiles to a grammar of {len(gbnf)} characters; the limit is {MAX_GRAMMAR_CHARS} — "
                            "lower maxLength/maxItems or split the schema")
    return gbnf


_KVS = re.compile(r"^(?P<name>[\w-]+-kvs) ::= (?P<kv>[\w-]+-kv) \( \"\,\" space (?P=kv) \)\*$", re.M)


@lru_cache(maxsize=1)
def object_grammar(max_keys: int = 6, key_chars: int = 32) -> str:
    """json_object mode: any JSON object, but at most `max_keys` keys per object and keys of at most `key_chars`
    characters (the converter has no maxProperties), so a greedy loop over keys ends too."""
    gbnf, n = _KVS.subn(lambda m: f"{m['name']} ::= {m['kv']} ( \",\" space {m['kv']} ){{0,{max_keys - 1}}}", json_grammar(BOUNDED_OBJECT))
    gbnf = gbnf.replace('string ::= "\\"" char* "\\"" space', f'string ::= "\\"" char{{1,{key_chars}}} "\\"" space')
    if n != 2 or f"char{{1,{key_chars}}}" not in gbnf:
        raise RuntimeError("llama.cpp's schema converter changed shape — update mol_local/structured.py")
    return gbnf


def wrapped_grammar(schema: Any, before: str, after: str, *, what: str = "the schema") -> str:
    """A grammar for `before` + JSON valid against `schema` + `after` (e.g. a `<tool_call>` block)."""
    inner = _ROOT.sub("json-root ::= ", json_grammar(schema, what=what), count=1)
    return f"root ::= {_literal(before)} json-root {_literal(after)}\n{inner}"


def choice_grammar(choices: Sequence[str]) -> str:
    """A grammar that allows exactly one of `choices`, written bare (not as a JSON string): the route label."""
    if not choices:
        raise SchemaProblem("a choice grammar needs at least one choice")
    return "root ::= " + " | ".join(_literal(c) for c in choices)


def _literal(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # GBNF string literals take JSON's escapes


def validation_problem(schema: dict[str, Any], value: Any) -> str | None:
    """Why `value` does not satisfy `schema` (one line), or None when it does."""
    validator = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)(schema)
    error = jsonschema.exceptions.best_match(validator.iter_errors(value))
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path) or "top level"
    return f"{where}: {error.message[:200]}"


def tool_call_grammar(schema: dict[str, Any]) -> str:
    """GBNF for what follows `<tool_call>`: one call valid against `schema` (harness.spec.call_schema), then
    `</tool_call>` — or `</tool_call><`, the single token this tokenizer writes when a second call follows."""
    gbnf = _ROOT.sub("call ::= ", json_grammar(schema, what="the tools' call schema"), count=1)
    return f'root ::= call ("{CALL_CLOSE}" | "{CALL_CLOSE}<")\n{gbnf}'
