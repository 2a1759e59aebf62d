#!/usr/bin/env bash
# (session 13, helper attnfix; issue #33) The per-tile fixed cost, measured: the `measure`
# build's phase-trace entries (`pt`: the 128-row tiles, d64 with Q in registers and d128
# 128 × 128; `ptw`: d64 192 × 128, d128 128 × 176) record `%clock64` at each phase of every tile
# (one thread per consumer warpgroup, and the producer), `host attention --bench --trace FILE`
# dumps the last launch's, tools/attention/phase_times.py tabulates. Package (D, default
# .gpu/attnfix): host.xz (release host, CUTE_RS_KERNEL_FEATURES=attention/measure
# CUTE_RS_ARCHS=sm_90a), attention.ptx.xz (its module cut to the bf16 d64/d128 defaults and the
# trace entries), stub.ptx for the other families but attention_ref, native.xz (main's Python
# extension, for python/bench_attention.py), phase_times.py.
#   A  first load (JIT) + plumbing: `--check --trace` of pt on a small d128 problem, the table
#   B  per shape (d64, d128 × 512, 1k, 8k × none, causal; 16k tokens, 2048/d heads): the trace
#      variant that matches the default tile with --bench --trace, then the default --bench
#   C  python/bench_attention.py ours vs cuDNN (d64, d128; 512 … 16k): cuDNN's implied F
# Run from the repo root with $OUT set; BUDGET (s, default 230) skips what would not fit.
# As run: `.gpu/attnfix/go.sh` (call 1, 2026-11-29 ~21:35, H200; package built at `5a16065` with the trace alone); phase_times.py is tools/attention/phase_times.py, copied into the package.
set -u
D=${D:-.gpu/attnfix}; R=/tmp/rfix; mkdir -p $R /tmp/ptxfix; S=$R/summary.txt
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-fix
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
x $D/host.xz /tmp/hfix && chmod +x /tmp/hfix; H=/tmp/hfix
x $D/attention.ptx.xz /tmp/ptxfix/attention.ptx
for f in $(cat $D/stub-families.txt); do cp $D/stub.ptx /tmp/ptxfix/$f.ptx; done
export CUTE_RS_PTX_DIR=/tmp/ptxfix
PT="python3 $D/phase_times.py"
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
BUDGET=${BUDGET:-230}; left() { echo $(( BUDGET - ($(date +%s) - T0) )); }
fin() { cp $S $OUT/ 2>/dev/null; tar czf $OUT/rfix.tgz -C /tmp rfix; exit 0; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
# A
CUTE_RS_ATTENTION=pt timeout 150 $H attention --batch 1 --heads 4 --seqlen-q 300 --seqlen-k 1000 --head-dim 128 --check --trace $R/tr-a > $R/a.txt 2>&1
t "A first load rc=$? $(grep -m1 'kernel:' $R/a.txt | cut -c9-70) $(grep -E 'PASS|FAIL|rror' $R/a.txt | tail -1 | cut -c1-150)"
$PT $R/tr-a 2>&1 | tee -a $S
[ -s $R/tr-a ] || { t "A no trace: stop"; tail -5 $R/a.txt | tee -a $S; fin; }
# B
for d in 64 128; do
  for s in 512 1024 8192; do
    for m in none causal; do
      [ "$(left)" -gt 75 ] || { t "B SKIP (time)"; break 3; }
      M=""; [ $m = causal ] && M="--causal top-left"
      v=pt; [ $s = 8192 ] && { [ $d = 64 ] || [ $m = none ]; } && v=ptw
      A="--batch $((16384 / s)) --heads $((2048 / d)) --seqlen-q $s --head-dim $d $M --bench"
      CUTE_RS_ATTENTION=$v timeout 40 $H attention $A --trace $R/tr-d$d-s$s-$m > $R/b.txt 2>&1
      t "B $v d$d $s $m rc=$? $(grep -m1 'kernel:' $R/b.txt | cut -c9-60) $(grep -E 'TFLOP' $R/b.txt | grep -v '^problem' | tail -1 | cut -c1-120)"
      $PT $R/tr-d$d-s$s-$m 2>&1 | tee -a $S
      $PT $R/tr-d$d-s$s-$m --json > $R/ph-d$d-s$s-$m.json 2>&1
      timeout 40 $H attention $A > $R/b.txt 2>&1
      t "B default d$d $s $m rc=$? $(grep -m1 'kernel:' $R/b.txt | cut -c9-60) $(grep -E 'TFLOP' $R/b.txt | grep -v '^problem' | tail -1 | cut -c1-120)"
    done
  done
done
# C
b=$(( $(left) - 5 )); if [ $b -gt 30 ]; then
  mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && cp python/bench_attention.py /tmp/py/
  x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
  (cd /tmp/py && PYTHONPATH=/tmp/py timeout $b python3 bench_attention.py --head-dims 64,128 --seqlens 512,1024,2048,8192,16384 \
    --backends ours,cudnn --rounds 5 --json $R/bench_attention.json > $R/bench_attention.txt 2>&1); t "C bench_attention.py rc=$?"
  tail -25 $R/bench_attention.txt | tee -a $S
else t "C SKIP (time)"; fi
fin
