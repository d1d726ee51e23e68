"""Header facts without loading weights: the tiny synthetic GGUF, the embedded SmolLM2 and the real gemma3."""

from __future__ import annotations

from pathlib import Path

import pytest

from mol_local.catalog.facts import read_facts, tool_format
from mol_local.errors import CorruptModel, ModelNotFound
from mol_local.models import base_fingerprint
from tests.mol_local.adapters.tiny_gguf import N_EMBD, N_FF, N_HEAD, N_VOCAB, write_tiny_lora
from tests.mol_local.catalog.ggufs import HERMES_TEMPLATE, tiny, truncated


def test_tiny_model_facts_are_its_header(tmp_path: Path) -> None:
    path = tiny(tmp_path / "t.gguf", name="Tiny Test", template=HERMES_TEMPLATE)
    f = read_facts(path)
    assert (f.title, f.architecture, f.quant, f.context_length, f.license) == ("Tiny Test", "llama", "F32", 256, "mit")
    assert (f.n_layer, f.n_embd, f.n_vocab, f.n_ff) == (1, N_EMBD, N_VOCAB, N_FF)
    # token_embd + output_norm + 2 norms + 4 attention + 3 MLP matrices
    assert f.parameters == N_VOCAB * N_EMBD + N_EMBD + 2 * N_EMBD + 4 * N_EMBD * N_EMBD + 3 * N_FF * N_EMBD
    assert f.kv_bytes_per_cell == 1 * N_HEAD * (2 * N_EMBD // N_HEAD) * 2  # one layer, K+V, f16
    assert f.has_template and f.chat_format == "chatml" and f.tool_format == "hermes"
    assert f.fingerprint == base_fingerprint(path) and f.file_size == path.stat().st_size


def test_embedded_smollm2(base_model_path: Path) -> None:
    f = read_facts(base_model_path)
    assert (f.architecture, f.quant, f.n_layer, f.n_vocab, f.context_length) == ("llama", "Q4_1", 30, 49152, 8192)
    assert f.has_template and f.chat_format == "chatml"
    assert f.kv_bytes_per_cell == 30 * 3 * (64 + 64) * 2  # 3 KV heads of 64, K+V, f16
    assert 130e6 < f.parameters < 140e6


def test_gemma3_has_no_template(gemma3: Path) -> None:
    f = read_facts(gemma3)
    assert (f.architecture, f.quant, f.n_layer, f.n_vocab, f.license) == ("gemma3", "Q4_K_M", 18, 262144, "gemma")
    assert not f.has_template and f.chat_format == "none" and f.tool_format is None
    assert f.kv_bytes_per_cell == 18 * 1 * (256 + 256) * 2


@pytest.mark.parametrize("template, expected", [
    ("{{ '<|im_start|>' }}<tool_call>", "hermes"),
    ("[INST] {% if tools %}[TOOL_CALLS]{% endif %}", "mistral"),
    ("<|start_header_id|>ipython<|end_header_id|>{{ '<|python_tag|>' }}", "llama3-json"),
    ("<|start_header_id|>user<|end_header_id|>", None),
    (None, None),
])
def test_tool_format_from_the_template(template: str | None, expected: str | None) -> None:
    assert tool_format(template) == expected


def test_bad_files_name_the_problem(tmp_path: Path) -> None:
    (tmp_path / "notes.gguf").write_text("these are my notes, not a model")
    with pytest.raises(CorruptModel, match="not a GGUF file"):
        read_facts(tmp_path / "notes.gguf")
    with pytest.raises(CorruptModel, match="damaged or unsafe"):
        read_facts(truncated(tmp_path / "cut.gguf"))
    with pytest.raises(CorruptModel, match="LoRA adapter, not a base model"):
        read_facts(write_tiny_lora(tmp_path / "lora.gguf"))
    with pytest.raises(ModelNotFound):
        read_facts(tmp_path / "nothing-here.gguf")
