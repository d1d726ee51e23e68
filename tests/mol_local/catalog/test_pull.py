"""`mol models pull` against a Hub served on 127.0.0.1 by the test (HF_ENDPOINT), never the real one."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from tests.mol_local.catalog.ggufs import tiny
from tests.mol_local.catalog.hub import Hub

REPO = "someone/Tiny-GGUF"


@pytest.fixture
def model_bytes(tmp_path: Path) -> bytes:
    """A tiny GGUF padded past huggingface_hub's 10 MiB download chunk, so a broken transfer has bytes to resume from."""
    data = tiny(tmp_path / "src.gguf", name="Pulled Tiny", template="{{ '<|im_start|>' }}").read_bytes()
    return data + bytes(12 * (1 << 20) - len(data))


@pytest.fixture
def hub(model_bytes: bytes):
    server = Hub({REPO: {"tiny-Q8_0.gguf": model_bytes, "tiny-Q4_K_M.gguf": model_bytes, "README.md": b"# tiny"}})
    url = server.start()
    server.url = url  # type: ignore[attr-defined]
    yield server
    server.stop()


def pull_env(hub, tmp_path: Path) -> dict[str, str]:
    return {"HF_ENDPOINT": hub.url, "MOL_MODELS_CACHE": str(tmp_path / "cache"), "HF_HUB_DISABLE_XET": "1"}


def test_pull_says_what_then_fetches_checks_and_adds(mol, hub, tmp_path: Path, model_bytes: bytes) -> None:
    hub.drop_first_get_after = 11 << 20  # the connection breaks after 11 of 12 MiB
    out = mol("models", "pull", REPO, "--yes", env=pull_env(hub, tmp_path))
    assert out.returncode == 0, out.stderr
    first = out.stdout.splitlines()[0]
    assert first.startswith(f"will fetch {REPO}/tiny-Q4_K_M.gguf (") and hub.url in first and str(tmp_path / "cache") in first
    assert "added tiny-q4_k_m (llama" in out.stdout
    gets = [r for r in hub.requests if r[0] == "GET" and "/resolve/" in r[1]]
    assert len(gets) == 2 and gets[0][2] is None and gets[1][2] == f"bytes={10 << 20}-"  # resumed after the first 10 MiB chunk
    listed = json.loads(mol("models", "list", "--json").stdout)["models"]
    entry = next(m for m in listed if m["name"] == "tiny-q4_k_m")
    assert entry["source"] == "pull" and Path(entry["path"]).read_bytes() == model_bytes
    assert Path(entry["path"]).is_relative_to(tmp_path / "cache")


def test_a_damaged_download_is_refused_and_removed(mol, hub, tmp_path: Path) -> None:
    hub.lie_sha = True
    out = mol("models", "pull", f"{REPO}:tiny-Q8_0.gguf", "--yes", env=pull_env(hub, tmp_path))
    assert out.returncode == 1 and out.stderr.count("\n") == 1
    assert "arrived damaged" in out.stderr and "run the pull again" in out.stderr
    assert not [p for p in (tmp_path / "cache").rglob("*.gguf")]
    assert "tiny-q8_0" not in mol("models", "list").stdout


def test_not_enough_disk_is_said_before_downloading(mol, hub, tmp_path: Path) -> None:
    hub.lie_size = 1 << 50  # a petabyte
    out = mol("models", "pull", f"{REPO}:tiny-Q8_0.gguf", "--yes", env=pull_env(hub, tmp_path))
    assert out.returncode == 1 and "needs 1073741824 MiB" in out.stderr and "MOL_MODELS_CACHE" in out.stderr
    assert not [r for r in hub.requests if r[0] == "GET" and "/resolve/" in r[1]]


@pytest.mark.parametrize("ref, words", [
    ("someone/Nope", "has no repo someone/Nope"),
    (f"{REPO}:missing.gguf", "has no file missing.gguf"),
    ("not-a-repo", "is not a Hub repo"),
])
def test_bad_refs_are_one_line(mol, hub, tmp_path: Path, ref: str, words: str) -> None:
    out = mol("models", "pull", ref, "--yes", env=pull_env(hub, tmp_path))
    assert out.returncode == 1 and words in out.stderr and out.stderr.count("\n") == 1 and "Traceback" not in out.stderr


def test_offline_fails_in_one_line(mol, tmp_path: Path) -> None:
    with socket.socket() as sock:  # a port that was free a moment ago: nothing listens there
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {"HF_ENDPOINT": f"http://127.0.0.1:{port}", "MOL_MODELS_CACHE": str(tmp_path / "cache")}
    out = mol("models", "pull", f"{REPO}:tiny-Q8_0.gguf", "--yes", env=env)
    assert out.returncode == 1 and out.stderr.startswith("Error: cannot reach http://127.0.0.1:")
    assert "mol models add PATH" in out.stderr and out.stderr.count("\n") == 1


def test_an_unwritable_cache_is_one_line(mol, hub, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    env = {**pull_env(hub, tmp_path), "MOL_MODELS_CACHE": str(blocker / "cache")}
    out = mol("models", "pull", f"{REPO}:tiny-Q8_0.gguf", "--yes", env=env)
    assert out.returncode == 1 and "cannot write to" in out.stderr and "MOL_MODELS_CACHE" in out.stderr


def test_the_curated_list_names_ram(mol) -> None:
    out = mol("models", "pull", "--list")
    assert out.returncode == 0 and "qwen2.5-0.5b-instruct" in out.stdout and " GB " in out.stdout
