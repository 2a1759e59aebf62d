#!/usr/bin/env bash
# (session 14, lead) The merged tree's checks: attention's `host run --only attention` on the default
# build's module; the FP8 sweep and checks on the merged hgemm module (the TMA-epilogue FP8 default with
# `device::hint::opaque` in place of the helper's `computed_here`); and that change measured: the
# n192tma entries before (as the helper measured them) and after, alternated, two rounds. Package (D,
# default .gpu/s14d): host.xz (the default release build), attention.ptx.xz, hgemm_after.ptx.xz (the
# FP8 entries of the merged module), hgemm_before.ptx.xz (n192tma and its fused GELU entry before the
# rename), stub.ptx + stub-families.txt. Run from the repo root with $OUT set:
#   D=.gpu/s14d bash tools/gpu/closing/attention-fp8-opaque-hint.sh
set -u
D=${D:-.gpu/s14d}; R=/tmp/r14d; mkdir -p $R; S=$R/summary.txt
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-14d
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
BUDGET=${BUDGET:-220}; left() { echo $(( BUDGET - ($(date +%s) - T0) )); }
fin() { cp $S $OUT/ 2>/dev/null; tar czf $OUT/r14d.tgz -C /tmp r14d 2>/dev/null; exit 0; }
trap fin EXIT
x $D/host.xz /tmp/h14d && chmod +x /tmp/h14d; H=/tmp/h14d
for v in after before; do
  mkdir -p /tmp/p14d$v; x $D/hgemm_$v.ptx.xz /tmp/p14d$v/hgemm.ptx; x $D/attention.ptx.xz /tmp/p14d$v/attention.ptx
  for f in $(cat $D/stub-families.txt); do [ $f = hgemm ] || cp $D/stub.ptx /tmp/p14d$v/$f.ptx; done
done
export CUTE_RS_PTX_DIR=/tmp/p14dafter
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee -a $S
timeout 100 $H run --only attention > $R/run.txt 2>&1; t "host run --only attention rc=$? $(grep -E 'passed|failed' $R/run.txt | tail -2 | tr '\n' ' ')"
G="$H gemm --dtype e4m3"
for a in "--m 300 --n 200 --k 528" "--m 17 --n 520 --k 6160 --bias n --act silu --row-scales --col-scales" "--m 2048 --n 1700 --k 1008 --out f32" "--m 1000 --n 1030 --k 2048 --bias m --act gelu --row-scales --col-scales"; do
  timeout 150 $G $a --check > $R/c.txt 2>&1; t "check $a rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"
done
timeout 90 $G > $R/sweep.txt 2>&1; t "FP8 sweep rc=$? PASS $(grep -c PASS $R/sweep.txt) FAIL $(grep -c FAIL $R/sweep.txt)"
CUTE_RS_PTX_DIR=/tmp/p14dbefore timeout 150 $G --m 512 --n 384 --k 2048 --check > $R/c.txt 2>&1; t "before: jit + check rc=$? $(grep -Eo 'PASS|FAIL' $R/c.txt | head -1)"
for r in 1 2; do
  for s in "4096x7168x16384:--m 4096 --n 7168 --k 16384" "8192^3:--m 8192" "4096^3:--m 4096" "fused 8192^3:--m 8192 --bias m --act gelu" "fused 4096^3:--m 4096 --bias m --act gelu"; do
    for v in before after; do
      [ $(left) -gt 5 ] || { t "bench cut (time)"; break 3; }
      CUTE_RS_PTX_DIR=/tmp/p14d$v timeout 30 $G ${s#*:} --bench > $R/b.txt 2>&1
      t "$v ${s%%:*} r$r rc=$? $(grep -E 'TFLOP' $R/b.txt | tail -1 | cut -c1-160)"
    done
  done
done
t end
