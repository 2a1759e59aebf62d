#!/usr/bin/env bash
# (session 78; issues #34, #37) The TMA epilogue's one meeting a tile and C's request stagger, as main now builds them
# (no feature: kernels/hgemm_kernel/src/epilogue.rs `store_chunks`, kernels/collective/src/kernel.rs `source_eighth`),
# against the package host's own modules (main before them), in one call: checks of the new modules (beta ≠ 0, edges,
# f16, f32 out, several tiles a CTA, fused, e4m3 per-tensor and block, `host run --only hgemm`, the FP8 sweep), the
# three sanitizers on several-tiles-a-CTA problems (`CUTE_RS_HGEMM_SMS=38`), then `host gemm --bench` of base and new alternated.
# Package: .gpu/A/host.xz (main e63842a's release host); new/{hgemm,hgemm_fp8}.ptx.xz and their cubins:
#   cargo xtask build-kernels --arch sm_90a && mkdir -p .gpu/A/new && for m in hgemm hgemm_fp8; do
#     xz -c target/ptx/$m.ptx > .gpu/A/new/$m.ptx.xz; done && bash tools/gpu/pack-cubins.sh .gpu/A target/ptx hgemm hgemm_fp8
#   BUDGET=480 D=.gpu/A NAME=s78l bash tools/gpu/gemm/s78-landing.sh
BUDGET=${BUDGET:-480}; . tools/gpu/lib.sh ${NAME:-s78l}
mkdir -p /tmp/pvnew /tmp/pvbase; for m in hgemm hgemm_fp8; do x $D/new/$m.ptx.xz /tmp/pvnew/$m.ptx; done
export CUTE_RS_PTX_DIR=/tmp/pvnew
for a in "gemm --dtype bf16 --m 4096 --n 4096 --k 4096 --beta 1" "gemm --dtype f16 --m 3000 --n 4100 --k 1000 --beta 0.5" \
  "gemm --dtype bf16 --m 4096 --n 4096 --k 512 --beta 1 --out f32" "gemm --dtype bf16 --m 8192 --n 8192 --k 1024 --tb" \
  "gemm --dtype bf16 --ta --m 1000 --n 3000 --k 700 --bias m --act gelu" "gemm --dtype bf16 --ta --m 2048 --n 1000 --k 512 --bias n --act silu --beta 1" \
  "gemm --dtype e4m3 --m 4096 --n 4096 --k 4096 --scale-a 0.5" "gemm --dtype e4m3 --block-scales --m 1000 --n 2000 --k 1024" "gemm --dtype e4m3 --m 1000 --n 2000 --k 1024 --bias n --act relu"; do
  c $a; done
sweeps
for s in "--dtype bf16 --m 2000 --n 2100 --k 256 --beta 1" "--dtype bf16 --ta --m 2048 --n 2048 --k 256 --bias n --act gelu" \
  "--dtype e4m3 --m 2048 --n 2048 --k 512 --bias m --act relu"; do for tool in memcheck racecheck synccheck; do
  CUTE_RS_HGEMM_SMS=38 timeout 120 compute-sanitizer --tool $tool --print-limit 5 $H gemm $s --check > $R/san.txt 2>&1 < /dev/null
  t "S $tool rc=$? | $s | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"; done; done
ROUNDS=${ROUNDS:-2} ab "base new" "--dtype bf16 --m 4096 --n 4096 --k 4096" "--dtype bf16 --m 4096 --n 4096 --k 4096 --beta 1" \
  "--dtype bf16 --ta --m 8192 --n 8192 --k 8192 --bias m --act gelu" "--dtype f16 --ta --m 4096 --n 4096 --k 4096" \
  "--dtype e4m3 --m 4096 --n 4096 --k 4096" "--dtype e4m3 --block-scales --m 4096 --n 4096 --k 4096" \
  "--dtype bf16 --m 8192 --n 8192 --k 8192"
t end
