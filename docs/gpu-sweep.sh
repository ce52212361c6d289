#!/bin/sh
# Time model sizes with GPU offload on an NVIDIA machine and print the table.
#
# Installs llama-cpp-python's CUDA build (compiles llama.cpp: minutes) and NVML for the
# VRAM figures, then runs the size sweep: synthetic models of real shapes, fully offloaded
# by the planner, each timed and measured (VRAM from NVML against the planner's estimate)
# and each run through the streaming bench for the heard latency.
#
#   sh docs/gpu-sweep.sh [SIZES]      default: embedded,0.5b,1.5b,3b,8b,8b:q8_0
set -eu
cd "$(dirname "$0")/.."
SIZES="${1:-embedded,0.5b,1.5b,3b,8b,8b:q8_0}"
VERSION="$(python -c 'import importlib.metadata as m; print(m.version("llama_cpp_python"))')"
CMAKE_ARGS="-DGGML_CUDA=on" pip install --force-reinstall --no-cache-dir --no-deps "llama-cpp-python==$VERSION"
pip install "nvidia-ml-py>=12"
python -c 'import llama_cpp, sys; sys.exit(0 if llama_cpp.llama_supports_gpu_offload() else "this llama.cpp build cannot offload to the GPU")'
python -m assistant doctor
python -m assistant bench --sizes "$SIZES" --questions 4 --out gpu-sizes
