#!/usr/bin/env bash
# Helper fp8block192 (issue #37, session 15): the block-scaled FP8 kernel on the per-tensor default's 128×192 tile
# (`gemm_fp8_e4m3_tn_promoted_staged_n192tma`: one m64n192k32 temporary, each stage's block scales through shared
# memory by TMA with B's two N-blocks' boxes, each 64-column chunk scaled by its own N-block, the TMA epilogue's three
# chunks a warpgroup, 4 stages) against the block default (`_staged_tma5`, 128×128) and beside the per-tensor default,
# in one device call. The entries (CUTE_RS_FP8_BLOCK=<v>):
#   stagedtma5         gemm_fp8_e4m3_tn_promoted_staged_tma5         session 14's block default (128×128, 5 stages)
#   stagedn192tma      gemm_fp8_e4m3_tn_promoted_staged_n192tma      new: data-parallel (the block default since)
#   stagedn192tmatail  gemm_fp8_e4m3_tn_promoted_staged_n192tmatail  new: a stream-K tail for a last wave ≤ 1/4 full
#   pt                 the per-tensor default (gemm_fp8_e4m3_tn_promoted_n192tma, no --block-scales): the denominator
# (The measured call, run 2026-11-30-s15-fp8block192, ran this script before the entries' rename: `stagedn192tmadp`
# was today's `stagedn192tma`, and `stagedn192tma` today's `stagedn192tmatail`; the PTX is the same up to the names.)
# Run from the repo root with $OUT set: D=.gpu/fp8block192 bash .gpu/fp8block192/go.sh (a copy of this script) with
#   host.xz        the branch's release host (CUTE_RS_KERNEL_FEATURES=hgemm/fp8-variants CUTE_RS_ARCHS=sm_90a
#                  cargo build --release -p host)
#   hgemm.ptx.xz   its hgemm module cut by tools/gpu/cut_ptx.py to the FP8 sweep's entries (gemm_fp8_{e4m3,e5m2}_tn,
#                  gemm_fp8_e4m3_tn_promoted{,_n192tma,_staged_tma5}, the five fused _n192tma) and the two new ones
#   stub.ptx, stub-families.txt  an entry-less module loaded in place of every other family
# What it runs, each step while the time (BUDGET s) allows: (1) the JIT through a first check; (2) --check
# --block-scales of both new entries on odd shapes (N not a multiple of 128 or 192, tiles at both offsets of a 192-wide
# tile in B's 128-column blocks, a last tile whose second block is past N, K tails, M edges, f32 D, split-K, the
# stream-K tail; 129×257×384: M odd, run on the global entry); (3) compute-sanitizer memcheck of two short
# block-scaled checks of the new entries; (4) host gemm --dtype e4m3 --block-scales --bench, old and new alternated with the per-tensor
# default, two rounds, at 4096×7168×16384, 8192³, 4096³, 4096×2112×7168; (5) the FP8 sweep (host gemm --dtype e4m3)
# with CUTE_RS_FP8_BLOCK=stagedn192tmatail, then stagedn192tma.
# Results: $OUT/summary.txt (the table at its end) and $OUT/fp8block192.tgz (every log).
set -u
D=${D:-.gpu/fp8block192}
BUDGET=${BUDGET:-225}
O=${OUT:-/tmp/out}; mkdir -p $O/logs; S=$O/summary.txt
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }; t() { echo "[t=$(el) s] $*" | tee -a $S; }
left() { [ $(el) -lt $(( BUDGET - $1 )) ]; }
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
x $D/host.xz /tmp/fb192-host && chmod +x /tmp/fb192-host; H=/tmp/fb192-host
P=/tmp/fb192-ptx; mkdir -p $P; x $D/hgemm.ptx.xz $P/hgemm.ptx
for f in $(cat $D/stub-families.txt); do [ $f = hgemm ] || cp $D/stub.ptx $P/$f.ptx; done
cp $D/stub.ptx $P/attention.ptx
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-fb192 CUTE_RS_PTX_DIR=$P
fin() { tar czf $O/fp8block192.tgz -C $O logs summary.txt 2>/dev/null; }
trap fin EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
G="$H gemm --dtype e4m3"
NEW=stagedn192tmatail; DP=stagedn192tma; OLD=stagedtma5
# hv V TIMEOUT ARGS: pt = the per-tensor default (no block scales); else CUTE_RS_FP8_BLOCK=V --block-scales
hv() { local v=$1 to=$2; shift 2
  if [ $v = pt ]; then timeout $to $G "$@" < /dev/null
  else CUTE_RS_FP8_BLOCK=$v timeout $to $G --block-scales "$@" < /dev/null; fi; }
# 1. the JIT (12 entries), cached
hv $NEW 150 --m 512 --n 384 --k 2048 --check > $O/logs/jit.txt 2>&1
t "jit + check $NEW 512x384x2048 rc=$? $(grep -Eo 'PASS|FAIL' $O/logs/jit.txt | head -1)"
grep -E "gemm_fp8|rror" $O/logs/jit.txt | tail -2 | cut -c1-220 | tee -a $S
# 2. checks of both new entries
for v in $NEW $DP; do
while read -r a; do
  left 150 || { t "checks cut (time)"; break 2; }
  hv $v 30 $a --check > $O/logs/c.txt 2>&1
  echo "check $v $a rc=$? $(grep -Eo 'PASS|FAIL' $O/logs/c.txt | head -1) $(grep -E 'rror' $O/logs/c.txt | head -1 | cut -c1-120)" | tee -a $S
  { echo "== $v $a"; cat $O/logs/c.txt; } >> $O/logs/checks.txt
done <<'EOF2'
--m 300 --n 200 --k 528
--m 512 --n 384 --k 2048 --out f32
--m 132 --n 257 --k 384
--m 1000 --n 1000 --k 1024
--m 1024 --n 1000 --k 512 --out f32
--m 2048 --n 1700 --k 1008
--m 2048 --n 1700 --k 1008 --out f32
--m 260 --n 520 --k 6160
--m 128 --n 7168 --k 2048
--m 4 --n 130 --k 16
--m 64 --n 192 --k 128
--m 1024 --n 1024 --k 4096
--m 129 --n 257 --k 384
EOF2
done
t "checks: PASS $(grep -c '^check.* PASS' $S) FAIL $(grep -c '^check.* FAIL' $S)"
# 3. memcheck, two short block-scaled checks
for a in "$NEW --m 300 --n 200 --k 528" "$NEW --m 2048 --n 1700 --k 1008" "$DP --m 1000 --n 1000 --k 1024"; do
  left 140 || { t "memcheck skipped (time)"; break; }
  v=${a%% *}; a=${a#* }
  CUTE_RS_FP8_BLOCK=$v timeout 40 compute-sanitizer --tool memcheck --print-limit 5 $G --block-scales $a --check > $O/logs/memcheck.txt 2>&1 < /dev/null
  t "memcheck $v --block-scales $a rc=$? $(grep -E 'ERROR SUMMARY' $O/logs/memcheck.txt | tail -1) $(grep -Eo 'PASS|FAIL' $O/logs/memcheck.txt | head -1)"
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
    for v in $OLD $NEW $DP pt; do
      left 50 || { t "benches cut (time)"; break 3; }
      bench $v "${s%%:*}" $r ${s#*:}
    done
  done
  t "round $r"
done
# 5. the FP8 sweep with each new entry for the block-scaled problems
for v in $NEW $DP; do
  left 8 || { t "sweep $v skipped (time)"; continue; }
  CUTE_RS_FP8_BLOCK=$v timeout $(( BUDGET - $(el) > 60 ? 60 : BUDGET - $(el) )) $G > $O/logs/sweep-$v.txt 2>&1 < /dev/null
  t "FP8 sweep CUTE_RS_FP8_BLOCK=$v rc=$? PASS $(grep -c PASS $O/logs/sweep-$v.txt) FAIL $(grep -c FAIL $O/logs/sweep-$v.txt)"
  grep -E "FAIL|passed|failed" $O/logs/sweep-$v.txt | tail -3 | cut -c1-220 | tee -a $S
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
V = ["stagedtma5", "stagedn192tma", "stagedn192tmatail", "pt"]
f = lambda xs: "; ".join(f"{x[0]:,.0f} ({x[1]:.2f})" if x else "-" for x in xs)
q = lambda a, b: "; ".join(f"{x[0]/y[0]:.2f}" for x, y in zip(a, b) if x and y)
print("| shape | " + " | ".join(V) + " | n192tma / tma5 | n192tmatail / tma5 | tma5 / pt | n192tma / pt | n192tmatail / pt |")
for s in shapes:
    g = lambda v: d[(s, v)]
    print(f"| {s} | " + " | ".join(f(g(v)) for v in V) + f" | {q(g('stagedn192tma'), g('stagedtma5'))}"
          f" | {q(g('stagedn192tmatail'), g('stagedtma5'))} | {q(g('stagedtma5'), g('pt'))}"
          f" | {q(g('stagedn192tma'), g('pt'))} | {q(g('stagedn192tmatail'), g('pt'))} |")
PY
