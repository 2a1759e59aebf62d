#!/usr/bin/env bash
# (session 13, lead; issue #33) compute-sanitizer synccheck (owed since session 12) and racecheck
# on head dim 256's overlapped mainloop, both tiles: 128x64 below 2k keys, 128x80 from 2k. The
# release host of D (host.xz) with its attention and attention_ref modules (the reference that
# `--check` needs), every other family stubbed. Run from the repo root with $OUT set:
#   D=.gpu/fusedn192 bash tools/gpu/sanitize/attention-d256-overlap.sh
set -u
D=${D:-.gpu/fusedn192}; O=${OUT:-/tmp/out}; mkdir -p $O/logs; S=$O/summary.txt
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
[ -x /tmp/fn192-host ] || { x $D/host.xz /tmp/fn192-host && chmod +x /tmp/fn192-host; }; H=/tmp/fn192-host
P=/tmp/san-d256; mkdir -p $P; x $D/attention.ptx.xz $P/attention.ptx; x $D/attention_ref.ptx.xz $P/attention_ref.ptx
for f in copy gemm_n gemm_t hgemm hgemm_sm80 probe smoke tma wgmma wgmma_mn; do cp $D/stub.ptx $P/$f.ptx; done
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-san-d256 CUTE_RS_PTX_DIR=$P
T0=$(date +%s); t() { echo "[san t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
timeout 90 $H attention --batch 1 --heads 2 --seqlen-q 200 --seqlen-k 700 --head-dim 256 --check > $O/logs/san-jit.txt 2>&1
t "jit + d256 check rc=$? $(grep -Eo 'PASS|FAIL' $O/logs/san-jit.txt | head -1)"
r() { local tool=$1; shift; timeout 60 compute-sanitizer --tool $tool "$@" > $O/logs/san.txt 2>&1; t "$tool $* rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|SYNCCHECK SUMMARY|PASS|FAIL' $O/logs/san.txt | tr '\n' ' ' | cut -c1-220)"; cat $O/logs/san.txt >> $O/logs/sanitize.txt; }
r synccheck $H attention --batch 1 --heads 2 --seqlen-q 200 --seqlen-k 700 --head-dim 256 --causal bottom-right --check
r synccheck $H attention --batch 1 --heads 2 --seqlen-q 200 --seqlen-k 2100 --head-dim 256 --check
r synccheck $H attention --batch 1 --heads 2 --seqlen-q 130 --seqlen-k 900 --head-dim 256 --dtype f16 --check
r racecheck $H attention --batch 1 --heads 2 --seqlen-q 200 --seqlen-k 2100 --head-dim 256 --check
r memcheck $H attention --batch 1 --heads 2 --seqlen-q 200 --seqlen-k 2100 --head-dim 256 --causal top-left --check
