#!/usr/bin/env bash
# (session 13, lead; issue #37) The fused FP8 GEMM on the per-tensor kernel's 128×192 tiles
# (entries gemm_fp8_fused_e4m3_tn_<act>_n192: `Direct<FusedFp8Epilogue<A>>`, no shared memory for
# the epilogue, 5 stages) against the fused default on 128×128 (paired temporaries, 5 stages), in
# one device call. The package (D, default .gpu/fusedn192):
#   host.xz       the branch's release host (CUTE_RS_KERNEL_FEATURES=hgemm/fp8-variants CUTE_RS_ARCHS=sm_90a
#                 cargo build --release -p host)
#   hgemm.ptx.xz  its hgemm module cut (tools/gpu/cut_ptx.py) to the FP8 sweep's entries and the ten fused ones
#   stub.ptx, stub-families.txt  an entry-less module for every other family
# Runs: (1) the JIT through a first fused check; (2) `--check` of fused problems on 128×192
# (CUTE_RS_FP8_PROMOTED=n192: each activation, bias none/M/N, row/column scales, M/N edges,
# split-K small M, f32 D); (3) the FP8 sweep with the fused problems on 128×192; (4) memcheck of
# one fused 128×192 check; (5) `host gemm --dtype e4m3 ... --bias m --act gelu --bench` (against
# cuBLASLt's FP8 GELU_BIAS) n128 / n192 alternated, two rounds, at 4096×7168×16384, 8192³, 4096³,
# and the plain per-tensor row beside it. Run from the repo root with $OUT set:
#   D=.gpu/fusedn192 bash .gpu/fusedn192/go.sh
set -u
D=${D:-.gpu/fusedn192}
O=${OUT:-/tmp/out}; mkdir -p $O/logs; S=$O/summary.txt
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
x $D/host.xz /tmp/fn192-host && chmod +x /tmp/fn192-host; H=/tmp/fn192-host
P=/tmp/fn192-ptx; mkdir -p $P; x $D/hgemm.ptx.xz $P/hgemm.ptx
for f in $(cat $D/stub-families.txt); do cp $D/stub.ptx $P/$f.ptx; done
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-fn192 CUTE_RS_PTX_DIR=$P
fin() { tar czf $O/fusedn192.tgz -C $O logs summary.txt 2>/dev/null; }
trap fin EXIT
BUDGET=${BUDGET:-170}; left() { echo $(( BUDGET - ($(date +%s) - T0) )); }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
G="$H gemm --dtype e4m3"
# 1. the JIT (cached for the later processes)
timeout 150 $G --m 520 --n 264 --k 512 --bias m --act gelu --row-scales --col-scales --check > $O/logs/jit.txt 2>&1 < /dev/null
t "jit + check n128 520x264x512 bias m gelu rc=$? $(grep -Eo 'PASS|FAIL' $O/logs/jit.txt | head -1)"
# 2. fused checks on 128x192
while read -r args; do
  CUTE_RS_FP8_PROMOTED=n192 timeout 30 $G $args --check > $O/logs/c.txt 2>&1 < /dev/null
  rc=$?; t "n192 check $args rc=$rc $(grep -Eo 'PASS|FAIL' $O/logs/c.txt | head -1)"; grep -E "gemm_fp8|rror" $O/logs/c.txt | tail -1 | cut -c1-200 | tee -a $S
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
--m 2048 --n 1700 --k 1008 --bias n --act relu --out f32
EOF
# 3. the FP8 sweep, its fused problems on 128x192
CUTE_RS_FP8_PROMOTED=n192 timeout 90 $G > $O/logs/sweep.txt 2>&1 < /dev/null
t "FP8 sweep (n192) rc=$? PASS $(grep -c PASS $O/logs/sweep.txt) FAIL $(grep -c FAIL $O/logs/sweep.txt)"
grep -E "FAIL" $O/logs/sweep.txt | head -5 | cut -c1-200 | tee -a $S
# 4. memcheck of one fused 128x192 check (split-K grid)
CUTE_RS_FP8_PROMOTED=n192 timeout 40 compute-sanitizer --tool memcheck --print-limit 5 $G --m 17 --n 520 --k 6160 --bias n --act silu --row-scales --col-scales --check > $O/logs/memcheck.txt 2>&1 < /dev/null
t "memcheck n192 fused rc=$? $(grep -E 'ERROR SUMMARY' $O/logs/memcheck.txt | tail -1)"
# 5. benches
for r in 1 2; do
  for a in "--m 4096 --n 7168 --k 16384" "--m 8192" "--m 4096"; do
    for v in n128 n192 plain; do
      [ $(left) -gt 8 ] || break 3
      if [ $v = plain ]; then f=""; e=""; else f="--bias m --act gelu"; e=$v; fi
      CUTE_RS_FP8_PROMOTED=${e:-default} timeout 25 $G $a $f --bench > $O/logs/b.txt 2>&1 < /dev/null
      t "bench $v $a round $r rc=$? $(grep -E 'TFLOP' $O/logs/b.txt | grep -v '^problem' | tail -1 | cut -c1-170)"
      cat $O/logs/b.txt >> $O/logs/bench.txt
    done
  done
done
t done
