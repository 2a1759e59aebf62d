#!/usr/bin/env bash
# The package of run s83a (tools/gpu/gemm/s83-gelu-half-ab.sh) into D (default .gpu/s83): this tree's host, its hgemm and
# hgemm_fp8 modules and cubins (new), and BASE's (default 63cb5fa, main before session 83's fusion change) in $D/base
# with their cubins beside the new ones in $D/cubin. BASE is built in a worktree under /tmp with a target dir of its
# own (a whole kernel build: ~8-10 min on 2 cores); this tree's modules are built if absent.
#   bash tools/gpu/gemm/s83-package.sh [D] [BASE]
set -eu
D=${1:-.gpu/s83}; BASE=${2:-63cb5fa}
W=/tmp/s83-base-$BASE
[ -d "$W" ] || git worktree add --detach "$W" "$BASE"
# ptxas and nvdisasm as this tree has them (else the base build installs them from PyPI)
mkdir -p "$W/target"; [ -d target/cuda-tools ] && [ ! -d "$W/target/cuda-tools" ] && cp -r target/cuda-tools "$W/target/"
(cd "$W" && CARGO_TARGET_DIR="$W/target" cargo xtask build-kernels --arch sm_90a > /tmp/s83-base-build.log 2>&1) ||
  { echo "the base build failed: /tmp/s83-base-build.log" >&2; exit 1; }
ls target/ptx/hgemm.ptx target/ptx/hgemm_fp8.ptx > /dev/null 2>&1 || cargo xtask build-kernels --arch sm_90a
cargo build --release -p host-cli
rm -rf "$D"; mkdir -p "$D/base"
xz -T2 -c target/release/host > "$D/host.xz"
bash tools/gpu/pack-cubins.sh "$D" target/ptx hgemm hgemm_fp8 attention tma
bash tools/gpu/pack-cubins.sh "$D" "$W/target/ptx" hgemm hgemm_fp8
for m in hgemm hgemm_fp8; do
  xz -T2 -c target/ptx/$m.ptx > "$D/$m.ptx.xz"; xz -T2 -c "$W/target/ptx/$m.ptx" > "$D/base/$m.ptx.xz"
  cmp -s target/ptx/$m.ptx "$W/target/ptx/$m.ptx" && echo "warning: $m is the same in both builds" >&2
done
du -sh "$D"
echo "run: BUDGET=420 D=$D NAME=s83a bash tools/gpu/gemm/s83-gelu-half-ab.sh (carry $D)"
