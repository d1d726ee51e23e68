"""How much RAM a base needs at a given n_ctx / kv_layout, and the settings that fit this machine.

estimate = weights (the file, memory-mapped and all touched by the first decode)
         + KV cache (bytes per cell x cells: split = n_ctx per sequence x sequences,
           unified = kv_cells shared)
         + overhead (llama.cpp's vocabulary tables, ~200 B a token, and its compute
           buffer, ~n_ubatch x n_ff x 8 B, plus a fixed 8 MiB).
Calibrated on the RSS growth of loading the two real bases here (SmolLM2-135M, gemma3-270M)
at two n_ctx each; `mol bench models` records estimate vs measured.
The rest of the process (Python, SQLite, Chroma, the MiniLM embedder) is RUNTIME_BASELINE.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from mol_local.catalog.errors import ModelTooBig
from mol_local.catalog.facts import ModelFacts, human_bytes

MIB = 1 << 20
N_UBATCH = 512  # LlamaCppEngine's n_batch = n_ubatch
FIXED_OVERHEAD = 8 * MIB
PER_TOKEN = 200  # bytes of llama.cpp vocabulary tables per token
RUNTIME_BASELINE = 512 * MIB  # the Python process around the engine: interpreter, SQLite, Chroma, MiniLM
HEADROOM = 0.9  # use at most this share of the RAM available now
DEFAULT_SEQUENCES = 5  # the route sequence + four slots


@dataclass(frozen=True)
class Estimate:
    n_ctx: int
    kv_layout: str
    kv_cells: int
    cells: int
    weights: int
    kv: int
    overhead: int

    @property
    def total(self) -> int:
        return self.weights + self.kv + self.overhead

    @property
    def with_runtime(self) -> int:
        return self.total + RUNTIME_BASELINE

    def words(self) -> str:
        return (f"{human_bytes(self.with_runtime)} at n_ctx {self.n_ctx} ({self.kv_layout}): weights {human_bytes(self.weights)}"
                f" + KV {human_bytes(self.kv)} + overhead {human_bytes(self.overhead)} + runtime {human_bytes(RUNTIME_BASELINE)}")

    def to_dict(self) -> dict:
        return {**asdict(self), "total": self.total, "with_runtime": self.with_runtime}


def available_ram() -> int:
    """Bytes the OS could give a new process now (psutil: MemAvailable on Linux)."""
    import psutil

    return int(psutil.virtual_memory().available)


def estimate(facts: ModelFacts, *, n_ctx: int, kv_layout: str = "split", kv_cells: int | None = None,
             sequences: int = DEFAULT_SEQUENCES) -> Estimate:
    """The engine's memory for this base, as LlamaCppEngine would allocate it (n_ctx capped at the training context)."""
    n_ctx = min(n_ctx, facts.context_length) if facts.context_length else n_ctx
    cells_unified = kv_cells or n_ctx * 2
    cells = cells_unified if kv_layout == "unified" else n_ctx * sequences
    overhead = FIXED_OVERHEAD + PER_TOKEN * facts.n_vocab + N_UBATCH * facts.n_ff * 8
    return Estimate(n_ctx, kv_layout, cells_unified, cells, facts.file_size, facts.kv_bytes_per_cell * cells, overhead)


def fits(est: Estimate, available: int) -> bool:
    return est.with_runtime <= available * HEADROOM


def candidates(facts: ModelFacts, sequences: int = DEFAULT_SEQUENCES) -> list[Estimate]:
    """From the fastest roomy setting down to the smallest: split streams first, then one unified buffer."""
    out = []
    for n_ctx in (4096, 2048, 1024):
        out.append(estimate(facts, n_ctx=n_ctx, kv_layout="split", sequences=sequences))
        out.append(estimate(facts, n_ctx=n_ctx, kv_layout="unified", kv_cells=n_ctx * 2, sequences=sequences))
    return out


def suggest(facts: ModelFacts, *, available: int | None = None, n_ctx: int | None = None, kv_layout: str | None = None,
            sequences: int = DEFAULT_SEQUENCES) -> Estimate:
    """The first candidate (or the asked n_ctx / kv_layout) that fits; ModelTooBig with the numbers otherwise."""
    available = available_ram() if available is None else available
    if n_ctx is not None or kv_layout is not None:
        options = [estimate(facts, n_ctx=n_ctx or 4096, kv_layout=kv_layout or "split", sequences=sequences)]
    else:
        options = candidates(facts, sequences)
    for option in options:
        if fits(option, available):
            return option
    smallest = min(options, key=lambda e: e.with_runtime)
    raise ModelTooBig(
        f"{facts.title} needs about {smallest.words()}, but only {human_bytes(available)} is free here "
        f"(at most {int(HEADROOM * 100)} % of it is used) — free memory, pick a smaller quantisation, or lower runtime.n_ctx; "
        "the current model stays in use"
    )
