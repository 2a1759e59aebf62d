#!/usr/bin/env bash
# (session 63, prepared) `cute_rs.scaled_mm`'s row-wise scales and bias (475d7fa), written without a GPU: python/tests'
# FP8 files on the GPU (test_rowwise_scales_and_bias, test_rowwise_matches_torch_scaled_mm and the rest), then row-wise
# against torch._scaled_mm's row-wise kernel in 10 ms batches at 4096³ and 8192³ (bf16 out, a bias).
# (Run s66c timed the row-wise arms inline; since session 66 they are `python/bench_fp8.py --rowwise`.)
# Package $D: host.xz (unused but by lib.sh), native.xz (this tree's `cargo build --release -p cute-rs-python`).
#   BUDGET=200 D=.gpu/s64a NAME=s64b bash tools/gpu/python/fp8-rowwise.sh
BUDGET=${BUDGET:-200}; . tools/gpu/lib.sh ${NAME:-s64b}
mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
(cd python/tests && PYTHONPATH=/tmp/py timeout 240 python3 -m pytest -q -rs -p no:cacheprovider test_fp8_gpu.py test_fp8_api.py > $R/pytest.txt 2>&1)
t "pytest rc=$?"; grep -E "passed|failed|Error|assert" $R/pytest.txt | tail -12 | tee -a $S
cp python/timing.py python/bench_fp8.py /tmp/py/
(cd /tmp/py && PYTHONPATH=/tmp/py timeout 100 python3 bench_fp8.py --rowwise --shapes 4096x4096x4096,8192x8192x8192 > $R/rowwise.txt 2>&1)
t "bench_fp8.py --rowwise rc=$?"; grep -E 'row-wise|Error' $R/rowwise.txt | tee -a $S
t end
