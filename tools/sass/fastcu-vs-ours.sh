#!/usr/bin/env bash
# (session 48, issue #34) SASS of fast.cu's kernel 12 and of one of our entries, side by side, on this machine (no GPU):
# nvcc and the CUDA headers from PyPI (the full `nvidia-cuda-nvcc` wheel, which has `include/crt`, and
# `nvidia-cuda-runtime`, `nvidia-cuda-cccl`), nvdisasm from `nvidia-cuda-nvdisasm`. FASTCU: the folder holding fast.cu's
# examples/matmul/matmul_12.cuh (not in this tree; the GPU packages carry it, e.g. .gpu/s47a/fastcu). PTX: a module
# cut from the builder's target/ptx (tools/gpu/cut_ptx.py refuses rustc's raw .s). Writes OUT/{fc,ours}.sass and
# prints the HGMMA lines of each.
#   FASTCU=.gpu/s47a/fastcu PTX=target/ptx/hgemm.ptx ENTRY=hgemm_bf16_tn OUT=/tmp/fc bash tools/sass/fastcu-vs-ours.sh
set -eu
OUT=${OUT:-/tmp/fc}; ENTRY=${ENTRY:-hgemm_bf16_tn}; mkdir -p $OUT
T=${CUTOOLS:-/tmp/cutools}
[ -x $T/nvidia/cu13/bin/nvcc ] && [ -e $T/nvidia/cu13/include/crt/host_config.h ] && [ -x $T/nvidia/cu13/bin/nvdisasm ] && [ -e $T/nvidia/cu13/include/nv/target ] || \
  pip install -q --upgrade --target $T nvidia-cuda-nvcc nvidia-cuda-runtime nvidia-cuda-cccl nvidia-cuda-nvdisasm
export PATH=$T/nvidia/cu13/bin:$PATH
cat > $OUT/k.cu <<'CU'
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>
typedef __nv_bfloat16 bf16;
#define CEIL_DIV(M, N) (((M) + (N) - 1) / (N))
static void cuda_check(cudaError_t e, const char *f, int l) { if (e != cudaSuccess) { fprintf(stderr, "%s:%d\n", f, l); exit(1); } }
#define cudaCheck(e) (cuda_check((e), __FILE__, __LINE__))
using std::max;
#include "matmul_12.cuh"
void run(int n, bf16 *a, bf16 *b, bf16 *c) { runKernel12(n, n, n, a, b, c, nullptr); }
CU
nvcc -O3 -DNDEBUG -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I"$FASTCU" -I$T/nvidia/cu13/include -cubin \
  -o $OUT/fc.cubin $OUT/k.cu
nvdisasm $OUT/fc.cubin > $OUT/fc.sass
python3 "$(dirname "$0")/../gpu/cut_ptx.py" "$PTX" $OUT/ours.ptx "$ENTRY"
ptxas -arch=sm_90a -O3 -o $OUT/ours.cubin $OUT/ours.ptx
nvdisasm $OUT/ours.cubin > $OUT/ours.sass
for f in fc ours; do echo "== $f: $(grep -c HGMMA $OUT/$f.sass) HGMMA lines"; grep -n HGMMA $OUT/$f.sass | cut -c1-100; done
