"""Reading `mol hcp set` values with the schema's type, and finding keys."""

from __future__ import annotations

import pytest
import tomlkit

from hcp.edit import key_spec, parse_cli_value, set_key
from hcp.errors import HCPSecretError, HCPValidationError


@pytest.mark.parametrize(
    ("key", "text", "value"),
    [
        ("runtime.threads", "4", 4),
        ("runtime.gpu_layers", "-1", -1),
        ("answer.temperature", "0.5", 0.5),
        ("memory.auto_extract", "off", False),
        ("consent.default", "true", True),
        ("runtime.base_model", "~/models/x.gguf", "~/models/x.gguf"),
        ("tools.enabled", "python, notes", ["python", "notes"]),
        ("hooks.post_turn", '["notes"]', ["notes"]),
        ("tools.limits.python.timeout_s", "30", 30.0),
        ("skills.weekday_of.sha256", "ab" * 32, "ab" * 32),
        ("trainer.gate.route_accuracy_not_lower", "no", False),
    ],
)
def test_values_take_the_schema_type(key: str, text: str, value: object) -> None:
    assert parse_cli_value(key, text) == value


def test_adapter_stack_is_read_as_toml() -> None:
    value = parse_cli_value("slots.L1.adapters", '[{path = "a.gguf", scale = 0.5}]')
    assert [dict(v) for v in value] == [{"path": "a.gguf", "scale": 0.5}]


@pytest.mark.parametrize(
    ("key", "match"),
    [
        ("runtime.thread", "did you mean 'runtime.threads'"),
        ("runtime", "is a table — set one of its keys, e.g. runtime."),
        ("slots.L1", "is a table"),
        ("trainer.gate.new_data_gain", "did you mean 'trainer.gate.new_data_gain_min_rel'"),
        ("zzz.qqq", "see `mol hcp schema`"),
    ],
)
def test_unknown_or_table_keys(key: str, match: str) -> None:
    with pytest.raises(HCPValidationError, match=match):
        key_spec(key)


def test_secret_keys_are_refused_before_lookup() -> None:
    with pytest.raises(HCPSecretError, match="mol remote login"):
        key_spec("remote.api_key")


def test_set_key_creates_missing_tables_and_returns_old() -> None:
    doc = tomlkit.parse("# mine\n[runtime]\nthreads = 2  # note\n")
    assert set_key(doc, "runtime.threads", 8) == 2
    assert set_key(doc, "trainer.gate.regression_worse_max_rel", 0.02) is None
    text = doc.as_string()
    assert "threads = 8  # note" in text and "[trainer.gate]" in text and text.startswith("# mine")


def test_dotted_tool_names_are_quoted_tables() -> None:
    doc = tomlkit.parse("[slots.L0]\n")
    set_key(doc, "tools.limits.memory.search.cpu_s", 2.0)
    assert '[tools.limits."memory.search"]' in doc.as_string()
    assert key_spec("tools.limits.memory.search.cpu_s").kind == "float"


def test_set_key_into_a_scalar_is_refused() -> None:
    doc = tomlkit.parse("trainer = 3\n")
    with pytest.raises(HCPValidationError, match="trainer is not a table"):
        set_key(doc, "trainer.enabled", True)
