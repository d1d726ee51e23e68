"""Where GGUFs already live on a machine, and how to find them without copying a byte.

- Ollama: `manifests/<registry>/<namespace>/<model>/<tag>` (JSON) name a model layer by
  digest; its weights are the GGUF `blobs/sha256-<hex>`. Root: $OLLAMA_MODELS, else
  ~/.ollama/models, else the Linux service's /usr/share/ollama/.ollama/models.
- LM Studio: `<publisher>/<repo>/<file>.gguf` under ~/.lmstudio/models or ~/.cache/lm-studio/models.
- Hugging Face hub cache: `models--<org>--<name>/snapshots/<rev>/<file>.gguf` under
  $HF_HUB_CACHE, else $HF_HOME/hub, else ~/.cache/huggingface/hub.
- any folder given: every `*.gguf` below it (hidden folders skipped).

Only paths are returned; headers are read by the catalog. A split model is found by its
first part (`-00001-of-000NN.gguf`, what llama.cpp loads). Problems (a manifest whose
blob is missing, a folder that cannot be read) become one line each, never an exception.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

OLLAMA_MODEL_LAYER = "application/vnd.ollama.image.model"
_SPLIT = re.compile(r"-(\d{5})-of-(\d{5})\.gguf$", re.I)
_SKIP_DIRS = {"node_modules", "__pycache__", "blobs"}  # HF `blobs/` holds the same files its snapshots link to


@dataclass(frozen=True)
class Found:
    """A GGUF file and the name it suggests (Ollama's model:tag, else the file's stem)."""

    path: Path
    source: str  # ollama, lmstudio, hf-cache, folder
    name: str


@dataclass
class Scan:
    found: list[Found] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    searched: list[str] = field(default_factory=list)

    def extend(self, other: Scan) -> None:
        self.found += other.found
        self.problems += other.problems
        self.searched += other.searched


def ollama_root() -> Path | None:
    if env := os.environ.get("OLLAMA_MODELS"):
        return Path(env).expanduser()
    for root in (Path.home() / ".ollama" / "models", Path("/usr/share/ollama/.ollama/models")):
        if root.is_dir():
            return root
    return None


def lmstudio_roots() -> list[Path]:
    return [p for p in (Path.home() / ".lmstudio" / "models", Path.home() / ".cache" / "lm-studio" / "models") if p.is_dir()]


def hf_cache_root() -> Path:
    if env := os.environ.get("HF_HUB_CACHE"):
        return Path(env).expanduser()
    if env := os.environ.get("HF_HOME"):
        return Path(env).expanduser() / "hub"
    return Path.home() / ".cache" / "huggingface" / "hub"


def scan_known() -> Scan:
    """Every store we know of that exists on this machine."""
    out = Scan()
    root = ollama_root()
    if root is not None and root.is_dir():
        out.extend(scan_ollama(root))
    for lm in lmstudio_roots():
        out.extend(scan_folder(lm, source="lmstudio"))
    hf = hf_cache_root()
    if hf.is_dir():
        out.extend(scan_hf_cache(hf))
    return out


def scan_ollama(root: Path) -> Scan:
    out = Scan(searched=[f"ollama {root}"])
    manifests = root / "manifests"
    for manifest in _files(manifests, out):
        rel = manifest.relative_to(manifests).parts
        if len(rel) < 3:
            continue
        *_, namespace, model, tag = rel
        name = f"{model}:{tag}" if namespace == "library" else f"{namespace}/{model}:{tag}"
        try:
            data = json.loads(manifest.read_text(encoding="utf-8"))
            layers = [x for x in data.get("layers", []) if x.get("mediaType") == OLLAMA_MODEL_LAYER]
        except (OSError, ValueError, AttributeError) as exc:
            out.problems.append(f"Ollama model {name}: its manifest {manifest} cannot be read ({exc}) — run `ollama pull {name}` again")
            continue
        if not layers or not isinstance(layers[0].get("digest"), str):
            continue  # an embedding-only or adapter manifest: no model weights
        digest = layers[0]["digest"]
        blob = root / "blobs" / digest.replace(":", "-")
        if not blob.is_file():
            out.problems.append(
                f"Ollama model {name}: its manifest points at blob {blob.name}, which is missing — run `ollama pull {name}` again"
            )
            continue
        out.found.append(Found(blob, "ollama", name))
    return out


def scan_hf_cache(root: Path) -> Scan:
    out = Scan(searched=[f"hf-cache {root}"])
    try:
        repos = sorted(p for p in root.iterdir() if p.name.startswith("models--"))
    except OSError as exc:
        out.problems.append(f"cannot read the Hugging Face cache {root} ({exc.strerror}) — check its permissions")
        return out
    for repo in repos:
        snapshots = repo / "snapshots"
        for path in _ggufs(snapshots, out):
            out.found.append(Found(path, "hf-cache", stem_name(path)))
    return out


def scan_folder(root: Path, *, source: str = "folder") -> Scan:
    out = Scan(searched=[f"{source} {root}"])
    if not root.is_dir():
        out.problems.append(f"{root} is not a folder — give a folder that holds .gguf files")
        return out
    for path in _ggufs(root, out):
        out.found.append(Found(path, source, stem_name(path)))
    return out


def _ggufs(root: Path, out: Scan) -> Iterator[Path]:
    for path in _files(root, out):
        if path.suffix.lower() != ".gguf":
            continue
        split = _SPLIT.search(path.name)
        if split and int(split.group(1)) != 1:
            continue  # llama.cpp opens a split model by its first part
        yield path


def _files(root: Path, out: Scan) -> Iterator[Path]:
    """Files under root (symlinks to files included, as HF snapshots are), sorted; unreadable folders reported."""
    def failed(exc: OSError) -> None:
        out.problems.append(f"cannot read {exc.filename} ({exc.strerror}) — check its permissions; the rest was scanned")

    if not root.is_dir():
        return
    for folder, dirs, files in os.walk(root, onerror=failed):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP_DIRS)
        for name in sorted(files):
            path = Path(folder) / name
            if path.is_file():
                yield path


def stem_name(path: Path) -> str:
    stem = _SPLIT.sub("", path.name)
    return re.sub(r"\.gguf$", "", stem, flags=re.I).lower()


def scan_path(root: Path) -> Scan:
    """A folder the person named: an Ollama store or a Hugging Face cache is read as such, else every .gguf below."""
    root = root.expanduser()
    if (root / "manifests").is_dir() and (root / "blobs").is_dir():
        return scan_ollama(root)
    if root.is_dir() and any(p.name.startswith("models--") for p in _children(root)):
        return scan_hf_cache(root)
    return scan_folder(root)


def _children(root: Path) -> list[Path]:
    try:
        return list(root.iterdir())
    except OSError:
        return []
