#!/usr/bin/env bash
# (session 48, issue #34) fast.cu's epilogue has one barrier a tile: every chunk staged, then one meeting and the stores.
# Ours meets once a chunk (a 16-bit 64 × 256 tile: four). Branch s48-epi: where each of the tile's chunks has its own
# buffer (a 16-bit C in four buffers), every chunk staged, one `fence.proxy.async` and one meeting, then thread 0 issues
# the four stores. main's (d6af5f4) and the new hgemm module cut to bf16 TN / NN, f16 NT, fused GELU and the 128 × 128
# ping-pong (two chunks, two buffers), checks on the new one, then alternated in ROUNDS rounds.
# Package $D: host.xz, {main,new}/hgemm.ptx.xz (cut), stub.ptx + stub-families.txt.
# Run s48e: the new variant 0.3–1.3 % slower burst in every row (the first chunks' stores no longer overlap the later
# chunks' staging); the fused FP8 n192tma entries spill 24–72 bytes with it. Not landed.
#   D=.gpu/s48e NAME=s48e bash tools/gpu/gemm/epilogue-one-meeting-ab.sh
BUDGET=${BUDGET:-300}; . tools/gpu/lib.sh ${NAME:-s48e}
ROUNDS=${ROUNDS:-2}
for v in main new; do mkdir -p /tmp/pv$v; cp $P/*.ptx /tmp/pv$v/; x $D/$v/hgemm.ptx.xz /tmp/pv$v/hgemm.ptx; done
export CUTE_RS_PTX_DIR=/tmp/pvnew
c gemm --dtype bf16 --ta --m 1000 --n 1030 --k 2056
c gemm --dtype bf16 --ta --m 4096 --n 4096 --k 4096 --beta 1
c gemm --dtype f16 --tb --m 1003 --n 520 --k 1000 --beta -2
c gemm --dtype bf16 --ta --m 1000 --n 1030 --k 2056 --beta 1 --bias m --act gelu
c gemm --dtype bf16 --ta --m 777 --n 1024 --k 384 --beta 1
timeout 90 compute-sanitizer --tool racecheck --print-limit 5 $H gemm --dtype bf16 --ta --m 1000 --n 1024 --k 1024 --beta 1 --check > $R/san.txt 2>&1 < /dev/null
t "S racecheck rc=$? $(grep -E 'RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -E 'Race reported' $R/san.txt | cut -c1-90 | head -2 | tr '\n' ' ') $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"
ab "main new" "--ta --dtype bf16 --m 4096" "--dtype bf16 --m 8192" "--tb --dtype f16 --m 4096" \
  "--ta --dtype bf16 --m 4096 --beta 1" "--ta --dtype bf16 --m 4096 --bias m --act gelu"
t end
