"""The schema table, the dataclasses, SCHEMA.md and the shipped profiles stay in step."""

from __future__ import annotations

from dataclasses import fields

import tomlkit

from hcp import model
from hcp.docs import SCHEMA_MD, render_markdown
from hcp.schema import COLLECTIONS, SECTIONS
from hcp.validate import PROFILES_DIR

_DATACLASS = {
    "runtime": model.RuntimeConfig,
    "routing": model.RoutingConfig,
    "answer": model.AnswerConfig,
    "summary": model.SummaryConfig,
    "tools.defaults": model.ToolLimits,
    "hooks": model.HooksConfig,
    "memory": model.MemoryConfig,
    "consent": model.ConsentConfig,
    "trainer.gate": model.GateConfig,
    "remote": model.RemoteConfig,
}


def test_schema_md_is_generated_from_the_schema() -> None:
    assert SCHEMA_MD.read_text(encoding="utf-8") == render_markdown(), "run `mol hcp schema > hcp/SCHEMA.md`"


def test_every_section_key_is_a_dataclass_field() -> None:
    for section, cls in _DATACLASS.items():
        assert list(SECTIONS[section].keys) == [f.name for f in fields(cls)], section
    assert set(SECTIONS["trainer"].keys) | {"gate"} == {f.name for f in fields(model.TrainerConfig)}
    assert set(COLLECTIONS["skills"].keys) | {"name"} == {f.name for f in fields(model.Skill)}


def test_every_key_is_documented() -> None:
    text = render_markdown()
    for name, section in SECTIONS.items():
        for key, spec in section.keys.items():
            assert spec.doc and f"| `{key}` |" in text, f"{name}.{key}"


def test_shipped_profiles_are_commented_toml() -> None:
    for path in sorted(PROFILES_DIR.glob("*.toml")):
        text = path.read_text(encoding="utf-8")
        assert text.startswith("# mol-local assistant profile: " + path.stem)
        assert tomlkit.parse(text).as_string() == text
