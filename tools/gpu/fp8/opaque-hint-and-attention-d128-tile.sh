#!/usr/bin/env bash
# (session 14, lead) Two like-for-like checks: (1) the plain per-tensor FP8 entry n192tma before / after
# `device::hint::opaque` replaced hgemm's `computed_here` (alternated, two rounds); (2) head dim 128's tile
# from 8k keys, non-causal: the 176-key tile (the default there, O stored directly) against 128 x 128
# (`CUTE_RS_ATTENTION=overlap`, since this session with the FastDivmod schedule, the row totals under the
# last P.V and the TMA O store), `host attention --bench`, alternated, two rounds. Package (D, default
# .gpu/s14e): host.xz, attention.ptx.xz (the default build's), hgemm_{before,after}.ptx.xz, stub.ptx +
# stub-families.txt. Run from the repo root with $OUT set: D=.gpu/s14e bash tools/gpu/fp8/opaque-hint-and-attention-d128-tile.sh
set -u
D=${D:-.gpu/s14e}; R=/tmp/r14e; mkdir -p $R; S=$R/summary.txt
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-14e
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
BUDGET=${BUDGET:-120}; left() { echo $(( BUDGET - ($(date +%s) - T0) )); }
fin() { cp $S $OUT/ 2>/dev/null; tar czf $OUT/r14e.tgz -C /tmp r14e 2>/dev/null; exit 0; }
trap fin EXIT
x $D/host.xz /tmp/h14e && chmod +x /tmp/h14e; H=/tmp/h14e
for v in after before; do
  mkdir -p /tmp/p14e$v; x $D/hgemm_$v.ptx.xz /tmp/p14e$v/hgemm.ptx; x $D/attention.ptx.xz /tmp/p14e$v/attention.ptx
  for f in $(cat $D/stub-families.txt); do [ $f = hgemm ] || cp $D/stub.ptx /tmp/p14e$v/$f.ptx; done
done
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
G="$H gemm --dtype e4m3"
for v in before after; do CUTE_RS_PTX_DIR=/tmp/p14e$v timeout 100 $G --m 512 --n 384 --k 2048 --check > $R/c.txt 2>&1; t "$v jit + check rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"; done
for r in 1 2; do
  for s in "4096x7168x16384:--m 4096 --n 7168 --k 16384" "8192^3:--m 8192" "4096^3:--m 4096"; do
    for v in before after; do
      CUTE_RS_PTX_DIR=/tmp/p14e$v timeout 30 $G ${s#*:} --bench > $R/b.txt 2>&1
      t "$v ${s%%:*} r$r rc=$? $(grep -E 'TFLOP' $R/b.txt | tail -1 | cut -c1-160)"
    done
  done
done
export CUTE_RS_PTX_DIR=/tmp/p14eafter
for r in 1 2; do for s in 8192 16384; do for v in default overlap; do
  [ $(left) -gt 4 ] || { t "cut (time)"; break 3; }
  if [ $v = overlap ]; then export CUTE_RS_ATTENTION=overlap; else unset CUTE_RS_ATTENTION; fi
  timeout 30 $H attention --batch $((16384 / s)) --heads 16 --seqlen-q $s --head-dim 128 --bench > $R/a.txt 2>&1
  t "attention d128 $s $v r$r rc=$? $(grep -m1 'kernel:' $R/a.txt | cut -c9-50) $(grep -E 'TFLOP' $R/a.txt | grep -v '^problem' | tail -1 | cut -c1-120)"
done; done; done
t end
