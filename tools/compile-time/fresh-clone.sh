#!/usr/bin/env bash
# Fresh-clone measurement of `cargo xtask test` (doc/compile-time.md): [BRANCH=b] fresh-clone.sh <repo> <name> [xtask subcommand]
# Clones into /tmp/<name>; writes /tmp/<name>.log (timestamped lines), .samples (/proc/stat every 5 s); prints
# `cargo xtask doc`'s verdict (after the timing), then wall, CPU, idle.
# The clone (1.7-2.5 GiB with its target/) is removed afterwards unless KEEP=1: left behind, a few dozen
# of them filled the disk that CI's checkout shares (stop 53 failed with "No space left on device").
set -u
# as .ci/run: CI set (xtask then builds without incremental state)
export CI=true CARGO_TERM_COLOR=never
SRC=$1; N=$2; CMD=${3:-test}
D=/tmp/$N; rm -rf $D; git clone -q ${BRANCH:+-b $BRANCH} $SRC $D || exit 1
cd $D
head -1 /proc/stat > /tmp/$N.stat0; date +%s > /tmp/$N.t0
( while sleep 5; do echo "$(date +%H:%M:%S) $(head -1 /proc/stat)"; done ) > /tmp/$N.samples & SP=$!
cargo xtask $CMD 2>&1 | while IFS= read -r l; do printf '%s %s\n' "$(date +%H:%M:%S)" "$l"; done > /tmp/$N.log
kill $SP
head -1 /proc/stat > /tmp/$N.stat1; date +%s > /tmp/$N.t1
# untimed: test-full's `cargo doc -D warnings` step on the same build (stop 115's CI failed there,
# a private intra-doc link that `cargo xtask test` cannot see)
[ "$CMD" = test ] && cargo xtask doc 2>&1 | tail -3 | sed 's/^/[doc] /'
python3 - "$N" <<'PY'
import sys
n=sys.argv[1]
a=list(map(int,open(f'/tmp/{n}.stat0').read().split()[1:])); b=list(map(int,open(f'/tmp/{n}.stat1').read().split()[1:]))
d=[y-x for x,y in zip(a,b)]; hz=100
t0=int(open(f'/tmp/{n}.t0').read()); t1=int(open(f'/tmp/{n}.t1').read())
print(f"wall {t1-t0} s = {(t1-t0)//60} min {(t1-t0)%60} s; user+sys {(d[0]+d[1]+d[2])/hz/60:.1f} CPU-min; idle {(d[3]+d[4])/hz/60:.1f} min")
PY
[ "${KEEP:-0}" = 1 ] || rm -rf "$D"
