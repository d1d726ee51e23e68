"""`mol models pull REPO[:FILE]`: the one code path that uses a network, and only when typed.

It says what it will fetch (repo, file, size, where from, where to) before it does; checks
free disk space first; downloads with huggingface_hub into its cache layout under the
platform's cache dir (an interrupted pull resumes from its `.incomplete` file); checks the
file's sha256 against the Hub's LFS hash; then adds it to the catalog. HF_ENDPOINT points it
at another hub (the tests serve one on 127.0.0.1). Everywhere else HF_HUB_OFFLINE stays on.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from mol_local.catalog.errors import PullError

SHA256 = re.compile(r"^[0-9a-f]{64}$")
SPARE = 512 << 20  # free space left after the download
PREFERRED = ("Q4_K_M", "Q4_K_S", "Q5_K_M", "Q8_0")  # which GGUF of a repo to take when FILE is not given


@dataclass(frozen=True)
class Curated:
    """A known-good instruct GGUF: what `mol models pull --list` offers."""

    name: str
    repo: str
    file: str
    size_mb: int
    ram_gb: float  # at n_ctx 4096, split KV (5 sequences), with the runtime
    licence: str


CURATED = (  # RAM: this module's estimate (mol_local/catalog/fit.py) from each model's published shape
    Curated("qwen2.5-0.5b-instruct", "Qwen/Qwen2.5-0.5B-Instruct-GGUF", "qwen2.5-0.5b-instruct-q4_k_m.gguf", 491, 1.3, "apache-2.0"),
    Curated("gemma3-1b-it", "ggml-org/gemma-3-1b-it-GGUF", "gemma-3-1b-it-Q4_K_M.gguf", 806, 1.9, "gemma"),
    Curated("llama3.2-1b-instruct", "bartowski/Llama-3.2-1B-Instruct-GGUF", "Llama-3.2-1B-Instruct-Q4_K_M.gguf", 808, 2.0, "llama3.2"),
    Curated("qwen2.5-1.5b-instruct", "Qwen/Qwen2.5-1.5B-Instruct-GGUF", "qwen2.5-1.5b-instruct-q4_k_m.gguf", 1120, 2.3, "apache-2.0"),
    Curated("qwen2.5-7b-instruct", "bartowski/Qwen2.5-7B-Instruct-GGUF", "Qwen2.5-7B-Instruct-Q4_K_M.gguf", 4680, 6.4, "apache-2.0"),
    Curated("llama3.1-8b-instruct", "bartowski/Meta-Llama-3.1-8B-Instruct-GGUF", "Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf", 4920, 8.1, "llama3.1"),
)


def models_cache_dir() -> Path:
    """$MOL_MODELS_CACHE, else the platform's cache dir for mol-local (`~/.cache/mol-local/hub` on Linux)."""
    import platformdirs

    env = os.environ.get("MOL_MODELS_CACHE")
    return Path(env).expanduser() if env else Path(platformdirs.user_cache_dir("mol-local")) / "hub"


@dataclass(frozen=True)
class Target:
    repo: str
    file: str
    size: int
    sha256: str | None
    commit: str
    endpoint: str


def _online() -> str:
    """Lift HF_HUB_OFFLINE for this one command (a person typed `pull`); the endpoint it will talk to."""
    os.environ["HF_HUB_OFFLINE"] = "0"
    from huggingface_hub import constants

    constants.HF_HUB_OFFLINE = False
    return os.environ.get("HF_ENDPOINT", constants.ENDPOINT).rstrip("/")


def parse_ref(ref: str) -> tuple[str, str | None]:
    """`org/repo:file.gguf`, `org/repo`, or a curated name -> (repo, file or None)."""
    for c in CURATED:
        if ref == c.name:
            return c.repo, c.file
    repo, _, file = ref.partition(":")
    if repo.count("/") != 1 or not all(repo.split("/")):
        raise PullError(f"{ref!r} is not a Hub repo — write ORG/REPO or ORG/REPO:FILE.gguf, or a name from `mol models pull --list`")
    return repo, file or None


def resolve(ref: str) -> Target:
    """Which file, how big, which sha256: asked of the Hub before anything is downloaded."""
    endpoint = _online()
    from huggingface_hub import HfApi, get_hf_file_metadata, hf_hub_url

    repo, file = parse_ref(ref)
    with _hub_errors(endpoint, repo, file):
        if file is None:
            file = _pick(repo, [s.rfilename for s in HfApi(endpoint=endpoint).model_info(repo).siblings or []])
        meta = get_hf_file_metadata(hf_hub_url(repo, file, endpoint=endpoint))
    etag = (meta.etag or "").strip('"').lower()
    return Target(repo, file, int(meta.size or 0), etag if SHA256.match(etag) else None, meta.commit_hash or "main", endpoint)


def _pick(repo: str, files: list[str]) -> str:
    ggufs = [f for f in files if f.lower().endswith(".gguf") and "mmproj" not in f.lower()]
    if not ggufs:
        raise PullError(f"{repo} has no .gguf file — pick a GGUF repo (`mol models pull --list` shows some)")
    for quant in PREFERRED:
        match = [f for f in ggufs if quant.lower() in f.lower()]
        if match:
            return match[0]
    if len(ggufs) == 1:
        return ggufs[0]
    raise PullError(f"{repo} has {len(ggufs)} GGUFs ({', '.join(ggufs[:6])}) — pick one: `mol models pull {repo}:FILE`")


def check_space(target: Target, cache: Path) -> None:
    try:
        cache.mkdir(parents=True, exist_ok=True)
        probe = cache / f".mol-write-test-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise PullError(f"cannot write to {cache} ({exc.strerror}) — make it writable or set MOL_MODELS_CACHE to another folder") from exc
    free = shutil.disk_usage(cache).free
    if target.size + SPARE > free:
        raise PullError(
            f"{target.file} needs {target.size >> 20} MiB but {cache} has {free >> 20} MiB free (keeping {SPARE >> 20} MiB spare)"
            " — free some space or set MOL_MODELS_CACHE to a bigger disk"
        )


def download(target: Target, cache: Path) -> Path:
    """Download (resuming a partial file) and check its sha256; a file that does not match is removed."""
    from huggingface_hub import hf_hub_download

    with _hub_errors(target.endpoint, target.repo, target.file):
        path = Path(hf_hub_download(target.repo, target.file, revision=target.commit, cache_dir=cache, endpoint=target.endpoint))
    if target.sha256 is not None:
        got = sha256_of(path)
        if got != target.sha256:
            blob = path.resolve()
            path.unlink(missing_ok=True)
            blob.unlink(missing_ok=True)
            raise PullError(f"{target.file} arrived damaged (sha256 {got[:12]}… is not the Hub's {target.sha256[:12]}…) — it was removed; run the pull again")
    return path


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while chunk := fh.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


class _hub_errors:
    """huggingface_hub / httpx failures as one PullError line that names the fix."""

    def __init__(self, endpoint: str, repo: str, file: str | None) -> None:
        self.endpoint, self.repo, self.file = endpoint, repo, file

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, exc, tb) -> bool:
        if exc is None or isinstance(exc, PullError):
            return False
        from huggingface_hub import errors

        if isinstance(exc, errors.RepositoryNotFoundError):
            raise PullError(f"the Hub at {self.endpoint} has no repo {self.repo} (or it is gated) — check the name") from exc
        if isinstance(exc, (errors.EntryNotFoundError, errors.RevisionNotFoundError)):
            raise PullError(f"{self.repo} has no file {self.file} — `mol models pull {self.repo}` picks one") from exc
        if isinstance(exc, (*_transport_errors(), errors.OfflineModeIsEnabled, errors.LocalEntryNotFoundError, OSError)):
            raise PullError(
                f"cannot reach {self.endpoint} ({type(exc).__name__}) — connect to the network, or copy the GGUF here and run `mol models add PATH`"
            ) from exc
        if isinstance(exc, errors.HfHubHTTPError):
            raise PullError(f"the Hub at {self.endpoint} refused the download ({exc}) — try again later") from exc
        return False


def _transport_errors() -> tuple[type[BaseException], ...]:
    """Connection failures of the HTTP client huggingface_hub uses (httpx, or its `httpx2` fork in 2.x)."""
    import importlib

    found = []
    for name in ("httpx", "httpx2"):
        try:
            found.append(importlib.import_module(name).TransportError)
        except (ImportError, AttributeError):
            continue
    return tuple(found)
