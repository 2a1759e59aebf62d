#!/usr/bin/env bash
# (session 26, lead; prepared, not yet run) The staged entries' scale boxes issued before the stage's tiles (branch
# `s26-scales-first`: `CollectiveMma::load_k` calls `Acc::load_stage` first; only the two staged entries' PTX changes)
# against main's: `--check` and memcheck on both staged entries, then block rows alternated, two rounds.
# Package: $D/host.xz (run s26d's: main's host), $D/newp.ptx.xz (the branch's gemm_fp8*), $D/old.ptx.xz (main's).
#          D=.gpu/s27a bash tools/gpu/fp8/block-scales-first.sh
BUDGET=${BUDGET:-400}; . tools/gpu/lib.sh ${NAME:-s27a}
ROUNDS=2; SHAPES=("128 7168 16384" "128 7168 8192" "4096 4096 4096" "8192 8192 8192" "4096 7168 16384")
. tools/gpu/fp8/block-ab.sh
