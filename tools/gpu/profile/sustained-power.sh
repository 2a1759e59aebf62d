#!/usr/bin/env bash
# (session 51, prepared, not yet run; issue #34) The SM clock and board power of ours and cuBLAS launched back to back
# for seconds at 4096³ and 8192³ bf16 (tools/gpu/profile/sustained_power.py: torch.mm against cute_rs.gemm, nvidia-smi
# every 20 ms): whether 4096³'s sustained gap (1.00-1.01 of cuBLAS against 1.02-1.03 burst) is energy per tile.
# Package $D: host.xz (unused but by lib.sh), native.xz (main's Python extension, `cargo build --release -p cute-rs-python`'s
# lib_native.so; every module embedded).   D=.gpu/s52a NAME=s52a BUDGET=200 bash tools/gpu/profile/sustained-power.sh (the first call JITs the whole hgemm module, 50-85 s)
BUDGET=${BUDGET:-200}; . tools/gpu/lib.sh ${NAME:-s52a}
mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && cp tools/gpu/profile/sustained_power.py /tmp/py/
x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
(cd /tmp/py && PYTHONPATH=/tmp/py timeout $(( $(left) - 10 )) python3 sustained_power.py 4096,8192 4 > $R/power.txt 2>&1)
t "sustained_power.py rc=$?"; tee -a $S < $R/power.txt
t end
