#!/usr/bin/env bash
# Helper fp8block (issue #37, session 12): block-scaled FP8 (DeepSeek's 1×128 / 128×128 scales) with the scales through
# shared memory per stage (gemm_fp8_e4m3_tn_promoted_staged: 6 stages; _staged_s5: 5; CUTE_RS_FP8_BLOCK=staged|staged5)
# against the block entry (gemm_fp8_e4m3_tn_promoted, scales from global memory in the k-tile loop: CUTE_RS_FP8_BLOCK=global)
# and beside the per-tensor default (n192, no --block-scales), in one device call.
# Run from the repo root with $OUT set: D=.gpu/fp8block bash .gpu/fp8block/go.sh (a copy of this script) with
#   host.xz             the branch's release host (CUTE_RS_KERNEL_FEATURES=hgemm/fp8-variants CUTE_RS_ARCHS=sm_90a
#                       cargo build --release -p host)
#   hgemm.ptx.xz        its hgemm module cut (tools/gpu/cut_ptx.py) to gemm_fp8_e4m3_tn_promoted{,_staged,_staged_s5,_n192}
#                       and, for SWEEP=1, the FP8 sweep's: the five fused, gemm_fp8_{e4m3,e5m2}_tn
#   stub.ptx, stub-families.txt  an entry-less module loaded in place of every other family
# What it runs: (1) the JIT through a first check; (2) --check --block-scales of each staged variant (300×200×528: odd
# k-tile count, N not a multiple of 128; 512×384×2048; 132×257×384 (N-blocks × k-blocks = 9: B's boxes of 4 straddle); 1000×1000×1024;
# 129×257×384: M not a multiple of 4, which the host runs on the block entry);
# (3) host gemm --dtype e4m3 --block-scales --bench, the variants alternated, two rounds, beside the per-tensor default,
# at 4096×7168×16384, 8192³ (4096³ if time allows); with SWEEP=1: the FP8 sweep (host gemm --dtype e4m3: both
# accumulation modes, block scales included) and compute-sanitizer memcheck of one small block-scaled problem, the
# block-scaled launches on CUTE_RS_FP8_BLOCK=$SV (staged unless set; SV= : the host's default).
# Results: $OUT/summary.txt and $OUT/fp8block.tgz (every log).
set -u
D=${D:-.gpu/fp8block}
O=${OUT:-/tmp/out}; mkdir -p $O; S=$O/summary.txt
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
x $D/host.xz /tmp/fp8block-host && chmod +x /tmp/fp8block-host; H=/tmp/fp8block-host
P=/tmp/fp8block-ptx; mkdir -p $P; x $D/hgemm.ptx.xz $P/hgemm.ptx
for f in $(cat $D/stub-families.txt); do cp $D/stub.ptx $P/$f.ptx; done
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-fp8block CUTE_RS_PTX_DIR=$P
mkdir -p $O/logs
fin() { tar czf $O/fp8block.tgz -C $O logs summary.txt 2>/dev/null; }
trap fin EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
V=${VARIANTS:-"global staged staged5"}
G="$H gemm --dtype e4m3"
# pt = the per-tensor default (no block scales); the others: CUTE_RS_FP8_BLOCK=<v> --block-scales
hv() { local v=$1 to=$2; shift 2
  if [ $v = pt ]; then timeout $to $G "$@" < /dev/null
  else CUTE_RS_FP8_BLOCK=$v timeout $to $G --block-scales "$@" < /dev/null; fi; }
# 1. the JIT of the cut module, cached: a long timeout
hv staged 150 --m 512 --n 384 --k 2048 --check > $O/logs/jit.txt 2>&1
t "jit + check staged 512x384x2048 rc=$? $(grep -Eo 'PASS|FAIL' $O/logs/jit.txt | head -1)"
grep -E "gemm_fp8|rror" $O/logs/jit.txt | tail -2 | cut -c1-220 | tee -a $S
# 2. checks
for v in $V; do
  [ $v = global ] && continue # main's entry, checked by every sweep
  for a in "--m 300 --n 200 --k 528" "--m 512 --n 384 --k 2048" "--m 132 --n 257 --k 384" "--m 1000 --n 1000 --k 1024" "--m 129 --n 257 --k 384"; do
    hv $v 40 $a --check > $O/logs/c.txt 2>&1
    echo "check $v $a rc=$? $(grep -Eo 'PASS|FAIL' $O/logs/c.txt | head -1)" | tee -a $S
    cat $O/logs/c.txt >> $O/logs/checks.txt
  done
done
t "checks"
# 3. (SWEEP=1) the FP8 sweep (both accumulation modes, block scales included) and memcheck
# (SV: the block entry the sweep's and memcheck's block-scaled problems take, CUTE_RS_FP8_BLOCK; empty: the host's default)
if [ "${SWEEP:-0}" = 1 ]; then
  SV=${SV-staged}
  # an empty SV sets no override (the host refuses CUTE_RS_FP8_BLOCK= : call 3's sweep exited 2 on it)
  if [ -n "$SV" ]; then export CUTE_RS_FP8_BLOCK=$SV; else unset CUTE_RS_FP8_BLOCK; fi
  timeout 120 $G > $O/logs/sweep.txt 2>&1 < /dev/null
  t "FP8 sweep (CUTE_RS_FP8_BLOCK=$SV) rc=$? PASS $(grep -c PASS $O/logs/sweep.txt) FAIL $(grep -c FAIL $O/logs/sweep.txt)"
  grep -E "FAIL|passed|failed" $O/logs/sweep.txt | tail -3 | cut -c1-220 | tee -a $S
  timeout 60 compute-sanitizer --tool memcheck $G --block-scales --m 300 --n 200 --k 528 --check > $O/logs/memcheck.txt 2>&1 < /dev/null
  t "memcheck (CUTE_RS_FP8_BLOCK=$SV) --block-scales 300x200x528 rc=$? $(grep -Eo 'PASS|FAIL' $O/logs/memcheck.txt | head -1) $(grep -E 'ERROR SUMMARY' $O/logs/memcheck.txt | tail -1)"
  unset CUTE_RS_FP8_BLOCK
fi
# 4. benches, alternated
bench() { local v=$1 l=$2; shift 2
  echo "== $v $l" >> $O/logs/bench.txt
  hv $v 30 "$@" --bench > $O/logs/b.txt 2>&1; local rc=$?
  grep -E "TFLOP|rror|not supported" $O/logs/b.txt >> $O/logs/bench.txt || tail -n 3 $O/logs/b.txt >> $O/logs/bench.txt
  [ $rc = 0 ] || echo "rc=$rc" >> $O/logs/bench.txt
  echo "$v $l $(grep -E 'TFLOP' $O/logs/b.txt | tail -1 | cut -c1-200)" | tee -a $S
}
for r in 1 2; do
  for s in "4096x7168x16384:--m 4096 --n 7168 --k 16384" "8192^3:--m 8192" "4096^3:--m 4096"; do
    for v in $V pt; do bench $v "${s%%:*}" ${s#*:}; done
  done
  t "round $r"
  [ $(( $(date +%s) - T0 )) -lt ${ROUND2_BY:-110} ] || break
done
t end
awk '/^== /{v=$2; l=$3} /TFLOP\/s/{printf "%-7s %-16s %s\n", v, l, $0}' $O/logs/bench.txt > $O/logs/table.txt 2>/dev/null
{ echo "--- variant, shape, the bench line (ours, cuBLASLt, ratio)"; cat $O/logs/table.txt; } >> $S
