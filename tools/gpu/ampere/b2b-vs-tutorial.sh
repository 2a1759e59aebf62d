#!/bin/bash
# helper "ampere" round 8, issue #35: ours against CuTe's sm80 tutorial timed alike, in one harness
# (`host gemm --bench --vs-tutorial`: the tutorial's kernel loaded from its PTX into our process,
# the same data, launches and timer; three timings: sustained, burst, b2b = the tutorial's own
# timer: one launch, then 100 back to back), the 2048³ candidates, in about 115 s of one H200.
# Run from the repository root (the package's go.sh does):   OUT=... bash tools/gpu/ampere/b2b-vs-tutorial.sh
# The folder $D (.gpu/ampere8; $AMPERE8 overrides) holds:
#   host.xz        a release host (CUTE_RS_ARCHS=sm_80) with --timing / --vs-tutorial
#   sgemm_sm80.xz  CuTe's tutorial binary (nvcc 13.0 -arch=compute_80 -code=compute_80 -O3, round 4)
#   tut.ptx        its PTX: `cuobjdump -xptx all sgemm_sm80` (one gemm_device entry, the half TN)
#   VARIANT/       one f16 TN entry of each variant (tools/gpu/ampere/candidate-ptx.py): default
#                  (this commit's kernel), vepi, late (features hgemm-sm80-vepi, hgemm-sm80-latewait)
#   VARIANT-all/   vepi's and late's whole modules (8 entries) for the forced sweeps
# Prints (summary.txt): the tables of ours / tutorial per size and timing, each variant's --check,
# the forced sweep's "N passed, 0 failed", ncu durations at 2048³.
set -u
D=${AMPERE8:-.gpu/ampere8}
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=${CUDA_CACHE_PATH:-/tmp/nvc-amp8}
S=$OUT/summary.txt
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
left() { [ $(( $(date +%s) - T0 )) -lt $1 ] || { echo "== skipped (time): $2" | tee -a $S; return 1; }; }
unxz() { python3 -c "import lzma,shutil,sys;shutil.copyfileobj(lzma.open(sys.argv[1]),open(sys.argv[2],'wb'))" "$1" "$2" && chmod +x "$2"; }
H=${H:-/tmp/amp8-host}; [ -x "$H" ] || unxz $D/host.xz $H
TUT=${TUT:-/tmp/amp8-tut}; [ -x "$TUT" ] || unxz $D/sgemm_sm80.xz $TUT
nvidia-smi --query-gpu=name,compute_cap,driver_version,clocks.max.sm,power.limit --format=csv,noheader 2>&1 | tee -a $S
t unpacked
B=$OUT/bench.txt
tut() { echo "== tutorial-binary $1"; timeout 30 $TUT $1 $1 $1 T N 2>&1 | grep -E "CUTE_GEMM|rror"; }
g() { # g VARIANT SIZE TIMINGS [ARGS]: ours forced to the Ampere kernel (the variant's module) vs the tutorial
  v=$1 s=$2 tm=$3; shift 3
  echo "== $v $s $tm $*"
  CUTE_RS_PTX_DIR=$D/$v timeout ${TO:-60} $H --arch sm_80 gemm --kernel sm80 --m $s --dtype f16 --ta \
    --bench --timing $tm --vs-tutorial $D/tut.ptx "$@" 2>&1 | grep -E "TFLOP|PASS|FAIL|rror|differs"
}
# 1. the main table: the default kernel vs the tutorial in all three timings (the first run JITs
#    the tutorial's PTX and our one entry: a long timeout), the tutorial's own binary beside it
{ tut 2048
  TO=100 g default 2048 b2b,sustained,burst
  for s in 4096 8192; do
    left 60 "default $s" && { tut $s; g default $s b2b,sustained,burst; }
  done
} > $B 2>&1; t "main table"
# 2. the candidates at 2048³ and 4096³ (b2b, sustained), each --check'ed vs cuBLAS at 2048³ first
#    (its first launch JITs its one entry)
C=$OUT/candidates.txt
{ for v in vepi late; do
    left 75 "$v" || break
    echo "== $v check"
    CUTE_RS_PTX_DIR=$D/$v timeout 60 $H --arch sm_80 gemm --kernel sm80 --m 2048 --dtype f16 --ta --check 2>&1 | grep -E "PASS|FAIL|rror"
    g $v 2048 b2b,sustained
    left 85 "$v 4096" && g $v 4096 b2b,sustained
  done
  left 90 "default again" && g default 2048 b2b,sustained
  # cuBLAS GemmEx for scale (wgmma on Hopper: no target), ours the default, b2b and sustained
  left 92 "cuBLAS" && { echo "== cublas 4096"; CUTE_RS_PTX_DIR=$D/default timeout 30 $H --arch sm_80 gemm --kernel sm80 \
    --m 4096 --dtype f16 --ta --bench --timing b2b,sustained 2>&1 | grep -E "TFLOP|rror"; }
} > $C 2>&1; t candidates
cat $B $C >> $S
python3 - $B $C <<'PY' | tee -a $S
import re, sys
rows, tutb = [], {}
v = s = None
for f in sys.argv[1:]:
    for l in open(f):
        m = re.match(r"== tutorial-binary (\d+)", l)
        if m: s = m.group(1); v = "tut"; continue
        m = re.match(r"== (\S+) (\d+)", l)
        if m: v, s = m.group(1), m.group(2); continue
        m = re.search(r"CUTE_GEMM:\s+\[\s*([\d.]+)\]", l)
        if m and v == "tut": tutb.setdefault(s, []).append(float(m.group(1)) / 1000); continue
        m = re.match(r"hgemm f16->f16 TN vs tutorial( burst| b2b)?\s+(\d+)x\d+x\d+\s+([\d.]+) TFLOP/s \([^)]*\)\s+([\d.]+) TFLOP/s.*?([\d.]+)x\s*$", l)
        if m: rows.append((v, m.group(2), (m.group(1) or " sustained").strip(), float(m.group(3)), float(m.group(4)), float(m.group(5))))
print("ours / CuTe tutorial, both in one process (host gemm --vs-tutorial), TFLOP/s:")
for v, s, kind, o, r, x in rows:
    print(f"  {v:8} {s:5} {kind:9} {o:4.0f} / {r:4.0f} = {x:.2f}")
print("the tutorial binary's own timer:", {k: [round(x) for x in xs] for k, xs in tutb.items()})
PY
# 3. the forced sweeps of the candidates' whole modules (fixed cases: every majority and element,
#    K = 0 and 1, tile edges, beta; argument errors; 16 random problems; each module's JIT ~10 s)
for v in vepi late; do
  left 95 "sweep $v" || break
  CUTE_RS_PTX_DIR=$D/$v-all timeout 40 $H --arch sm_80 run --only hgemm_sm80 --sweep-hgemm-sm80 16 > $OUT/sweep-$v.txt 2>&1
  t "$v forced sweep rc=$?"
  grep -E "passed|FAIL" $OUT/sweep-$v.txt | tail -4 | cut -c1-200 | tee -a $S
done
# 4. ncu at 2048³ (clocks locked by ncu: kernel time alone): ours, then the tutorial's, one launch each
N=$OUT/ncu.txt
for k in hgemm_sm80 gemm_device; do
  left 103 "ncu $k" || break
  echo "== ncu $k 2048" >> $N
  CUTE_RS_PTX_DIR=$D/default timeout 15 ncu -k regex:$k -c 1 --section SpeedOfLight \
    --metrics sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum \
    $H --arch sm_80 gemm --kernel sm80 --m 2048 --dtype f16 --ta --bench --timing b2b --vs-tutorial $D/tut.ptx >> $N 2>&1
  t "ncu $k rc=$?"
done
[ -f $N ] && grep -E "==|Duration|hmma|inst_executed|SM Frequency" $N | tee -a $S
t end
