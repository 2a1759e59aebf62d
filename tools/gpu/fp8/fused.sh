#!/usr/bin/env bash
# Helper fp8fused (issue #37 item 2, issue #34's per-row/per-column scales): the fused FP8 GEMM
# `D = act(sa·sb·s_row·s_col·A·Bᵀ + bias)` (entries gemm_fp8_fused_e4m3_tn_*), in one device call
# (<= 150 s). Run from the repo root with $OUT set: bash .gpu/fp8fused/go.sh (a copy of this script; D=.gpu/fp8fused) holds
#   host.xz             the branch's release host (CUTE_RS_ARCHS=sm_90a cargo build --release -p host)
#   hgemm.ptx.xz        its hgemm module cut (tools/gpu/cut_ptx.py) to the FP8 entries: the five fused,
#                       gemm_fp8_e4m3_tn_promoted{,_pt}, gemm_fp8_{e4m3,e5m2}_tn (the FP8 sweep's)
#   stub.ptx, stub-families.txt  an entry-less module loaded in place of every other family
# What it runs: (1) the JIT of the cut module through a first fused check; (2) `--check` of fused
# problems (each activation, bias none/M/N, row/column scales, M/N edges, split-K small M, f32 and
# bf16 D) and two refusals (exit 2); (3) the FP8 sweep (`host gemm --dtype e4m3`: 200 problems,
# every other promoted one fused, the 10 fixed fused ones, the refusals); (4) compute-sanitizer
# memcheck of one fused check; (5) the fused bench (bias M + GELU) against cuBLASLt's FP8
# GELU_BIAS at 4096x7168x16384 and 8192³, and the plain promoted row beside it (fused / plain).
# Results: $OUT/summary.txt and $OUT/fp8fused.tgz (every log).
set -u
D=${D:-.gpu/fp8fused}
O=${OUT:-/tmp/out}; mkdir -p $O; S=$O/summary.txt
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
x $D/host.xz /tmp/fp8fused-host && chmod +x /tmp/fp8fused-host; H=/tmp/fp8fused-host
P=/tmp/fp8fused-ptx; mkdir -p $P; x $D/hgemm.ptx.xz $P/hgemm.ptx
for f in $(cat $D/stub-families.txt); do cp $D/stub.ptx $P/$f.ptx; done
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-fp8fused CUTE_RS_PTX_DIR=$P
mkdir -p $O/logs
fin() { tar czf $O/fp8fused.tgz -C $O logs summary.txt 2>/dev/null; }
trap fin EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
G="$H gemm --dtype e4m3"
# 1. the JIT of the cut module (9 entries), cached: a long timeout
timeout 120 $G --m 520 --n 264 --k 512 --bias m --act gelu --row-scales --col-scales --check > $O/logs/jit.txt 2>&1 < /dev/null
t "jit + check 520x264x512 bias m gelu row+col scales rc=$? $(grep -Eo 'PASS|FAIL' $O/logs/jit.txt | head -1)"
grep -E "gemm_fp8|rror" $O/logs/jit.txt | tail -2 | cut -c1-220 | tee -a $S
# 2. fused checks (the bound: host::gemm_fp8::fp8_fused_error_bound), then refusals (exit 2)
while read -r args; do
  timeout 30 $G $args --check > $O/logs/c.txt 2>&1 < /dev/null
  rc=$?; t "check $args rc=$rc"; grep -E "gemm_fp8|rror" $O/logs/c.txt | tail -1 | cut -c1-220 | tee -a $S
  cat $O/logs/c.txt >> $O/logs/checks.txt
done <<'EOF'
--m 256 --n 256 --k 256 --row-scales --col-scales
--m 200 --n 130 --k 512 --bias m --act relu --row-scales
--m 129 --n 257 --k 384 --bias n --act gelu --col-scales --out f32
--m 300 --n 200 --k 1024 --bias n --act gelu-erf --row-scales --col-scales
--m 65 --n 70 --k 160 --bias m --act silu --out f32
--m 1 --n 1 --k 16 --bias n --act gelu --row-scales --col-scales
--m 17 --n 520 --k 6160 --bias n --act gelu --row-scales --col-scales
--m 128 --n 1024 --k 8192 --bias m --act silu --row-scales --scale-a 0.5 --scale-b 1.25
--m 1000 --n 1030 --k 2048 --bias m --act gelu --row-scales --col-scales
--m 2304 --n 2048 --k 1024 --bias n --act relu --out f32
EOF
for args in "--m 64 --bias m --act gelu --fast-accum" "--m 64 --bias m --block-scales"; do
  timeout 30 $G $args --check > $O/logs/r.txt 2>&1 < /dev/null
  t "refusal $args rc=$? (want 2): $(head -c 200 $O/logs/r.txt | tr '\n' ' ')"
done
# 3. the FP8 sweep
timeout 60 $G > $O/logs/sweep.txt 2>&1 < /dev/null
t "FP8 sweep rc=$? PASS $(grep -c PASS $O/logs/sweep.txt) FAIL $(grep -c FAIL $O/logs/sweep.txt) (fused rows $(grep -Ec 'bias|relu|gelu|silu|scales' $O/logs/sweep.txt))"
grep -E "FAIL" $O/logs/sweep.txt | head -5 | cut -c1-220 | tee -a $S
# 4. memcheck of one fused check (split-K grid, both scales, bias N)
if [ $(( $(date +%s) - T0 )) -lt 100 ]; then
  timeout 40 compute-sanitizer --tool memcheck --print-limit 5 $G --m 17 --n 520 --k 6160 --bias n --act silu --row-scales --col-scales --check > $O/logs/memcheck.txt 2>&1 < /dev/null
  t "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $O/logs/memcheck.txt | tail -1)"
else
  t "memcheck skipped (time)"
fi
# 5. benches: fused bias M + GELU vs cuBLASLt FP8 GELU_BIAS; the plain promoted row beside it
for r in 1 2; do
  for a in "--m 4096 --n 7168 --k 16384" "--m 8192"; do
    for f in "--bias m --act gelu" ""; do
      timeout 25 $G $a $f --bench > $O/logs/b.txt 2>&1 < /dev/null
      t "bench $a ${f:-plain} round $r rc=$?"; grep -E "TFLOP|gemm_fp8|rror" $O/logs/b.txt | tail -2 | cut -c1-220 | tee -a $S
      cat $O/logs/b.txt >> $O/logs/bench.txt
    done
  done
  [ $(( $(date +%s) - T0 )) -lt 105 ] || break
done
t done
