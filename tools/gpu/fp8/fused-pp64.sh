#!/usr/bin/env bash
# (session 66, prepared; issue #37) Branch `s66-fused-pp64`: the fused FP8 entries on the 64×128 ping-pong tile
# (`gemm_fp8_fused_e4m3_tn_<act>_pp64`), so small-M fused launches take the per-tensor launch's tile (`for_fused`)
# instead of 128×192 split-K. Fused `--check`s on it (the rule's small-M shapes; edges forced with
# CUTE_RS_FP8_PROMOTED=pp64), memcheck and racecheck, the FP8 sweep, python's FP8 tests; then fused bias M + GELU on
# the rule's pp64 against main's launch (`CUTE_RS_FP8_PROMOTED=n192tma`) and the plain per-tensor row, ROUNDS
# alternated; then a 16-bit probe where 128×256 fills the machine badly (3072³, 4096×2112×7168: cooperative against
# `CUTE_RS_HGEMM_SCHEDULE=pingpong128`), no code of its own. The branch also has the 16-bit fused entries on both
# ping-pong tiles (`hgemm_fused_bf16_tn_<act>_{pingpong128,pp64}`: fused launches take the plain launch's schedule,
# skinny K and small M): their `--check`s and memcheck first, then fused rows against `CUTE_RS_HGEMM_SCHEDULE=cooperative`
# (main's fused launch) at 8192×8192×512 and 128×7168×8192, with the plain row beside.
# Package $D: host.xz, native.xz (the branch's release host and `cargo build --release -p cute-rs-python`), main.xz
# (main's release host at `af7d5bf`).
#   BUDGET=540 D=.gpu/s67a NAME=s67a bash tools/gpu/fp8/fused-pp64.sh
BUDGET=${BUDGET:-540}; . tools/gpu/lib.sh ${NAME:-s67a}
timeout 200 $H gemm --dtype e4m3 --m 256 --n 256 --k 256 --check > $R/w.txt 2>&1 < /dev/null
t "warm rc=$? $(grep -Eo 'PASS|FAIL' $R/w.txt | head -1)"
# main's host (the plain rows' A/B below): its modules' JIT in the background meanwhile
x $D/main.xz /tmp/hmain && chmod +x /tmp/hmain
(for d in "bf16 --ta --m 256 --n 256 --k 64" "e4m3 --m 256 --n 256 --k 256"; do timeout 200 /tmp/hmain gemm --dtype $d --check; done > $R/wm.txt 2>&1 < /dev/null) &
F="--row-scales --col-scales"
c gemm --dtype e4m3 --m 128 --n 7168 --k 8192 --bias m --act gelu $F
c gemm --dtype e4m3 --m 64 --n 7168 --k 8192 --bias n --act silu --out f32
c gemm --dtype e4m3 --m 256 --n 4096 --k 4096 --bias m --act gelu-erf --row-scales
c gemm --dtype e4m3 --m 128 --n 2112 --k 7168 --bias n --act relu --col-scales
CUTE_RS_FP8_PROMOTED=pp64 c gemm --dtype e4m3 --m 1000 --n 1030 --k 1024 --bias n --act gelu $F
CUTE_RS_FP8_PROMOTED=pp64 c gemm --dtype e4m3 --m 100 --n 520 --k 640 --bias m --out f32
for tool in memcheck racecheck; do
  CUTE_RS_FP8_PROMOTED=pp64 timeout 100 compute-sanitizer --tool $tool --print-limit 5 $H gemm --dtype e4m3 --m 100 --n 1030 --k 1024 \
    --bias n --act gelu $F --check > $R/san-$tool.txt 2>&1 < /dev/null
  t "S $tool rc=$? | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san-$tool.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san-$tool.txt | head -1)"
done
c gemm --dtype bf16 --ta --m 4096 --n 4096 --k 512 --bias m --act gelu
c gemm --dtype bf16 --ta --m 1000 --n 1030 --k 256 --bias n --act gelu-erf
c gemm --dtype bf16 --ta --m 128 --n 7168 --k 8192 --bias n --act silu
c gemm --dtype bf16 --ta --m 100 --n 4096 --k 2048 --bias m --act relu
timeout 100 compute-sanitizer --tool memcheck --print-limit 5 $H gemm --dtype bf16 --ta --m 100 --n 1030 --k 2048 --bias m --act gelu \
  --check > $R/san16.txt 2>&1 < /dev/null
t "S memcheck 16-bit fused pp64 rc=$? | $(grep -E 'ERROR SUMMARY' $R/san16.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san16.txt | head -1)"
timeout 100 $H gemm --dtype e4m3 > $R/sweep.txt 2>&1 < /dev/null; t "C FP8 sweep rc=$? $(grep -E 'passed|failed' $R/sweep.txt | tail -1)"
mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
(cd python/tests && PYTHONPATH=/tmp/py timeout 120 python3 -m pytest -q -rs -p no:cacheprovider test_fp8_gpu.py test_fp8_api.py > $R/pytest.txt 2>&1)
t "pytest rc=$? $(grep -E 'passed|failed' $R/pytest.txt | tail -1)"
for i in $(seq ${ROUNDS:-2}); do
  for s in "--m 128 --n 7168 --k 16384" "--m 64 --n 7168 --k 16384" "--m 256 --n 4096 --k 8192"; do
    [ $(left) -gt 60 ] || break; GARGS="--dtype e4m3 $s --bias m --act gelu"; g pp64-$i; g n192-$i CUTE_RS_FP8_PROMOTED=n192tma
    GARGS="--dtype e4m3 $s"; g plain-$i
  done
done
for i in $(seq ${ROUNDS:-2}); do
  for s in "--m 8192 --n 8192 --k 512" "--m 128 --n 7168 --k 8192"; do
    [ $(left) -gt 60 ] || break; GARGS="--dtype bf16 --ta $s --bias m --act gelu"; g f16pp-$i; g f16coop-$i CUTE_RS_HGEMM_SCHEDULE=cooperative
    GARGS="--dtype bf16 --ta $s"; g plain16-$i
  done
done
# the branch also forces two closures of the 16-bit epilogue staging inline (no PTX `.local` in its new entries), which
# reorders instructions in the existing entries' PTX: their plain rows, main's host (main.xz) against the branch's
wait; HB=$H
for a in "--dtype bf16 --ta --m 4096 --n 4096 --k 4096" "--dtype e4m3 --m 4096 --n 4096 --k 4096" "--dtype bf16 --ta --m 8192 --n 8192 --k 512"; do
  [ $(left) -gt 60 ] || break; GARGS="$a"; H=/tmp/hmain; g main; H=$HB; g branch
done
for i in 1 2; do
  for s in "--m 3072 --n 3072 --k 3072" "--m 4096 --n 2112 --k 7168"; do
    [ $(left) -gt 25 ] || break; GARGS="--dtype bf16 --ta $s"; g coop-$i; g pp128-$i CUTE_RS_HGEMM_SCHEDULE=pingpong128
  done
done
t end
