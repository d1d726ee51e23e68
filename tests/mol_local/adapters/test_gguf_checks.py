"""Hostile GGUF headers are refused before llama.cpp sees them (it aborts the process on some).

Each bad file is the tiny model (or LoRA) of tiny_gguf.py with one header
field changed. The unmodified tiny model loads in the real llama.cpp, and
for every "aborts" case a subprocess shows llama.cpp itself dies on the file
(SIGABRT), so each test is about exactly the field it names.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from mol_local.errors import CorruptModel
from mol_local.models import inspect_gguf
from tests.mol_local.adapters.tiny_gguf import write_tiny_lora, write_tiny_model

# name -> (changed fields, words the refusal must contain); all of these abort llama.cpp (GGML_ASSERT)
ABORTS: dict[str, tuple[dict, str]] = {
    "experts_used_without_experts": ({"llama.expert_used_count": (3, "u32")}, "llama.expert_used_count = 3"),
    "more_used_than_experts": ({"llama.expert_count": (4, "u32"), "llama.expert_used_count": (5, "u32")}, "expert_used_count = 5"),
    "experts_but_none_used": ({"llama.expert_count": (4, "u32"), "llama.expert_used_count": (0, "u32")}, "expert_used_count = 0"),
    "too_many_experts": ({"llama.expert_count": (1025, "u32"), "llama.expert_used_count": (2, "u32")}, "expert_count = 1025"),
    "expert_groups": ({"llama.expert_count": (4, "u32"), "llama.expert_used_count": (2, "u32"), "llama.expert_group_count": (8, "u32")},
                      "expert_group_count = 8"),
    "block_count_4e9": ({"llama.block_count": (4_000_000_000, "u32")}, "llama.block_count = 4000000000"),
    "block_count_0": ({"llama.block_count": (0, "u32")}, "llama.block_count = 0"),
    "block_count_513": ({"llama.block_count": (513, "u32")}, "llama.block_count = 513"),
    "nextn_over_blocks": ({"llama.nextn_predict_layers": (2, "u32")}, "nextn_predict_layers = 2"),
    "rope_scaling_type": ({"llama.rope.scaling.type": ("bogus", "str")}, "rope.scaling.type = 'bogus'"),
}
# refused by us; llama.cpp raises (not aborts) on these, or our own reader crashed on them
REFUSED: dict[str, tuple[dict, str]] = {
    "alignment_inf": ({"general.alignment": (float("inf"), "f32")}, "general.alignment = inf"),
    "alignment_0": ({"general.alignment": (0, "u32")}, "general.alignment = 0"),
    "alignment_3": ({"general.alignment": (3, "u32")}, "general.alignment = 3"),
    "alignment_u64": ({"general.alignment": (64, "u64")}, "not a uint32"),
    "block_count_float": ({"llama.block_count": (1.0, "f32")}, "not an integer"),
    "context_length_0": ({"llama.context_length": (0, "u32")}, "context_length = 0"),
}
LLAMA_LOAD = (
    "import sys, llama_cpp\n"
    "from llama_cpp._internals import LlamaModel\n"
    "try:\n"
    "    LlamaModel(path_model=sys.argv[1], params=llama_cpp.llama_model_default_params(), verbose=False)\n"
    "except ValueError:\n"
    "    sys.exit(3)\n"
)


def _llama_cpp_load(path: Path) -> int:
    """Return code of loading `path` with the real llama.cpp in a child (0 loaded, 3 error, -6 abort)."""
    env = {**os.environ, "GGML_NO_BACKTRACE": "1"}  # no gdb run on abort
    return subprocess.run([sys.executable, "-c", LLAMA_LOAD, str(path)], env=env, capture_output=True, timeout=120).returncode


def test_the_unmodified_tiny_model_loads_in_llama_cpp_and_passes(tmp_path: Path) -> None:
    path = write_tiny_model(tmp_path / "good.gguf")
    assert inspect_gguf(path).architecture == "llama"
    assert _llama_cpp_load(path) == 0


@pytest.mark.parametrize("case", sorted(ABORTS))
def test_a_header_llama_cpp_aborts_on_is_refused_first(case: str, tmp_path: Path) -> None:
    fields, words = ABORTS[case]
    path = write_tiny_model(tmp_path / f"{case}.gguf", fields)
    assert _llama_cpp_load(path) == -6  # SIGABRT: the reason for the check
    with pytest.raises(CorruptModel) as err:
        inspect_gguf(path)
    assert words in str(err.value) and str(path) in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_malformed_header_field_is_refused(case: str, tmp_path: Path) -> None:
    fields, words = REFUSED[case]
    with pytest.raises(CorruptModel, match="re-download or re-export") as err:
        inspect_gguf(write_tiny_model(tmp_path / f"{case}.gguf", fields))
    assert words in str(err.value)


def test_valid_moe_and_per_layer_counts_pass(tmp_path: Path) -> None:
    ok = write_tiny_model(tmp_path / "moe.gguf", {"llama.expert_count": (8, "u32"), "llama.expert_used_count": (2, "u32")})
    assert inspect_gguf(ok).fields["llama.expert_count"] == 8


def test_a_truncated_file_is_refused_base_and_adapter(tmp_path: Path) -> None:
    for path in (write_tiny_model(tmp_path / "m.gguf"), write_tiny_lora(tmp_path / "a.gguf")):
        data = path.read_bytes()
        path.write_bytes(data[: len(data) - 64])
        with pytest.raises(CorruptModel, match="runs past the end of the file"):
            inspect_gguf(path)


@pytest.mark.parametrize("alpha", [float("nan"), float("inf"), 1e30, -1.0])
def test_a_lora_alpha_that_is_not_a_sane_number_is_refused(alpha: float, tmp_path: Path) -> None:
    path = write_tiny_lora(tmp_path / "a.gguf", {"adapter.lora.alpha": (alpha, "f32")})
    with pytest.raises(CorruptModel, match="adapter.lora.alpha"):
        inspect_gguf(path, what="adapter")


def test_a_lora_with_a_bad_alignment_is_refused(tmp_path: Path) -> None:
    path = write_tiny_lora(tmp_path / "a.gguf", {"general.alignment": (float("inf"), "f32")})
    with pytest.raises(CorruptModel, match="general.alignment = inf"):
        inspect_gguf(path, what="adapter")


@pytest.mark.slow
@pytest.mark.parametrize("case", ["experts_used_without_experts", "block_count_4e9", "alignment_inf"])
def test_mol_chat_on_a_hostile_base_says_so_in_one_line(case: str, tmp_path: Path, mol_home: Path) -> None:
    """The whole path a user takes: HCP base_model -> engine load; one line, rc 1, no abort, no traceback."""
    from hcp import profile_path

    fields = {**ABORTS, **REFUSED}[case][0]
    model = write_tiny_model(tmp_path / f"{case}.gguf", fields)
    hcp = tmp_path / "hcp.toml"
    hcp.write_text(profile_path("local-default").read_text(encoding="utf-8").replace(
        'base_model = "builtin:smollm2-135m"', f'base_model = "{model}"'), encoding="utf-8")
    assert str(model) in hcp.read_text(encoding="utf-8")
    env = {**os.environ, "MOL_HOME": str(mol_home), "MOL_HCP": str(hcp), "GGML_NO_BACKTRACE": "1"}
    out = subprocess.run([sys.executable, "-m", "mol_local.cli", "chat", "hello"], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 1, out.stderr
    assert "Traceback" not in out.stderr and "damaged or unsafe" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
