#!/usr/bin/env bash
# (session 63; issues #37, interop) Three things in one call:
#  1. python/tests' FP8 files on the GPU with `cute_rs.scaled_mm`'s new default (use_fast_accum=False, torch's: the
#     promoted kernel), each mode against the exact product and against torch._scaled_mm in the same mode;
#     python/bench_fp8.py (both modes beside torch._scaled_mm's);
#  2. the SM clock and board power of our promoted per-tensor FP8 GEMM against cuBLASLt's (torch._scaled_mm,
#     use_fast_accum=False), each launched back to back for 3 s, two rounds alternated, at 4096³ and 8192³
#     (tools/gpu/profile/sustained_power.py fp8; session 52's measurement of the 16-bit kernel): whether the sustained
#     rows' gap at 4096³ is energy per tile;
#  3. ncu (`--clock-control none`) of one launch each, ours and cuBLASLt, at e4m3 4096³ (promoted) and with block
#     scales: time, clock, instructions, L2 and DRAM bytes.
# Package $D: host.xz (this tree's release host), native.xz (this tree's `cargo build --release -p cute-rs-python`
# lib_native.so, every module embedded).   BUDGET=420 D=.gpu/s63b NAME=s63b bash tools/gpu/fp8/energy-python.sh
BUDGET=${BUDGET:-420}; . tools/gpu/lib.sh ${NAME:-s63b}
mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && cp tools/gpu/profile/sustained_power.py python/bench_fp8.py python/timing.py /tmp/py/
x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
(cd python/tests && PYTHONPATH=/tmp/py timeout 200 python3 -m pytest -q -rs -p no:cacheprovider test_fp8_gpu.py test_fp8_api.py > $R/pytest.txt 2>&1)
t "pytest rc=$?"; tail -6 $R/pytest.txt | tee -a $S
(cd /tmp/py && PYTHONPATH=/tmp/py timeout 80 python3 bench_fp8.py > $R/bench-fp8.txt 2>&1); t "bench_fp8.py rc=$?"; tee -a $S < $R/bench-fp8.txt
(cd /tmp/py && PYTHONPATH=/tmp/py timeout 100 python3 sustained_power.py 4096,8192 3 fp8 > $R/power-fp8.txt 2>&1)
t "sustained_power.py fp8 rc=$?"; tee -a $S < $R/power-fp8.txt
M="--metrics gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,smsp__inst_executed.sum,lts__t_bytes.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed,launch__grid_size,launch__cluster_dim_x,launch__block_size,launch__shared_mem_per_block_dynamic"
G="gemm --dtype e4m3 --m 4096 --n 4096 --k 4096 --bench --timing burst"
prof fp8-4096-ours 3 -k regex:gemm_fp8 $H $G
prof fp8-4096-cublaslt 3 -k regex:nvjet $H $G
prof fp8-4096-block 4 -k regex:gemm_fp8 $H $G --block-scales
t end
