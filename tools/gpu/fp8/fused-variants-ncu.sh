#!/usr/bin/env bash
# (session 54; issue #37) After run s54a (tools/gpu/fp8/fused-variants-power.sh: `nos` and `bf` 1.00 / 0.98-0.99 of
# cuBLASLt's GELU_BIAS in either order, main and new 0.89-0.91, plain 0.97-0.99; its ncu calls ran past their 60 s):
# ncu of new and bf at 8192³, each (a) one launch as `host gemm` runs it (caches flushed, clocks free) and (b) the 4th
# launch inside `--bench` (caches as they are): duration, cycles, clock, instructions executed, DRAM and L2 bytes.
#   D=.gpu/s53a NAME=s54b bash tools/gpu/fp8/fused-variants-ncu.sh   (~200 s)
BUDGET=${BUDGET:-260}; . tools/gpu/lib.sh ${NAME:-s54b}
for v in new bf; do mkdir -p /tmp/pv$v; cp $P/*.ptx /tmp/pv$v/; x $D/$v/hgemm_fp8.ptx.xz /tmp/pv$v/hgemm_fp8.ptx; done
M='"(Duration|Elapsed Cycles|SM Frequency|Executed Instructions|DRAM Throughput|Memory Throughput|L2 Cache Throughput|Warp Cycles Per Issued Instruction|Registers Per Thread|Dynamic Shared Memory Per Block|Grid Size|Block Size)"'
for v in new bf; do CUTE_RS_PTX_DIR=/tmp/pv$v c gemm --dtype e4m3 --m 256 --n 384 --k 256 --bias m --act gelu; done
for mode in one bench; do for v in new bf; do
  [ $(left) -gt 30 ] || break 2
  case $mode in one) extra=""; nc="";; *) extra="--bench"; nc="--launch-skip 3 --cache-control none";; esac
  CUTE_RS_PTX_DIR=/tmp/pv$v timeout $(( $(left) - 15 )) ncu --clock-control none --launch-count 1 $nc -k regex:gemm_fp8 \
    --section SpeedOfLight --section InstructionStats --section WarpStateStats --section LaunchStats --csv \
    $H gemm --dtype e4m3 --m 8192 --n 8192 --k 8192 --bias m --act gelu $extra > $R/ncu-$mode-$v.csv 2>&1 < /dev/null
  t "N $mode $v rc=$? $(grep -E "$M" $R/ncu-$mode-$v.csv | awk -F'","' '{printf "%s=%s ", $(NF-2), $NF}' | tr -d '"')"
done; done
