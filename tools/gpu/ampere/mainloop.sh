#!/bin/bash
# helper "ampere" round 7, issue #35: the Ampere GEMM's mainloop variants toward 1.15 of CuTe's sm80
# tutorial, in about 110 s of one H200. Run from the repository root (the package's go.sh does):
#   OUT=... bash tools/gpu/ampere/mainloop.sh
# The folder $D (.gpu/ampere7; $AMPERE7 overrides) holds:
#   host.xz      a release host whose embedded sm_80 hgemm_sm80 launches as every variant does
#                (128 threads, 64 KiB); each variant's module replaces it through CUTE_RS_PTX_DIR
#   sgemm_sm80.xz  CuTe's tutorial (nvcc 13.0 -arch=compute_80 -code=compute_80 -O3, round 4)
#   VARIANT/     one f16 TN entry of each variant (tools/gpu/ampere/candidate-ptx.py), and
#   clamp-all/   the clamp variant's whole module (8 entries) for its forced sweep
# Variants (features of kernels/hgemm_sm80 at 15b75fa; clamp is the default since): default (main's kernel, rebuilt), clamp
# (hgemm-sm80-clamp: the k-loop's refills unconditional, no branch in the loop body), k64c
# (hgemm-sm80-k64 + hgemm-sm80-clamp; TN only: the other majorities spill), k64c not at 8192³.
# Prints (summary.txt): the clamp sweep ("N passed, 0 failed"), each variant's --check, each bench's
# sustained and burst TFLOP/s (ours and cuBLAS GemmEx) and ours / tutorial per row.
set -u
D=${AMPERE7:-.gpu/ampere7}
VARIANTS=${VARIANTS:-"default clamp k64c"}
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=${CUDA_CACHE_PATH:-/tmp/nvc-amp7}
S=$OUT/summary.txt
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
left() { [ $(( $(date +%s) - T0 )) -lt $1 ] || { echo "== skipped (time): $2" | tee -a $S; return 1; }; }
unxz() { python3 -c "import lzma,shutil,sys;shutil.copyfileobj(lzma.open(sys.argv[1]),open(sys.argv[2],'wb'))" "$1" "$2" && chmod +x "$2"; }
H=${H:-/tmp/amp7-host}; [ -x "$H" ] || unxz $D/host.xz $H
TUT=${TUT:-/tmp/amp7-tut}; [ -x "$TUT" ] || unxz $D/sgemm_sm80.xz $TUT
nvidia-smi --query-gpu=name,compute_cap,driver_version,clocks.max.sm,power.limit --format=csv,noheader 2>&1 | tee -a $S
t unpacked
# 1. the clamp variant's whole module forced (fixed cases: every majority and element, K = 0 and
#    1, tile edges, beta; argument errors; 16 random problems vs cuBLAS GemmEx): its first JIT
#    (8 entries, ~5 s of ptxas) happens here, so a long timeout
CUTE_RS_PTX_DIR=$D/clamp-all timeout 100 $H --arch sm_80 run --only hgemm_sm80 --sweep-hgemm-sm80 16 > $OUT/sweep-clamp.txt 2>&1
t "clamp forced sweep rc=$?"
grep -E "passed|FAIL" $OUT/sweep-clamp.txt | tail -4 | cut -c1-200 | tee -a $S
tut() { echo "== tutorial TN $1"; timeout 20 $TUT $1 $1 $1 T N 2>&1 | grep -E "CUTE_GEMM|rror"; }
g() { # g VARIANT ARGS: ours forced to the Ampere kernel, the variant's one-entry module
  v=$1; shift
  echo "== $v $*"
  CUTE_RS_PTX_DIR=$D/$v timeout 40 $H --arch sm_80 gemm --kernel sm80 "$@" 2>&1 | grep -E "TFLOP|PASS|FAIL|rror"
}
B=$OUT/bench.txt
# 2. the benches, 4096³ first (then 2048³, 8192³), the tutorial before and after each size's row
#    of variants; at the first size each variant's run also --check's it against cuBLAS (whole
#    tiles; the run is that one-entry module's first JIT, ~1 s)
{ c=--check
  for s in 4096 2048 8192; do
    left 95 "size $s" || break
    tut $s
    vs=$VARIANTS; [ $s = 8192 ] && vs=${VARIANTS8:-"default clamp"}
    for v in $vs; do left 105 "$v $s" && g $v --m $s --dtype f16 --ta --bench $c; done
    tut $s
    c=
  done
} > $B 2>&1; t bench
cat $B >> $S
python3 - $B <<'PY' | tee -a $S
import re, sys
tut, v, rows, size = {}, None, [], None
for l in open(sys.argv[1]):
    m = re.match(r"== tutorial TN (\d+)", l)
    if m: size = m.group(1); v = "tut"; continue
    m = re.match(r"== (\S+) (.*)", l)
    if m: v = m.group(1); continue
    m = re.search(r"CUTE_GEMM:\s+\[\s*([\d.]+)\]", l)
    if m and v == "tut": tut.setdefault(size, []).append(float(m.group(1)) / 1000); continue
    m = re.match(r"hgemm f16->f16 TN( burst)?\s+(\d+)x\d+x\d+\s+(\d+) TFLOP/s", l)
    if m: rows.append((v, m.group(2), "burst" if m.group(1) else "sustained", float(m.group(3))))
print("ours / tutorial (the mean of the tutorial's runs at that size in this call):")
for v, s, kind, tf in rows:
    if s in tut:
        ref = sum(tut[s]) / len(tut[s])
        print(f"  {v:8} {s} {kind:9} {tf:6.0f} / {ref:5.0f} = {tf / ref:.2f}")
PY
# 3. ncu of the default and clamp at 4096³ if the time allows (~10 s each; round 6's sections)
N=$OUT/ncu.txt
SEC="--section SpeedOfLight --section WarpStateStats"
MET="--metrics sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,regex:smsp__average_warps_issue_stalled_.*_per_issue_active\\.ratio"
for v in clamp default; do
  left 100 "ncu $v" || break
  echo "== ncu $v 4096 TN f16" >> $N
  CUTE_RS_PTX_DIR=$D/$v timeout 15 ncu -k regex:hgemm_sm80 -c 1 $SEC $MET $H --arch sm_80 gemm --kernel sm80 --m 4096 --dtype f16 --ta >> $N 2>&1
  t "ncu $v rc=$?"
done
[ -f $N ] && grep -E "==|Duration|hmma|inst_executed|stalled_(barrier|long|short|wait|math|lg|mio|dispatch|not_sel|selected)|Warp Cycles Per Issued" $N | tee -a $S
t end
