#!/usr/bin/env bash
# helper collectives (issue #34, round 6): the ping-pong kernel schedule against the cooperative
# one on the H200, about 60 s of GPU time. NOT RUN by the helper (no device calls this session).
# $H: a release host built with CUTE_RS_KERNEL_FEATURES=hgemm/pingpong (the helper's is
# /work/main/.gpu/collectives6/host.xz, 1.8 MB: `CUTE_RS_KERNEL_FEATURES=hgemm/pingpong cargo build
# --release -p host --bin host` at branch collectives 75097b8, whose kernel sources are 84b3bda's
# but for an unused import; unpacked below when $H is not set).
# Run: run(command="bash tools/gpu/gemm/pingpong.sh", carry=[".gpu/collectives6"], timeout_s=120).
# Prints (and writes to $OUT/summary.txt): one line per check ("<schedule> <args>: N passed, M
# failed"), then per bench the two ratio lines of `host gemm --bench` (sustained, burst) under
# "== <schedule> <args>"; the schedules alternate (cooperative, ping-pong, cooperative, ...).
set -u
O=${OUT:-/tmp/out}; mkdir -p "$O"
if [ -z "${H:-}" ]; then
  D=.gpu/collectives6; mkdir -p /tmp/coll6
  python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/host.xz'), open('/tmp/coll6/host','wb'))"
  chmod +x /tmp/coll6/host; H=/tmp/coll6/host
fi
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a "$O/summary.txt"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/gpu.txt"
t start
# correctness, both schedules: tiles that cross M and N (TMA edge and direct path), beta 1
# (direct path), f32 and f16 C, odd K (a partial k-tile), few tiles (a warpgroup with none),
# the fused bias + GELU along M and N
for s in cooperative pingpong; do
  for a in "--m 1000 --n 1030 --k 512 --dtype bf16" \
           "--m 129 --n 257 --k 65 --dtype f16 --beta 1" \
           "--m 70 --n 264 --k 200 --dtype bf16 --out f32" \
           "--m 2304 --n 2048 --k 2304 --dtype f16" \
           "--m 1000 --n 1030 --k 512 --dtype bf16 --bias n --act gelu" \
           "--m 333 --n 520 --k 136 --dtype bf16 --bias m --act gelu --beta 0.5"; do
    r=$(CUTE_RS_HGEMM_SCHEDULE=$s timeout 15 $H gemm --ta $a --check 2>&1)
    echo "$r" > "$O/check-$s-$(echo $a | tr -c 'a-z0-9' _).txt"
    echo "$s $a: $(echo "$r" | tail -n 1)" | tee -a "$O/summary.txt"
  done
done
t "checks done"
for a in "--m 4096" "--m 8192" "--m 8192 --bias m --act gelu"; do
  for s in cooperative pingpong; do
    echo "== $s $a" | tee -a "$O/summary.txt"
    CUTE_RS_HGEMM_SCHEDULE=$s timeout 25 $H gemm --ta --dtype bf16 $a --bench > "$O/bench-$s-$(echo $a | tr -c 'a-z0-9' _).txt" 2>&1
    grep -E "^kernel:|x$" "$O/bench-$s-$(echo $a | tr -c 'a-z0-9' _).txt" | tee -a "$O/summary.txt"
  done
done
t end
