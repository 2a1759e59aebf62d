#!/usr/bin/env bash
# (as run in session 12, the lead's call 3) The promoted FP8 entries' stream-K tail for a last wave
# at most a quarter full (config::SCHEDULER_FP8_PROMOTED.tail_max_fill = (1, 4)): main's release
# host (D/host.xz), its hgemm module cut to the FP8 entries (D/hgemm.ptx.xz), the other families
# stubbed. `--check` where the rule takes the tail (128x192: 4096x7168x16384, last wave 14 of 66;
# 2048x1700x1008, 6 of 66; the fused 128x128 entry at 2048x1100x1008 with bias M + GELU and
# row/column scales, 6 of 66) and where it does not (4096^3), the FP8 sweep, then the bench at
# 4096x7168x16384 twice. Run from the repo root with $OUT set: D=.gpu/tail2 bash tools/gpu/fp8/stream-k-tail-rule.sh
set -u
D=${D:-.gpu/tail2}; S=$OUT/summary.txt
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
x $D/host.xz /tmp/h2 && chmod +x /tmp/h2; H=/tmp/h2
P=/tmp/t2ptx; mkdir -p $P; x $D/hgemm.ptx.xz $P/hgemm.ptx
for f in $(cat $D/stub-families.txt); do cp $D/stub.ptx $P/$f.ptx; done
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-t2 CUTE_RS_PTX_DIR=$P
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
for c in "--m 300 --n 200 --k 528" "--m 4096 --n 7168 --k 16384" "--m 2048 --n 1700 --k 1008" "--m 4096 --n 4096 --k 4096" \
         "--m 2048 --n 1100 --k 1008 --bias m --act gelu --row-scales --col-scales"; do
  timeout 120 $H gemm --dtype e4m3 $c --check > $OUT/c.txt 2>&1; t "check $c rc=$? $(grep -E 'PASS|FAIL|rror' $OUT/c.txt | tail -1 | cut -c1-150)"
done
timeout 60 $H gemm --dtype e4m3 > $OUT/sweep.txt 2>&1; t "FP8 sweep rc=$? $(tail -1 $OUT/sweep.txt)"; grep FAIL $OUT/sweep.txt | head -5 | tee -a $S
for r in 1 2; do
  timeout 40 $H gemm --dtype e4m3 --m 4096 --n 7168 --k 16384 --bench > $OUT/b.txt 2>&1
  t "bench r$r rc=$? $(grep -E 'TFLOP' $OUT/b.txt | grep -v '^problem' | tail -1 | cut -c1-170)"
done
