"""PEFT -> GGUF conversion: names from gguf-py's tables, q/k permutation, and every refusal."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mol_local.adapters.convert import convert_peft_to_gguf, rope_row_permute
from mol_local.adapters.errors import BadPeftDir, ForbiddenTensor, PickleRefused, ShapeMismatch, UnsupportedArchitecture
from mol_local.adapters.peft_io import read_peft_dir
from mol_local.models import check_adapter_fits, inspect_gguf
from tests.mol_local.adapters.conftest import write_peft_dir


def _gguf_array(path: Path, name: str) -> np.ndarray:
    from gguf import GGUFReader

    for tensor in GGUFReader(str(path)).tensors:
        if tensor.name == name:
            return np.array(tensor.data)
    raise KeyError(name)


def test_rope_row_permute_interleaves_halves_per_head() -> None:
    rows = np.arange(16, dtype=np.float32).reshape(16, 1)
    out = rope_row_permute(rows, 2)[:, 0].astype(int).tolist()
    # head 0 holds rows 0..7: first half 0..3, second half 4..7 -> 0,4,1,5,2,6,3,7
    assert out == [0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15]
    assert sorted(out) == list(range(16))


def test_convert_names_shapes_alpha_and_permutation(peft_dir: Path, base_model_path: Path, base_info, tmp_path: Path) -> None:
    report = convert_peft_to_gguf(peft_dir, base_model_path, tmp_path / "out.gguf")
    info = inspect_gguf(report.out, what="adapter")
    check_adapter_fits(info, base_info)
    assert info.fields["adapter.type"] == "lora" and info.fields["adapter.lora.alpha"] == 8.0
    assert report.tensors == 6 and report.permuted == 4  # q and k of two layers
    assert set(info.tensors) == {f"blk.{i}.{t}.weight.lora_{ab}" for i in (0, 1) for t in ("attn_q", "attn_k", "attn_v") for ab in "ab"}
    adapter = read_peft_dir(peft_dir)
    by_module = {p.module: p for p in adapter.pairs}
    q = by_module["model.layers.0.self_attn.q_proj"]
    k = by_module["model.layers.0.self_attn.k_proj"]
    v = by_module["model.layers.0.self_attn.v_proj"]
    np.testing.assert_allclose(_gguf_array(report.out, "blk.0.attn_q.weight.lora_a"), q.a)
    np.testing.assert_allclose(_gguf_array(report.out, "blk.0.attn_q.weight.lora_b"), rope_row_permute(q.b, 9))
    np.testing.assert_allclose(_gguf_array(report.out, "blk.0.attn_k.weight.lora_b"), rope_row_permute(k.b, 3))
    np.testing.assert_allclose(_gguf_array(report.out, "blk.0.attn_v.weight.lora_b"), v.b)
    assert not list(tmp_path.glob(".*.tmp"))


def test_alpha_pattern_is_folded_into_b(base_info, base_model_path: Path, tmp_path: Path) -> None:
    folder = write_peft_dir(tmp_path / "p", base_info, targets=("attn_v",), layers=(0,), config={"alpha_pattern": {"v_proj": 16.0}})
    out = convert_peft_to_gguf(folder, base_model_path, tmp_path / "o.gguf").out
    b = read_peft_dir(folder).pairs[0].b
    np.testing.assert_allclose(_gguf_array(out, "blk.0.attn_v.weight.lora_b"), b * 2.0, rtol=1e-6)


def test_cli_convert(peft_dir: Path, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from mol_local.cli import cli, import_commands

    import_commands()
    out = tmp_path / "cli.gguf"
    result = CliRunner().invoke(cli, ["adapters", "convert", str(peft_dir), "--base", "builtin:smollm2-135m", "-o", str(out), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["permuted"] == 4 and out.is_file()


@pytest.mark.parametrize("name", ["adapter_model.bin", "training_args.pt"])
def test_pickle_files_are_refused(peft_dir: Path, base_model_path: Path, tmp_path: Path, name: str) -> None:
    (peft_dir / name).write_bytes(b"\x80\x04K\x01.")
    with pytest.raises(PickleRefused, match="pickle"):
        convert_peft_to_gguf(peft_dir, base_model_path, tmp_path / "o.gguf")
    assert not (tmp_path / "o.gguf").exists()


def test_pickle_only_adapter_is_refused(tmp_path: Path, base_model_path: Path) -> None:
    folder = tmp_path / "p"
    folder.mkdir()
    (folder / "adapter_config.json").write_text('{"r": 4, "lora_alpha": 8}')
    (folder / "adapter_model.bin").write_bytes(b"\x80\x04K\x01.")
    with pytest.raises(PickleRefused, match="safetensors"):
        convert_peft_to_gguf(folder, base_model_path, tmp_path / "o.gguf")


@pytest.mark.parametrize(
    "extra",
    [
        {"base_model.model.lm_head.lora_A.weight": np.zeros((4, 576), np.float32), "base_model.model.lm_head.lora_B.weight": np.zeros((49152, 4), np.float32)},
        {"base_model.model.model.embed_tokens.lora_embedding_A": np.zeros((4, 49152), np.float32)},
    ],
    ids=["lm_head", "embed_tokens"],
)
def test_embedding_and_head_tensors_are_refused(base_info, base_model_path: Path, tmp_path: Path, extra) -> None:
    folder = write_peft_dir(tmp_path / "p", base_info, layers=(0,), extra=extra)
    with pytest.raises(ForbiddenTensor, match="embedding or output head"):
        convert_peft_to_gguf(folder, base_model_path, tmp_path / "o.gguf")
    assert not (tmp_path / "o.gguf").exists()


def test_modules_to_save_is_refused(base_info, base_model_path: Path, tmp_path: Path) -> None:
    folder = write_peft_dir(tmp_path / "p", base_info, layers=(0,), config={"modules_to_save": ["lm_head"]})
    with pytest.raises(ForbiddenTensor, match="modules_to_save"):
        convert_peft_to_gguf(folder, base_model_path, tmp_path / "o.gguf")


def test_rank_mismatch_between_a_and_b(base_info, base_model_path: Path, tmp_path: Path) -> None:
    stem = "base_model.model.model.layers.0.self_attn.v_proj"
    folder = write_peft_dir(tmp_path / "p", base_info, layers=(), extra={
        f"{stem}.lora_A.weight": np.zeros((8, 576), np.float32), f"{stem}.lora_B.weight": np.zeros((192, 4), np.float32)})
    with pytest.raises(ShapeMismatch, match="ranks differ"):
        convert_peft_to_gguf(folder, base_model_path, tmp_path / "o.gguf")


def test_shape_from_another_base_is_refused(base_info, base_model_path: Path, tmp_path: Path) -> None:
    stem = "base_model.model.model.layers.0.self_attn.v_proj"
    folder = write_peft_dir(tmp_path / "p", base_info, layers=(), extra={
        f"{stem}.lora_A.weight": np.zeros((4, 4096), np.float32), f"{stem}.lora_B.weight": np.zeros((1024, 4), np.float32)})
    with pytest.raises(ShapeMismatch, match="another base"):
        convert_peft_to_gguf(folder, base_model_path, tmp_path / "o.gguf")
    assert not (tmp_path / "o.gguf").exists()


def test_truncated_safetensors(peft_dir: Path, base_model_path: Path, tmp_path: Path) -> None:
    weights = peft_dir / "adapter_model.safetensors"
    weights.write_bytes(weights.read_bytes()[:5000])
    with pytest.raises(BadPeftDir, match="truncated"):
        convert_peft_to_gguf(peft_dir, base_model_path, tmp_path / "o.gguf")


def test_unsupported_architecture_is_named(peft_dir: Path, tmp_path: Path) -> None:
    import gguf

    fake = tmp_path / "gpt2.gguf"
    writer = gguf.GGUFWriter(str(fake), "gpt2")
    writer.add_block_count(1)
    writer.add_tensor("blk.0.attn_qkv.weight", np.zeros((8, 8), np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    with pytest.raises(UnsupportedArchitecture, match="'gpt2'.*supported: gemma3, llama"):
        convert_peft_to_gguf(peft_dir, fake, tmp_path / "o.gguf")


def test_cli_reports_bad_input_in_one_line(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from mol_local.cli import cli, import_commands

    import_commands()
    result = CliRunner().invoke(cli, ["adapters", "convert", str(tmp_path / "nope"), "--base", "builtin:smollm2-135m", "-o", str(tmp_path / "o.gguf")])
    assert result.exit_code == 1
    assert result.output.strip().count("\n") == 0 and "Error:" in result.output and "not a directory" in result.output


def test_fast_header_matches_gguf_py(base_model_path: Path, tmp_path: Path) -> None:
    """Our header reader (used on every model load) agrees with gguf-py's full reader and refuses truncation."""
    from gguf import GGUFReader, GGUFValueType

    from mol_local.adapters.gguf_header import read_header
    from mol_local.errors import CorruptModel

    fast = read_header(base_model_path)
    reader = GGUFReader(str(base_model_path), "r")
    assert fast.tensors == {t.name: tuple(int(x) for x in t.shape) for t in reader.tensors}
    assert fast.data_offset == int(reader.data_offset)
    for name, field in reader.fields.items():
        if name.startswith("GGUF.") or field.types[0] in (GGUFValueType.ARRAY, GGUFValueType.FLOAT32):
            continue
        raw = field.parts[field.data[0]]
        expected = bytes(raw).decode("utf-8") if field.types[0] == GGUFValueType.STRING else raw.tolist()[0]
        assert fast.fields[name] == expected, name
    data = base_model_path.read_bytes()
    for keep in (100_000, len(data) - 4096):  # inside the header; inside the last tensor's bytes
        cut = tmp_path / f"cut{keep}.gguf"
        cut.write_bytes(data[:keep])
        with pytest.raises(CorruptModel, match="damaged"):
            read_header(cut)
