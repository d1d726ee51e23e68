"""Tool settings from the HCP, with defaults when the HCP has no [tools] section."""

from __future__ import annotations

from types import SimpleNamespace

from hcp import load_profile
from mol_local.harness.limits import DEFAULT_ENABLED, ToolLimits, ToolsConfig, tools_config


def test_defaults_without_a_tools_section() -> None:
    config = tools_config(SimpleNamespace())
    assert config == ToolsConfig()
    assert config.enabled == DEFAULT_ENABLED
    assert config.limits_for("python") == ToolLimits()


def test_shipped_profile_limits_and_families() -> None:
    hcp = load_profile("local-default")
    config = tools_config(hcp)
    assert config.limits_for("python") == ToolLimits(**vars(hcp.tools.limits_for("python")))
    assert config.limits_for("notes.find") == ToolLimits(**vars(hcp.tools.limits_for("notes")))
    assert {"python", "notes.create", "reminders.complete", "files.read", "memory.search"} <= set(config.enabled_tools())


def test_mapping_form_with_per_tool_tables() -> None:
    raw = {"enabled": ["python"], "defaults": {"timeout_s": 3}, "python": {"memory_mb": 128}}
    config = tools_config(SimpleNamespace(tools=raw))
    assert config.enabled_tools() == ("python",)
    assert config.limits_for("python") == ToolLimits(timeout_s=3, memory_mb=128)
    assert config.limits_for("files") == ToolLimits(timeout_s=3)
