#!/usr/bin/env bash
# The user-crate closing run: the scaffolded project's host binary (`cargo xtask
# new-kernel-crate hello-cute`, built on the development machine, PTX embedded) and
# examples/user-kernel, then compute-sanitizer memcheck on the scaffold. Logs under $OUT.
set -u
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/cuda/bin"
{
nvidia-smi -L
echo "== ./hello-cute"; timeout 30 ./hello-cute; echo "rc=$?"
echo "== ./user-kernel"; timeout 30 ./user-kernel; echo "rc=$?"
echo "== ./user-kernel 100 70"; timeout 30 ./user-kernel 100 70; echo "rc=$?"
echo "== compute-sanitizer --tool memcheck ./hello-cute"
timeout 40 compute-sanitizer --tool memcheck --error-exitcode 1 ./hello-cute 2>&1 | tail -6; echo "rc=${PIPESTATUS[0]}"
echo "== ptxas (device) on the scaffold's PTX"
ptxas -arch=sm_90a -v -o /tmp/axpy.cubin hello-cute-kernels.ptx 2>&1; echo "rc=$?"
} 2>&1 | tee "$OUT/run.log"
