#!/bin/bash
# helper "ampere" round 11, issue #35's last target (ours ≥ 1.15 × CuTe's sm80 tutorial at 2048³,
# f16 TN): kernels against main's and the tutorial, timed alike in one process (`host gemm --bench
# --timing b2b,sustained --vs-tutorial`), arms alternated, then the candidate module's checks;
# ≤ 200 s of one H200 (~130 s with the defaults). Run from the repository root (.gpu/ampere11
# carried):   OUT=... bash tools/gpu/ampere/vs-tutorial-2048.sh   (or bash .gpu/ampere11/go.sh, a copy)
# The folder $D (.gpu/ampere11; $AMPERE11 overrides) holds:
#   host.xz    a release host (CUTE_RS_ARCHS=sm_80 cargo build --release -p host; build.txt says
#              which commit)
#   tut.ptx    CuTe's tutorial PTX (CUTLASS 4.2.0's examples/cute/tutorial/sgemm_sm80.cu, `nvcc -ptx
#              -arch=compute_80 -std=c++17 -O3`, nvcc 13.0.88: one gemm_device entry, the half TN)
#   ARM/       one f16 TN entry of each arm (tools/gpu/ampere/candidate-ptx.py), loaded through
#              CUTE_RS_PTX_DIR: main (d74c6a8's kernel), cand (round 11's default)
#   ARM-all/   the whole 8-entry modules the forced sweeps and memcheck run (cand-all)
#   build.txt  what each arm is (features, commit), printed first
# Env: ARMS (the bench arms, in order; the first is the baseline), EXTRA (arms run at 2048³
# only), SIZES (rounds of sizes), CHECKS (arms --check'ed vs cuBLAS at 2048³ first), SWEEPS
# (whole modules swept: fixed cases + SWEEP_N random problems), MEMCHECK (a module run under
# compute-sanitizer memcheck), LIMIT (seconds after which nothing new starts).
# Prints (summary.txt; all files in $OUT/ampere11.tgz): checks, the forced sweeps' "N passed, M
# failed", memcheck's error summary, per size and timing each arm's ours / tutorial (median of the
# rounds, every run listed) and each arm against the first.
set -u
D=${AMPERE11:-.gpu/ampere11}
ARMS=${ARMS:-"main cand"}
EXTRA=${EXTRA:-}
SIZES=${SIZES:-"2048 4096 2048 8192 2048 4096"}
CHECKS=${CHECKS:-"cand"}
SWEEPS=${SWEEPS:-"cand-all"}
SWEEP_N=${SWEEP_N:-300}
MEMCHECK=${MEMCHECK:-cand-all}
LIMIT=${LIMIT:-190}
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=${CUDA_CACHE_PATH:-/tmp/nvc-amp11}
W=$OUT/ampere11; mkdir -p $W
S=$W/summary.txt
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
left() { [ $(( $(date +%s) - T0 )) -lt $1 ] || { echo "== skipped (time): $2" | tee -a $S; return 1; }; }
unxz() { python3 -c "import lzma,shutil,sys;shutil.copyfileobj(lzma.open(sys.argv[1]),open(sys.argv[2],'wb'))" "$1" "$2" && chmod +x "$2"; }
H=${H:-/tmp/amp11-host}; [ -x "$H" ] || unxz $D/host.xz $H
cat $D/build.txt >> $S 2>/dev/null
nvidia-smi --query-gpu=name,compute_cap,driver_version,clocks.max.sm,power.limit --format=csv,noheader 2>&1 | tee -a $S
t "unpacked; arms: $ARMS; sizes: $SIZES"
# 1. --check vs cuBLAS at 2048³ (the first launch JIT-compiles the arm's one entry)
for v in $CHECKS; do
  echo "== $v check" >> $W/checks.txt
  CUTE_RS_PTX_DIR=$D/$v timeout 60 $H --arch sm_80 gemm --kernel sm80 --m 2048 --dtype f16 --ta --check >> $W/checks.txt 2>&1
  t "$v --check rc=$? $(grep -E 'PASS|FAIL|rror' $W/checks.txt | tail -1 | cut -c1-120)"
done
# 2. the arms against the tutorial, size by size, the arms' order rotating each round
B=$W/bench.txt
g() { # g ARM SIZE
  echo "== $1 $2"
  CUTE_RS_PTX_DIR=$D/$1 timeout ${TO:-40} $H --arch sm_80 gemm --kernel sm80 --m $2 --dtype f16 --ta \
    --bench --timing b2b,sustained --vs-tutorial $D/tut.ptx 2>&1 | grep -E "TFLOP|rror|differs"
}
round=0
for s in $SIZES; do
  left $((LIMIT - 45)) "size $s round $round" || break
  arms="$ARMS"; [ $s = 2048 ] && arms="$ARMS $EXTRA"
  set -- $arms; n=$#; i=0; order=""
  for a in $arms; do order="$order $(echo $arms | cut -d' ' -f$(( (i + round) % n + 1 )))"; i=$((i + 1)); done
  for a in $order; do TO=$([ $round -eq 0 ] && echo 90 || echo 40) g $a $s >> $B 2>&1; done
  t "size $s:$order"; round=$((round + 1))
done
# 3. the candidates' whole modules forced: the fixed cases (every majority and element, K = 0 and 1,
#    tile edges, beta), the argument errors, SWEEP_N random problems vs cuBLAS (JIT of 8 entries
#    first)
for v in $SWEEPS; do
  left $((LIMIT - 30)) "sweep $v" || break
  CUTE_RS_PTX_DIR=$D/$v timeout 60 $H --arch sm_80 run --only hgemm_sm80 --sweep-hgemm-sm80 $SWEEP_N > $W/sweep-$v.txt 2>&1
  t "$v forced sweep rc=$?"
  grep -E "passed|FAIL" $W/sweep-$v.txt | tail -4 | cut -c1-200 | tee -a $S
done
# 4. memcheck: a short forced run (the fixed cases and 2 random problems) of the module
for v in $MEMCHECK; do
  left $((LIMIT - 25)) "memcheck $v" || break
  CUTE_RS_PTX_DIR=$D/$v timeout 25 compute-sanitizer --tool memcheck --print-limit 5 $H --arch sm_80 run --only hgemm_sm80 --sweep-hgemm-sm80 2 > $W/memcheck-$v.txt 2>&1
  t "$v memcheck rc=$?"
  grep -E "ERROR SUMMARY|passed" $W/memcheck-$v.txt | tail -2 | tee -a $S
done
python3 - $B $ARMS $EXTRA <<'PY' | tee -a $S
import re, sys, statistics as st
f, arms = sys.argv[1], sys.argv[2:]
rows, v = {}, None
for l in open(f):
    m = re.match(r"== (\S+) (\d+)", l)
    if m: v = m.group(1); continue
    m = re.match(r"hgemm f16->f16 TN vs tutorial( b2b)?\s+(\d+)x\d+x\d+\s+([\d.]+) TFLOP/s \([^)]*\)\s+([\d.]+) TFLOP/s.*?([\d.]+)x\s*$", l)
    if m:
        kind = (m.group(1) or " sustained").strip()
        o, t = float(m.group(3)), float(m.group(4))
        rows.setdefault((m.group(2), kind), {}).setdefault(v, []).append((o, t, o / t))
print("ours / CuTe tutorial in one process (host gemm --vs-tutorial), TFLOP/s ours/tutorial = ratio per run; median ratio; vs the first arm:")
for (s, kind) in sorted(rows, key=lambda k: (int(k[0]), k[1])):
    r = rows[(s, kind)]
    base = st.median(x[2] for x in r[arms[0]]) if arms[0] in r else None
    for a in arms:
        if a not in r: continue
        med = st.median(x[2] for x in r[a])
        runs = "  ".join(f"{o:.0f}/{t:.0f}={x:.3f}" for o, t, x in r[a])
        rel = f"  ({med / base - 1:+.1%} vs {arms[0]})" if base and a != arms[0] else ""
        print(f"  {s:5} {kind:9} {a:8} median {med:.3f}{rel}   [{runs}]")
PY
t end
tar czf $OUT/ampere11.tgz -C $OUT ampere11 && rm -rf $W
