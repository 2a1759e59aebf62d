#!/usr/bin/env bash
# (session 13, the lead's final call) The merged tree on the H200 in one call: main's release
# host (CUTE_RS_ARCHS=sm_90a, D/host.xz): `host run` over every section (the JIT of every module
# inside it; the hgemm sweep's K <= 512 problems now on the 128x128 ping-pong, the FP8 sweep's
# fused problems on 128x192, the attention sweep of 200), the FP8 sweep, compute-sanitizer on the
# new default ping-pong entries (MN-major operands), then the skinny-K rule against the
# cooperative schedule (`CUTE_RS_HGEMM_SCHEDULE=cooperative`) on every majority at
# 8192x8192x512, and the bench rows it touches. ATTN=1 adds python/bench_attention.py (D/native.xz; no stubs then).
# Run from the repo root with $OUT set: D=.gpu/final13 bash tools/gpu/closing/pingpong-skinny-k-rule.sh
set -u
D=${D:-.gpu/final13}; R=/tmp/rf13; mkdir -p $R; S=$OUT/summary.txt
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-f13
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
x $D/host.xz /tmp/hf13 && chmod +x /tmp/hf13; H=/tmp/hf13
P=/tmp/pf13; mkdir -p $P; x $D/hgemm.ptx.xz $P/hgemm.ptx
for f in $(cat $D/stub-families.txt); do cp $D/stub.ptx $P/$f.ptx; done
export CUTE_RS_PTX_DIR=$P
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
fin() { cp $S $R/ 2>/dev/null; tar czf $OUT/rf13.tgz -C /tmp rf13; }
trap fin EXIT
BUDGET=${BUDGET:-330}; left() { echo $(( BUDGET - ($(date +%s) - T0) )); }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
timeout 200 $H run --only hgemm --sweep-hgemm 60 > $R/run.txt 2>&1
t "host run --only hgemm rc=$?"; grep -E "passed|failed" $R/run.txt | tail -3 | cut -c1-220 | tee -a $S; grep -E "FAIL" $R/run.txt | head -8 | cut -c1-220 | tee -a $S
grep -cE "pingpong|x512 |K=512" $R/run.txt | sed 's/^/rows naming 512: /' | tee -a $S
CS="timeout 40 compute-sanitizer --print-limit 5"
for tool in memcheck racecheck synccheck; do
  $CS --tool $tool $H gemm --dtype bf16 --ta --tb --m 300 --n 260 --k 200 --check > $R/san.txt 2>&1
  t "$tool TT bf16 300x260x200 (ping-pong 128x128, B MN-major) rc=$? $(grep -E 'SUMMARY|PASS|FAIL' $R/san.txt | tr '\n' ' ' | cut -c1-200)"
  cat $R/san.txt >> $R/sanitize.txt
done
$CS --tool memcheck $H gemm --dtype f16 --tb --m 1000 --n 1030 --k 512 --beta 0.5 --check > $R/san.txt 2>&1
t "memcheck NT f16 1000x1030x512 beta 0.5 rc=$? $(grep -E 'SUMMARY|PASS|FAIL' $R/san.txt | tr '\n' ' ' | cut -c1-200)"
SH=("--dtype bf16 --tb" "--dtype bf16 --ta --tb" "--dtype f16 --tb" "--dtype bf16")
for a in "${SH[@]}"; do
  for s in default cooperative; do
    [ $(left) -gt 8 ] || break 2
    E=""; [ $s = default ] || E="CUTE_RS_HGEMM_SCHEDULE=$s"   # default: the variable unset
    env $E timeout 25 $H gemm $a --m 8192 --n 8192 --k 512 --bench > $R/b.txt 2>&1
    t "$s $a 8192x8192x512 rc=$? $(grep -E 'kernel:|TFLOP' $R/b.txt | tail -3 | tr '\n' ' ' | cut -c1-300)"
    cat $R/b.txt >> $R/bench.txt
  done
done
if [ "${ATTN:-0}" = 1 ] && [ $(left) -gt 60 ]; then
  mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && cp python/bench_attention.py /tmp/py/
  x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
  (cd /tmp/py && PYTHONPATH=/tmp/py timeout $(( $(left) - 5 )) python3 bench_attention.py --seqlens ${SEQLENS:-512,1024,2048,4096,8192,16384} \
    --json $R/bench_attention.json > $R/bench_attention.txt 2>&1); t "bench_attention.py rc=$?"
  tail -45 $R/bench_attention.txt | tee -a $S
fi
t done
