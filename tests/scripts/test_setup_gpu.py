"""scripts/setup.sh picks llama.cpp's build for the machine: CUDA when nvidia-smi lists a GPU, Metal on
Apple Silicon, CPU otherwise, MOL_CMAKE_ARGS over all. Checked with `--print-cmake-args` (nothing is built)
and stand-in `nvidia-smi` / `uname` programs first on PATH."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

SETUP = Path(__file__).resolve().parents[2] / "scripts" / "setup.sh"
CPU_X86 = "-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON"


def choose(tmp_path: Path, *, tools: dict[str, str] | None = None, env: dict[str, str] | None = None) -> str:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    for name, script in (tools or {}).items():
        (bin_dir / name).write_text(f"#!/bin/sh\n{script}\n")
        (bin_dir / name).chmod(0o755)
    full = {k: v for k, v in os.environ.items() if k != "MOL_CMAKE_ARGS"}
    full["PATH"] = f"{bin_dir}:{full['PATH']}"
    out = subprocess.run(["bash", str(SETUP), "--print-cmake-args"], capture_output=True, text=True, env={**full, **(env or {})}, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


@pytest.fixture
def no_gpu(tmp_path: Path) -> dict[str, str]:
    return {"nvidia-smi": "exit 9"}  # present but failing, as on a machine whose driver is gone


def test_cpu_when_there_is_no_gpu(tmp_path: Path, no_gpu) -> None:
    args = choose(tmp_path, tools={**no_gpu, "uname": 'case "$1" in -m) echo x86_64;; *) echo Linux;; esac'})
    assert args.startswith(CPU_X86) and "CUDA" not in args and "METAL" not in args
    assert args.endswith("-DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF")


def test_cuda_when_nvidia_smi_lists_a_gpu(tmp_path: Path) -> None:
    args = choose(tmp_path, tools={"nvidia-smi": 'echo "GPU 0: NVIDIA H200 (UUID: GPU-1234)"'})
    assert args.startswith("-DGGML_CUDA=ON ")


def test_metal_on_apple_silicon(tmp_path: Path, no_gpu) -> None:
    args = choose(tmp_path, tools={**no_gpu, "uname": 'case "$1" in -m) echo arm64;; -s) echo Darwin;; *) echo Darwin;; esac'})
    assert args.startswith("-DGGML_METAL=ON ")


def test_mol_cmake_args_wins(tmp_path: Path) -> None:
    args = choose(tmp_path, tools={"nvidia-smi": 'echo "GPU 0: NVIDIA"'}, env={"MOL_CMAKE_ARGS": "-DGGML_VULKAN=ON"})
    assert args == "-DGGML_VULKAN=ON -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF"
