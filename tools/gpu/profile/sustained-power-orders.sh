#!/usr/bin/env bash
# (session 52; issue #34) At the power limit (run s52a: ours and cuBLAS at the same clock and power, ours 0.994 of
# cuBLAS's work at 4096³) the tile order's DRAM bytes are energy: ours at 4096³ with the default band of 8, the Hilbert
# order (9 % fewer DRAM bytes than the band under ncu, session 49) and bands of 4, each process beside cuBLAS
# (tools/gpu/profile/sustained_power.py 4096 4: two rounds of 4 s windows).
# Package $D: as sustained-power.sh's (host.xz unused, native.xz main's Python extension).
#   D=.gpu/s52a NAME=s52j BUDGET=200 bash tools/gpu/profile/sustained-power-orders.sh
BUDGET=${BUDGET:-200}; . tools/gpu/lib.sh ${NAME:-s52j}
mkdir -p /tmp/py/cute_rs && cp python/cute_rs/*.py /tmp/py/cute_rs/ && cp tools/gpu/profile/sustained_power.py /tmp/py/
x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
for v in default hilbert 4; do
  [ $(left) -gt 40 ] || break
  e=""; [ $v = default ] || e="CUTE_RS_HGEMM_SWIZZLE=$v"
  (cd /tmp/py && env $e PYTHONPATH=/tmp/py timeout $(( $(left) - 10 )) python3 sustained_power.py 4096 4 > $R/power-$v.txt 2>&1)
  t "order $v rc=$?"; grep -E '^4096' $R/power-$v.txt | sed "s/^/$v /" | tee -a $S
done
t end
