#!/usr/bin/env bash
# (session 13, lead; issue #34) The ping-pong schedules on skinny-K problems, where the epilogue is
# a large share of each tile (K = 512: 8 k-tiles a tile) and the operands sit in L2: the
# cooperative default (128x256) against `CUTE_RS_HGEMM_SCHEDULE=pingpong` (64x256 a warpgroup)
# and `pingpong128` (128x128 a warpgroup), bf16/f16 TN, alternated, two rounds; the bench's NN
# row beside them. The package (D, default .gpu/skinny): host.xz (main's release host built with
# CUTE_RS_KERNEL_FEATURES=hgemm/pingpong CUTE_RS_ARCHS=sm_90a), hgemm.ptx.xz (its hgemm module
# cut to the entries run here), stub.ptx + stub-families.txt. Run from the repo root with $OUT set:
#   D=.gpu/skinny bash tools/gpu/gemm/skinny-k-pingpong.sh
set -u
D=${D:-.gpu/skinny}; O=${OUT:-/tmp/out}; mkdir -p $O/logs; S=$O/summary.txt
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
x $D/host.xz /tmp/sk-host && chmod +x /tmp/sk-host; H=/tmp/sk-host
P=/tmp/sk-ptx; mkdir -p $P; x $D/hgemm.ptx.xz $P/hgemm.ptx
for f in $(cat $D/stub-families.txt); do cp $D/stub.ptx $P/$f.ptx; done
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-sk CUTE_RS_PTX_DIR=$P
fin() { tar czf $O/skinny.tgz -C $O logs summary.txt 2>/dev/null; }
trap fin EXIT
BUDGET=${BUDGET:-150}; left() { echo $(( BUDGET - ($(date +%s) - T0) )); }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
timeout 120 $H gemm --ta --dtype bf16 --m 1000 --n 1030 --k 512 --check > $O/logs/jit.txt 2>&1; t "jit + check rc=$? $(grep -Eo 'PASS|FAIL' $O/logs/jit.txt | head -1)"
for s in pingpong pingpong128; do
  for a in "--dtype bf16 --m 1000 --n 1030 --k 512" "--dtype f16 --m 8192 --n 1024 --k 512" "--dtype bf16 --m 8192 --n 8192 --k 512"; do
    CUTE_RS_HGEMM_SCHEDULE=$s timeout 30 $H gemm --ta $a --check > $O/logs/c.txt 2>&1; t "check $s $a rc=$? $(grep -Eo 'PASS|FAIL' $O/logs/c.txt | head -1)"
  done
done
for r in 1 2; do
  for a in "--dtype bf16 --m 8192 --n 8192 --k 512" "--dtype f16 --m 8192 --n 8192 --k 512" "--dtype bf16 --m 8192 --n 8192 --k 1024" "--dtype bf16 --m 4096 --n 4096 --k 512" "--dtype bf16 --m 16384 --n 8192 --k 256"; do
    for s in cooperative pingpong pingpong128; do
      [ $(left) -gt 6 ] || break 3
      CUTE_RS_HGEMM_SCHEDULE=$s timeout 25 $H gemm --ta $a --bench > $O/logs/b.txt 2>&1
      t "$s TN $a r$r rc=$? $(grep -E 'TFLOP' $O/logs/b.txt | tail -2 | tr '\n' ' ' | cut -c1-230)"
      cat $O/logs/b.txt >> $O/logs/bench.txt
    done
  done
  timeout 25 $H gemm --dtype bf16 --m 8192 --n 8192 --k 512 --bench > $O/logs/b.txt 2>&1
  t "cooperative NN bf16 8192x8192x512 r$r rc=$? $(grep -E 'TFLOP' $O/logs/b.txt | tail -2 | tr '\n' ' ' | cut -c1-230)"
done
t done
