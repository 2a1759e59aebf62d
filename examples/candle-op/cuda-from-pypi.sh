#!/usr/bin/env bash
# What candle-core's `cuda` feature needs to build, on a machine without a CUDA toolkit: nvcc,
# NVVM, the runtime, CRT and CCCL headers, NVRTC and cuRAND from PyPI (CUDA 13.0), and link
# stubs of libcuda, libcublas and libcublasLt generated from cudarc's own bindings (every
# `pub unsafe fn` of its sys modules as an empty C function, under the real soname: what a
# toolkit's lib64/stubs are). The binary loads the real libraries at run time.
#
#   examples/candle-op/cuda-from-pypi.sh [DIR]     # default target/candle-cuda
#   source DIR/env.sh && cd examples/candle-op && cargo build --release
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:-$root/target/candle-cuda}
mkdir -p "$dir/wheels" "$dir/root"
python3 -m pip download -q --no-deps -d "$dir/wheels" "nvidia-cuda-nvcc==13.0.88" "nvidia-nvvm==13.0.*" \
  "nvidia-cuda-runtime==13.0.*" "nvidia-cuda-crt==13.0.*" "nvidia-cuda-cccl==13.0.*" \
  "nvidia-cuda-nvrtc==13.0.*" "nvidia-curand>=10.4,<10.5"
for w in "$dir"/wheels/*.whl; do python3 -m zipfile -e "$w" "$dir/root"; done
cuda=$dir/root/nvidia/cu13
chmod +x "$cuda"/bin/* "$cuda"/nvvm/bin/*
for l in cudart.so.13 nvrtc.so.13 curand.so.10; do ln -sf "lib$l" "$cuda/lib/lib${l%%.so*}.so"; done
# cudarc's sources, where cargo unpacked them (cargo fetch in examples/candle-op first)
cudarc=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/cudarc-0.19.*/src | sort -V | tail -1)
for spec in driver:libcuda.so.1 cublas:libcublas.so.13 cublaslt:libcublasLt.so.13; do
  module=${spec%%:*} soname=${spec#*:}
  grep -ohE '^pub unsafe fn [A-Za-z0-9_]+\(' "$cudarc/$module/sys/mod.rs" \
    | sed -E 's/pub unsafe fn ([A-Za-z0-9_]+)\(/void \1(void) {}/' | sort -u > "$dir/$module-stub.c"
  cc -shared -fPIC -Wl,-soname,"$soname" -o "$cuda/lib/${soname%%.so*}.so" "$dir/$module-stub.c"
done
cat > "$dir/env.sh" <<EOF
export CUDA_HOME=$cuda
export PATH=$cuda/bin:\$PATH
export CUDA_COMPUTE_CAP=90
EOF
echo "cuda-from-pypi: $cuda; now: source $dir/env.sh"
