#!/usr/bin/env bash
# (session 79, prepared: the session's device time ran out before it; issues #34, #37) The store schedule as a type (`StoreSchedule`: the 16-bit entries `ChunkHandoff`, the
# FP8 entries `OneMeeting`), main's modules as landed: checks (beta ≠ 0, edges, f16, f32 out, fused, e4m3 per-tensor,
# block and fused, `host run --only hgemm`, the FP8 sweep), racecheck / synccheck / memcheck with several tiles a CTA
# (`CUTE_RS_HGEMM_SMS=38`), then new (main 3af34f7, one meeting everywhere) and land alternated.
# Package: .gpu/A as tools/gpu/gemm/s79-handoff-ab.sh's, plus land/{hgemm,hgemm_fp8}.ptx.xz and their cubins:
#   cargo xtask build-kernels --arch sm_90a && mkdir -p .gpu/A/land && for m in hgemm hgemm_fp8; do
#     xz -c target/ptx/$m.ptx > .gpu/A/land/$m.ptx.xz; done && bash tools/gpu/pack-cubins.sh .gpu/A target/ptx hgemm hgemm_fp8
# (.gpu/B, 14 MB, holds just host.xz, new/, land/ and their cubins: carry it rather than .gpu/A's 21 MB)
#   BUDGET=180 D=.gpu/B NAME=s80a bash tools/gpu/gemm/s79-landing.sh
# With BENCH=1 the whole `host bench gemm --csv` (sustained and burst, ~380 s since session 80's block-scaled burst rows:
# run s80b's BUDGET=450 cut it) on the landed modules follows the checks
# instead of the A/B (session 80):
#   BENCH=1 BUDGET=560 D=.gpu/B NAME=s80a bash tools/gpu/gemm/s79-landing.sh
BUDGET=${BUDGET:-180}; . tools/gpu/lib.sh ${NAME:-s79d}
for v in new land; do mkdir -p /tmp/pv$v; for m in hgemm hgemm_fp8; do x $D/$v/$m.ptx.xz /tmp/pv$v/$m.ptx; done; done
export CUTE_RS_PTX_DIR=/tmp/pvland
for a in "gemm --dtype bf16 --m 4096 --n 4096 --k 4096 --beta 1" "gemm --dtype f16 --m 3000 --n 4100 --k 1000 --beta 0.5" \
  "gemm --dtype bf16 --m 4096 --n 4096 --k 512 --beta 1 --out f32" "gemm --dtype bf16 --m 8192 --n 8192 --k 512 --tb" \
  "gemm --dtype bf16 --ta --m 2048 --n 1000 --k 512 --bias n --act silu --beta 1" \
  "gemm --dtype e4m3 --m 2048 --n 2048 --k 2048 --scale-a 0.5" "gemm --dtype e4m3 --block-scales --m 1000 --n 2000 --k 1024" \
  "gemm --dtype e4m3 --m 1000 --n 2000 --k 1024 --bias n --act relu"; do
  c $a; done
sweeps
i=0
for s in "racecheck --dtype bf16 --m 2000 --n 2100 --k 256 --beta 1" "synccheck --dtype bf16 --ta --m 2048 --n 2048 --k 256 --bias n --act gelu" \
  "memcheck --dtype f16 --m 2048 --n 2048 --k 192" "synccheck --dtype e4m3 --m 2048 --n 2048 --k 512 --bias m --act relu"; do
  i=$((i + 1)); set -- $s; tool=$1; shift
  CUTE_RS_HGEMM_SMS=38 timeout 60 compute-sanitizer --tool $tool --print-limit 5 $H gemm "$@" --check > $R/san$i.txt 2>&1 < /dev/null
  t "S $tool rc=$? | $* | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san$i.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san$i.txt | head -1)"
done
if [ -n "${BENCH:-}" ]; then
  # (session 80) the whole `host bench gemm --csv` on the landed modules instead of the A/B
  timeout $(( $(left) - 10 )) $H bench gemm --csv > $R/bench.csv 2> $R/bench.err; t "B host bench gemm rc=$? $(wc -l < $R/bench.csv) rows"
  # a run cut short: the rows it measured, from its stderr (`[gemm] row <CSV line>`, hosts since session 80)
  [ -s $R/bench.csv ] || sed -n 's/^\[gemm\] row //p' $R/bench.err > $R/bench.csv
  cp $R/bench.csv $OUT/; cut -d, -f1-8 $R/bench.csv | tee -a $S
else
  ROUNDS=${ROUNDS:-2} ab "new land" "--dtype bf16 --m 8192 --n 8192 --k 512" "--dtype e4m3 --m 4096 --n 4096 --k 4096" \
    "--dtype bf16 --m 4096 --n 4096 --k 4096"
fi
t end
