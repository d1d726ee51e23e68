"""Adapters belong to a base: switching base keeps every base's revisions, a slot without one for the
new base runs bare and doctor says so, and switching back finds the base's own revision again."""

from __future__ import annotations

from pathlib import Path

from mol_local.adapters.manifest import LAYERS
from mol_local.adapters.registry import Registry
from mol_local.models import base_fingerprint
from tests.mol_local.adapters.tiny_gguf import write_tiny_lora
from tests.mol_local.catalog.ggufs import tiny


def hcp_on(base: Path):
    from hcp import parse_hcp
    from hcp.edit import set_key
    from hcp.loader import parse_toml, profile_path

    doc = parse_toml(profile_path("local-default").read_text(encoding="utf-8"))
    set_key(doc, "runtime.base_model", str(base))
    return parse_hcp(doc.as_string())


def test_each_base_keeps_its_own_active_revision(mol_home: Path, tmp_path: Path, base_model_path: Path, lora_dir: Path) -> None:
    other = tiny(tmp_path / "other-base.gguf")
    registry = Registry(mol_home / "adapters")
    mine = registry.register("L1", "personal", lora_dir / "a.gguf", base=base_model_path, activate=True)
    theirs = registry.register("L1", "personal", write_tiny_lora(tmp_path / "tiny-lora.gguf"), base=other, activate=True)
    assert registry.pointer("L1", "personal") == {"revision": theirs.revision, "history": [mine.revision]}
    smol, tiny_fp = base_fingerprint(base_model_path), base_fingerprint(other)
    assert [s.path for s in registry.stack("L1", hop="answer", fingerprint=tiny_fp)] == [str(theirs.gguf)]
    assert [s.path for s in registry.stack("L1", hop="answer", fingerprint=smol)] == [str(mine.gguf)]  # back on SmolLM2: its own
    assert registry.stack("L2", hop="answer", fingerprint=smol) == ()
    registry.deactivate("L1", "personal")
    assert registry.stack("L1", hop="answer", fingerprint=smol) == registry.stack("L1", hop="answer", fingerprint=tiny_fp) == ()


def test_shipped_adapters_are_seeded_only_for_their_base(mol_home: Path, tmp_path: Path, base_model_path: Path) -> None:
    from mol_local.adapters.builtin import seed_shipped

    registry = Registry(mol_home / "adapters")
    other = tiny(tmp_path / "other-base.gguf")
    seed_shipped(registry, other)
    assert not [r for s in ("L0", "L1", "L2", "L3") for lay in LAYERS for r in registry.revisions(s, lay)]
    seed_shipped(registry, base_model_path)
    seeded = [r for lay in LAYERS for r in registry.revisions("L0", lay)]
    assert seeded and all(r.manifest["base_fingerprint"] == base_fingerprint(base_model_path) for r in seeded)


def test_doctor_says_a_slot_runs_bare_on_another_base(mol_home: Path, tmp_path: Path, base_model_path: Path, lora_dir: Path) -> None:
    from mol_local.cli.doctor import check_adapters

    registry = Registry(mol_home / "adapters")
    registry.register("L2", "personal", lora_dir / "a.gguf", base=base_model_path, activate=True)
    lines = dict(check_adapters(hcp_on(tiny(tmp_path / "other-base.gguf"))))
    assert lines["adapters L2"] == "none for this base — runs bare; 1 revision(s) made for another base are kept for it"
    assert lines["adapters L1"] == "none — the bare base with its persona"
    on_smol = dict(check_adapters(hcp_on(base_model_path)))
    assert on_smol["adapters L2"].startswith("answer: specialist/r0001, answer: personal/r0001")  # the shipped specialist under it
