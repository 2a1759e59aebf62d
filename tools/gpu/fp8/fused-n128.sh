#!/usr/bin/env bash
# (session 66) The fused FP8 entries on the per-tensor 128×128 tile (`gemm_fp8_fused_e4m3_tn_<act>_n128tma6`), the
# fused launches now on the per-tensor tile rule's tile where it has fused entries (`Fp8PromotedTile::for_fused`):
# `--check`s of the new launches (edges, split-K, every activation, f32 D), memcheck and racecheck, the FP8 sweep,
# python/tests' FP8 files and `cute_rs.scaled_mm` row-wise against torch._scaled_mm; then the fused rows on the rule's
# tile against the old one (`CUTE_RS_FP8_PROMOTED=n192tma`), ROUNDS alternated `--bench`es.
# (Run s66e timed the row-wise arms inline; since then they are `python/bench_fp8.py --rowwise`.)
# Package $D: host.xz (this tree's release host), native.xz (this tree's `cargo build --release -p cute-rs-python`).
#   BUDGET=400 D=.gpu/s66c NAME=s66e bash tools/gpu/fp8/fused-n128.sh
BUDGET=${BUDGET:-400}; . tools/gpu/lib.sh ${NAME:-s66e}
warm
sweeps
F="--row-scales --col-scales"
c gemm --dtype e4m3 --m 2048 --n 2048 --k 2048 --bias m --act gelu $F
c gemm --dtype e4m3 --m 1000 --n 1030 --k 1024 --bias n --act silu --out f32
c gemm --dtype e4m3 --m 256 --n 7168 --k 2048 --bias m --act gelu-erf --row-scales
c gemm --dtype e4m3 --m 3000 --n 1000 --k 512 --bias n --act relu --col-scales
c gemm --dtype e4m3 --m 512 --n 7168 --k 2048 --bias n $F
CUTE_RS_FP8_PROMOTED=n192tma c gemm --dtype e4m3 --m 2048 --n 2048 --k 2048 --bias m --act gelu $F
for tool in memcheck racecheck; do for a in "--m 1000 --n 1030 --k 1024 --bias n --act silu" "--m 256 --n 2048 --k 2048 --bias m --act gelu $F"; do
  timeout 120 compute-sanitizer --tool $tool --print-limit 5 $H gemm --dtype e4m3 $a --check > $R/san.txt 2>&1 < /dev/null
  t "S $tool rc=$? | $a | $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/san.txt | tail -1) $(grep -Eo 'PASS|FAIL' $R/san.txt | head -1)"
done; done
mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
(cd python/tests && PYTHONPATH=/tmp/py timeout 120 python3 -m pytest -q -rs -p no:cacheprovider test_fp8_gpu.py test_fp8_api.py > $R/pytest.txt 2>&1)
t "pytest rc=$? $(grep -E 'passed|failed' $R/pytest.txt | tail -1)"
cp python/timing.py python/bench_fp8.py /tmp/py/
(cd /tmp/py && PYTHONPATH=/tmp/py timeout 100 python3 bench_fp8.py --rowwise --shapes 4096x4096x4096,4096x7168x16384,8192x8192x8192 > $R/rowwise.txt 2>&1)
t "bench_fp8.py --rowwise rc=$?"; grep -E 'row-wise|Error' $R/rowwise.txt | tee -a $S
for i in $(seq ${ROUNDS:-2}); do
  for a in "--m 4096 --n 4096 --k 4096 --bias m --act gelu $F" "--m 4096 --n 7168 --k 16384 --bias m --act gelu"; do
    [ $(left) -gt 30 ] || break; GARGS="--dtype e4m3 $a"; g new$i; g old$i CUTE_RS_FP8_PROMOTED=n192tma
  done
done
GARGS="--dtype e4m3 --m 4096 --n 4096 --k 4096"; [ $(left) -gt 20 ] && g plain
t end
