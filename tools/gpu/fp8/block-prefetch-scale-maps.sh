#!/usr/bin/env bash
# (session 27, lead; branch `s27-prefetch-maps`, not for main) The staged entries prefetching their scale tensor maps (`MmaAccumulation::prefetch_maps`, as the
# kernel does A's and B's: only the two staged entries' PTX changes) against main's (`7678ab0`): `--check` and memcheck
# on both staged entries, then block rows alternated, three rounds.
# Package: $D/host.xz (run s26d's: main's host), $D/newp.ptx.xz (the change's gemm_fp8*), $D/old.ptx.xz (main's).
#          D=.gpu/s27e bash tools/gpu/fp8/block-prefetch-scale-maps.sh
BUDGET=${BUDGET:-400}; . tools/gpu/lib.sh ${NAME:-s27e}
ROUNDS=3; SHAPES=("128 7168 16384" "128 7168 8192" "256 7168 8192" "4096 4096 4096" "4096 7168 16384")
. tools/gpu/fp8/block-ab.sh
