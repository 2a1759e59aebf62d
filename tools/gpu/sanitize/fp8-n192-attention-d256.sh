#!/usr/bin/env bash
# (as run in session 12, the lead's call 4) compute-sanitizer on session 12's new kernels: the
# per-tensor FP8 entry on 128x192 tiles (memcheck with the stream-K tail the rule gives at
# 2048x1700x1008; racecheck and synccheck at 300x400x528) and head dim 256's overlapped
# mainloop (synccheck on both tiles: 128x64 under 2k keys, 128x80 from 2k). Main b40f4cf's
# release host (D/host.xz), its hgemm module cut to the FP8 entries and its attention module,
# the other families stubbed. Run from the repo root with $OUT set: D=.gpu/san12 bash tools/gpu/sanitize/fp8-n192-attention-d256.sh
set -u
D=${D:-.gpu/san12}; S=$OUT/summary.txt
x() { python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$1" "$2"; }
x $D/host.xz /tmp/hs && chmod +x /tmp/hs; H=/tmp/hs
P=/tmp/sptx; mkdir -p $P; x $D/hgemm.ptx.xz $P/hgemm.ptx; x $D/attention.ptx.xz $P/attention.ptx
for f in attention_ref copy gemm_n gemm_t hgemm_sm80 probe smoke tma wgmma wgmma_mn; do cp $D/stub.ptx $P/$f.ptx; done
export CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/nvc-s CUTE_RS_PTX_DIR=$P
T0=$(date +%s); t() { echo "[t=$(( $(date +%s) - T0 )) s] $*" | tee -a $S; }
CS=compute-sanitizer
timeout 60 $H gemm --dtype e4m3 --m 300 --n 400 --k 528 --check > $OUT/jit.txt 2>&1; t "jit rc=$?"
r() { local tool=$1; shift; timeout 50 $CS --tool $tool "$@" > $OUT/s.txt 2>&1; t "$tool $* rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|SYNCCHECK SUMMARY|PASS|FAIL' $OUT/s.txt | tr '\n' ' ' | cut -c1-200)"; }
r memcheck $H gemm --dtype e4m3 --m 2048 --n 1700 --k 1008 --check
r racecheck $H gemm --dtype e4m3 --m 300 --n 400 --k 528 --check
r synccheck $H gemm --dtype e4m3 --m 300 --n 400 --k 528 --check
r synccheck $H attention --batch 1 --heads 2 --seqlen-q 200 --seqlen-k 700 --head-dim 256 --causal bottom-right --check
r synccheck $H attention --batch 1 --heads 2 --seqlen-q 200 --seqlen-k 2100 --head-dim 256 --check
