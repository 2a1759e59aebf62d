#!/usr/bin/env bash
# (session 52; issue #37; branch `s52-n176`) The block-scaled FP8 entry on 128 × 160 tiles
# (`gemm_fp8_e4m3_tn_promoted_staged_n160tma`: one m64n160k32 temporary, B's scales of up to three N-blocks a stage,
# a scale per 16-column chunk chosen by the tile's offset, the TMA epilogue's third chunk moved back to the tile's last
# 64 columns) — after 128 × 176 ran 12 % slower per column than 128 × 192 (runs s52e, s52f). At N = 7168 its waves are
# whole (11 of 99 %) where 128 × 192's leave one part-empty (10, the last 14 of 66). First the FP8 sweep on the
# branch's whole module (its block-scaled problems on the entry), `--check`s with the entry forced
# (CUTE_RS_FP8_BLOCK=stagedn160tma: tile offsets, N edges, M edges, K tails, bf16 and f32 D), the three sanitizers;
# then per-tensor, 128 × 192 forced (n192), 128 × 160 forced (n160) and the default alternated, ROUNDS rounds at
# 4096³, 4096×7168×16384, 8192³, 4096×2112×7168, 4096×3840×4096.
# Package $D: host.xz (the branch's), stub.ptx + stub-families.txt, hgemm_fp8.ptx.xz (the branch's whole FP8 module).
#   D=.gpu/s52g NAME=s52g bash tools/gpu/fp8/block-n160.sh   (~250 s): tools/gpu/fp8/block-n176.sh with V=n160
V=n160 NAME=${NAME:-s52g} exec bash tools/gpu/fp8/block-n176.sh "$@"
