"""A second real architecture end to end: after `mol models use` of the gemma3 270M base (no chat template,
no route adapter), a whole turn routes with the embeddings head, answers, stops at the transcript's next
turn marker (not at the token cap), summarises and commits; a follow-up stays in the same conversation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ANSWER_TOKENS = 96


@pytest.fixture(scope="module")
def gemma_runtime(gemma3: Path, tmp_path_factory: pytest.TempPathFactory):
    import os

    from hcp import load_hcp
    from mol_local.cli import cli, models  # noqa: F401  (importing `models` registers `mol models`)
    from mol_local.runtime import Runtime

    home = tmp_path_factory.mktemp("gemma-home")
    old = os.environ.get("MOL_HOME")
    os.environ["MOL_HOME"] = str(home)
    try:
        from click.testing import CliRunner

        out = CliRunner().invoke(cli, ["models", "use", str(gemma3), "--n-ctx", "1024", "--json"], catch_exceptions=False)
        assert out.exit_code == 0, out.output
        from hcp.store import VersionStore

        VersionStore(home).update({"answer.max_tokens": ANSWER_TOKENS, "summary.max_tokens": 32}, reason="short test budgets")
        rt = Runtime(load_hcp(home / "hcp.toml"), home=home)
        yield rt
        rt.close()
    finally:
        if old is None:
            os.environ.pop("MOL_HOME", None)
        else:
            os.environ["MOL_HOME"] = old


def test_a_turn_on_gemma3_routes_answers_stops_and_commits(gemma_runtime) -> None:
    rt = gemma_runtime
    assert rt.model_path().name == "gemma-3-270m-q4_k_m.gguf" and rt.engine.template.fallback is not None
    session = rt.session()
    result = session.run_turn("What is the capital of France?")
    assert result.route is not None and result.route.mode == "embed" and result.slot == "L0"
    assert result.answer and "User:" not in result.answer
    assert result.timings_ms["completion_tokens"] < ANSWER_TOKENS  # it stopped by itself
    assert result.summary and rt.db["tasks"].count == 1 and rt.db["summaries"].count == 1
    coding = session.run_turn("Write a Python function that reverses a string.")
    assert coding.route is not None and coding.route.mode == "embed" and coding.slot == "L2"
    assert coding.conversation_id == result.conversation_id and rt.db["tasks"].count == 2
    assert json.dumps(coding.timings_ms)  # plain numbers, as `mol chat --json` prints them
