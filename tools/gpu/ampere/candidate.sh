#!/bin/bash
# helper "ampere" round 6, issue #35: the Ampere GEMM's new default (4 warps, 128x128x32,
# 4 stages; C's edges and beta != 0 through shared memory) and two candidates toward 1.15 of
# CuTe's sm80 tutorial, in about 60 s of one H200. Run from the repository root:
#   H=target/release/host OUT=... bash tools/gpu/ampere/candidate.sh
# $H: the merged tree's release host (its embedded hgemm_sm80 module is the default); the folder
# .gpu/ampere6 (carry it; $AMPERE6 overrides) holds CuTe's tutorial (sgemm_sm80.xz, nvcc 13.0
# -arch=compute_80 -code=compute_80 -O3, as in tools/gpu/ampere/tiles.sh) and one f16 TN entry of
# each variant's module, loaded with CUTE_RS_PTX_DIR instead of the embedded one (built by
# tools/gpu/ampere/candidate-ptx.py; each launches exactly as the default: 128 threads, 64 KiB):
#   raster: feature hgemm-sm80-raster (CTAs in groups of 16 M tiles for L2)
#   k64:    feature hgemm-sm80-k64 (k-tiles of 64, two stages)
#   s3:     3 stages of 32 (config.rs STAGES = 3 at fe56250: what two CTAs an SM on an RTX 4090
#           would need), launched with the default's 64 KiB (the H200's occupancy is 2 CTAs either way)
# Prints (summary.txt): the forced check/sweep of the default ("N passed, 0 failed"), each bench's sustained and burst
# TFLOP/s (ours and cuBLAS GemmEx) and, at the end, ours / tutorial (sustained, burst) per row.
D=${AMPERE6:-.gpu/ampere6}
export CUDA_CACHE_MAXSIZE=4294967296
S=$OUT/summary.txt
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
python3 -c "import lzma,shutil,sys;shutil.copyfileobj(lzma.open(sys.argv[1]),open(sys.argv[2],'wb'))" $D/sgemm_sm80.xz /tmp/tut && chmod +x /tmp/tut
nvidia-smi --query-gpu=name,compute_cap,driver_version,clocks.max.sm --format=csv,noheader | tee -a $S
# 1. the default forced (fixed cases: every majority, K = 0 and 1, tile edges, beta; argument
#    errors; 8 random problems): the staged edge epilogue's first GPU run; also JIT-compiles the
#    module once (1.3 MB of PTX, ~5 s of ptxas on one core here)
timeout 40 $H --arch sm_80 run --only hgemm_sm80 --sweep-hgemm-sm80 8 > $OUT/sweep.txt 2>&1; t "forced sweep rc=$?"
grep -E "passed|FAIL" $OUT/sweep.txt | tail -4 | tee -a $S
tut() { echo "== tutorial TN $1"; timeout 10 /tmp/tut $1 $1 $1 T N 2>&1 | grep -E "CUTE_GEMM|rror"; }
g() { # g VARIANT ARGS: ours forced to the Ampere kernel, the variant's module if not default
  v=$1; shift; P=; [ "$v" != default ] && P=$D/$v
  echo "== $v $*"
  env ${P:+CUTE_RS_PTX_DIR=$P} timeout 15 $H --arch sm_80 gemm --kernel sm80 "$@" 2>&1 | grep -E "TFLOP|PASS|FAIL|rror"
}
# each bench run ~8.5 s (sustained batches, then 3 bursts after 1 s rests, each side); a
# candidate's first run also --check's the problem against cuBLAS (whole tiles; the edges are the
# emulator's); past 50 s what is left is skipped (the summary says so)
left() { [ $(( $(date +%s) - T0 )) -lt 50 ] || { echo "== skipped (time): $*"; return 1; }; }
B=$OUT/bench.txt
{ tut 2048; tut 4096
  g default --m 2048 --dtype f16 --ta --bench; g default --m 4096 --dtype f16 --ta --bench
  g k64 --m 4096 --dtype f16 --ta --bench --check
  g raster --m 4096 --dtype f16 --ta --bench --check
  left s3 && g s3 --m 4096 --dtype f16 --ta --bench --check
  left k64 2048 && g k64 --m 2048 --dtype f16 --ta --bench
  tut 4096
} > $B 2>&1; t bench
cat $B | tee -a $S
python3 - $B <<'PY' | tee -a $S
import re, sys
tut, v = {}, None
rows = []
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
t end
