#!/usr/bin/env bash
# (session 64, prepared; issue #37) The split tile's partial in pairs-swapped order for the promoted accumulations
# (`MmaAccumulation::FIXUP_ORDER = FixupOrder::PairsSwapped`): the 16-byte partial stores had tied each quad of the
# promoted `main` accumulators to registers of the `wgmma` fragment's parities, so that on the 128 × 128 block entry with
# the split-K / stream-K scheduler (`_staged1_tma5sk`: 512×7168×8192's default, 0.80 of ours per-tensor in run s63a,
# and the 4096³ split's last 256 columns) 32 of the 64 promotion `FFMA`s read their three sources from one register
# bank. With the order swapped ptxas puts `main[v]` at the other parity: 0 such `FFMA`s, the same 4,464 instructions
# (session 36 measured the same dataflow as a wrong-result variant at +4.5 %). The 16-bit module's PTX is unchanged
# (`FixupOrder::InOrder`), attention's SASS the same instructions, the other FP8 entries' SASS the same length.
# First the checks of the new kernels (the host's embedded modules): the FP8 sweep, `host run --only hgemm`, split-K and
# stream-K shapes of both scale kinds with `--check`, memcheck and racecheck of a split-K block launch; then main's FP8
# module (old) against this tree's (new), ROUNDS alternated `--bench`es.
# Package $D: host.xz (this tree's release host), old/hgemm_fp8.ptx.xz and new/hgemm_fp8.ptx.xz (main's and this tree's
# hgemm_fp8 module cut to the entries but the fused ones by tools/gpu/cut_ptx.py).
#   BUDGET=560 D=.gpu/s65b NAME=s65b bash tools/gpu/fp8/fixup-order.sh
BUDGET=${BUDGET:-560}; . tools/gpu/lib.sh ${NAME:-s65b}
warm
sweeps
c gemm --dtype e4m3 --m 512 --n 7168 --k 8192 --block-scales
CUTE_RS_FP8_BLOCK=stagedonetma5sk c gemm --dtype e4m3 --m 256 --n 7168 --k 2048 --block-scales --out f32
c gemm --dtype e4m3 --m 4096 --n 4096 --k 4096 --block-scales
c gemm --dtype e4m3 --m 4096 --n 4096 --k 4096
c gemm --dtype e4m3 --m 1000 --n 1030 --k 1024 --out f32
CUTE_RS_FP8_PROMOTED=block c gemm --dtype e4m3 --m 512 --n 7168 --k 2048
for tool in memcheck racecheck; do
  CUTE_RS_FP8_BLOCK=stagedonetma5sk timeout 120 compute-sanitizer --tool $tool --print-limit 5 $H gemm --dtype e4m3 --m 512 --n 2048 --k 2048 --block-scales \
    --check > $R/san-$tool.txt 2>&1 < /dev/null
  t "S $tool rc=$? | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san-$tool.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san-$tool.txt | head -1)"
done
variants "old new" hgemm_fp8 --dtype e4m3 --m 512 --n 7168 --k 2048 --block-scales
ROUNDS=${ROUNDS:-2} ab "old new" "--dtype e4m3 --m 512 --n 7168 --k 8192 --block-scales" \
  "--dtype e4m3 --m 256 --n 7168 --k 8192 --block-scales" "--dtype e4m3 --m 4096 --n 4096 --k 4096 --block-scales" \
  "--dtype e4m3 --m 4096 --n 4096 --k 4096"
t end
