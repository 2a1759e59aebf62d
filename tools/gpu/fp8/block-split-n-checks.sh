#!/usr/bin/env bash
# (session 55; issue #37) The block entry's column split (`Fp8BlockEntry::split_n`, `Context::gemm_fp8_block_split`)
# checked where it happens — the rule's splits (4096×4096×512: 3840 + 256 on the 128 × 128 split-K entry;
# 4096×1000×512: 768 + 232, the rest's N edge; 2048×2048×1024: 1536 + 512) and forced ones whose rest runs on the
# 128 × 192 entry too (`CUTE_RS_FP8_BLOCK_SPLIT`), f32 D among them —, memcheck / racecheck / synccheck of a split
# launch, a split the host refuses (B's scales of the rest off 16 bytes), and the rule's other splits timed against
# the launch without one (2048³, 1024×7168×16384), three rounds. Run s55b timed the bench shapes.
# Package $D: host.xz (this tree's release host; its embedded modules are main's).
#   D=.gpu/s55c NAME=s55c bash tools/gpu/fp8/block-split-n-checks.sh   (~150 s)
BUDGET=${BUDGET:-200}; . tools/gpu/lib.sh ${NAME:-s55c}
warm
c gemm --dtype e4m3 --m 4096 --n 4096 --k 512 --block-scales
c gemm --dtype e4m3 --m 4096 --n 1000 --k 512 --block-scales --out f32
c gemm --dtype e4m3 --m 2048 --n 2048 --k 1024 --block-scales
export CUTE_RS_FP8_BLOCK_SPLIT=1152; c gemm --dtype e4m3 --m 2048 --n 4096 --k 1024 --block-scales
export CUTE_RS_FP8_BLOCK_SPLIT=384;  c gemm --dtype e4m3 --m 2048 --n 1300 --k 2048 --block-scales --out f32
export CUTE_RS_FP8_BLOCK_SPLIT=128;  c gemm --dtype e4m3 --m 2048 --n 1000 --k 384 --block-scales
unset CUTE_RS_FP8_BLOCK_SPLIT
for tool in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --print-limit 5 $H gemm --dtype e4m3 --m 4096 --n 1000 --k 512 \
    --block-scales --check > $R/san.txt 2>&1 < /dev/null
  t "S $tool rc=$? | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"
done
for i in 1 2 3; do [ $(left) -gt 30 ] || break
  for a in "--m 2048 --n 2048 --k 2048" "--m 1024 --n 7168 --k 16384"; do
    GARGS="--dtype e4m3 $a"; g "pt$i"; GARGS="--dtype e4m3 $a --block-scales"; g "off$i" CUTE_RS_FP8_BLOCK_SPLIT=0; g "auto$i"
  done
done
t end
