#!/usr/bin/env bash
# Helper udesc, session 8 (2026-11-29), issues #33/#37/#34: uniform-datapath wgmma descriptors and
# 32-bit barrier addresses (branch udesc). One host (final7's = main's host code), the PTX swapped
# with CUTE_RS_PTX_DIR: new/ = branch udesc (attention: all 10 default entries; hgemm cut to
# hgemm_bf16_tn + gemm_fp8_e4m3_tn[_promoted]), main/ = main 23036ef (attention: the 5 bf16
# entries; hgemm: the same 3). Correctness of new first, then new vs main benches, alternated.
set -u
D=${D:-.gpu/udesc8}; O=/tmp/ou; mkdir -p $O; S=$OUT/summary.txt
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc_udesc
if [ -z "${H:-}" ]; then
  python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$D/host.xz'), open('/tmp/hu','wb'))"; chmod +x /tmp/hu; H=/tmp/hu
fi
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
left() { [ $(( $(date +%s) - T0 )) -lt $1 ] || { t "SKIP (time): $2"; return 1; }; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader 2>&1 | tee -a $S
t start
NEW="env CUTE_RS_PTX_DIR=$D/new"; MAIN="env CUTE_RS_PTX_DIR=$D/main"
# A: correctness of new (the first launch JITs the module: generous timeouts)
$NEW timeout 110 $H run --only attention --sweep-attention 60 > $O/run-new.txt 2>&1
t "A1 new: run --only attention --sweep-attention 60 rc=$?"; grep -E "passed|failed" $O/run-new.txt | tail -2 | tee -a $S; grep -E "FAIL" $O/run-new.txt | head -8 | cut -c1-200 | tee -a $S
$NEW timeout 100 $H gemm --dtype e4m3 --m 512 --n 384 --k 2048 --check > $O/fp8-check1.txt 2>&1; t "A2 new: e4m3 512x384x2048 check rc=$? $(tail -1 $O/fp8-check1.txt | cut -c1-150)"
$NEW timeout 30 $H gemm --dtype e4m3 --m 300 --n 200 --k 4096 --check > $O/fp8-check2.txt 2>&1; t "A3 new: e4m3 300x200x4096 check rc=$? $(tail -1 $O/fp8-check2.txt | cut -c1-150)"
$NEW timeout 30 $H gemm --dtype e4m3 --fast-accum --m 300 --n 200 --k 1024 --check > $O/fp8-check3.txt 2>&1; t "A4 new: e4m3 fast 300x200x1024 check rc=$? $(tail -1 $O/fp8-check3.txt | cut -c1-150)"
$NEW timeout 30 $H gemm --ta --dtype bf16 --m 1000 --n 777 --k 320 --check > $O/bf16-check.txt 2>&1; t "A5 new: bf16 TN 1000x777x320 check rc=$? $(tail -1 $O/bf16-check.txt | cut -c1-150)"
# B: attention bench (36 shapes, each beside cuBLAS 8192^3 in the same process): new, main, new
left 75 bench-new && { $NEW timeout 45 $H bench attention --json > $O/bench-attn-new.json 2> $O/bench-attn-new.err; t "B1 bench attention new rc=$?"; }
left 90 bench-main && { $MAIN timeout 45 $H bench attention --json > $O/bench-attn-main.json 2> $O/bench-attn-main.err; t "B2 bench attention main rc=$?"; }
# C: GEMM benches, alternated main/new (FP8 promoted 4096x7168x16384, bf16 TN 8192^3 vs cuBLAS)
for v in MAIN NEW; do
  left 118 "gemm-$v" || break
  echo "== C $v e4m3 promoted 4096x7168x16384" >> $S; ${!v} timeout 40 $H gemm --dtype e4m3 --m 4096 --n 7168 --k 16384 --bench 2>&1 | tee $O/g-$v-fp8.txt | grep -E "TFLOP|x$|cuBLAS" | tee -a $S
  echo "== C $v bf16 TN 8192^3" >> $S; ${!v} timeout 30 $H gemm --ta --dtype bf16 --m 8192 --bench 2>&1 | tee $O/g-$v-bf16.txt | grep -E "TFLOP|x$|cuBLAS" | tee -a $S
done
left 126 bench-new2 && { $NEW timeout 24 $H bench attention --json > $O/bench-attn-new2.json 2> $O/bench-attn-new2.err; t "B3 bench attention new (again) rc=$?"; }
# the ratio table (ours / cuBLAS's GEMM in the same run, new vs main)
python3 - $O >> $S 2>&1 <<'EOF'
import json, sys, os
o = sys.argv[1]
def load(n):
    p = os.path.join(o, n)
    try:
        rows = json.load(open(p))
    except Exception as e:
        return {}
    out = {}
    for r in rows:
        k = (r.get("variant"), r.get("size"))
        out[k] = r
    return out
new, main, new2 = load("bench-attn-new.json"), load("bench-attn-main.json"), load("bench-attn-new2.json")
def rate(r):
    return float(r.get("ratio", float("nan")))
def tf(r):
    return float(r.get("ours_rate", float("nan")))
print("| shape | main TFLOP/s | new TFLOP/s | new(2) | new/main (TFLOP/s) | new/main (share of GEMM) |")
print("|---|---|---|---|---|---|")
for k in sorted(set(new) | set(main), key=str):
    a, b, c = main.get(k), new.get(k), new2.get(k)
    if not a or not b: print(f"| {k} | {a and tf(a)} | {b and tf(b)} | | | |"); continue
    print(f"| {k[0]} {k[1]} | {tf(a):.0f} | {tf(b):.0f} | {tf(c) if c else float('nan'):.0f} | {tf(b)/tf(a):.3f} | {rate(b)/rate(a):.3f} |")
EOF
t end
tar -C /tmp -cJf $OUT/all.tar.xz ou
