#!/usr/bin/env bash
# GPU verification of issue #14 (host library, examples, CLI): runs the examples and
# `host gemm --check/--bench` on the GPU and writes one log per step under "$OUT".
#
# Build on the development machine first (release, with the real PTX: nightly + rust-src),
# then carry target/release to the GPU machine:
#
#   cargo build --release -p host --examples --bins && cargo build --release -p user-kernel
#   OUT=/some/dir bash tools/gpu/examples-and-cli.sh          # BIN=target/release by default
#
# What it needs from target/release (carry these four files): host, examples/sgemm,
# examples/layout_tour, user-kernel. Nothing is compiled on the GPU machine.
#
# Exit code: 0 when every step passed, 1 otherwise. "$OUT/summary.txt" has one line per step.
set -u
cd "$(dirname "$0")/../.."
BIN=${BIN:-target/release}
OUT=${OUT:-target/gpu-issue14}
mkdir -p "$OUT"
: > "$OUT/summary.txt"
failed=0

# step NAME EXPECTED_RC COMMAND...: runs COMMAND, log in $OUT/NAME.log (stdout+stderr).
step() {
    local name=$1 want=$2
    shift 2
    local t0=$SECONDS
    { echo "\$ $*"; "$@"; } > "$OUT/$name.log" 2>&1
    local rc=$?
    local verdict=PASS
    if [ "$rc" != "$want" ]; then verdict=FAIL; failed=1; fi
    printf '%s %-28s rc=%s (want %s) %3ss\n' "$verdict" "$name" "$rc" "$want" $((SECONDS - t0)) \
        | tee -a "$OUT/summary.txt"
}

for f in host examples/sgemm examples/layout_tour user-kernel; do
    if [ ! -x "$BIN/$f" ]; then
        echo "missing $BIN/$f: build it first (see the top of $0)" | tee -a "$OUT/summary.txt"
        exit 1
    fi
done
H=$BIN/host
nvidia-smi -L > "$OUT/nvidia-smi.log" 2>&1

step info                 0 "$H" info
step help                 0 "$H" gemm --help
step layout_tour          0 "$BIN/examples/layout_tour"
# the README's library example and the sgemm example: ours vs cuBLAS, TFLOP/s
step example_sgemm_4096   0 "$BIN/examples/sgemm"
step example_sgemm_odd    0 "$BIN/examples/sgemm" 1000 1030 999
step example_sgemm_skinny 0 "$BIN/examples/sgemm" 128 4096 4096
# a user's own kernel crate, launched through the library, then sgemm on its output
step user_kernel          0 "$BIN/user-kernel"
step user_kernel_edges    0 "$BIN/user-kernel" 4097 33
# host gemm: a problem of the user's choosing
step gemm_check_nn        0 "$H" gemm --m 4096 --check
step gemm_check_tn_odd    0 "$H" gemm --m 1000 --n 1030 --k 999 --ta --beta 0.5 --check
step gemm_check_ld_cpu    0 "$H" gemm --m 257 --n 129 --k 100 --tb --alpha 0.5 --beta 1 --lda 300 --ldc 260 --check
step gemm_check_splitk    0 "$H" gemm --m 128 --n 4096 --k 4096 --check --bench
step gemm_bench_nn        0 "$H" gemm --m 4096 --bench
step gemm_bench_tt_json   0 "$H" gemm --m 4096 --ta --tb --bench --json
step gemm_run_once        0 "$H" gemm --m 2048 --n 512 --k 8192
step gemm_bad_lda         2 "$H" gemm --m 64 --lda 3
# the whole suite and the benchmarks, through the library
step run                  0 "$H" run
step copy_check           0 "$H" copy check
step copy_misaligned      1 "$H" copy misaligned
step bench_all_csv        0 "$H" bench all --csv --svg "$OUT/bench.svg"
# a closed stdout: no panic, nothing on stderr
step broken_pipe          0 bash -c "'$H' info 2>'$OUT/broken_pipe.stderr' | head -3; test ! -s '$OUT/broken_pipe.stderr'"

echo "logs: $OUT"
exit $failed
