"""Loading and validating HCP documents: every shipped profile, defaults, and each kind of bad input."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from hcp import HCPError, load_hcp, load_profile, parse_hcp
from hcp.errors import HCPSecretError, HCPSyntaxError, HCPValidationError

SLOT = "\n[slots.L0]\n"


def bad(text: str, error: type[HCPError] = HCPValidationError) -> str:
    with pytest.raises(error) as info:
        parse_hcp(text)
    message = str(info.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize("name", ["local-default", "tall", "venti-remote"])
def test_shipped_profiles_load(name: str) -> None:
    hcp = load_profile(name)
    assert hcp.name == name
    assert hcp.entry_slot in hcp.slots


def test_defaults_fill_every_section() -> None:
    hcp = parse_hcp(SLOT)
    assert hcp.memory.auto_extract is True and hcp.memory.top_k == 4
    assert hcp.consent.default is False
    assert hcp.trainer.enabled is False and hcp.trainer.schedule == "03:00"
    assert hcp.trainer.gate.new_data_gain_min_rel == 0.02
    assert hcp.trainer.gate.regression_worse_max_rel == 0.01
    assert hcp.trainer.gate.route_accuracy_not_lower is True
    assert hcp.remote.send_memories is False and hcp.remote.mode == "engine"
    assert "python" in hcp.tools.enabled
    assert hcp.slots["L0"].name == "L0" and hcp.slots["L0"].persona == "L0"


def test_flat_names_match_sections() -> None:
    hcp = load_profile("local-default")
    assert (hcp.n_ctx, hcp.threads, hcp.gpu_layers) == (hcp.runtime.n_ctx, hcp.runtime.threads, hcp.runtime.gpu_layers)
    assert hcp.route_fallback == hcp.routing.fallback and hcp.answer_max_tokens == hcp.answer.max_tokens
    assert hcp.summary_max_tokens == 192 and hcp.repeat_penalty == hcp.answer.repeat_penalty


def test_hcp_is_frozen() -> None:
    hcp = load_profile("local-default")
    with pytest.raises(dataclasses.FrozenInstanceError):
        hcp.name = "x"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        hcp.runtime.threads = 9  # type: ignore[misc]
    with pytest.raises(TypeError):
        hcp.slots["L9"] = hcp.slots["L0"]  # type: ignore[index]


def test_tool_limits_override_defaults_key_by_key() -> None:
    hcp = parse_hcp(SLOT + "[tools.defaults]\ntimeout_s = 5\nmemory_mb = 256\n[tools.limits.python]\ntimeout_s = 60\n")
    python, notes = hcp.tools.limits_for("python"), hcp.tools.limits_for("notes")
    assert (python.timeout_s, python.memory_mb) == (60.0, 256)
    assert (notes.timeout_s, notes.memory_mb, notes.output_kb) == (5.0, 256, 64)


def test_skills_are_callable_tools() -> None:
    sha = "ab" * 32
    hcp = parse_hcp(SLOT + f'[tools]\nenabled = ["python", "weekday_of"]\n[hooks]\nstop_gate = ["weekday_of"]\n[skills.weekday_of]\nsha256 = "{sha}"\n')
    assert hcp.skills["weekday_of"].sha256 == sha
    assert hcp.hooks.stop_gate == ("weekday_of",)


def test_malformed_toml_names_the_line() -> None:
    message = bad("[runtime\nthreads = 2\n", HCPSyntaxError)
    assert "line 1" in message and "not valid TOML" in message


def test_not_utf8_and_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "h.toml"
    path.write_bytes(b"name = \"\xff\xfe\"\n")
    with pytest.raises(HCPSyntaxError, match="UTF-8"):
        load_hcp(path)
    with pytest.raises(HCPError, match="not found"):
        load_hcp(tmp_path / "nope.toml")


@pytest.mark.parametrize(
    ("text", "expect"),
    [
        ("nmae = 'x'" + SLOT, "did you mean 'name'"),
        ("[runtime]\nthread = 2" + SLOT, "runtime.thread: unknown key — did you mean 'threads'"),
        ("[trainer]\nshedule = '03:00'" + SLOT, "did you mean 'schedule'"),
        ("[trainer.gate]\nnew_data_gain_min = 0.1" + SLOT, "did you mean 'new_data_gain_min_rel'"),
        ("[memorie]\ntop_k = 2" + SLOT, "did you mean 'memory'"),
        ("[slots.L5]\n", "slots.L5: unknown key"),
        ("[slots.L0]\npersonna = 'L0'\n", "did you mean 'persona'"),
        ("[skills.x]\nsha256 = '" + "a" * 64 + "'\nhash = 1" + SLOT, "skills.x.hash: unknown key"),
    ],
)
def test_unknown_keys_suggest_the_right_one(text: str, expect: str) -> None:
    assert expect in bad(text)


@pytest.mark.parametrize(
    ("text", "expect"),
    [
        ("[runtime]\nthreads = '2'" + SLOT, "runtime.threads = '2': must be an int"),
        ("[runtime]\nthreads = 0" + SLOT, "must be between 1 and 256"),
        ("[runtime]\nkv_reuse = 1" + SLOT, "runtime.kv_reuse = 1: must be a bool"),
        ("[memory]\ntop_k = true" + SLOT, "memory.top_k = True: must be an int"),
        ("[memory]\ntop_k = 65" + SLOT, "between 0 and 64"),
        ("[runtime]\nbackend = 'vllm'" + SLOT, "must be one of llama-cpp, remote"),
        ("[trainer]\nschedule = '25:00'" + SLOT, "must be HH:MM"),
        ("[trainer.gate]\nregression_worse_max_rel = 1.5" + SLOT, "between 0.0 and 1.0"),
        ("[tools.defaults]\nmemory_mb = 1" + SLOT, "tools.defaults.memory_mb = 1"),
        ("[tools]\nenabled = 'python'" + SLOT, "must be a list of strings"),
        ("[tools]\nenabled = ['python', 'python']" + SLOT, "lists a name twice"),
        ("[skills.x]\nsha256 = 'abc'" + SLOT, "skills.x.sha256 = 'abc': must be 64 lowercase hex digits"),
        ("[skills.x]\npath = 'x.py'" + SLOT, "skills.x.sha256 = None: is required"),
        ("runtime = 3" + SLOT, "runtime = 3: must be a table"),
        ("[slots]\nL0 = 1\n", "slots.L0 = 1: must be a table"),
        ("[slots.L0]\nadapters = 'a.gguf'\n", "must be a list of {path"),
        ("[slots.L0]\nadapters = [{path = 'a.gguf', scael = 1}]\n", "adapters[0].scael: unknown key — did you mean 'scale'"),
        ("[slots.L0]\nadapters = [{path = 'a.gguf', scale = 9}]\n", "adapters[0].scale = 9.0: must be between -4.0 and 4.0"),
        ("schema = 2" + SLOT, "schema = 2: must be between 1 and 1"),
    ],
)
def test_wrong_types_and_ranges(text: str, expect: str) -> None:
    assert expect in bad(text)


@pytest.mark.parametrize(
    ("text", "expect"),
    [
        ("name = 'x'\n", "slots = {}: must define at least the entry slot"),
        ("[routing]\nentry_slot = 'L1'" + SLOT, "routing.entry_slot = 'L1': names a slot that is not defined"),
        ("[routing]\nfallback = 'L3'" + SLOT, "routing.fallback = 'L3'"),
        ("[runtime]\nn_ctx = 8192\nkv_cells = 4096" + SLOT, "must be at least runtime.n_ctx"),
        ("[tools]\nenabled = ['pyhton']" + SLOT, "tools.enabled[0] = 'pyhton': no such tool (built-in or skill) — did you mean 'python'"),
        ("[tools]\nenabled = ['notes']\n[tools.limits.python]\ntimeout_s = 3" + SLOT, "limits for a tool that is not in tools.enabled"),
        ("[hooks]\npre_answer = ['memory.serch']" + SLOT, "did you mean 'memory.search'"),
        ("[skills.python]\nsha256 = '" + "a" * 64 + "'" + SLOT, "has the name of a built-in tool"),
        ("[runtime]\nbackend = 'remote'" + SLOT, "remote.base_url = '': is required when runtime.backend"),
        ("[remote]\nbase_url = 'ftp://x'" + SLOT, "must be an http(s) URL"),
        ("[remote]\nfallback = 'local-defualt'" + SLOT, "did you mean 'local-default'"),
        ("[remote]\nfallback = 'venti-remote'" + SLOT, "is itself a remote profile"),
    ],
)
def test_cross_references(text: str, expect: str) -> None:
    assert expect in bad(text)


@pytest.mark.parametrize(
    "text",
    [
        "[remote]\nbase_url = 'https://h/v1'\napi_key = 'sk-123'" + SLOT,
        "token = 'abc'" + SLOT,
        "[slots.L0]\nadapters = [{path = 'a.gguf', secret = 'x'}]\n",
        "[remote]\nPassword = 'hunter2'" + SLOT,
        "[remote]\nbase_url = 'https://user:pw@host/v1'" + SLOT,
        "[remote]\nbase_url = 'https://host/v1?api_key=sk-1'" + SLOT,
    ],
)
def test_a_key_in_toml_is_refused_and_points_to_keyring(text: str) -> None:
    message = bad(text, HCPSecretError)
    assert "mol remote login" in message
    assert "sk-" not in message and "hunter2" not in message


def test_max_tokens_is_not_mistaken_for_a_secret() -> None:
    hcp = parse_hcp("[routing]\nmax_tokens = 12\n[summary]\nmax_tokens = 100" + SLOT)
    assert hcp.route_max_tokens == 12


def test_errors_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text("[runtime]\nthreads = -3" + SLOT, encoding="utf-8")
    with pytest.raises(HCPValidationError, match=r"runtime.threads = -3: .* fix it in .*mine.toml"):
        load_hcp(path)


def test_tool_families_and_single_tools() -> None:
    hcp = parse_hcp(SLOT + "[tools]\nenabled = ['notes.find', 'memory']\n[tools.limits.notes]\ntimeout_s = 2\n[tools.limits.\"memory.search\"]\ncpu_s = 1\n[hooks]\npre_answer = ['memory.search']\n")
    assert hcp.tools.limits_for("notes").timeout_s == 2.0 and hcp.tools.limits_for("memory.search").cpu_s == 1.0
    assert "limits for a tool that is not in tools.enabled" in bad(SLOT + "[tools]\nenabled = ['notes.find']\n[tools.limits.files]\ncpu_s = 1\n")
    assert 'must be quoted in TOML: [tools.limits."memory.search"]' in bad(SLOT + "[tools.limits.memory.search]\ncpu_s = 1\n")
