#!/usr/bin/env bash
# GPU verification of issue #12's randomized sweeps: `host run` (the fixed checks, then 300 GEMM
# problems vs cuBLAS and 100 copy/transpose shapes bit-exact) with the default seed, a second
# seed and a larger sweep; one log per step under "$OUT".
#
# Build on the development machine first (release, with the real PTX: nightly + rust-src),
# then carry target/release/host to the GPU machine:
#
#   cargo build --release -p host --bins
#   OUT=/some/dir bash tools/gpu/sweeps.sh          # BIN=target/release by default
#
# Nothing is compiled on the GPU machine. Exit code: 0 when every step passed, 1 otherwise.
# "$OUT/summary.txt" has one line per step (verdict, exit code, seconds); each run's sweep rows
# (summary rows and any failing problem with its parameters) are copied to "$OUT/sweeps.txt".
set -u
cd "$(dirname "$0")/../.."
BIN=${BIN:-target/release}
OUT=${OUT:-target/gpu-issue12}
mkdir -p "$OUT"
: > "$OUT/summary.txt"
: > "$OUT/sweeps.txt"
failed=0

# step NAME EXPECTED_RC COMMAND...: runs COMMAND, log in $OUT/NAME.log (stdout+stderr);
# sets $secs to its wall time.
secs=0
step() {
    local name=$1 want=$2
    shift 2
    local t0=$SECONDS
    { echo "\$ $*"; "$@"; } > "$OUT/$name.log" 2>&1
    local rc=$?
    secs=$((SECONDS - t0))
    local verdict=PASS
    if [ "$rc" != "$want" ]; then verdict=FAIL; failed=1; fi
    printf '%s %-22s rc=%s (want %s) %4ss\n' "$verdict" "$name" "$rc" "$want" "$secs" \
        | tee -a "$OUT/summary.txt"
    { echo "== $name"; grep -E '^(sgemm|tiled_copy|transpose)[^ ]* +(sweep|#)|#[0-9]+ |^sweeps:|passed, .* failed' "$OUT/$name.log"; } \
        >> "$OUT/sweeps.txt"
}

# check NAME CONDITION_TEXT COMMAND...: a verdict line without a log of its own.
check() {
    local name=$1 what=$2
    shift 2
    local verdict=PASS
    if ! "$@"; then verdict=FAIL; failed=1; fi
    printf '%s %-22s %s\n' "$verdict" "$name" "$what" | tee -a "$OUT/summary.txt"
}

if [ ! -x "$BIN/host" ]; then
    echo "missing $BIN/host: build it first (see the top of $0)" | tee -a "$OUT/summary.txt"
    exit 1
fi
H=$BIN/host
nvidia-smi -L > "$OUT/nvidia-smi.log" 2>&1
nproc > "$OUT/nproc.log" 2>&1

step info                0 "$H" info
step run_help            0 "$H" run --help
# the fixed checks alone: the baseline the sweeps add to
step run_no_sweeps       0 "$H" run --sweep-gemm 0 --sweep-copy 0
base=$secs
# what `host run` does by default: seed 12, 300 GEMM problems, 100 copy shapes
step run_default         0 "$H" run
full=$secs
check sweeps_under_60s "default sweeps took $((full - base)) s (fixed checks ${base} s, all ${full} s)" \
    bash -c "grep -q '^sgemm sweep ' '$OUT/run_default.log' && test $((full - base)) -lt 60"
check default_rows "both summary rows PASS, seed printed" \
    bash -c "grep -qE '^sgemm sweep +300 problems seed=12 +PASS' '$OUT/run_default.log' &&
             grep -qE '^tiled_copy sweep +100 shapes seed=12 +PASS' '$OUT/run_default.log' &&
             grep -q '^sweeps: seed 12 ' '$OUT/run_default.log'"
# the same seed gives the same problems: the sweep rows' shapes and verdicts repeat
step run_default_again   0 "$H" run --sweep-gemm 40 --sweep-copy 20
step run_default_again2  0 "$H" run --sweep-gemm 40 --sweep-copy 20
# each problem's line in the progress log (its shape, majority, plan) and the summary rows without
# their milliseconds column
rows() { grep -oE 'sweep [0-9]+/[0-9]+: [^(]*' "$1"; grep -E '^(sgemm|tiled_copy) sweep' "$1" | awk '{$8=""; print}'; }
check same_seed_same_rows "two runs of seed 12 list the same problems and summary rows" \
    bash -c "test \"\$(grep -cE '^(sgemm|tiled_copy) sweep' '$OUT/run_default_again.log')\" = 2 &&
             test \"\$(grep -cE 'sweep [0-9]+/' '$OUT/run_default_again.log')\" = 60 &&
             diff <($(declare -f rows); rows '$OUT/run_default_again.log') \
                  <($(declare -f rows); rows '$OUT/run_default_again2.log') > /dev/null"
# a second seed, and a larger sweep with a hex seed
step run_seed_2026       0 "$H" run --seed 2026
step run_large_c0ffee    0 "$H" run --seed 0xC0FFEE --sweep-gemm 1000 --sweep-copy 300
# usage errors stay usage errors
step run_bad_seed        2 "$H" run --seed x
step run_bad_count       2 "$H" run --sweep-gemm -1

echo "logs: $OUT"
exit $failed
