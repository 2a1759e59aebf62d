#!/usr/bin/env bash
# Packs the sm_90a cubins `cargo xtask build-kernels` kept beside the PTX (SRC, default target/ptx: one
# `<family>-<key>.sm_90a.cubin` per module, `key` the hash of the text it was assembled from) into DEST/cubin/*.xz,
# which tools/gpu/lib.sh unpacks into CUTE_RS_CUBIN_DIR: the device call's host loads them instead of JIT-compiling
# the PTX (about a minute for hgemm and hgemm_fp8 at each fresh machine's first launch). A PTX variant's text has its
# own key, so its cubins may go into the same DEST/cubin; cubins of the same text (other ptxas options) need a folder
# of their own on the device.
#   bash tools/gpu/pack-cubins.sh .gpu/s73a [target/ptx] [FAMILY...]
set -eu
dest=$1; src=${2:-target/ptx}; shift $(( $# < 2 ? $# : 2 ))
mkdir -p "$dest/cubin"
n=0
for f in "$src"/*.sm_90a.cubin; do
  [ -e "$f" ] || { echo "no cubins in $src: run cargo xtask build-kernels --arch sm_90a (ptxas installed)" >&2; exit 1; }
  fam=$(basename "$f"); fam=${fam%-*}
  if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$fam"; then continue; fi
  xz -T2 -c "$f" > "$dest/cubin/$(basename "$f").xz"; n=$((n + 1))
done
echo "$n cubins in $dest/cubin ($(du -sh "$dest/cubin" | cut -f1))"
