#!/bin/bash
# helper "ampere" round 8, second call (issue #35): the vector epilogue promoted to the default
# (ed43c47), checked and measured against main's kernel and CuTe's sm80 tutorial in about 85 s of
# one H200. Run from the repository root:   OUT=... bash tools/gpu/ampere/vector-epilogue-ab.sh
# $D (.gpu/ampere8b; $AMPERE8B overrides) holds host.xz (round 8's release host, with --timing and
# --vs-tutorial; its embedded hgemm_sm80 is replaced through CUTE_RS_PTX_DIR), tut.ptx (the
# tutorial's PTX), main/ (main's f16 TN entry), prom/ (the promoted f16 TN entry) and prom-all/
# (the promoted module, 8 entries: byte-identical to ed43c47's default build).
# Prints (summary.txt): the forced sweep, main vs promoted vs the tutorial (b2b, sustained) at
# 2048³/4096³/8192³, the promoted module's majorities at 4096³ vs cuBLAS, memcheck if time is left.
set -u
D=${AMPERE8B:-.gpu/ampere8b}
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=${CUDA_CACHE_PATH:-/tmp/nvc-amp8}
S=$OUT/summary.txt
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
left() { [ $(( $(date +%s) - T0 )) -lt $1 ] || { echo "== skipped (time): $2" | tee -a $S; return 1; }; }
unxz() { python3 -c "import lzma,shutil,sys;shutil.copyfileobj(lzma.open(sys.argv[1]),open(sys.argv[2],'wb'))" "$1" "$2" && chmod +x "$2"; }
H=${H:-/tmp/amp8b-host}; [ -x "$H" ] || unxz $D/host.xz $H
t unpacked
# 1. the promoted module forced: fixed cases (every majority and element, K = 0 and 1, tile
#    edges, beta), argument errors, 300 random problems of seed 92 vs cuBLAS GemmEx (JIT first)
CUTE_RS_PTX_DIR=$D/prom-all timeout 60 $H --arch sm_80 run --only hgemm_sm80 --sweep-hgemm-sm80 300 > $OUT/sweep.txt 2>&1
t "forced sweep 300 rc=$?"
grep -E "passed|FAIL" $OUT/sweep.txt | tail -4 | cut -c1-200 | tee -a $S
# 2. main's kernel and the promoted one against the tutorial in one process, each size in turn
g() { # g VARIANT SIZE
  echo "== $1 $2"
  CUTE_RS_PTX_DIR=$D/$1 timeout ${TO:-30} $H --arch sm_80 gemm --kernel sm80 --m $2 --dtype f16 --ta \
    --bench --timing b2b,sustained --vs-tutorial $D/tut.ptx 2>&1 | grep -E "TFLOP|rror|differs"
}
B=$OUT/bench.txt
{ TO=60 g main 2048; g prom 2048
  for s in 4096 8192 2048; do
    left 50 "size $s" || break
    g main $s; g prom $s
  done
} > $B 2>&1; t bench
# 3. the promoted module's majorities at 4096³ vs cuBLAS GemmEx (the issue: within 5 % of TN)
M=$OUT/majorities.txt
{ for args in "--dtype f16 --ta" "--dtype f16" "--dtype f16 --tb" "--dtype f16 --ta --tb" "--dtype bf16 --ta"; do
    left 70 "majority $args" || break
    echo "== prom-all 4096 $args"
    CUTE_RS_PTX_DIR=$D/prom-all timeout 20 $H --arch sm_80 gemm --kernel sm80 --m 4096 $args \
      --bench --timing sustained 2>&1 | grep -E "TFLOP|rror"
  done
} > $M 2>&1; t majorities
cat $B $M >> $S
python3 - $B <<'PY' | tee -a $S
import re, sys
v = None
print("ours / CuTe tutorial in one process (host gemm --vs-tutorial), TFLOP/s:")
for l in open(sys.argv[1]):
    m = re.match(r"== (\S+) (\d+)", l)
    if m: v = m.group(1); continue
    m = re.match(r"hgemm f16->f16 TN vs tutorial( b2b)?\s+(\d+)x\d+x\d+\s+([\d.]+) TFLOP/s \([^)]*\)\s+([\d.]+) TFLOP/s.*?([\d.]+)x\s*$", l)
    if m: print(f"  {v:5} {m.group(2):5} {(m.group(1) or ' sustained').strip():9} {float(m.group(3)):4.0f} / {float(m.group(4)):4.0f} = {float(m.group(5)):.2f}")
PY
# 4. memcheck, a short forced run (the fixed cases and 2 random problems), if time is left
if left 72 memcheck; then
  CUTE_RS_PTX_DIR=$D/prom-all timeout 18 compute-sanitizer --tool memcheck --print-limit 5 $H --arch sm_80 run --only hgemm_sm80 --sweep-hgemm-sm80 2 > $OUT/memcheck.txt 2>&1
  t "memcheck rc=$?"
  grep -E "ERROR SUMMARY|passed" $OUT/memcheck.txt | tail -2 | tee -a $S
fi
t end
