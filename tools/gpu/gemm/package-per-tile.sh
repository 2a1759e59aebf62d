#!/usr/bin/env bash
# (session 74; issue #34) Builds, on this machine, the two packages of the per-tile call (doc/hopper-gemm.md,
# "Session 74"): $T (default .gpu/T) the traced build — the release host, hgemm.ptx.xz and hgemm_fp8.ptx.xz of
# CUTE_RS_KERNEL_FEATURES=hgemm/cta-trace and their cubins — and $A (default .gpu/A) the default build's cubins beside
# the same host; then rebuilds the default kernels, so target/ptx is the tree's own again. Then, in one device call:
#   BUDGET=220 D=.gpu/T NAME=s75t bash tools/gpu/gemm/tile-phases.sh; BUDGET=290 D=.gpu/A NAME=s75a bash tools/gpu/gemm/overrides-4096-warmed.sh
# (carry [".gpu/T", ".gpu/A"]). Needs ptxas (the cubins): python3 -m pip install nvidia-cuda-nvcc.
#   bash tools/gpu/gemm/package-per-tile.sh [T] [A]
set -eu
T=${1:-.gpu/T}; A=${2:-.gpu/A}
mkdir -p "$T" "$A"
# the kernels first: xtask installs what the nvptx build needs (nightly's rust-src), and a host built before that
# embeds no PTX and refuses every GPU command on the device ("no GPU kernels in this build": session 75's first call)
cargo xtask build-kernels --arch sm_90a > /tmp/package-per-tile-a.log 2>&1 || { tail -20 /tmp/package-per-tile-a.log; exit 1; }
cargo build -q --release -p host-cli
target/release/host info 2>&1 | grep -q '^module: sm_90a hgemm ' \
  || { echo "target/release/host embeds no hgemm module: touch build.rs and rebuild it" >&2; exit 1; }
xz -T2 -c target/release/host > "$A/host.xz"; cp "$A/host.xz" "$T/host.xz"
bash tools/gpu/pack-cubins.sh "$A"
# The traced build ends in xtask's SASS check failing on one entry the traces do not launch (session 74: the trace's
# records move `gemm_fp8_e4m3_tn_promoted`'s registers so that 48 of its k-loop's promotion FFMAs read three registers
# of one parity); its modules and cubins are written before that check, so that failure alone is taken.
if ! CUTE_RS_KERNEL_FEATURES=hgemm/cta-trace cargo xtask build-kernels --arch sm_90a > /tmp/package-per-tile-t.log 2>&1; then
  grep -q '^xtask: 1 k-loop(s) with register-bank conflicts' /tmp/package-per-tile-t.log \
    && grep -q '^  gemm_fp8_e4m3_tn_promoted: its k-loop' /tmp/package-per-tile-t.log \
    || { tail -20 /tmp/package-per-tile-t.log; exit 1; }
fi
grep -q cute_rs_cta_trace target/ptx/hgemm.ptx || { echo "target/ptx/hgemm.ptx holds no trace ring" >&2; exit 1; }
# each module's cubin must be the traced text's: xtask keeps a cubin only while its PTX file still holds the text ptxas
# read, and prunes the module's older ones then, so the one kept by this build is the module's only cubin and is newer
# than its PTX (a stale default one would be older than the rewritten file)
for m in hgemm hgemm_fp8; do
  c=(target/ptx/$m-*.sm_90a.cubin)
  [ ${#c[@]} -eq 1 ] && [ "${c[0]}" -nt target/ptx/$m.ptx ] || { echo "no cubin of the traced target/ptx/$m.ptx" >&2; exit 1; }
done
for m in hgemm hgemm_fp8; do xz -T2 -c target/ptx/$m.ptx > "$T/$m.ptx.xz"; done
bash tools/gpu/pack-cubins.sh "$T" target/ptx hgemm hgemm_fp8
cargo xtask build-kernels --arch sm_90a > /tmp/package-per-tile-a.log 2>&1 || { tail -20 /tmp/package-per-tile-a.log; exit 1; }
du -sh "$T" "$A"
