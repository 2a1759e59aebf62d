#!/usr/bin/env bash
# (session 77; issues #34, #37) L2 cache hints on the TMA copies, A/B against the default build: the package's
# modules (base: the host's own text and cubins) against tools/gpu/gemm/l2-hint-pack.py's variants — ef (D's stores
# EVICT_FIRST), efl (and every load EVICT_LAST) — each variant's hgemm and hgemm_fp8 through CUTE_RS_PTX_DIR, their
# cubins from the package. A `--check` of each first (bf16 with and without beta, e4m3), then ncu's DRAM bytes of
# one 4096³ launch each, then `host gemm --bench` (sustained and burst) alternated, rounds while the budget lasts.
# Package $D (.gpu/A): host.xz and cubin/ (tools/gpu/pack-cubins.sh), then python3 tools/gpu/gemm/l2-hint-pack.py $D.
#   BUDGET=240 D=.gpu/A NAME=s77h bash tools/gpu/gemm/l2-hint-ab.sh
BUDGET=${BUDGET:-240}; . tools/gpu/lib.sh ${NAME:-s77h}
VS=${VS:-base ef efl}
for v in $VS; do mkdir -p /tmp/pv$v
  for m in hgemm hgemm_fp8; do [ -e $D/$v/$m.ptx.xz ] && x $D/$v/$m.ptx.xz /tmp/pv$v/$m.ptx; done; done
for v in $VS; do
  for a in "--dtype bf16 --m 1000 --n 1030 --k 1024" "--dtype bf16 --m 4096 --beta 1" "--dtype e4m3 --m 4096"; do
    CUTE_RS_PTX_DIR=/tmp/pv$v c gemm $a; done; done
for v in $VS; do
  CUTE_RS_PTX_DIR=/tmp/pv$v prof $v 1 -k regex:hgemm $H gemm --dtype bf16 --m 4096 --n 4096 --k 4096 --check; done
ROUNDS=${ROUNDS:-3} ab "$VS" "--dtype bf16 --m 4096 --n 4096 --k 4096" "--dtype bf16 --m 4096 --n 4096 --k 4096 --beta 1" \
  "--dtype e4m3 --m 4096 --n 4096 --k 4096" "--dtype bf16 --m 8192 --n 8192 --k 8192"
t end
