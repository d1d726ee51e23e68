"""Registry: revisions, the atomic active pointer, rollback, verify, storage, and bad input leaving it untouched."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mol_local.adapters.errors import ChecksumMismatch, ForbiddenTensor, RegistryError
from mol_local.adapters.registry import parse_target
from mol_local.engine.base import GenerationRequest
from mol_local.errors import AdapterMismatch, CorruptModel
from mol_local.models import base_fingerprint
from tests.mol_local.adapters.conftest import snapshot


def test_register_writes_manifest_with_every_field(registered, base_model_path: Path) -> None:
    m = json.loads((registered.path / "manifest.json").read_text())
    assert registered.revision == "r0001" and m["revision"] == "r0001"
    assert m["base_fingerprint"] == base_fingerprint(base_model_path) and m["architecture"] == "llama"
    assert m["rank"] == 4 and m["alpha"] == 8.0 and m["target_modules"] == ["k_proj", "q_proj", "v_proj"]
    assert m["parent_revision"] is None and m["eval"] == {"acc": 0.5} and m["created_at"]
    assert len(m["training_data_ids"]) == 2 and all(len(t) == 64 for t in m["training_data_ids"])
    assert set(m["files"]) == {"adapter.gguf", "peft/adapter_config.json", "peft/adapter_model.safetensors"}


def test_activate_rollback_and_pointer_history(registry, registered, base_model_path: Path, lora_dir: Path) -> None:
    second = registry.register("L1", "specialist", lora_dir / "a.gguf", base=base_model_path, parent="r0001")
    assert second.revision == "r0002" and second.manifest["parent_revision"] == "r0001"
    assert registry.active("L1", "specialist") is None
    registry.activate("L1", "specialist", "r0001")
    registry.activate("L1", "specialist", "r0002")
    assert registry.active("L1", "specialist").revision == "r0002"
    assert registry.rollback("L1", "specialist").revision == "r0001"
    assert registry.rollback("L1", "specialist") is None
    with pytest.raises(RegistryError, match="nothing to roll back"):
        registry.rollback("L1", "specialist")
    assert not list(registry.layer_dir("L1", "specialist").glob(".active*"))


def test_unknown_revision_and_target_errors_leave_pointer(registry, registered) -> None:
    registry.activate("L1", "specialist", "r0001")
    before = snapshot(registry.root)
    with pytest.raises(RegistryError, match="no revision 'r0009'"):
        registry.activate("L1", "specialist", "r0009")
    with pytest.raises(RegistryError, match="unknown layer"):
        parse_target("L1/vendor")
    assert snapshot(registry.root) == before


def test_verify_catches_a_tampered_file_and_activation_refuses_it(registry, registered, base_model_path: Path) -> None:
    assert all(r["ok"] for r in registry.verify(base=base_model_path))
    target = registered.path / "peft" / "adapter_config.json"
    target.write_text(target.read_text().replace('"r": 4', '"r": 5'))
    rows = registry.verify(base=base_model_path)
    assert not rows[0]["ok"] and "sha256 differs" in rows[0]["problem"]
    with pytest.raises(ChecksumMismatch):
        registry.activate("L1", "specialist", "r0001")
    assert registry.pointer("L1", "specialist")["revision"] is None


def test_storage_figure(registry, registered, base_model_path: Path) -> None:
    registry.activate("L1", "specialist", "r0001")
    s = registry.storage(base_model_path)
    assert s["base_bytes"] == base_model_path.stat().st_size
    assert s["adapter_bytes"] == registered.gguf.stat().st_size > 0
    assert s["adapted_slots"] == ["L1"] and s["merged_bytes"] == s["base_bytes"]
    assert s["ratio_vs_four_merged"] < 0.26


@pytest.mark.parametrize("case", ["wrong_base", "corrupt", "embedding", "rank"])
def test_bad_adapter_leaves_registry_byte_identical(case: str, registry, registered, base_info, base_model_path: Path, lora_dir: Path, tmp_path: Path) -> None:
    import gguf

    registry.activate("L1", "specialist", "r0001")
    before = snapshot(registry.root)
    bad = tmp_path / "bad.gguf"
    if case == "wrong_base":
        from mol_local.adapters.synthetic import write_random_lora

        write_random_lora(base_info, bad, architecture="qwen2")
        expected = AdapterMismatch
    elif case == "corrupt":
        data = (lora_dir / "a.gguf").read_bytes()
        bad.write_bytes(data[: len(data) // 2])
        expected = CorruptModel
    else:
        writer = gguf.GGUFWriter(str(bad), "llama")
        writer.add_string("general.type", "adapter")
        writer.add_string("adapter.type", "lora")
        writer.add_float32("adapter.lora.alpha", 8.0)
        if case == "embedding":
            writer.add_tensor("token_embd.weight.lora_a", np.zeros((4, 576), np.float32))
            writer.add_tensor("token_embd.weight.lora_b", np.zeros((49152, 4), np.float32))
            expected = ForbiddenTensor
        else:
            writer.add_tensor("blk.0.attn_v.weight.lora_a", np.zeros((8, 576), np.float32))
            writer.add_tensor("blk.0.attn_v.weight.lora_b", np.zeros((192, 4), np.float32))
            expected = AdapterMismatch
        writer.write_header_to_file()
        writer.write_kv_data_to_file()
        writer.write_tensors_to_file()
        writer.close()
    with pytest.raises(expected):
        registry.register("L1", "specialist", bad, base=base_model_path, activate=True)
    assert snapshot(registry.root) == before


def test_runtime_picks_up_activate_and_rollback_without_restart(runtime, registry, registered, lora_dir: Path, base_model_path: Path) -> None:
    shipped = runtime.slot_stack("L1")  # the shipped L1 specialist, seeded on first use
    assert [Path(s.path).parent.parent.name for s in shipped] == ["specialist"] and shipped[0].path != str(registered.gguf)
    registry.activate("L1", "specialist", "r0001")
    stack = runtime.slot_stack("L1")
    assert [Path(s.path) for s in stack] == [registered.gguf]
    messages = [{"role": "user", "content": "Plan my week."}]
    engine = runtime.engine
    engine.generate(GenerationRequest(seq="L1", messages=messages, stack=stack, max_tokens=2))
    again = engine.generate(GenerationRequest(seq="L1", messages=messages, stack=runtime.slot_stack("L1"), max_tokens=2))
    assert again.prefill_tokens < again.prompt_tokens  # same stack: the KV was reused
    registry.rollback("L1", "specialist")
    assert runtime.slot_stack("L1") == shipped  # rollback goes back to the shipped specialist
    after = engine.generate(GenerationRequest(seq="L1", messages=messages, stack=runtime.slot_stack("L1"), max_tokens=2))
    assert after.prefill_tokens == after.prompt_tokens  # stack changed: the slot's KV was dropped


def test_personal_layer_stacks_after_specialist(runtime, registry, registered, lora_dir: Path, base_model_path: Path) -> None:
    personal = registry.register("L1", "personal", lora_dir / "b.gguf", base=base_model_path, activate=True)
    registry.activate("L1", "specialist", "r0001")
    assert [Path(s.path) for s in runtime.slot_stack("L1")] == [registered.gguf, personal.gguf]
