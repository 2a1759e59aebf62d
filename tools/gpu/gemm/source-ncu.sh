#!/usr/bin/env bash
# (session 49, issue #34) Where 4096³ bf16 TN `--beta 1` spends its time once C is requested under the mainloop (run
# s49c: level with main in burst, though run s49b's ncu had put 621 of the 1,054 extra stall samples on the epilogue's
# wait for C): one launch each of the new entry with `--beta 1` and beta 0 under ncu (per-SASS source counters, warp
# states), as s49b's of main.   Package $D: host.xz, new/hgemm.ptx.xz (cut), stub.ptx + stub-families.txt.
#   D=.gpu/s49c NAME=s49d bash tools/gpu/gemm/source-ncu.sh
BUDGET=${BUDGET:-200}; . tools/gpu/lib.sh ${NAME:-s49d}
x $D/new/hgemm.ptx.xz $P/hgemm.ptx
c gemm --dtype bf16 --ta --m 4096 --n 4096 --k 4096 --beta 1
SEC="--section SpeedOfLight --section WarpStateStats --section SourceCounters"
ncu_src nbeta1 --kernel-name hgemm_bf16_tn --launch-skip 4 $H gemm --ta --dtype bf16 --m 4096 --beta 1 --bench --timing burst
ncu_src nbeta0 --kernel-name hgemm_bf16_tn --launch-skip 4 $H gemm --ta --dtype bf16 --m 4096 --bench --timing burst
t end
