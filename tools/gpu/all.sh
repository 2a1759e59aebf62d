#!/usr/bin/env bash
# Every pending GPU check in one device call (see tools/gpu/README.md): logs under /tmp/gpu,
# packed into "$OUT/logs.tgz" (the device tool returns at most 8 files), summaries printed last.
set -u
cd "$(dirname "$0")/../.."
export PATH="$PATH:/usr/local/cuda/bin"
W=/tmp/gpu
mkdir -p "$W/i10" "$W/i14" "$W/i12"
if [ -x .gpu/before/host ]; then
    OUT="$W/i10" timeout 420 bash tools/gpu/issue10.sh > "$W/i10.out" 2>&1
fi
OUT="$W/i14" BIN=.gpu/after timeout 300 bash tools/gpu/issue14.sh > "$W/i14.out" 2>&1
OUT="$W/i12" BIN=.gpu/after timeout 300 bash tools/gpu/issue12-sweep.sh > "$W/i12.out" 2>&1
tar czf "${OUT:-/tmp}/logs.tgz" -C "$W" .
for f in "$W"/i10/summary.txt "$W"/i14/summary.txt "$W"/i12/summary.txt; do
    [ -f "$f" ] && { echo "== $f"; cat "$f"; }
done
