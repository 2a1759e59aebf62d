#!/bin/bash
# Compile times of #24's bars, whole trees and like for like (doc/compile-time.md): fresh clones
# of this repository at the baseline `c1fa8bb` and at <new-commit>, back to back, each command
# cold; one line per run in /tmp/l4l.log.   usage: tools/compile-time/like-for-like.sh <new-commit>
NEW=${1:?usage: like-for-like.sh <new-commit>}
REPO=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
KF="-Ctarget-cpu=sm_90a -Zunstable-options -Cpanic=immediate-abort"
log=/tmp/l4l.log; : > $log
fresh() { rm -rf $2; git clone -q "$REPO" $2; (cd $2 && git checkout -q $1); }
T() { local what=$1; shift; /usr/bin/time -f "%e %U %S" -o /tmp/l4l.t "$@" > /tmp/l4l.out 2>&1; echo "$what: $(cat /tmp/l4l.t | awk '{printf "%.1f s wall, %.1f s user, %.1f s sys", $1, $2, $3}') load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a $log; }
raw_kernels() { cd $1/kernels && RUSTFLAGS="$KF" cargo +nightly build --release --target nvptx64-nvidia-cuda -Zbuild-std=core --target-dir $1/target/kernels/sm_90a "${@:2}"; }
export -f raw_kernels; export KF
echo "== $(date -u +%FT%TZ) new=$NEW base=c1fa8bb" | tee -a $log
for r in 1 2; do
fresh c1fa8bb /tmp/l4l-base; T "base c1fa8bb: cold kernels cargo build (its 5 families, 37 kernels)" bash -c "raw_kernels /tmp/l4l-base"
fresh $NEW /tmp/l4l-new; T "new $NEW: cold kernels cargo build, the baseline's 5 families only" bash -c "raw_kernels /tmp/l4l-new -p kernels-smoke -p kernels-copy -p kernels-gemm-n -p kernels-gemm-t -p kernels-probe"
fresh $NEW /tmp/l4l-new; T "new $NEW: cold kernels cargo build, all 9 families" bash -c "raw_kernels /tmp/l4l-new"
done
fresh c1fa8bb /tmp/l4l-base; T "base c1fa8bb: cargo xtask build-kernels (fresh clone)" bash -c "cd /tmp/l4l-base && cargo xtask build-kernels"
fresh $NEW /tmp/l4l-new; T "new $NEW: cargo xtask build-kernels (fresh clone)" bash -c "cd /tmp/l4l-new && cargo xtask build-kernels"
fresh c1fa8bb /tmp/l4l-base; T "base c1fa8bb: CUTE_RS_SKIP_PTX=1 cargo test --workspace --no-run" bash -c "cd /tmp/l4l-base && CUTE_RS_SKIP_PTX=1 cargo test --workspace --no-run"
fresh $NEW /tmp/l4l-new; T "new $NEW: CUTE_RS_SKIP_PTX=1 cargo test --workspace --no-run" bash -c "cd /tmp/l4l-new && CUTE_RS_SKIP_PTX=1 cargo test --workspace --no-run"
fresh $NEW /tmp/l4l-new; (cd /tmp/l4l-new && git rm -q tests/typed_mma.rs tests/typed_gmma.rs layout-types/tests/typed_ldsm.rs tests/ptx_tma.rs)
T "new $NEW without the 4 test targets added since c1fa8bb (typed_mma, typed_gmma, typed_ldsm, ptx_tma): same command" bash -c "cd /tmp/l4l-new && CUTE_RS_SKIP_PTX=1 cargo test --workspace --no-run"
echo "== done $(date -u +%FT%TZ)" | tee -a $log
