#!/usr/bin/env bash
# Attention (#33), session 11 (helper attnq2): the `lsum` measuring variant (the row sums on the
# tensor core, `l += P·1`) — built, not yet run. One call, <= $BUDGET s. Package $D (from the
# repository root, OUT set): host.xz and native.xz (CUTE_RS_ARCH=sm_90a
# CUTE_RS_KERNEL_FEATURES=attention/measure cargo build --release -p host -p cute-rs-python),
# ptx/attention.ptx.xz (python3 tools/attention/cut_ptx.py target/ptx/attention.ptx ptx lsum: the
# 12 default entries + attention_fwd_lsum_bf16_d{64,128}), py/ (python/cute_rs/*.py,
# python/bench_attention.py).
#   W  the JIT of every module (one small check under lsum, up to 150 s)
#   A  CUTE_RS_ATTENTION=lsum host attention --check on odd shapes (the bound has u16 more for
#      O and the LSE: l is summed from the 16-bit P)
#   B  CUTE_RS_ATTENTION=lsum host run --only attention --sweep-attention 60 (bf16 d64/d128 rows;
#      the others fail with "no entry")
#   C  python/bench_attention.py --backends ours,cudnn --head-dims 64,128 at 512..8k, both masks:
#      default, lsum, overlap (d128's like-for-like base; at d64 the default 128-row tile is
#      lsum's own base where the rule takes it), default, lsum
#   D  compute-sanitizer racecheck of one lsum shape
set -u
D=${D:-.gpu/attnq12l}; : "${OUT:?}"; BUDGET=${BUDGET:-300}
R=/tmp/lsum; rm -rf $R; mkdir -p $R /tmp/ptx-lsum; S=$R/summary.txt
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-lsum CUTE_RS_PTX_DIR=/tmp/ptx-lsum
unset CUTE_RS_ATTENTION CUTE_RS_ATTENTION_EPILOGUE
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
budget() { local l=$(( BUDGET - ($(date +%s) - T0) )); [ "$l" -lt 5 ] && echo 0 || echo $(( $1 < l ? $1 : l )); }
x() { python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('$1'), open('$2','wb'))"; }
x $D/ptx/attention.ptx.xz /tmp/ptx-lsum/attention.ptx; x $D/host.xz /tmp/h_lsum; chmod +x /tmp/h_lsum; H=/tmp/h_lsum
mkdir -p /tmp/py/cute_rs && cp $D/py/cute_rs/*.py /tmp/py/cute_rs/ && cp $D/py/bench_attention.py /tmp/py/
x $D/native.xz /tmp/py/cute_rs/_native.abi3.so
CUTE_RS_ATTENTION=lsum timeout $(budget 150) $H attention --batch 1 --heads 2 --seqlen-q 256 --head-dim 64 --check > $R/jit.txt 2>&1
t "W JIT rc=$? $(tail -1 $R/jit.txt | cut -c1-100)"
chk() { local name=$1; shift; local b; b=$(budget 15); [ "$b" -gt 0 ] || return
  CUTE_RS_ATTENTION=lsum timeout $b $H attention "$@" --check > $R/c-$name.txt 2>&1
  t "A $name rc=$? $(grep -m1 'kernel:' $R/c-$name.txt | cut -c9-50) | $(tail -1 $R/c-$name.txt | cut -c1-150)"; }
chk d64-333x1000 --batch 3 --heads 4 --heads-kv 2 --seqlen-q 333 --seqlen-k 1000 --head-dim 64
chk d64-2049-tl --batch 1 --heads 8 --seqlen-q 2049 --head-dim 64 --causal top-left
chk d64-keyless --batch 1 --heads 24 --heads-kv 3 --seqlen-q 3119 --seqlen-k 149 --head-dim 64 --causal bottom-right
chk d128-gqa-br --batch 1 --heads 8 --heads-kv 2 --seqlen-q 777 --seqlen-k 4097 --head-dim 128 --causal bottom-right
chk d128-8200 --batch 1 --heads 4 --seqlen-q 300 --seqlen-k 8200 --head-dim 128
CUTE_RS_ATTENTION=lsum timeout $(budget 40) $H run --only attention --sweep-attention 60 > $R/sweep.txt 2>&1
t "B sweep 60 rc=$?: $(grep 'FAIL' $R/sweep.txt | grep -vc 'no entry\|not in this build') FAIL rows other than 'no entry'"
bench() { local name=$1; shift; local b; b=$(budget 45); [ "$b" -gt 10 ] || return
  (cd /tmp/py && env "$@" PYTHONPATH=/tmp/py timeout $b python3 bench_attention.py --head-dims 64,128 \
    --seqlens 512,1024,2048,8192 --backends ours,cudnn --json $R/bench-$name.json > $R/bench-$name.txt 2>&1)
  t "C bench $name rc=$?"; }
bench default1 X=1; bench lsum1 CUTE_RS_ATTENTION=lsum; bench overlap CUTE_RS_ATTENTION=overlap
bench default2 X=1; bench lsum2 CUTE_RS_ATTENTION=lsum
CUTE_RS_ATTENTION=lsum timeout $(budget 30) compute-sanitizer --tool racecheck $H attention --batch 1 --heads 2 \
  --seqlen-q 300 --seqlen-k 700 --head-dim 64 --check > $R/race.txt 2>&1
t "D racecheck rc=$? $(grep -E 'RACECHECK SUMMARY' $R/race.txt | cut -c1-100)"
cp $S $OUT/summary.txt; tar czf $OUT/lsum.tgz -C /tmp lsum
