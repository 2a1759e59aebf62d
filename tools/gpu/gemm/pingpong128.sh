#!/usr/bin/env bash
# helper collectives (issue #34, round 7): the 128x128 ping-pong schedule (CUTLASS's tile,
# CUTE_RS_HGEMM_SCHEDULE=pingpong128) against the cooperative one and the 64x256 ping-pong, H200,
# at most ~150 s of GPU time incl. the JIT (every step after the first checks the elapsed time).
# Package /work/main/.gpu/collectives7: host.xz (release host, CUTE_RS_ARCHS=sm_90a
# CUTE_RS_KERNEL_FEATURES=hgemm/pingpong cargo build --release -p host --bin host, branch
# collectives) and ptx/hgemm.ptx (the feature build's module cut to the 9 entries run here by
# tools/gpu/cut_ptx.py; ptxas 13.0: 168 registers, 0 spills, no C75xx each), loaded through
# CUTE_RS_PTX_DIR so the driver JIT-compiles 9 entries, not 22.
# Run from the repository root: bash .gpu/collectives7/go.sh ($OUT/summary.txt; D, H override).
set -u
O=${OUT:-/tmp/out}; mkdir -p "$O"
D=${D:-.gpu/collectives7}
if [ -z "${H:-}" ]; then
  mkdir -p /tmp/coll7
  python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/host.xz'), open('/tmp/coll7/host','wb'))"
  chmod +x /tmp/coll7/host; H=/tmp/coll7/host
fi
export CUTE_RS_PTX_DIR=$D/ptx
export CUDA_CACHE_PATH=${CUDA_CACHE_PATH:-/tmp/coll7-cache} CUDA_CACHE_MAXSIZE=4294967296
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
t() { echo "[t=$(el) s] $*" | tee -a "$O/summary.txt"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/gpu.txt"
t start
# check <schedule> <args...>: one `host gemm --ta ... --check`, its last line in the summary
chk() {
  local s=$1; shift
  local r; r=$(CUTE_RS_HGEMM_SCHEDULE=$s timeout 20 $H gemm --ta "$@" --check 2>&1)
  echo "$r" > "$O/check-$s-$(echo "$*" | tr -c 'a-z0-9' _).txt"
  echo "$s $*: $(echo "$r" | tail -n 1)" | tee -a "$O/summary.txt"
}
# bench <schedule> <args...>: `host gemm --ta --dtype bf16 ... --bench`, its kernel and ratio lines
bench() {
  local s=$1; shift
  local f; f="$O/bench-$s-$(echo "$*" | tr -c 'a-z0-9' _).txt"
  echo "== $s $*" | tee -a "$O/summary.txt"
  CUTE_RS_HGEMM_SCHEDULE=$s timeout 25 $H gemm --ta --dtype bf16 "$@" --bench > "$f" 2>&1
  grep -E "^kernel:|x$" "$f" | tee -a "$O/summary.txt"
}
# the first launch JIT-compiles the cut module (9 entries): a long timeout, once
r=$(CUTE_RS_HGEMM_SCHEDULE=pingpong128 timeout 120 $H gemm --ta --m 1000 --n 1030 --k 512 --dtype bf16 --check 2>&1)
echo "$r" > "$O/check-jit.txt"; t "pingpong128 (JIT) --m 1000 --n 1030 --k 512 --dtype bf16: $(echo "$r" | tail -n 1)"
# 128x128 ping-pong: f32 C on both paths (the 128-row tile's f32 chunks), fused bias M (TMA
# and direct, beta 0.5: the two blocks' row biases), beta 1 (direct), few tiles (a warpgroup
# with none)
for a in "--m 1024 --n 520 --k 192 --dtype bf16 --out f32" \
         "--m 1024 --n 768 --k 256 --dtype bf16 --bias m --act gelu" \
         "--m 333 --n 520 --k 136 --dtype bf16 --bias m --act gelu --beta 0.5" \
         "--m 129 --n 257 --k 65 --dtype f16 --beta 1" \
         "--m 70 --n 264 --k 200 --dtype bf16 --out f32" \
         "--m 64 --n 128 --k 64 --dtype bf16"; do
  chk pingpong128 $a
done
t "pingpong128 checks done"
# benches (~10 s each), cooperative and 128x128 ping-pong alternating: 8192^3, bias M + GELU
# 8192^3 (vs cuBLASLt's GELU_BIAS), 4096^3; then the 64x256 ping-pong if the time allows
for a in "--m 8192" "--m 8192 --bias m --act gelu" "--m 4096"; do
  for s in cooperative pingpong128; do
    if [ $(el) -gt 125 ]; then t "skipped bench $s $a (time)"; continue; fi
    bench $s $a
  done
done
t "benches done"
# if the time allows: more checks (many tiles, bias N, the other schedules on the epilogue
# paths this change touched), the 64x256 ping-pong bench, ncu
for c in "pingpong128 --m 2304 --n 2048 --k 2304 --dtype f16" \
         "pingpong128 --m 1000 --n 1030 --k 512 --dtype bf16 --bias n --act gelu" \
         "cooperative --m 1024 --n 520 --k 192 --dtype bf16 --out f32" \
         "cooperative --m 1024 --n 768 --k 256 --dtype bf16 --bias m --act gelu" \
         "pingpong --m 1024 --n 768 --k 256 --dtype bf16 --bias m --act gelu"; do
  if [ $(el) -gt 132 ]; then t "skipped check $c (time)"; continue; fi
  chk $c
done
if [ $(el) -lt 128 ]; then bench pingpong --m 8192; fi
if [ $(el) -lt 125 ] && command -v ncu > /dev/null; then
  for s in pingpong128 cooperative; do
    if [ $(el) -gt 135 ]; then continue; fi
    CUTE_RS_HGEMM_SCHEDULE=$s timeout 14 ncu --section SpeedOfLight \
      --metrics sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active \
      -k regex:hgemm --launch-count 1 $H gemm --ta --dtype bf16 --m 8192 --check > "$O/ncu-$s.txt" 2>&1
    echo "ncu $s 8192^3:" | tee -a "$O/summary.txt"
    grep -E "Compute \(SM\)|Memory Throughput|Duration|tensor_op" "$O/ncu-$s.txt" | tee -a "$O/summary.txt"
  done
fi
t end
