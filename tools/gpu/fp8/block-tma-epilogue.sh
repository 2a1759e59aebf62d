#!/usr/bin/env bash
# Helper fp8blocktma (issue #37, session 14): the block-scaled staged FP8 kernel (128×128 tiles, each stage's block scales
# through shared memory by TMA) on the TMA-store epilogue, against its direct epilogue, beside the per-tensor default,
# in one device call. The entries (CUTE_RS_FP8_BLOCK=<v>):
#   staged      gemm_fp8_e4m3_tn_promoted_staged       the direct epilogue without shared memory, 6 stages (main's default)
#   stagedtma   gemm_fp8_e4m3_tn_promoted_staged_tma   the TMA epilogue (two 64-column chunks a warpgroup), 4 stages
#   stagedtma5  gemm_fp8_e4m3_tn_promoted_staged_tma5  the same through the two chunks' 32 KiB only, 5 stages
#   pt          the per-tensor default (gemm_fp8_e4m3_tn_promoted_n192tma, no --block-scales): the target's denominator
# Run from the repo root with $OUT set: D=.gpu/fp8blocktma bash .gpu/fp8blocktma/go.sh (a copy of this script) with
#   host.xz        the branch's release host (CUTE_RS_KERNEL_FEATURES=hgemm/fp8-variants CUTE_RS_ARCHS=sm_90a
#                  cargo build --release -p host)
#   hgemm.ptx.xz   its hgemm module cut by tools/gpu/cut_ptx.py to the FP8 sweep's entries (gemm_fp8_{e4m3,e5m2}_tn,
#                  gemm_fp8_e4m3_tn_promoted{,_n192tma,_staged}, the five fused _n192tma) and _staged_tma, _staged_tma5
#   stub.ptx, stub-families.txt  an entry-less module loaded in place of every other family
# What it runs, each step while the time (BUDGET s) allows: (1) the JIT through a first check; (2) --check --block-scales
# of both TMA entries on odd shapes (M a multiple of 4 — the staged entries' condition —, K tails of 16, N not a multiple
# of 128, tiles crossing M and N, f32 D, M·2 bytes not a multiple of 16: the M edge's direct path, many k-tiles,
# B's scale boxes straddling; 129×257×384: M odd, run on the global entry); (3) compute-sanitizer memcheck of one short
# block-scaled check on each TMA entry; (4) host gemm --dtype e4m3 --block-scales --bench, the variants alternated,
# two rounds, beside the per-tensor default, at 4096×7168×16384, 8192³, 4096³, 4096×2112×7168; (5) the FP8 sweep
# (host gemm --dtype e4m3: both accumulation modes, a third of e4m3's problems block-scaled) with
# CUTE_RS_FP8_BLOCK=stagedtma5, then stagedtma.
# Results: $OUT/summary.txt (the table at its end) and $OUT/fp8blocktma.tgz (every log).
set -u
D=${D:-.gpu/fp8blocktma}
BUDGET=${BUDGET:-190}
O=${OUT:-/tmp/out}; mkdir -p $O/logs; S=$O/summary.txt
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }; t() { echo "[t=$(el) s] $*" | tee -a $S; }
left() { [ $(el) -lt $(( BUDGET - $1 )) ]; }
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
x $D/host.xz /tmp/fbt-host && chmod +x /tmp/fbt-host; H=/tmp/fbt-host
P=/tmp/fbt-ptx; mkdir -p $P; x $D/hgemm.ptx.xz $P/hgemm.ptx
for f in $(cat $D/stub-families.txt); do cp $D/stub.ptx $P/$f.ptx; done
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-fbt CUTE_RS_PTX_DIR=$P
fin() { tar czf $O/fp8blocktma.tgz -C $O logs summary.txt 2>/dev/null; }
trap fin EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
G="$H gemm --dtype e4m3"
# hv V TIMEOUT ARGS: pt = the per-tensor default (no block scales); else CUTE_RS_FP8_BLOCK=V --block-scales
hv() { local v=$1 to=$2; shift 2
  if [ $v = pt ]; then timeout $to $G "$@" < /dev/null
  else CUTE_RS_FP8_BLOCK=$v timeout $to $G --block-scales "$@" < /dev/null; fi; }
# 1. the JIT (13 entries), cached
hv stagedtma5 150 --m 512 --n 384 --k 2048 --check > $O/logs/jit.txt 2>&1
t "jit + check stagedtma5 512x384x2048 rc=$? $(grep -Eo 'PASS|FAIL' $O/logs/jit.txt | head -1)"
grep -E "gemm_fp8|rror" $O/logs/jit.txt | tail -2 | cut -c1-220 | tee -a $S
# 2. checks of both TMA entries
for v in stagedtma5 stagedtma; do
  while read -r a; do
    left 120 || { t "checks cut (time)"; break 2; }
    hv $v 30 $a --check > $O/logs/c.txt 2>&1
    echo "check $v $a rc=$? $(grep -Eo 'PASS|FAIL' $O/logs/c.txt | head -1)" | tee -a $S
    { echo "== $v $a"; cat $O/logs/c.txt; } >> $O/logs/checks.txt
  done <<'EOF2'
--m 300 --n 200 --k 528
--m 512 --n 384 --k 2048 --out f32
--m 132 --n 257 --k 384
--m 1000 --n 1000 --k 1024
--m 1024 --n 1000 --k 512 --out f32
--m 2048 --n 1700 --k 1008
--m 260 --n 520 --k 6160
--m 4 --n 130 --k 16
--m 1024 --n 1024 --k 4096
--m 129 --n 257 --k 384
EOF2
done
t "checks: PASS $(grep -c ' PASS$' $S) FAIL $(grep -c 'rc=[1-9]' $S)"
# 3. memcheck, one short block-scaled check each
for v in stagedtma5 stagedtma; do
  left 110 || { t "memcheck skipped (time)"; break; }
  CUTE_RS_FP8_BLOCK=$v timeout 40 compute-sanitizer --tool memcheck --print-limit 5 $G --block-scales --m 300 --n 200 --k 528 --check > $O/logs/memcheck.txt 2>&1 < /dev/null
  t "memcheck $v --block-scales 300x200x528 rc=$? $(grep -E 'ERROR SUMMARY' $O/logs/memcheck.txt | tail -1) $(grep -Eo 'PASS|FAIL' $O/logs/memcheck.txt | head -1)"
  cat $O/logs/memcheck.txt >> $O/logs/memcheck-all.txt
done
# 4. benches, alternated
bench() { local v=$1 l=$2 r=$3; shift 3
  hv $v 30 "$@" --bench --csv > $O/logs/b.txt 2>&1; local rc=$?
  local row=$(grep ',' $O/logs/b.txt | grep -v '^family' | tail -1)
  echo "$r,$v,$l,$(echo "$row" | cut -d, -f9,10,11),rc=$rc" | tee -a $O/logs/bench.csv
  { echo "== $r $v $l"; cat $O/logs/b.txt; } >> $O/logs/bench.txt; }
for r in 1 2; do
  for s in "4096x7168x16384:--m 4096 --n 7168 --k 16384" "8192^3:--m 8192" "4096^3:--m 4096" \
           "4096x2112x7168:--m 4096 --n 2112 --k 7168"; do
    for v in staged stagedtma stagedtma5 pt; do
      left 25 || { t "benches cut (time)"; break 3; }
      bench $v "${s%%:*}" $r ${s#*:}
    done
  done
  t "round $r"
done
# 5. the FP8 sweep with each TMA entry for the block-scaled problems
for v in stagedtma5 stagedtma; do
  left 20 || { t "sweep $v skipped (time)"; continue; }
  CUTE_RS_FP8_BLOCK=$v timeout 60 $G > $O/logs/sweep-$v.txt 2>&1 < /dev/null
  t "FP8 sweep CUTE_RS_FP8_BLOCK=$v rc=$? PASS $(grep -c PASS $O/logs/sweep-$v.txt) FAIL $(grep -c FAIL $O/logs/sweep-$v.txt)"
  grep -E "FAIL" $O/logs/sweep-$v.txt | head -5 | cut -c1-220 | tee -a $S
done
t end
python3 - $O/logs/bench.csv <<'PY' 2>&1 | tee -a $S
import sys, collections
d = collections.defaultdict(list); shapes = []
for line in open(sys.argv[1]):
    p = line.strip().split(",")
    if len(p) < 6: continue
    r, v, s = p[0], p[1], p[2]
    if s not in shapes: shapes.append(s)
    try: d[(s, v)].append((float(p[3]), float(p[5])))
    except ValueError: d[(s, v)].append(None)
V = ["staged", "stagedtma", "stagedtma5", "pt"]
f = lambda xs: "; ".join(f"{x[0]:,.0f} ({x[1]:.2f})" if x else "-" for x in xs)
q = lambda a, b: "; ".join(f"{x[0]/y[0]:.2f}" for x, y in zip(a, b) if x and y)
print("| shape | " + " | ".join(V) + " | tma/staged | tma5/staged | tma5/tma | staged/pt | tma/pt | tma5/pt |")
for s in shapes:
    g = lambda v: d[(s, v)]
    print(f"| {s} | " + " | ".join(f(g(v)) for v in V) + f" | {q(g('stagedtma'), g('staged'))} | {q(g('stagedtma5'), g('staged'))}"
          f" | {q(g('stagedtma5'), g('stagedtma'))} | {q(g('staged'), g('pt'))} | {q(g('stagedtma'), g('pt'))} | {q(g('stagedtma5'), g('pt'))} |")
PY
