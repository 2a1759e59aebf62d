#!/usr/bin/env bash
# (session 52; issue #37; branch `s52-n176`) Why the block entry on 128 × 160 tiles runs a wave in 97 % of 128 × 192's
# time for 83 % of its work (run s52g): ncu (SpeedOfLight, WarpStateStats, SourceCounters) of one launch of each, forced,
# at 8192³ — the tensor pipe's activity and where the consumers wait.
# Package $D: as tools/gpu/fp8/block-n160.sh's.   D=.gpu/s52g NAME=s52h bash tools/gpu/fp8/block-n160-ncu.sh  (~150 s)
BUDGET=${BUDGET:-200}; . tools/gpu/lib.sh ${NAME:-s52h}
A="gemm --dtype e4m3 --block-scales --m 8192 --n 8192 --k 8192 --bench --timing burst"
for v in n192 n160; do
  CUTE_RS_FP8_BLOCK=staged${v}tma ncu_src $v --kernel-name regex:staged_${v}tma --launch-skip 3 $H $A
  grep -E '"(Duration|SM Frequency|Elapsed Cycles|Compute \(SM\) Throughput|Executed Ipc Active|Issue Slots Busy|Warp Cycles Per Issued Instruction|Stall [A-Za-z ]*)"' $R/det-$v.csv 2>/dev/null \
    | awk -F'","' '{print $(NF-2), $(NF-1), $NF}' | head -30 | sed "s/^/$v /" | tee -a $S
done
t end
