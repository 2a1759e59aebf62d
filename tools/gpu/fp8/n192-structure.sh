#!/usr/bin/env bash
# Helper fp8struct (issue #37, session 14): which part of the 128×192 FP8 kernel's structure costs its tensor pipe
# (fast192, no promotion: 76.8 % against cuBLASLt's 94.6 %), and the winner on the promoted per-tensor kernel, in one
# device call. Run from the repo root with $OUT set: D=.gpu/fp8struct bash .gpu/fp8struct/go.sh (a copy of this
# script) with
#   host.xz        the branch's release host (CUTE_RS_KERNEL_FEATURES=hgemm/fp8-variants CUTE_RS_ARCHS=sm_90a
#                  cargo build --release -p host)
#   hgemmA.ptx.xz  its hgemm module cut by tools/gpu/cut_ptx.py to the FP8 sweep's entries (gemm_fp8_{e4m3,e5m2}_tn,
#                  gemm_fp8_e4m3_tn_promoted{,_n192,_staged}, the five fused _n192), _n192tma, and
#                  _fast192=_n192off, _fast160=_n160s5
#   hgemmB.ptx.xz  gemm_fp8_e4m3_tn_promoted, _fast192s4=_n192off, _fast192tma=_n192tma, _promoted_n192s4=_n192
#   stub.ptx, stub-families.txt  an entry-less module loaded in place of every other family
# Variants (host gemm --dtype e4m3 ... --bench, ours beside cuBLASLt FP8 in the same process; the fast ones run
# under the promoted launch of their tile, so their reference is cuBLASLt's promoting kernel, but fast256*):
#   fast256    the fast-accumulation entry gemm_fp8_e4m3_tn (128×256, 3 stages, TMA epilogue; --fast-accum: its
#              reference is cuBLASLt's fast accumulation)     fast256d  the same, CUTE_RS_HGEMM_EPILOGUE=direct
#   fast192    128×192, 5 stages, direct epilogue, clusters of 2 (B multicast)   fast192c1 the same, clusters of 1
#   fast192s4  4 stages, direct   fast192tma  4 stages, the TMA epilogue   fast160  128×160, 5 stages, direct
#   n192       the promoted default   n192s4  promoted, 4 stages, direct   n192tma  promoted, 4 stages, TMA epilogue
# What it runs, each step only while the time (BUDGET s) allows: (1) the JITs through first checks; (2) --check of
# n192tma (odd shapes, f32 and bf16 D, split-K, the stream-K tail) and the others; (3) bench round 1 of every variant
# at 4096×7168×16384, 8192³, 4096³, 4096×2112×7168; (4) ncu (SpeedOfLight, WarpStateStats, SourceCounters; the
# source page's SASS lines with the most stall samples) of fast192, fast256 and fast192tma at 4096×7168×16384;
# (5) bench round 2; (6) compute-sanitizer memcheck of n192tma; (7) the FP8 sweep with CUTE_RS_FP8_PROMOTED=n192tma.
# Results: $OUT/summary.txt (tables at the end), $OUT/fp8struct.tgz (every log), $OUT/ncu-*.csv.gz.
set -u
D=${D:-.gpu/fp8struct}
BUDGET=${BUDGET:-270}
O=${OUT:-/tmp/out}; mkdir -p $O; S=$O/summary.txt
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }; t() { echo "[t=$(el) s] $*" | tee -a $S; }
left() { [ $(el) -lt $(( BUDGET - $1 )) ]; }
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
x $D/host.xz /tmp/fs-host && chmod +x /tmp/fs-host; H=/tmp/fs-host
for m in A B; do
  P=/tmp/fs-ptx-$m; mkdir -p $P; x $D/hgemm$m.ptx.xz $P/hgemm.ptx
  for f in $(cat $D/stub-families.txt); do cp $D/stub.ptx $P/$f.ptx; done
done
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-fs
mkdir -p $O/logs
fin() { tar czf $O/fp8struct.tgz -C $O logs summary.txt 2>/dev/null; }
trap fin EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
# variant -> module, environment, flags
hv() { local v=$1 to=$2; shift 2; local m=A e=() f=()
  case $v in
    fast256) f=(--fast-accum) ;;
    fast256d) f=(--fast-accum); e=(CUTE_RS_HGEMM_EPILOGUE=direct) ;;
    n192) e=(CUTE_RS_FP8_PROMOTED=n192) ;;
    n192tma) e=(CUTE_RS_FP8_PROMOTED=n192tma) ;;
    fast192) e=(CUTE_RS_FP8_PROMOTED=n192off) ;;
    fast192c1) e=(CUTE_RS_FP8_PROMOTED=n192off CUTE_RS_HGEMM_CLUSTER=1) ;;
    fast160) e=(CUTE_RS_FP8_PROMOTED=n160s5) ;;
    fast192s4) m=B; e=(CUTE_RS_FP8_PROMOTED=n192off) ;;
    fast192tma) m=B; e=(CUTE_RS_FP8_PROMOTED=n192tma) ;;
    n192s4) m=B; e=(CUTE_RS_FP8_PROMOTED=n192) ;;
  esac
  env CUTE_RS_PTX_DIR=/tmp/fs-ptx-$m "${e[@]}" timeout $to $H gemm --dtype e4m3 "${f[@]}" "$@" < /dev/null; }
chk() { local v=$1; shift; hv $v 40 "$@" --check > $O/logs/c.txt 2>&1; local rc=$?
  echo "check $v $* rc=$rc $(grep -Eo 'PASS|FAIL' $O/logs/c.txt | head -1)" | tee -a $S
  { echo "== $v $*"; cat $O/logs/c.txt; } >> $O/logs/checks.txt; }
# 1. the JITs (module A: 13 entries; B: 4), cached, each through a first check
hv n192tma 200 --m 512 --n 384 --k 2048 --check > $O/logs/jitA.txt 2>&1
t "jit A + check n192tma 512x384x2048 rc=$? $(grep -Eo 'PASS|FAIL' $O/logs/jitA.txt | head -1)"
grep -E "gemm_fp8|rror|max" $O/logs/jitA.txt | tail -2 | cut -c1-220 | tee -a $S
hv fast192tma 100 --m 512 --n 384 --k 2048 --check > $O/logs/jitB.txt 2>&1
t "jit B + check fast192tma 512x384x2048 rc=$? $(grep -Eo 'PASS|FAIL' $O/logs/jitB.txt | head -1)"
grep -E "gemm_fp8|rror|max" $O/logs/jitB.txt | tail -2 | cut -c1-220 | tee -a $S
# 2. checks: n192tma (bf16 D: the 16-bit TMA path; f32 D with M·4 a multiple of 16: the f32 TMA path; M·4 not:
# the direct path for the tiles crossing M), then one each of the others
for a in "--m 300 --n 200 --k 528" "--m 1000 --n 1000 --k 1024" "--m 1024 --n 1000 --k 512 --out f32" \
         "--m 129 --n 257 --k 384 --out f32" "--m 17 --n 520 --k 6160" "--m 2048 --n 1700 --k 1008" \
         "--m 64 --n 192 --k 128" "--m 1100 --n 2000 --k 1040 --scale-a 0.5 --scale-b 1.25"; do
  chk n192tma $a
done
chk fast192tma --m 1000 --n 1000 --k 1024 --out f32
for v in n192s4 fast192s4 fast160 fast192; do chk $v --m 1000 --n 1000 --k 1024; done
chk fast192c1 --m 512 --n 384 --k 2048
t "checks"
# 3-5. benches and ncu
V=${VARIANTS:-"fast256 fast256d fast192 fast192c1 fast192s4 fast192tma fast160 n192 n192s4 n192tma"}
SH=("4096x7168x16384:--m 4096 --n 7168 --k 16384" "8192^3:--m 8192" "4096^3:--m 4096" "4096x2112x7168:--m 4096 --n 2112 --k 7168")
bench() { local v=$1 l=$2 r=$3; shift 3
  hv $v 30 "$@" --bench --csv > $O/logs/b.txt 2>&1; local rc=$?
  local row=$(grep -E '^[a-z0-9]' $O/logs/b.txt | grep -v '^family' | grep ',' | tail -1)
  echo "$r,$v,$l,$(echo "$row" | cut -d, -f9,10,11),rc=$rc" | tee -a $O/logs/bench.csv
  { echo "== $r $v $l"; cat $O/logs/b.txt; } >> $O/logs/bench.txt; }
round() { for s in "${SH[@]}"; do for v in $V; do
  left 8 || { t "round $1 cut (time) at $v ${s%%:*}"; return; }
  bench $v "${s%%:*}" $1 ${s#*:}; done; done; t "round $1"; }
ncu1() { local v=$1
  left 45 || { t "ncu $v skipped (time)"; return; }
  local m=A; case $v in fast192s4|fast192tma|n192s4) m=B ;; esac
  local e=(); case $v in
    fast256) e=() ;; fast192) e=(CUTE_RS_FP8_PROMOTED=n192off) ;; fast192tma) e=(CUTE_RS_FP8_PROMOTED=n192tma) ;;
    n192) e=(CUTE_RS_FP8_PROMOTED=n192) ;; n192tma) e=(CUTE_RS_FP8_PROMOTED=n192tma) ;; esac
  local f=(); [ $v = fast256 ] && f=(--fast-accum)
  env CUTE_RS_PTX_DIR=/tmp/fs-ptx-$m "${e[@]}" timeout 90 ncu --clock-control none -k 'regex:gemm_fp8' --launch-count 1 \
    --section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats --section SourceCounters \
    --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
    -o $O/logs/ncu-$v -f $H gemm --dtype e4m3 "${f[@]}" --m 4096 --n 7168 --k 16384 --bench > $O/logs/ncu-log-$v.txt 2>&1 < /dev/null
  t "ncu $v rc=$?"
  timeout 30 ncu -i $O/logs/ncu-$v.ncu-rep --print-summary none > $O/logs/ncu-$v.txt 2>&1
  timeout 30 ncu -i $O/logs/ncu-$v.ncu-rep --page source --csv --print-source sass > $O/logs/src-$v.csv 2>&1
  rm -f $O/logs/ncu-$v.ncu-rep
  grep -E 'Duration|SM Frequency|Compute \(SM\) Throughput|Issue Slots Busy|Executed Instructions  |Warp Cycles Per Issued|highest-utilized' \
    $O/logs/ncu-$v.txt | head -10 | cut -c1-200 | tee -a $S
  grep -E 'stalled_' $O/logs/ncu-$v.txt | awk '{print $1, $NF}' | sort -k2 -g -r | head -8 | tee -a $S
  python3 - $O/logs/src-$v.csv <<'PY' 2>&1 | tee -a $S
import csv, sys, collections
rows = list(csv.reader(open(sys.argv[1], errors="replace")))
hi = next((i for i, r in enumerate(rows) if any("Warp Stall Sampling (All" in c for c in r)), None)
if hi is None:
    print("source page: no stall-sampling column;", len(rows), "rows"); sys.exit()
h = rows[hi]; body = [r for r in rows[hi + 1:] if len(r) == len(h)]
col = lambda name: next(i for i, c in enumerate(h) if c.startswith(name))
cs, cn, src = col("Warp Stall Sampling (All"), col("Warp Stall Sampling (Not"), col("Source")
num = lambda s: float(s.replace(",", "") or 0)
tot = sum(num(r[cs]) for r in body) or 1
print(f"source: {len(body)} SASS lines, {tot:.0f} stall samples; top 24 (all, not-issued, share, SASS):")
for r in sorted(body, key=lambda r: -num(r[cs]))[:24]:
    print(f"  {num(r[cs]):8.0f} {num(r[cn]):8.0f} {100*num(r[cs])/tot:5.1f}%  {r[src].strip()[:90]}")
op = collections.Counter()
for r in body:
    op[r[src].strip().split(" ")[0].split(".")[0] if not r[src].strip().startswith("@") else r[src].strip().split(" ")[1].split(".")[0]] += num(r[cs])
print("  by opcode:", ", ".join(f"{k} {100*v/tot:.1f}%" for k, v in op.most_common(12)))
PY
  gzip -f $O/logs/src-$v.csv; mv $O/logs/src-$v.csv.gz $O/ncu-src-$v.csv.gz
}
round 1
for v in ${NCU_V:-fast192 fast256 fast192tma}; do ncu1 $v; done
round 2
# 6. memcheck of n192tma (the TMA epilogue's shared memory and stores)
if left 40; then
  env CUTE_RS_PTX_DIR=/tmp/fs-ptx-A CUTE_RS_FP8_PROMOTED=n192tma timeout 60 compute-sanitizer --tool memcheck --print-limit 5 \
    $H gemm --dtype e4m3 --m 300 --n 200 --k 528 --check > $O/logs/memcheck.txt 2>&1 < /dev/null
  t "memcheck n192tma 300x200x528 rc=$? $(grep -E 'ERROR SUMMARY' $O/logs/memcheck.txt | tail -1) $(grep -Eo 'PASS|FAIL' $O/logs/memcheck.txt | head -1)"
else t "memcheck skipped (time)"; fi
# 7. the FP8 sweep with the per-tensor launches on n192tma
if left 30; then
  env CUTE_RS_PTX_DIR=/tmp/fs-ptx-A CUTE_RS_FP8_PROMOTED=n192tma timeout $(( BUDGET - $(el) )) $H gemm --dtype e4m3 > $O/logs/sweep.txt 2>&1 < /dev/null
  t "FP8 sweep (n192tma) rc=$? PASS $(grep -c PASS $O/logs/sweep.txt) FAIL $(grep -c FAIL $O/logs/sweep.txt)"
  grep -E "FAIL" $O/logs/sweep.txt | head -5 | cut -c1-220 | tee -a $S
else t "sweep skipped (time)"; fi
t end
# the table: variant x shape, TFLOP/s (ratio) per round
python3 - $O/logs/bench.csv <<'PY' 2>&1 | tee -a $S
import sys, collections
d = collections.defaultdict(list); shapes = []
for line in open(sys.argv[1]):
    p = line.strip().split(",")
    if len(p) < 6: continue
    r, v, s = p[0], p[1], p[2]
    if s not in shapes: shapes.append(s)
    try: d[(v, s)].append(f"{float(p[3]):,.0f} ({float(p[5]):.2f})")
    except ValueError: d[(v, s)].append("-")
vs = list(dict.fromkeys(k[0] for k in d))
print("| variant | " + " | ".join(shapes) + " |")
for v in vs:
    print(f"| {v} | " + " | ".join("; ".join(d[(v, s)]) for s in shapes) + " |")
PY
