"""The one schema -> grammar path (mol_local/structured.py): checks going in, llama.cpp's converter, limits."""

from __future__ import annotations

import json

import pytest

from mol_local.engine.base import GenerationRequest
from mol_local.errors import SchemaProblem
from mol_local.structured import (
    MAX_SCHEMA_CHARS,
    choice_grammar,
    json_grammar,
    object_grammar,
    validation_problem,
    wrapped_grammar,
)

PERSON = {"type": "object", "properties": {"name": {"type": "string", "maxLength": 24}, "age": {"type": "integer"}},
          "required": ["name", "age"], "additionalProperties": False}


@pytest.mark.parametrize("schema, words", [
    ([1, 2], "must be a JSON Schema object"),
    ("object", "must be a JSON Schema object"),
    ({"type": "bogus"}, "not a valid JSON Schema"),
    ({"type": "object", "properties": {"a": {"minLength": -1}}}, "not a valid JSON Schema"),
    ({"$ref": "#/definitions/missing"}, "cannot be turned into a grammar"),
    ({"type": "object", "description": "x" * MAX_SCHEMA_CHARS}, "the limit is"),
    ({"type": "string", "maxLength": 100_000}, "compiles to a grammar of"),
])
def test_bad_schemas_are_one_line(schema, words) -> None:
    with pytest.raises(SchemaProblem, match=words) as info:
        json_grammar(schema)
    assert "\n" not in str(info.value)


def test_deep_schema_is_refused() -> None:
    deep: dict = {"type": "object"}
    for _ in range(20):
        deep = {"type": "object", "properties": {"a": deep}}
    with pytest.raises(SchemaProblem, match="nests deeper"):
        json_grammar(deep)


def test_grammars_decode_under_llama_cpp_and_validate(engine) -> None:
    ask = [{"role": "user", "content": "Make up a person: name and age."}]
    out = engine.generate(GenerationRequest(seq="L0", messages=ask, max_tokens=48, grammar=json_grammar(PERSON)))
    assert validation_problem(PERSON, json.loads(out.text)) is None
    tagged = engine.generate(GenerationRequest(seq="L0", messages=ask, max_tokens=64, grammar=wrapped_grammar(PERSON, "<tool_call>", "</tool_call>")))
    assert tagged.text.startswith("<tool_call>") and tagged.text.endswith("</tool_call>")
    assert validation_problem(PERSON, json.loads(tagged.text.removeprefix("<tool_call>").removesuffix("</tool_call>"))) is None
    label = engine.generate(GenerationRequest(seq="route", messages=ask, max_tokens=4, grammar=choice_grammar(["L0", "L2"])))
    assert label.text in ("L0", "L2")
    anything = engine.generate(GenerationRequest(seq="L0", messages=ask, max_tokens=200, grammar=object_grammar()))
    assert isinstance(json.loads(anything.text), dict)


def test_validation_problem_names_the_place() -> None:
    assert validation_problem(PERSON, {"name": "Ann", "age": 3}) is None
    assert "age" in validation_problem(PERSON, {"name": "Ann", "age": "three"})


def test_small_bounded_integers_become_their_values_so_the_grammar_keeps_the_bounds() -> None:
    from mol_local.structured import bounded_ints, json_grammar

    schema = {"type": "object", "properties": {"hour": {"type": "integer", "minimum": 0, "maximum": 23},
                                               "stars": {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 6},
                                               "count": {"type": "integer", "minimum": 0}}}
    out = bounded_ints(schema)["properties"]
    assert out["hour"] == {"enum": list(range(24))} and out["stars"] == {"enum": [1, 2, 3, 4, 5]}
    assert out["count"] == {"type": "integer", "minimum": 0}  # one bound only: left to the converter
    gbnf = json_grammar(schema)
    assert '"23"' in gbnf and '"24"' not in gbnf


def test_a_json_string_never_holds_a_raw_control_character(engine) -> None:
    """llama-cpp-python's converter let "review" hold a newline; the embedded base wrote one and json.loads refused it."""
    from mol_local.structured import STRING_CHAR

    rating = {"type": "object", "properties": {"stars": {"type": "integer", "minimum": 1, "maximum": 5},
                                               "review": {"type": "string", "maxLength": 100}}, "required": ["stars", "review"]}
    gbnf = json_grammar(rating)
    assert any(line.startswith(STRING_CHAR) for line in gbnf.splitlines())
    out = engine.generate(GenerationRequest(seq="L0", messages=[{"role": "user", "content": "Rate this answer."}], max_tokens=256,
                                            grammar=gbnf))
    assert validation_problem(rating, json.loads(out.text)) is None, out.text
