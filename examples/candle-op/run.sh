#!/usr/bin/env bash
# Builds and runs examples/candle-op (our GEMM and attention on candle tensors, checked against
# candle's matmul and fp32 ops). Where something it needs is missing it prints one line,
#   candle-op: SKIP: <step>: <what is missing>: <what to install>
# and exits 0; a build or check that fails is a FAIL (non-zero).
#
#   examples/candle-op/run.sh            # after `source target/candle-cuda/env.sh` if the CUDA
#                                        # toolkit comes from cuda-from-pypi.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
skip() { echo "candle-op: SKIP: $*"; exit 0; }
pypi="install a CUDA 13 toolkit, or run examples/candle-op/cuda-from-pypi.sh (PyPI wheels) and source target/candle-cuda/env.sh"

# 1. candle-core's `cuda` feature: candle-kernels' build script compiles .cu files with nvcc
nvcc=${NVCC:-}
[ -n "$nvcc" ] || nvcc=$(command -v nvcc || true)
[ -n "$nvcc" ] || { [ -n "${CUDA_HOME:-}" ] && nvcc=$CUDA_HOME/bin/nvcc; }
[ -n "$nvcc" ] && [ -x "$nvcc" ] ||
  skip "build: candle-kernels compiles CUDA with nvcc, not found (\$NVCC, PATH, \$CUDA_HOME/bin): $pypi"
cuda=$(cd "$(dirname "$nvcc")/.." && pwd)
[ -f "$cuda/include/cuda_runtime.h" ] && [ -f "$cuda/include/cuda_bf16.h" ] ||
  skip "build: nvcc at $nvcc has no CUDA headers ($cuda/include/cuda_runtime.h, cuda_bf16.h): $pypi"
# 2. the link: cudarc's `dynamic-linking` (candle's) and candle-kernels name these libraries
for l in cuda cublas cublasLt curand nvrtc cudart; do
  found=
  for d in "$cuda/lib64" "$cuda/lib" "$cuda/lib64/stubs" "$cuda/lib/stubs" ${LIBRARY_PATH:+${LIBRARY_PATH//:/ }}; do
    [ -e "$d/lib$l.so" ] && found=1 && break
  done
  [ -n "$found" ] || ldconfig -p 2>/dev/null | grep -q "lib$l\.so " && found=1
  [ -n "$found" ] ||
    skip "build: the link needs lib$l.so (candle's cudarc links it), not in $cuda/lib{64,}[/stubs] or the linker's path: $pypi"
done
# 3. build
export CUDA_COMPUTE_CAP=${CUDA_COMPUTE_CAP:-90}
(cd "$here" && cargo build --release) || { echo "candle-op: FAIL: cargo build --release (above)"; exit 1; }
# 4. run: the binary loads libcuda.so.1 (the driver) and CUDA 13's cuBLAS/cuRAND/NVRTC
bin=$here/target/release/candle-op
err=$(mktemp)
"$bin" 2>"$err"
code=$?
if [ "$code" = 127 ] && grep -q "error while loading shared libraries" "$err"; then
  lib=$(grep -o "libraries: [^:]*" "$err" | head -1 | cut -d' ' -f2)
  rm -f "$err"
  skip "run: the loader found no $lib (a CUDA driver and CUDA 13's cuBLAS/cuRAND/NVRTC): install the NVIDIA driver, and the libraries (pip: nvidia-cublas nvidia-curand nvidia-cuda-nvrtc) on LD_LIBRARY_PATH"
fi
cat "$err" >&2
rm -f "$err"
exit "$code"
