#!/usr/bin/env bash
# Helper fp8struct (issue #37, session 14), the second call: the 128×192 kernel with the TMA epilogue (n192tma, 4
# stages) as the host's per-tensor and fused FP8 default (PROMOTED_PER_TENSOR_ENTRY = gemm_fp8_e4m3_tn_promoted_n192tma,
# the fused gemm_fp8_fused_e4m3_tn_<act>_n192tma), checked and measured on the branch's tree.
# Run from the repo root with $OUT set: D=.gpu/fp8struct bash .gpu/fp8struct/go2.sh (a copy of this script) with
#   host.xz        the branch's release host (CUTE_RS_KERNEL_FEATURES=hgemm/fp8-variants CUTE_RS_ARCHS=sm_90a
#                  cargo build --release -p host: the default build's host code, plus the measuring entries)
#   hgemm2.ptx.xz  its hgemm module cut by tools/gpu/cut_ptx.py to the FP8 sweep's entries (gemm_fp8_{e4m3,e5m2}_tn,
#                  gemm_fp8_e4m3_tn_promoted{,_n192tma,_staged}, the five fused _n192tma) and, for the old default,
#                  gemm_fp8_e4m3_tn_promoted_n192 and gemm_fp8_fused_e4m3_tn_gelu_n192 (CUTE_RS_FP8_PROMOTED=n192)
#   stub.ptx, stub-families.txt  an entry-less module loaded in place of every other family
# What it runs, each step while the time (BUDGET s) allows: (1) the JIT through a first check; (2) --check of the
# default, plain (odd shapes, f32 D, split-K, the stream-K tail) and fused (each activation, bias none/M/N, row and
# column scales, M/N edges, split-K, f32 D); (3) the FP8 sweep (host gemm --dtype e4m3); (4) compute-sanitizer
# memcheck of a plain and a fused check; (5) host gemm --dtype e4m3 --bench, the default against n192 (the direct
# epilogue, 5 stages) alternated, two rounds, plain at 4096×7168×16384, 8192³, 4096³, 4096×2112×7168, 128×7168×16384,
# and fused (--bias m --act gelu, against cuBLASLt's GELU_BIAS) at 4096×7168×16384, 8192³, 4096³.
# Results: $OUT/summary.txt (the table at its end) and $OUT/fp8struct2.tgz.
set -u
D=${D:-.gpu/fp8struct}
BUDGET=${BUDGET:-150}
O=${OUT:-/tmp/out}; mkdir -p $O/logs; S=$O/summary.txt
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }; t() { echo "[t=$(el) s] $*" | tee -a $S; }
left() { [ $(el) -lt $(( BUDGET - $1 )) ]; }
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
x $D/host.xz /tmp/fs2-host && chmod +x /tmp/fs2-host; H=/tmp/fs2-host
P=/tmp/fs2-ptx; mkdir -p $P; x $D/hgemm2.ptx.xz $P/hgemm.ptx
for f in $(cat $D/stub-families.txt); do cp $D/stub.ptx $P/$f.ptx; done
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-fs2 CUTE_RS_PTX_DIR=$P
fin() { tar czf $O/fp8struct2.tgz -C $O logs summary.txt 2>/dev/null; }
trap fin EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
G="$H gemm --dtype e4m3"
# 1. the JIT (12 entries), cached
timeout 150 $G --m 512 --n 384 --k 2048 --check > $O/logs/jit.txt 2>&1 < /dev/null
t "jit + check default 512x384x2048 rc=$? $(grep -Eo 'PASS|FAIL' $O/logs/jit.txt | head -1)"
grep -E "gemm_fp8|rror" $O/logs/jit.txt | tail -1 | cut -c1-220 | tee -a $S
# 2. checks of the default, plain then fused
while read -r args; do
  left 60 || { t "checks cut (time)"; break; }
  timeout 30 $G $args --check > $O/logs/c.txt 2>&1 < /dev/null
  echo "check $args rc=$? $(grep -Eo 'PASS|FAIL' $O/logs/c.txt | head -1)" | tee -a $S
  { echo "== $args"; cat $O/logs/c.txt; } >> $O/logs/checks.txt
done <<'EOF2'
--m 300 --n 200 --k 528
--m 129 --n 257 --k 384 --out f32
--m 17 --n 520 --k 6160
--m 1000 --n 1000 --k 1024
--m 1 --n 1 --k 16
--m 1100 --n 2000 --k 1040 --scale-a 0.5 --scale-b 1.25
--m 2048 --n 1700 --k 1008 --out f32
--m 128 --n 1024 --k 8192
--m 256 --n 256 --k 256 --row-scales --col-scales
--m 200 --n 130 --k 512 --bias m --act relu --row-scales
--m 129 --n 257 --k 384 --bias n --act gelu --col-scales --out f32
--m 300 --n 200 --k 1024 --bias n --act gelu-erf --row-scales --col-scales
--m 65 --n 70 --k 160 --bias m --act silu --out f32
--m 1 --n 1 --k 16 --bias n --act gelu --row-scales --col-scales
--m 17 --n 520 --k 6160 --bias n --act gelu --row-scales --col-scales
--m 128 --n 1024 --k 8192 --bias m --act silu --row-scales --scale-a 0.5 --scale-b 1.25
--m 1000 --n 1030 --k 2048 --bias m --act gelu --row-scales --col-scales
--m 2048 --n 1700 --k 1008 --bias n --act relu --out f32
EOF2
t "checks: PASS $(grep -c ' PASS$' $S) FAIL $(grep -c 'rc=[1-9]' $S)"
# 3. the FP8 sweep
if left 45; then
  timeout 90 $G > $O/logs/sweep.txt 2>&1 < /dev/null
  t "FP8 sweep rc=$? PASS $(grep -c PASS $O/logs/sweep.txt) FAIL $(grep -c FAIL $O/logs/sweep.txt)"
  grep -E "FAIL" $O/logs/sweep.txt | head -5 | cut -c1-220 | tee -a $S
else t "sweep skipped (time)"; fi
# 4. memcheck, plain and fused (split-K grid)
for a in "--m 300 --n 200 --k 528" "--m 17 --n 520 --k 6160 --bias n --act silu --row-scales --col-scales" "--m 1000 --n 1030 --k 512 --bias m --act gelu --out f32"; do
  left 30 || { t "memcheck skipped (time)"; break; }
  timeout 40 compute-sanitizer --tool memcheck --print-limit 5 $G $a --check > $O/logs/memcheck.txt 2>&1 < /dev/null
  t "memcheck $a rc=$? $(grep -E 'ERROR SUMMARY' $O/logs/memcheck.txt | tail -1) $(grep -Eo 'PASS|FAIL' $O/logs/memcheck.txt | head -1)"
  cat $O/logs/memcheck.txt >> $O/logs/memcheck-all.txt
done
# 5. benches: the default against n192, alternated
bench() { local v=$1 l=$2 r=$3; shift 3
  CUTE_RS_FP8_PROMOTED=$v timeout 30 $G "$@" --bench --csv > $O/logs/b.txt 2>&1 < /dev/null; local rc=$?
  local row=$(grep ',' $O/logs/b.txt | grep -v '^family' | tail -1)
  echo "$r,$v,$l,$(echo "$row" | cut -d, -f9,10,11),rc=$rc" | tee -a $O/logs/bench.csv
  { echo "== $r $v $l"; cat $O/logs/b.txt; } >> $O/logs/bench.txt; }
for r in 1 2; do
  for s in "4096x7168x16384:--m 4096 --n 7168 --k 16384" "8192^3:--m 8192" "4096^3:--m 4096" \
           "4096x2112x7168:--m 4096 --n 2112 --k 7168" "128x7168x16384:--m 128 --n 7168 --k 16384" \
           "fused 4096x7168x16384:--m 4096 --n 7168 --k 16384 --bias m --act gelu" "fused 8192^3:--m 8192 --bias m --act gelu" \
           "fused 4096^3:--m 4096 --bias m --act gelu"; do
    for v in default n192; do
      left 4 || { t "benches cut (time)"; break 3; }
      bench $v "${s%%:*}" $r ${s#*:}
    done
  done
  t "round $r"
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
print("| shape | default (n192tma) | n192 (direct, 5 stages) | default / n192 |")
for s in shapes:
    a, b = d[(s, "default")], d[(s, "n192")]
    f = lambda xs: "; ".join(f"{x[0]:,.0f} ({x[1]:.2f})" if x else "-" for x in xs)
    q = "; ".join(f"{x[0]/y[0]:.2f}" for x, y in zip(a, b) if x and y)
    print(f"| {s} | {f(a)} | {f(b)} | {q} |")
PY
