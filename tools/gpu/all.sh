#!/usr/bin/env bash
# Every pending GPU check, in two device calls of under 10 minutes each (see tools/gpu/README.md):
#   bash tools/gpu/all.sh 1   # before-after-bench.sh (before/after run + bench copy/gemm), examples-and-cli.sh,
#                             # sweeps.sh, `host gemm --sweep`
#   bash tools/gpu/all.sh 2   # compute-sanitizer memcheck, synccheck, initcheck and racecheck
#                             # on `host run --sweep-gemm 20 --sweep-copy 10` (every entry, the
#                             # fixed checks and random shapes; what `cargo xtask sanitize` runs;
#                             # racecheck takes 212 s on the H100, the others a few seconds)
# Logs under /tmp/gpu, packed into "$OUT/logs-PART.tgz" (the device tool returns at most 8
# files), summaries printed last. Each step runs under its own timeout so the pack always
# happens inside the call's limit.
set -u
cd "$(dirname "$0")/../.."
export PATH="$PATH:/usr/local/cuda/bin"
PART=${1:-1}
W=/tmp/gpu
A=.gpu/after/host
mkdir -p "$W/i10" "$W/i14" "$W/i12" "$W/san"
t0=$SECONDS
if [ "$PART" = 1 ]; then
    if [ -x .gpu/before/host ]; then
        OUT="$W/i10" timeout 200 bash tools/gpu/before-after-bench.sh > "$W/i10.out" 2>&1
        echo "before-after-bench.sh rc=$? $((SECONDS - t0))s" >> "$W/i10/summary.txt"
    fi
    OUT="$W/i14" BIN=.gpu/after timeout 150 bash tools/gpu/examples-and-cli.sh > "$W/i14.out" 2>&1
    OUT="$W/i12" BIN=.gpu/after timeout 150 bash tools/gpu/sweeps.sh > "$W/i12.out" 2>&1
    timeout 100 "$A" gemm --sweep > "$W/i10/gemm-sweep.txt" 2> "$W/i10/gemm-sweep.err"
    echo "host gemm --sweep rc=$?" >> "$W/i10/summary.txt"
else
    san() { # san TOOL LIMIT ARGS...: one compute-sanitizer run, its verdict in san/summary.txt
        local t=$1 lim=$2 s=$SECONDS
        shift 2
        timeout "$lim" compute-sanitizer --tool "$t" --error-exitcode 1 "$A" "$@" \
            > "$W/san/$t-$(echo "$*" | tr -c 'a-z0-9' _).log" 2>&1
        echo "$t host $* rc=$? $((SECONDS - s))s" | tee -a "$W/san/summary.txt"
    }
    san memcheck 150 run --sweep-gemm 20 --sweep-copy 10
    san synccheck 100 run --sweep-gemm 20 --sweep-copy 10
    san initcheck 100 run --sweep-gemm 20 --sweep-copy 10
    san racecheck 400 run --sweep-gemm 20 --sweep-copy 10
fi
tar czf "${OUT:-/tmp}/logs-$PART.tgz" -C "$W" .
for f in "$W"/i10/summary.txt "$W"/san/summary.txt "$W"/i14/summary.txt "$W"/i12/summary.txt; do
    [ -f "$f" ] && { echo "== $f"; cat "$f"; }
done
echo "all.sh part $PART: $((SECONDS - t0)) s"
